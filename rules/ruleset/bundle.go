package ruleset

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Bundle is a ruleset's shipped scenarios: the .yaml files of one folder of a file system (the
// ruleset's embedded files), each named by its file name without the extension.
type Bundle struct {
	FS  fs.FS
	Dir string
}

// Names lists the scenarios, sorted.
func (b Bundle) Names() []string {
	entries, _ := fs.ReadDir(b.FS, b.Dir)
	var out []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".yaml") {
			out = append(out, strings.TrimSuffix(n, ".yaml"))
		}
	}
	sort.Strings(out)
	return out
}

// File returns a scenario's file as written.
func (b Bundle) File(name string) ([]byte, error) {
	return fs.ReadFile(b.FS, path.Join(b.Dir, name+".yaml"))
}

// Folder is the scenarios' folder as a file system of its own, as Bundled.Scenarios gives it.
func (b Bundle) Folder() fs.FS {
	sub, err := fs.Sub(b.FS, b.Dir)
	if err != nil {
		return b.FS
	}
	return sub
}
