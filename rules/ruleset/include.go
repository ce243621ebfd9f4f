package ruleset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// remote marks the source of a scenario that came without a folder of its own: one sent to the running
// daemon over its control socket. The daemon must not read files on its own disk for it.
const remote = "(sent to the daemon) "

// RemoteSource names a scenario sent to the running daemon: it keeps the file's name for messages, but
// has no folder, so it may include no files.
func RemoteSource(name string) string { return remote + filepath.Base(name) }

// SourceDir is the folder a scenario read from source may include files from; "" for none.
func SourceDir(source string) string {
	if source == "" || strings.HasPrefix(source, remote) {
		return ""
	}
	return filepath.Dir(source)
}

// ReadInclude reads a file a scenario includes (a tables file): name is relative to the scenario's
// folder dir and must stay inside it. An absolute name, a ".." that climbs out, or a symbolic link
// leading out is refused; so is every include when dir is "" (a scenario with no folder).
func ReadInclude(dir, name string) ([]byte, error) {
	if dir == "" {
		return nil, fmt.Errorf("%s: a scenario sent to the running daemon cannot include files; "+
			"start the game with the daemon stopped, or give the file's contents in the scenario", name)
	}
	if !filepath.IsLocal(name) {
		return nil, fmt.Errorf("%s: an included file must be a relative path inside the scenario's folder", name)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	data, err := root.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}
