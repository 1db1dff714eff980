package domsnap

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// analysisPackages are the packages behind this one's words. A front (the
// command, the tool server, the live layer, the parity check) reaches them
// only through the root, so that the contract has one spelling.
var analysisPackages = []string{"aria", "cells", "collect", "typed", "view"}

const modulePath = "github.com/domsnap/domsnap"

// directImports lists the import paths of the non-test Go files of dir,
// whatever their build tags, so a file built only for the browser counts.
func directImports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return out
}

// analysisImports is the analysis packages among dir's direct imports.
func analysisImports(t *testing.T, dir string) []string {
	t.Helper()
	var bad []string
	for _, p := range directImports(t, dir) {
		for _, a := range analysisPackages {
			if p == modulePath+"/internal/"+a {
				bad = append(bad, p)
			}
		}
	}
	return bad
}

// TestFrontsImportNoAnalysis holds the fronts (the command, the tool
// server and its parts, the live layer and the parity check) to the root's
// words: none imports an analysis package directly, so
// `go list -f '{{.Imports}}'` of any names none of them.
func TestFrontsImportNoAnalysis(t *testing.T) {
	for _, a := range analysisPackages {
		// A renamed or moved package would leave this list checking nothing.
		if _, err := os.Stat(filepath.Join("internal", a, "doc.go")); err != nil {
			t.Fatalf("analysis package %s: %v", a, err)
		}
	}
	// The check itself can see an import: the root does use them all.
	if got := analysisImports(t, "."); len(got) != len(analysisPackages) {
		t.Fatalf("the root imports %v; the scan should find all of %v", got, analysisPackages)
	}
	for _, dir := range []string{"cmd/domsnap", "mcp", "mcp/internal/front", "mcp/internal/store", "live", "parity"} {
		if bad := analysisImports(t, dir); len(bad) > 0 {
			t.Errorf("%s imports %v directly; use the root package's words", dir, bad)
		}
	}
}

// TestWordsArePublic holds the contract's words to a package a user can
// read: each is defined in the public leaf package vocab (where `go doc`
// shows its methods and members), never in an internal package.
func TestWordsArePublic(t *testing.T) {
	for _, w := range []any{Kind(0), Source(0), Type(0), Status(0), Truncation(0), Reason(0), Structure(0)} {
		typ := reflect.TypeOf(w)
		if got := typ.PkgPath(); got != modulePath+"/vocab" {
			t.Errorf("%s is defined in %s, want %s/vocab", typ.Name(), got, modulePath)
		}
	}
}

// mcpInternal are the packages of the tool server's parts under
// mcp/internal/: the artifact store and the HTTP front.
var mcpInternal = []string{"front", "store"}

// TestMCPLayers holds the tool server to the drawing, where every arrow
// runs down: the packages under mcp/internal/ import neither mcp nor the
// command above it (nor each other: each has one job), and no package
// below the tool server, nor anything else of the module but the command,
// imports mcp or its parts.
func TestMCPLayers(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("mcp", "internal", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, d := range dirs {
		found = append(found, filepath.Base(d))
	}
	// A package added, moved or renamed would leave the list checking
	// less than the folder holds.
	if !slices.Equal(found, mcpInternal) {
		t.Fatalf("mcp/internal holds %v, want %v", found, mcpInternal)
	}
	up := func(p string) bool {
		return p == modulePath+"/mcp" || strings.HasPrefix(p, modulePath+"/mcp/") || strings.HasPrefix(p, modulePath+"/cmd/")
	}
	for _, d := range dirs {
		for _, p := range directImports(t, d) {
			if up(p) {
				t.Errorf("%s imports %s", filepath.ToSlash(d), p)
			}
		}
	}
	checked := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || path == "mcp" || path == "cmd" {
				return filepath.SkipDir
			}
			// A nested module is not part of this one.
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		if !hasGoFiles(t, path) {
			return nil
		}
		checked++
		for _, p := range directImports(t, path) {
			if up(p) {
				t.Errorf("%s imports %s; only the command may", filepath.ToSlash(path), p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The walk must reach the packages below the tool server.
	if checked < 10 {
		t.Fatalf("the walk checked %d packages", checked)
	}
}

// hasGoFiles reports whether dir holds a Go file that is not a test.
func hasGoFiles(t *testing.T, dir string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			return true
		}
	}
	return false
}

// frontPackages are the layers that talk to a browser or to a person: live
// and the tool server over it. Nothing under an internal folder may depend on
// them, directly or through another package of the module, so that internal
// stays the floor the drawing of the packages shows.
var frontPackages = []string{modulePath + "/live", modulePath + "/mcp"}

// moduleImports maps every package of this module (its import path) to the
// module packages its non-test Go files import, whatever their build tags.
// Folders holding a module of their own (devtools, examples) and testdata
// are not part of it.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		files, err := filepath.Glob(filepath.Join(path, "*.go"))
		if err != nil {
			return err
		}
		code := slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
		if len(code) == 0 {
			return nil
		}
		pkg := modulePath
		if path != "." {
			pkg += "/" + filepath.ToSlash(path)
		}
		var deps []string
		for _, p := range directImports(t, path) {
			if p == modulePath || strings.HasPrefix(p, modulePath+"/") {
				deps = append(deps, p)
			}
		}
		graph[pkg] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// reaches lists the packages of targets that from depends on in graph,
// directly or not, each with the chain of imports that leads to it.
func reaches(graph map[string][]string, from string, targets []string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	var out []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if slices.Contains(targets, p) {
			chain := []string{p}
			for q := prev[p]; q != ""; q = prev[q] {
				chain = append(chain, q)
			}
			slices.Reverse(chain)
			out = append(out, strings.Join(chain, " -> "))
			continue
		}
		for _, d := range graph[p] {
			if _, seen := prev[d]; !seen {
				prev[d] = p
				queue = append(queue, d)
			}
		}
	}
	return out
}

// TestInternalImportsNoFront holds every package under an internal folder
// (internal/…, snapshot/internal/…), test kits included, below the fronts:
// none imports live or mcp, directly or through another package of the
// module. A kit that needs a browser takes what the browser gave as input;
// the browser steps stay with its callers.
func TestInternalImportsNoFront(t *testing.T) {
	graph := moduleImports(t)
	// The scan must see the module: the root, the fronts and the floor.
	for _, want := range append([]string{modulePath, modulePath + "/internal/pageserve"}, frontPackages...) {
		if _, ok := graph[want]; !ok {
			t.Fatalf("the scan of the module found no package %s", want)
		}
	}
	// The command imports both fronts, and a dependency two imports away
	// is found with its chain.
	if got := reaches(graph, modulePath+"/cmd/domsnap", frontPackages); len(got) != len(frontPackages) {
		t.Fatalf("the command reaches %v; the scan should find every one of %v", got, frontPackages)
	}
	chain := map[string][]string{"a": {"b"}, "b": {"c", "a"}}
	if got := reaches(chain, "a", []string{"c"}); !slices.Equal(got, []string{"a -> b -> c"}) {
		t.Fatalf("reaches through one package: %v", got)
	}
	checked := 0
	for pkg := range graph {
		if !slices.Contains(strings.Split(pkg, "/"), "internal") {
			continue
		}
		checked++
		for _, chain := range reaches(graph, pkg, frontPackages) {
			t.Errorf("%s runs back up: %s", pkg, chain)
		}
	}
	if checked == 0 {
		t.Fatal("no package under an internal folder was checked")
	}
}
