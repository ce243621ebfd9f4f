package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDebVersion: a release's name becomes a Debian version that sorts as the releases do (a
// pre-release before its release) and that dpkg accepts without a revision (no hyphen).
func TestDebVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.0":                             "1.2.0",
		"v1.2.0-rc1":                         "1.2.0~rc1",
		"v0.0.0-20261128045231-96cb9ec036cf": "0.0.0~20261128045231.96cb9ec036cf",
		"v0.0.0-20261128045231-96cb9ec036cf+dirty": "0.0.0~20261128045231.96cb9ec036cf+dirty",
		"1.0_beta": "1.0.beta",
		"nightly":  "0~nightly",
	} {
		if got := debVersion(in); got != want {
			t.Errorf("debVersion(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := exec.LookPath("dpkg"); err != nil {
		return
	}
	// dpkg's own comparison: each pair sorts in this order.
	for _, pair := range [][2]string{{"v1.2.0-rc1", "v1.2.0"}, {"v0.0.0-20261128045231-96cb9ec036cf", "v0.0.1"}, {"v1.2.0", "v1.10.0"}} {
		if err := exec.Command("dpkg", "--compare-versions", debVersion(pair[0]), "lt", debVersion(pair[1])).Run(); err != nil {
			t.Errorf("dpkg does not sort %s (%s) before %s (%s)", pair[0], debVersion(pair[0]), pair[1], debVersion(pair[1]))
		}
	}
}

// arMembers reads an ar archive (the .deb's outer format) into its members by name, in order.
func arMembers(t *testing.T, b []byte) ([]string, map[string][]byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("!<arch>\n")) {
		t.Fatalf("not an ar archive: %q", b[:min(len(b), 8)])
	}
	b = b[8:]
	var names []string
	members := map[string][]byte{}
	for len(b) >= 60 {
		h := b[:60]
		name := strings.TrimSuffix(strings.TrimSpace(string(h[:16])), "/")
		size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
		if err != nil || 60+size > len(b) {
			t.Fatalf("ar member %q: bad size %q", name, h[48:58])
		}
		names = append(names, name)
		members[name] = b[60 : 60+size]
		b = b[60+size+size%2:]
	}
	return names, members
}

type tarEntry struct {
	mode     int64
	typ      byte
	data     string
	uid, gid int
	mtime    time.Time
}

func tarGzEntries(t *testing.T, b []byte) map[string]tarEntry {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]tarEntry{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		out[strings.TrimPrefix(h.Name, ".")] = tarEntry{mode: h.Mode, typ: h.Typeflag, data: string(data), uid: h.Uid, gid: h.Gid, mtime: h.ModTime}
	}
}

// TestDebPackage: the Debian package holds the binary in /usr/bin, the systemd unit from packaging/,
// the example configuration as a conffile (an upgrade keeps a moderator's changes to it), the guides,
// and the maintainer scripts that make the service's user; every file owned by root and dated with
// the commit, so the same commit gives the same bytes. dpkg-deb, where installed, reads it.
func TestDebPackage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	src, out := t.TempDir(), t.TempDir()
	bin := filepath.Join(src, "sortie")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho sortie\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 11, 28, 4, 52, 31, 0, time.UTC)
	name, err := writeDeb(out, root, bin, "v1.2.0-rc1", "amd64", mtime)
	if err != nil {
		t.Fatal(err)
	}
	if name != "sortie_1.2.0~rc1_amd64.deb" {
		t.Errorf("file name %s", name)
	}
	b, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	order, members := arMembers(t, b)
	if strings.Join(order, " ") != "debian-binary control.tar.gz data.tar.gz" {
		t.Fatalf("ar members %v", order)
	}
	control := tarGzEntries(t, members["control.tar.gz"])
	fields := control["/control"].data
	for _, want := range []string{"Package: sortie\n", "Version: 1.2.0~rc1\n", "Architecture: amd64\n", "Depends: adduser\n"} {
		if !strings.Contains(fields, want) {
			t.Errorf("control lacks %q:\n%s", want, fields)
		}
	}
	if got := strings.TrimSpace(control["/conffiles"].data); got != "/etc/sortie/sortie.example.yaml" {
		t.Errorf("conffiles: %q, want the example configuration only", got)
	}
	for script, file := range map[string]string{"postinst": "postinst", "prerm": "prerm", "postrm": "postrm"} {
		want, err := os.ReadFile(filepath.Join(root, "packaging", file))
		if err != nil {
			t.Fatal(err)
		}
		e, ok := control["/"+script]
		if !ok || e.data != string(want) || e.mode&0o111 == 0 {
			t.Errorf("control.tar.gz: %s missing, different from packaging/%s, or not executable (mode %o)", script, file, e.mode)
		}
	}
	data := tarGzEntries(t, members["data.tar.gz"])
	for path, want := range map[string]struct {
		src  string
		mode int64
	}{
		"/usr/bin/sortie":                     {bin, 0o755},
		"/lib/systemd/system/sortie.service":  {filepath.Join(root, "packaging", "sortie.service"), 0o644},
		"/etc/sortie/sortie.example.yaml":     {filepath.Join(root, "docs", "sortie.example.yaml"), 0o644},
		"/usr/share/doc/sortie/README.md":     {filepath.Join(root, "README.md"), 0o644},
		"/usr/share/doc/sortie/operations.md": {filepath.Join(root, "docs", "operations.md"), 0o644},
	} {
		e, ok := data[path]
		if !ok {
			t.Errorf("data.tar.gz has no %s", path)
			continue
		}
		wantData, err := os.ReadFile(want.src)
		if err != nil {
			t.Fatal(err)
		}
		if e.data != string(wantData) || e.mode&0o7777 != want.mode || e.uid != 0 || e.gid != 0 || !e.mtime.Equal(mtime) {
			t.Errorf("%s: mode %o, owner %d:%d, time %v, same bytes as %s: %v", path, e.mode&0o7777, e.uid, e.gid, e.mtime, want.src, e.data == string(wantData))
		}
	}
	for path, e := range data {
		if e.typ == tar.TypeReg && !strings.HasPrefix(path, "/usr/") && !strings.HasPrefix(path, "/lib/systemd/") && !strings.HasPrefix(path, "/etc/sortie/") {
			t.Errorf("the package puts a file in %s", path)
		}
	}

	again := t.TempDir()
	if _, err := writeDeb(again, root, bin, "v1.2.0-rc1", "amd64", mtime); err != nil {
		t.Fatal(err)
	}
	if b2, _ := os.ReadFile(filepath.Join(again, name)); !bytes.Equal(b, b2) {
		t.Error("the same inputs gave a different package")
	}

	if _, err := exec.LookPath("dpkg-deb"); err == nil {
		for _, args := range [][]string{{"--info"}, {"--contents"}} {
			if out, err := exec.Command("dpkg-deb", append(args, filepath.Join(out, name))...).CombinedOutput(); err != nil {
				t.Errorf("dpkg-deb %s: %v\n%s", args[0], err, out)
			}
		}
	}
}
