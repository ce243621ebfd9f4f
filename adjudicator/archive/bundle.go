package archive

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// BundleName is the file name of an archive's bundle: GAME-archive.tar.gz. Its one folder inside is
// the same name without .tar.gz.
func (a *Archive) BundleName() string { return bundleDir(a.Manifest.Game) + ".tar.gz" }

func bundleDir(game string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, game)
	return safe + "-archive"
}

// WriteTarGz writes the archive as a gzipped tar of the folder WriteDir writes, under one folder named
// after the game (BundleName): the same files with the same bytes, so `tar xzf` and then `sortie verify`
// on the folder check it. The output is deterministic: the files in name order, every time stamp the
// export's, modes 0700 and 0600, no owner names.
func (a *Archive) WriteTarGz(w io.Writer) error {
	files, err := a.files()
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files)+1)
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var sums strings.Builder
	for _, name := range names {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	files[fileSums] = []byte(sums.String())
	names = append(names, fileSums)
	sort.Strings(names)

	when := a.Manifest.Exported.UTC().Truncate(1e9)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	root := bundleDir(a.Manifest.Game)
	// Every folder before the files in it.
	dirs := []string{root}
	seen := map[string]bool{root: true}
	for _, name := range names {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if p := path.Join(root, d); !seen[p] {
				seen[p] = true
				dirs = append(dirs, p)
			}
		}
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o700, ModTime: when, Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	for _, name := range names {
		data := files[name]
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: path.Join(root, name), Mode: 0o600, Size: int64(len(data)), ModTime: when, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}
