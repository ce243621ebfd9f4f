package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// readTarGz returns a .tar.gz's files by name with their modes and times.
func readTarGz(t *testing.T, p string) (map[string]string, map[string]int64, []time.Time) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	files, modes := map[string]string{}, map[string]int64{}
	var times []time.Time
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, h.ModTime)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" {
			t.Errorf("%s: an owner in the archive (%d/%d %q/%q)", h.Name, h.Uid, h.Gid, h.Uname, h.Gname)
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name], modes[h.Name] = string(b), h.Mode
	}
	return files, modes, times
}

// TestArchivesAndSums: a .tar.gz and a .zip hold the members under one top folder with a program's mode
// for the binary, the commit's time on every file, in the same bytes however the members are listed; and
// SHA256SUMS names each archive with its SHA-256 in the form sha256sum -c reads.
func TestArchivesAndSums(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	for name, text := range map[string]string{"sortie": "#!binary", "README.md": "# Sortie\n", "sortie.example.yaml": "database: x\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	members := []member{{Name: "sortie", Src: filepath.Join(src, "sortie"), Exec: true},
		{Name: "README.md", Src: filepath.Join(src, "README.md")}, {Name: "sortie.example.yaml", Src: filepath.Join(src, "sortie.example.yaml")}}
	mtime := time.Date(2026, 11, 28, 4, 52, 31, 0, time.UTC)
	top := "sortie_v1.0.0_linux_amd64"
	if err := writeArchive(filepath.Join(out, top+".tar.gz"), top, members, mtime); err != nil {
		t.Fatal(err)
	}
	files, modes, times := readTarGz(t, filepath.Join(out, top+".tar.gz"))
	want := map[string]string{top + "/sortie": "#!binary", top + "/README.md": "# Sortie\n", top + "/sortie.example.yaml": "database: x\n"}
	if len(files) != len(want) {
		t.Errorf("tar.gz holds %v, want %v", files, want)
	}
	for name, text := range want {
		if files[name] != text {
			t.Errorf("tar.gz %s: %q, want %q", name, files[name], text)
		}
	}
	if modes[top+"/sortie"] != 0o755 || modes[top+"/README.md"] != 0o644 {
		t.Errorf("modes: %v", modes)
	}
	for _, tm := range times {
		if !tm.Equal(mtime) {
			t.Errorf("a file's time is %v, not the commit's %v", tm, mtime)
		}
	}
	// The same members in another order, at another moment, give the same bytes.
	again := filepath.Join(t.TempDir(), top+".tar.gz")
	if err := writeArchive(again, top, []member{members[2], members[0], members[1]}, mtime); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(out, top+".tar.gz"))
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("the same files gave a different .tar.gz")
	}

	wtop := "sortie_v1.0.0_windows_amd64"
	members[0].Name = "sortie.exe"
	if err := writeArchive(filepath.Join(out, wtop+".zip"), wtop, members, mtime); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(filepath.Join(out, wtop+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	got := map[string]string{}
	for _, f := range zr.File {
		if !f.Modified.Equal(mtime) {
			t.Errorf("zip %s: time %v", f.Name, f.Modified)
		}
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		got[f.Name] = string(body)
		if f.Name == wtop+"/sortie.exe" && f.Mode().Perm() != 0o755 {
			t.Errorf("zip sortie.exe mode %v", f.Mode())
		}
	}
	if got[wtop+"/sortie.exe"] != "#!binary" || got[wtop+"/README.md"] != "# Sortie\n" || len(got) != 3 {
		t.Errorf("zip holds %v", got)
	}

	if err := writeSums(out, []string{wtop + ".zip", top + ".tar.gz"}); err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "  "+top+".tar.gz") || !strings.HasSuffix(lines[1], "  "+wtop+".zip") {
		t.Fatalf("SHA256SUMS, one line per archive sorted by name:\n%s", sums)
	}
	for _, l := range lines {
		sum, name, _ := strings.Cut(l, "  ")
		data, _ := os.ReadFile(filepath.Join(out, name))
		h := sha256.Sum256(data)
		if hex.EncodeToString(h[:]) != sum {
			t.Errorf("SHA256SUMS says %s for %s, it is %x", sum, name, h)
		}
	}
	if path, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(path, "-c", "SHA256SUMS")
		cmd.Dir = out
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c SHA256SUMS: %v\n%s", err, b)
		}
	}
}

