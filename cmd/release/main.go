// Command release cross-builds Sortie's release archives: for each target a static sortie binary with
// the README and the example configuration, in sortie_VERSION_OS_ARCH.tar.gz (a .zip for Windows), for
// each Linux target also a Debian package, sortie_DEBVERSION_ARCH.deb (deb.go), and a SHA256SUMS file
// over them all. Run it from anywhere in the repository:
//
//	go run ./cmd/release [--out dist] [--version V] [--targets linux/amd64,...] [--allow-dirty]
//
// Each binary is built with CGO_ENABLED=0 and -trimpath, the repository's commit recorded (go build's
// build information, or -X where go build cannot read the repository: a git worktree) and the release's
// version set with -X, so `sortie --version` names both. The archives' files carry the commit's time and
// no owner, so the same commit gives the same archives. docs/operations.md, "Release builds".
package main

import (
	"bytes"
	"debug/buildinfo"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultTargets are the platforms a release is built for.
var DefaultTargets = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64"}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

const help = `go run ./cmd/release [flags]: build Sortie's release archives, a Debian package per Linux target,
and their SHA256SUMS.

  --out DIR          where the archives go (default dist; made if missing; old archives of the same
                     version are replaced)
  --version V        the release's name, e.g. v1.2.0 (default: the commit's tag, or a pseudo-version
                     naming the commit as go build would)
  --targets LIST     OS/ARCH pairs, comma-separated (default linux/amd64,linux/arm64,darwin/amd64,
                     darwin/arm64,windows/amd64)
  --allow-dirty      build even though the work tree has changes not committed (not a release: the
                     default version then ends in +dirty)
`

// options are one release's settings.
type options struct {
	Root       string // the repository's root (where go.mod is)
	Out        string
	Version    string
	Targets    []string
	AllowDirty bool
	Log        io.Writer
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "dist", "")
	version := fs.String("version", "", "")
	targets := fs.String("targets", strings.Join(DefaultTargets, ","), "")
	dirty := fs.Bool("allow-dirty", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, help)
			return nil
		}
		return fmt.Errorf("%v\n\n%s", err, help)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected %q\n\n%s", fs.Arg(0), help)
	}
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(gomod)) == "" || strings.TrimSpace(string(gomod)) == os.DevNull {
		return fmt.Errorf("run it inside Sortie's repository (go env GOMOD: %v)", err)
	}
	o := options{Root: filepath.Dir(strings.TrimSpace(string(gomod))), Out: *out, Version: *version, AllowDirty: *dirty, Log: stdout}
	for _, t := range strings.Split(*targets, ",") {
		if t = strings.TrimSpace(t); t != "" {
			o.Targets = append(o.Targets, t)
		}
	}
	_, err = release(o)
	return err
}

// repoState is what the release needs of the repository.
type repoState struct {
	Commit string
	Time   time.Time
	Dirty  bool
	Tag    string // the tag at the commit, if any
	GitDir bool   // .git is a folder, so go build records the commit itself
}

