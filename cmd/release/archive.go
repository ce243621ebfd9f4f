package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// member is one file of a release archive: its name inside the archive's top folder, its bytes' source
// on disk, and whether it is a program (mode 0755, else 0644).
type member struct {
	Name string
	Src  string
	Exec bool
}

// writeArchive writes the members under the folder top into dst: a .zip for a name ending so, else a
// .tar.gz. Members go in by name, every one with the same time (the commit's) and no owner, so the same
// files give the same bytes on any machine.
func writeArchive(dst, top string, members []member, mtime time.Time) error {
	ms := append([]member(nil), members...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if strings.HasSuffix(dst, ".zip") {
		err = writeZip(f, top, ms, mtime)
	} else {
		err = writeTarGz(f, top, ms, mtime)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}

func mode(m member) int64 {
	if m.Exec {
		return 0o755
	}
	return 0o644
}

func writeTarGz(w io.Writer, top string, ms []member, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	gz.ModTime = mtime
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: top + "/", Mode: 0o755, ModTime: mtime, Format: tar.FormatPAX}); err != nil {
		return err
	}
	for _, m := range ms {
		data, err := os.ReadFile(m.Src)
		if err != nil {
			return err
		}
		h := &tar.Header{Typeflag: tar.TypeReg, Name: path.Join(top, m.Name), Mode: mode(m), Size: int64(len(data)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, top string, ms []member, mtime time.Time) error {
	zw := zip.NewWriter(w)
	dir := &zip.FileHeader{Name: top + "/", Modified: mtime.UTC()}
	dir.SetMode(os.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dir); err != nil {
		return err
	}
	for _, m := range ms {
		data, err := os.ReadFile(m.Src)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: path.Join(top, m.Name), Method: zip.Deflate, Modified: mtime.UTC()}
		h.SetMode(os.FileMode(mode(m)))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSums writes SHA256SUMS in dir: one line per file, its SHA-256 in hex, two spaces and its name,
// sorted by name, the form `sha256sum -c SHA256SUMS` checks.
func writeSums(dir string, names []string) error {
	names = append([]string(nil), names...)
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		sum, err := fileSHA256(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, n)
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(b.String()), 0o644)
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
