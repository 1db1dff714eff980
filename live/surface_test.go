package live

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// rawTypes are the types that carry what the package keeps back: bytes as
// the protocol sent them (a whole capture, a bounded capture, a script's
// value) and the tab's protocol client.
var rawTypes = []string{"json.RawMessage", "*BoundedCapture", "BoundedCapture", "*cdp.Client", "cdp.Client"}

// TestNothingRawExported reads the package's non-test files, whatever
// their build tags, and requires that no exported function or method and no
// method of an exported interface gives out a rawType: a capture reaches a
// program only through a Session, scrubbed. (The test-only methods of
// export_test.go, and package livehook, are the module's own ways in.)
func TestNothingRawExported(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || (d.Recv != nil && !exportedReceiver(d.Recv)) {
					continue
				}
				checked++
				for _, raw := range rawResults(d.Type) {
					t.Errorf("%s: %s gives out %s", fset.Position(d.Pos()), d.Name.Name, raw)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					it, ok := ts.Type.(*ast.InterfaceType)
					if !ok {
						continue
					}
					for _, m := range it.Methods.List {
						ft, ok := m.Type.(*ast.FuncType)
						if !ok || len(m.Names) == 0 || !m.Names[0].IsExported() {
							continue
						}
						checked++
						for _, raw := range rawResults(ft) {
							t.Errorf("%s: %s.%s gives out %s", fset.Position(m.Pos()), ts.Name.Name, m.Names[0].Name, raw)
						}
					}
				}
			}
		}
	}
	// The scan must have read the package: Page alone has a dozen exported
	// methods, and Driver one.
	if checked < 20 {
		t.Fatalf("checked %d exported functions and methods; the scan missed the package", checked)
	}
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(recv *ast.FieldList) bool {
	typ := recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if idx, ok := typ.(*ast.IndexExpr); ok {
		typ = idx.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.IsExported()
}

// rawResults lists the rawTypes among ft's results.
func rawResults(ft *ast.FuncType) []string {
	if ft.Results == nil {
		return nil
	}
	var out []string
	for _, r := range ft.Results.List {
		s := spelled(r.Type)
		for _, raw := range rawTypes {
			if s == raw {
				out = append(out, raw)
			}
		}
	}
	return out
}

// spelled spells a result type as the source does ("*cdp.Client").
func spelled(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + spelled(e.X)
	case *ast.SelectorExpr:
		return spelled(e.X) + "." + e.Sel.Name
	}
	return ""
}
