package outmail_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// outmail is a leaf: storage and mailer import it and import nothing else of the project, so it imports
// go-mail and the standard library only.
func TestImportsOnlyGoMailAndStd(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if strings.Contains(strings.Split(path, "/")[0], ".") && !strings.HasPrefix(path, "github.com/wneessen/go-mail") || path == "sortie" || strings.HasPrefix(path, "sortie/") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