// TestReleaseOneTarget builds the release of this machine's own platform (one target: a build of the whole
// binary is the costly part) into a temporary folder, and runs the binary out of its archive: --version
// names the release's version and the repository's commit. On Linux the release also holds the Debian
// package with the same binary, and SHA256SUMS names both.
func TestReleaseOneTarget(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git repository to release from: %v", err)
	}
	target := runtime.GOOS + "/" + runtime.GOARCH
	out := t.TempDir()
	var log strings.Builder
	names, err := release(options{Root: root, Out: out, Version: "v0.0.0-test", Targets: []string{target}, AllowDirty: true, Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	base := "sortie_v0.0.0-test_" + runtime.GOOS + "_" + runtime.GOARCH
	exe, archive := "sortie", base+".tar.gz"
	if runtime.GOOS == "windows" {
		exe, archive = "sortie.exe", base+".zip"
	}
	want := []string{archive}
	debArchName, isDeb := debArch(runtime.GOARCH)
	deb := debFileName("v0.0.0-test", debArchName)
	if isDeb = isDeb && runtime.GOOS == "linux"; isDeb {
		want = append(want, deb) // a Linux release also holds its Debian package
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("files %v, want %v", names, want)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var wantSums strings.Builder
	for _, n := range slices.Sorted(slices.Values(want)) { // by name
		data, err := os.ReadFile(filepath.Join(out, n))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(data)
		wantSums.WriteString(hex.EncodeToString(h[:]) + "  " + n + "\n")
	}
	if string(sums) != wantSums.String() {
		t.Errorf("SHA256SUMS:\n%s\nwant\n%s", sums, wantSums.String())
	}
	if runtime.GOOS == "windows" {
		return // the zip's reading is TestArchivesAndSums's
	}
	files, modes, _ := readTarGz(t, filepath.Join(out, archive))
	readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
	if files[base+"/README.md"] != string(readme) || files[base+"/sortie.example.yaml"] == "" || modes[base+"/"+exe] != 0o755 {
		t.Errorf("the archive holds %d files; README and example configuration missing or the binary not executable", len(files))
	}
	bin := filepath.Join(t.TempDir(), exe)
	if err := os.WriteFile(bin, []byte(files[base+"/"+exe]), 0o755); err != nil {
		t.Fatal(err)
	}
	if isDeb {
		b, err := os.ReadFile(filepath.Join(out, deb))
		if err != nil {
			t.Fatal(err)
		}
		_, members := arMembers(t, b)
		if got := tarGzEntries(t, members["data.tar.gz"])["/usr/bin/sortie"].data; got != files[base+"/"+exe] {
			t.Errorf("the Debian package's binary (%d bytes) is not the archive's (%d bytes)", len(got), len(files[base+"/"+exe]))
		}
	}
	v, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("the released binary: %v", err)
	}
	if want := "sortie v0.0.0-test (commit " + strings.TrimSpace(string(head)); !strings.HasPrefix(string(v), want) {
		t.Errorf("the released binary says %q, want it to start %q", v, want)
	}
	if !strings.Contains(string(v), "built with "+runtime.Version()) {
		t.Errorf("the released binary names the Go that built it: %q", v)
	}
}

// TestReleaseRefuses: a release is built for targets spelled OS/ARCH under a plain version name;
// neither mistake builds anything.
func TestReleaseRefuses(t *testing.T) {
	root, _ := filepath.Abs("../..")
	if _, err := release(options{Root: root, Out: t.TempDir(), Targets: []string{"linux"}}); err == nil || !strings.Contains(err.Error(), "OS/ARCH") {
		t.Errorf("a target without an architecture: %v", err)
	}
	if _, err := release(options{Root: root, Out: t.TempDir(), Targets: []string{"linux/amd64"}, Version: "v1 ; rm", AllowDirty: true}); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("a version with spaces: %v", err)
	}
}

// TestPseudoVersion: the default version of an untagged commit is the one go build would stamp.
func TestPseudoVersion(t *testing.T) {
	r := repoState{Commit: "96cb9ec036cf081b2ab1dd879d138a520610d8ee", Time: time.Date(2026, 11, 28, 4, 51, 59, 0, time.UTC)}
	if got := pseudoVersion(r); got != "v0.0.0-20261128045159-96cb9ec036cf" {
		t.Errorf("pseudo-version %s", got)
	}
	r.Dirty = true
	if got := pseudoVersion(r); got != "v0.0.0-20261128045159-96cb9ec036cf+dirty" {
		t.Errorf("pseudo-version of a dirty tree %s", got)
	}
}
