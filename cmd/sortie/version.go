package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// version and commit are set by the release build (cmd/release, -ldflags -X) only: version always, to the
// release's name; commit only where go build cannot record it (a git worktree, whose .git is a file).
// Every other build reads both from the build information Go records.
var version, commit string

// buildVersion describes this binary: its version, the commit it was built from (with "+ changes" when
// the work tree had changes not committed), the commit's time and the Go toolchain.
type buildVersion struct {
	Version  string
	Commit   string
	Time     string
	Modified bool
	Go       string
}

// readVersion reads the binary's build information: the main module's version (go build stamps one from
// the repository's tags, a pseudo-version such as v0.0.0-20261128045231-96cb9ec1a2b3, or "(devel)"),
// vcs.revision, vcs.time and vcs.modified. overrideVersion and overrideCommit, when set, name the version
// and the commit instead.
func readVersion(info *debug.BuildInfo, ok bool, overrideVersion, overrideCommit string) buildVersion {
	v := buildVersion{Version: "unknown", Commit: "unknown"}
	if ok && info != nil {
		v.Go = info.GoVersion
		if info.Main.Version != "" {
			v.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if overrideVersion != "" {
		v.Version = overrideVersion
	}
	if overrideCommit != "" && v.Commit == "unknown" {
		v.Commit = overrideCommit
	}
	return v
}

// String is the --version line: "sortie VERSION (commit C[, with changes not committed], TIME) built with GO".
func (v buildVersion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sortie %s (commit %s", v.Version, v.Commit)
	if v.Modified {
		b.WriteString(", with changes not committed")
	}
	if v.Time != "" {
		b.WriteString(", " + v.Time)
	}
	b.WriteString(")")
	if v.Go != "" {
		b.WriteString(" built with " + v.Go)
	}
	return b.String()
}

func cmdVersion(stdout io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, readVersion(info, ok, version, commit))
	return nil
}
