package ruleset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scenario includes files only from its own folder, given as an fs.FS rooted there (an os.Root, so
// a symbolic link leading out is refused too), and nothing when it has no folder.
func TestReadIncludeStaysInTheScenarioFolder(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "scn")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o700)
	os.WriteFile(filepath.Join(dir, "sub", "t.yaml"), []byte("label: mine\n"), 0o600)
	os.WriteFile(filepath.Join(base, "secret"), []byte("root:HASH\n"), 0o600)
	os.Symlink(filepath.Join(base, "secret"), filepath.Join(dir, "link.yaml"))
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	files := root.FS()
	if b, err := ReadInclude(files, "sub/t.yaml"); err != nil || string(b) != "label: mine\n" {
		t.Fatalf("a file in the folder: %q %v", b, err)
	}
	for _, name := range []string{filepath.Join(base, "secret"), "/etc/passwd", "../secret", "sub/../../secret", "link.yaml"} {
		b, err := ReadInclude(files, name)
		if err == nil || strings.Contains(err.Error(), "HASH") || b != nil {
			t.Errorf("%s: read %q, %v", name, b, err)
		}
	}
	if _, err := ReadInclude(nil, "sub/t.yaml"); err == nil || !strings.Contains(err.Error(), "no folder") {
		t.Errorf("a scenario without a folder included a file: %v", err)
	}
}
