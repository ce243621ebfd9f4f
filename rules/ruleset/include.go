package ruleset

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// remote marks the source of a scenario that came without a folder of its own: one sent to the running
// daemon over its control socket.
const remote = "(sent to the daemon) "

// RemoteSource names a scenario sent to the running daemon: it keeps the file's name for messages.
func RemoteSource(name string) string { return remote + filepath.Base(name) }

// ReadInclude reads a file a scenario includes (a tables file) from files, the scenario's own folder:
// name must be a relative path inside it (no absolute path, no ".." climbing out); with no folder
// (files nil) nothing may be included.
func ReadInclude(files fs.FS, name string) ([]byte, error) {
	clean := filepath.ToSlash(name)
	if !filepath.IsLocal(name) || !fs.ValidPath(clean) {
		return nil, fmt.Errorf("%s: an included file must be a relative path inside the scenario's folder", name)
	}
	if files == nil {
		return nil, fmt.Errorf("%s: this scenario has no folder to include files from; give the file beside the scenario when the game is created", name)
	}
	data, err := fs.ReadFile(files, clean)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}
