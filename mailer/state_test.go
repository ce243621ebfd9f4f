package mailer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPackageState: the mail packages keep no state at package level (issue 28). A package-level
// variable may hold a value that never changes (an error, a table, a compiled pattern), but no function,
// in the package or in its tests, assigns to one, changes an element of one, appends to or deletes from
// one, or takes its address; and none is a lock, an atomic or a sync.Map, which exist to be changed.
// Whatever varies belongs to a value (an Intake, a Sender, a parse) or to its options, so two intakes in
// one process never share anything, and a test changes what it needs through options, not globals.
func TestNoPackageState(t *testing.T) {
	for _, dir := range []string{".", "inmail", "outmail", "localmail", "realmail", "senderauth"} {
		checkNoPackageState(t, dir)
	}
}

func checkNoPackageState(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	type file struct {
		f    *ast.File
		test bool
	}
	var files []file
	vars := map[string]token.Pos{}        // package-level variables of the package's own files
	topSpecs := map[*ast.ValueSpec]bool{} // their declarations
	pkgName := ""
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		test := strings.HasSuffix(name, "_test.go")
		files = append(files, file{f, test})
		if test || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		pkgName = f.Name.Name
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				topSpecs[vs] = true
				for _, n := range vs.Names {
					if n.Name != "_" {
						vars[n.Name] = n.Pos()
					}
				}
				ast.Inspect(vs, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "sync" || id.Name == "atomic") {
							t.Errorf("%s: package-level %s is made of %s.%s: state shared by every user of the package",
								fset.Position(vs.Pos()), vs.Names[0].Name, id.Name, sel.Sel.Name)
						}
					}
					return true
				})
			}
		}
	}
	// root is the package-level variable an expression writes through, if any: x, x.f, x[i], *x, and
	// pkg.X from an external test package.
	root := func(e ast.Expr, external bool) string {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && external && id.Obj == nil && id.Name == pkgName {
					if _, ok := vars[x.Sel.Name]; ok {
						return x.Sel.Name
					}
					return ""
				}
				e = x.X
			case *ast.Ident:
				if external {
					return ""
				}
				if _, ok := vars[x.Name]; !ok {
					return ""
				}
				if x.Obj == nil { // declared in another file of the package
					return x.Name
				}
				if vs, ok := x.Obj.Decl.(*ast.ValueSpec); ok && topSpecs[vs] {
					return x.Name
				}
				return "" // a local of the same name
			default:
				return ""
			}
		}
	}
	for _, fl := range files {
		external := fl.f.Name.Name != pkgName
		for _, d := range fl.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || (!fl.test && fd.Recv == nil && fd.Name.Name == "init") {
				continue
			}
			report := func(e ast.Expr, how string) {
				if name := root(e, external); name != "" {
					t.Errorf("%s: %s %s package-level %s (declared at %s)", fset.Position(e.Pos()), fd.Name.Name, how, name, fset.Position(vars[name]))
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.AssignStmt:
					if x.Tok != token.DEFINE {
						for _, l := range x.Lhs {
							report(l, "writes")
						}
					}
				case *ast.IncDecStmt:
					report(x.X, "writes")
				case *ast.UnaryExpr:
					if x.Op == token.AND {
						report(x.X, "takes the address of")
					}
				case *ast.CallExpr:
					if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && len(x.Args) > 0 {
						report(x.Args[0], "changes")
					}
				}
				return true
			})
		}
	}
}