func git(root string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func readRepo(root string) (repoState, error) {
	var r repoState
	var err error
	if r.Commit, err = git(root, "rev-parse", "HEAD"); err != nil {
		return r, fmt.Errorf("a release is built from a git repository: %w", err)
	}
	ct, err := git(root, "log", "-1", "--format=%ct")
	if err != nil {
		return r, err
	}
	secs, err := strconv.ParseInt(ct, 10, 64)
	if err != nil {
		return r, fmt.Errorf("the commit's time %q: %v", ct, err)
	}
	r.Time = time.Unix(secs, 0).UTC()
	status, err := git(root, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return r, err
	}
	r.Dirty = status != ""
	r.Tag, _ = git(root, "describe", "--tags", "--exact-match")
	fi, err := os.Stat(filepath.Join(root, ".git"))
	r.GitDir = err == nil && fi.IsDir()
	return r, nil
}

// pseudoVersion is the version go build gives an untagged commit: v0.0.0-TIME-COMMIT12.
func pseudoVersion(r repoState) string {
	v := "v0.0.0-" + r.Time.Format("20060102150405") + "-" + r.Commit[:12]
	if r.Dirty {
		v += "+dirty"
	}
	return v
}

var (
	targetRE  = regexp.MustCompile(`^(linux|darwin|windows|freebsd|openbsd|netbsd)/(amd64|arm64|386|arm|riscv64)$`)
	versionRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
)

// release builds every target's archive (and each Linux target's Debian package) into o.Out and writes
// SHA256SUMS there; it returns the files' names.
func release(o options) ([]string, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if len(o.Targets) == 0 {
		return nil, errors.New("no targets")
	}
	for _, t := range o.Targets {
		if !targetRE.MatchString(t) {
			return nil, fmt.Errorf("target %q: an OS/ARCH pair such as linux/amd64", t)
		}
	}
	repo, err := readRepo(o.Root)
	if err != nil {
		return nil, err
	}
	if repo.Dirty && !o.AllowDirty {
		return nil, errors.New("the work tree has changes not committed: commit them, or pass --allow-dirty for a build that is not a release")
	}
	if o.Version == "" {
		o.Version = repo.Tag
		if o.Version == "" || repo.Dirty {
			o.Version = pseudoVersion(repo)
		}
	}
	if !versionRE.MatchString(o.Version) {
		return nil, fmt.Errorf("version %q: letters, digits and . _ + - only", o.Version)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return nil, err
	}
	stage, err := os.MkdirTemp("", "sortie-release")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)

	ldflags := "-s -w -X main.version=" + o.Version
	if !repo.GitDir {
		ldflags += " -X main.commit=" + repo.Commit
	}
	var names []string
	for _, t := range o.Targets {
		goos, goarch, _ := strings.Cut(t, "/")
		base := fmt.Sprintf("sortie_%s_%s_%s", o.Version, goos, goarch)
		exe := "sortie"
		archive := base + ".tar.gz"
		if goos == "windows" {
			exe, archive = "sortie.exe", base+".zip"
		}
		bin := filepath.Join(stage, base, exe)
		fmt.Fprintf(o.Log, "building %s\n", t)
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs="+strconv.FormatBool(repo.GitDir), "-ldflags", ldflags, "-o", bin, "./cmd/sortie")
		cmd.Dir = o.Root
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build for %s: %v\n%s", t, err, out)
		}
		if err := checkBinary(bin, goos, goarch, repo); err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		members := []member{{Name: exe, Src: bin, Exec: true},
			{Name: "README.md", Src: filepath.Join(o.Root, "README.md")},
			{Name: "sortie.example.yaml", Src: filepath.Join(o.Root, "docs", "sortie.example.yaml")}}
		if err := writeArchive(filepath.Join(o.Out, archive), base, members, repo.Time); err != nil {
			return nil, err
		}
		fmt.Fprintf(o.Log, "  %s\n", filepath.Join(o.Out, archive))
		names = append(names, archive)
		if arch, ok := debArch(goarch); ok && goos == "linux" {
			name, err := writeDeb(o.Out, o.Root, bin, o.Version, arch, repo.Time)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(o.Log, "  %s\n", filepath.Join(o.Out, name))
			names = append(names, name)
		}
	}
	if err := writeSums(o.Out, names); err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "%s: sortie %s (commit %s), %d files; check them with: sha256sum -c SHA256SUMS\n",
		filepath.Join(o.Out, "SHA256SUMS"), o.Version, repo.Commit, len(names))
	return names, nil
}

// checkBinary reads a built binary's build information: it must be for the target and, where go build
// recorded the commit, for the repository's commit.
func checkBinary(bin, goos, goarch string, repo repoState) error {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("reading the build information of %s: %v", bin, err)
	}
	got := map[string]string{}
	for _, s := range info.Settings {
		got[s.Key] = s.Value
	}
	if got["GOOS"] != goos || got["GOARCH"] != goarch {
		return fmt.Errorf("built for %s/%s", got["GOOS"], got["GOARCH"])
	}
	if repo.GitDir && got["vcs.revision"] != repo.Commit {
		return fmt.Errorf("the binary records commit %q, the repository is at %s", got["vcs.revision"], repo.Commit)
	}
	return nil
}
