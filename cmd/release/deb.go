package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

// debArch is Debian's name for each Go architecture a Linux release can be built for.
func debArch(goarch string) (string, bool) {
	a, ok := map[string]string{"amd64": "amd64", "arm64": "arm64", "386": "i386", "arm": "armhf", "riscv64": "riscv64"}[goarch]
	return a, ok
}

// debVersion is a release's name as a Debian version, which sorts the way the releases do: without the
// leading v, a pre-release's hyphen made the tilde that sorts before the release (v1.2.0-rc1 is
// 1.2.0~rc1, a pseudo-version v0.0.0-20261128045231-96cb9ec036cf is 0.0.0~20261128045231.96cb9ec036cf),
// any later hyphen or underscore a dot (the version has no Debian revision, so it may hold no hyphen),
// and a name that does not start with a digit put after 0~.
func debVersion(v string) string {
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		v = v[1:]
	}
	if first, rest, ok := strings.Cut(v, "-"); ok {
		v = first + "~" + rest
	}
	v = strings.NewReplacer("-", ".", "_", ".").Replace(v)
	if v == "" || v[0] < '0' || v[0] > '9' {
		v = "0~" + v
	}
	return v
}

// debFileName is the package's file name as Debian names it: sortie_VERSION_ARCH.deb.
func debFileName(version, arch string) string {
	return fmt.Sprintf("sortie_%s_%s.deb", debVersion(version), arch)
}

// debPackage describes one Debian package of Sortie: the binary, the hardened systemd unit, the example
// configuration as a conffile, the moderator's guides, and the maintainer scripts (packaging/: the
// service's own system user on install, the unit stopped and disabled on removal, what sortie init wrote
// in /etc/sortie removed on purge). docs/operations.md, "The Debian package".
func debPackage(root, bin, version, arch string, mtime time.Time) *nfpm.Info {
	pkg := filepath.Join(root, "packaging")
	file := func(src, dst string, mode os.FileMode, kind string) *files.Content {
		return &files.Content{Source: src, Destination: dst, Type: kind,
			FileInfo: &files.ContentFileInfo{Owner: "root", Group: "root", Mode: mode, MTime: mtime}}
	}
	return &nfpm.Info{
		Name:          "sortie",
		Arch:          arch,
		Platform:      "linux",
		Version:       debVersion(version),
		VersionSchema: "none",
		Section:       "games",
		Priority:      "optional",
		Maintainer:    "Sortie <sortie@example.org>",
		Description: "play-by-email adjudicator for plotted WWII air combat board games\n" +
			"Sortie reads order mails from an IMAP inbox, checks each plot against the rules,\n" +
			"answers with a receipt, resolves the turn once every order is in or the deadline\n" +
			"passes, and mails each player a report of only what their pilots could see.\n" +
			"Run sudo sortie init, then systemctl enable --now sortie.",
		MTime: mtime,
		Overridables: nfpm.Overridables{
			Depends: []string{"adduser"},
			Contents: files.Contents{
				file(bin, "/usr/bin/sortie", 0o755, files.TypeFile),
				file(filepath.Join(pkg, "sortie.service"), "/lib/systemd/system/sortie.service", 0o644, files.TypeFile),
				file(filepath.Join(root, "docs", "sortie.example.yaml"), "/etc/sortie/sortie.example.yaml", 0o644, files.TypeConfigNoReplace),
				file(filepath.Join(root, "README.md"), "/usr/share/doc/sortie/README.md", 0o644, files.TypeFile),
				file(filepath.Join(root, "docs", "operations.md"), "/usr/share/doc/sortie/operations.md", 0o644, files.TypeFile),
			},
			Scripts: nfpm.Scripts{
				PostInstall: filepath.Join(pkg, "postinst"),
				PreRemove:   filepath.Join(pkg, "prerm"),
				PostRemove:  filepath.Join(pkg, "postrm"),
			},
		},
	}
}

// writeDeb writes the Debian package of a Linux binary into out and returns its file name.
func writeDeb(out, root, bin, version, arch string, mtime time.Time) (string, error) {
	name := debFileName(version, arch)
	info := debPackage(root, bin, version, arch, mtime)
	if err := nfpm.Validate(info); err != nil {
		return "", fmt.Errorf("the Debian package: %w", err)
	}
	f, err := os.Create(filepath.Join(out, name))
	if err != nil {
		return "", err
	}
	err = deb.Default.Package(info, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("the Debian package: %w", err)
	}
	return name, nil
}
