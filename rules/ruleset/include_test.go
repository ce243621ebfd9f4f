package ruleset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadIncludeStaysInTheScenarioFolder(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "scn")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o700)
	os.WriteFile(filepath.Join(dir, "sub", "t.yaml"), []byte("label: mine\n"), 0o600)
	os.WriteFile(filepath.Join(base, "secret"), []byte("root:HASH\n"), 0o600)
	os.Symlink(filepath.Join(base, "secret"), filepath.Join(dir, "link.yaml"))
	src := filepath.Join(dir, "game.yaml")
	if b, err := ReadInclude(SourceDir(src), "sub/t.yaml"); err != nil || string(b) != "label: mine\n" {
		t.Fatalf("a file in the folder: %q %v", b, err)
	}
	for _, name := range []string{filepath.Join(base, "secret"), "/etc/passwd", "../secret", "sub/../../secret", "link.yaml"} {
		b, err := ReadInclude(SourceDir(src), name)
		if err == nil || strings.Contains(err.Error(), "HASH") || b != nil {
			t.Errorf("%s: read %q, %v", name, b, err)
		}
	}
	if _, err := ReadInclude(SourceDir(RemoteSource(src)), "sub/t.yaml"); err == nil || !strings.Contains(err.Error(), "cannot include") {
		t.Errorf("a scenario sent to the daemon included a file: %v", err)
	}
	if SourceDir(RemoteSource("/x/y.yaml")) != "" || SourceDir("") != "" {
		t.Error("a remote or nameless scenario has no folder")
	}
}
