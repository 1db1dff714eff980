package domsnap

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnlyTheCommandIsAProgram holds the module to one installable program:
// `go install ./...` from a clone installs domsnap and nothing else. Dev-only
// programs live in the devtools module, generators are `//go:build ignore`
// files run by go:generate, and the example programs sit behind the
// examples build tag (or in modules of their own).
func TestOnlyTheCommandIsAProgram(t *testing.T) {
	fset := token.NewFileSet()
	var programs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			// A nested module is not part of this one.
			if path != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Name.Name != "main" || excludedByDefault(f.Comments) {
			return nil
		}
		if dir := filepath.Dir(path); dir != filepath.Join("cmd", "domsnap") {
			programs = append(programs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(programs) > 0 {
		t.Errorf("package main outside cmd/domsnap, installed by go install ./...: %v", programs)
	}
	// The walk must see the devtools module to skip it: a moved folder would
	// leave this test checking less than it says.
	if _, err := os.Stat(filepath.Join("devtools", "go.mod")); err != nil {
		t.Errorf("devtools module: %v", err)
	}
}

// excludedByDefault reports whether a file's build constraint leaves it out
// of a build without tags (ignore, examples, browser...).
func excludedByDefault(groups []*ast.CommentGroup) bool {
	for _, g := range groups {
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				return false
			}
			return !expr.Eval(func(tag string) bool { return tag == "linux" || tag == "unix" || tag == "amd64" || tag == "gc" })
		}
	}
	return false
}

// TestGeneratorsAreRunByGoGenerate: each generator (a `//go:build ignore`
// program named gen.go) is named by a go:generate line of its own package,
// so `go generate ./...` rewrites what it writes.
func TestGeneratorsAreRunByGoGenerate(t *testing.T) {
	gens, err := filepath.Glob(filepath.Join("*", "internal", "*", "gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) == 0 {
		t.Fatal("no generators found: the layout moved")
	}
	for _, gen := range gens {
		dir := filepath.Dir(gen)
		src, err := os.ReadFile(gen)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "//go:build ignore\n") {
			t.Errorf("%s does not start with //go:build ignore", gen)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		found := false
		for _, f := range files {
			if f == gen {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "//go:generate go run gen.go") {
				found = true
			}
		}
		if !found {
			t.Errorf("no go:generate line in %s runs gen.go", dir)
		}
	}
}
