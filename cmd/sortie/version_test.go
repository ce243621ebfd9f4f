package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionFromBuildInfo: --version reads the main module's version and the vcs.* settings Go records,
// and a release's -X override names the version without hiding the commit.
func TestVersionFromBuildInfo(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "sortie", Version: "v0.0.0-20261128045231-96cb9ec1a2b3"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "96cb9ec1a2b3c4d5"},
			{Key: "vcs.time", Value: "2026-11-28T04:52:31Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := readVersion(info, true, "", "").String()
	want := "sortie v0.0.0-20261128045231-96cb9ec1a2b3 (commit 96cb9ec1a2b3c4d5, with changes not committed, 2026-11-28T04:52:31Z) built with go1.26.8"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	info.Settings[3].Value = "false"
	if got := readVersion(info, true, "v1.2.0", "0123").String(); got != "sortie v1.2.0 (commit 96cb9ec1a2b3c4d5, 2026-11-28T04:52:31Z) built with go1.26.8" {
		t.Errorf("a release's version: %s", got)
	}
	if got := readVersion(nil, false, "", "").String(); got != "sortie unknown (commit unknown)" {
		t.Errorf("no build information: %s", got)
	}
	if got := readVersion(nil, false, "v1.2.0", "0123abc").String(); got != "sortie v1.2.0 (commit 0123abc)" {
		t.Errorf("a release built in a git worktree names its commit with -X: %s", got)
	}
}

// TestVersionOfTheBuiltBinary builds the real binary the way a plain go build in a clone does (with the
// repository's information recorded: -buildvcs=true, since GOFLAGS may turn it off) and runs it: --version
// (and sortie version) names the commit the repository is at, says whether the tree had changes, and
// names the Go version that built it.
func TestVersionOfTheBuiltBinary(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		// go build records the commit only in a repository whose .git is a folder (not a git worktree's
		// .git file, nor an unpacked archive); the release build names it with -X there (cmd/release).
		t.Skipf("%s/.git is not a folder (a git worktree or no repository): go build records no commit here", root)
	}
	bin := filepath.Join(t.TempDir(), "sortie")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	run := func(arg string) string {
		out, err := exec.Command(bin, arg).Output()
		if err != nil {
			t.Fatalf("sortie %s: %v", arg, err)
		}
		return string(out)
	}
	out := run("--version")
	if again := run("version"); again != out {
		t.Errorf("sortie version and sortie --version differ:\n%s%s", again, out)
	}
	m := regexp.MustCompile(`^sortie (\S+) \(commit ([0-9a-f]{40})(, with changes not committed)?, (\S+)\) built with (go\S+)\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("sortie --version: %q", out)
	}
	goVersion, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	if m[5] != strings.TrimSpace(string(goVersion)) {
		t.Errorf("built with %s, the toolchain is %s", m[5], goVersion)
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	if m[2] != strings.TrimSpace(string(head)) {
		t.Errorf("sortie --version names commit %s, the repository is at %s", m[2], head)
	}
	// go build stamps the tag the commit has, or else a pseudo-version naming the commit.
	tag, _ := exec.Command("git", "describe", "--tags", "--exact-match").Output()
	if tg := strings.TrimSpace(string(tag)); !strings.Contains(m[1], m[2][:12]) && (tg == "" || !strings.HasPrefix(m[1], tg)) {
		t.Errorf("the version go build stamps names the commit's tag or the commit: %s", out)
	}
	// Untracked files count too, as go build counts them.
	status, err := exec.Command("git", "status", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	if (len(status) > 0) != (m[3] != "") {
		t.Errorf("git status says changed=%v, sortie --version says %q", len(status) > 0, out)
	}
}
