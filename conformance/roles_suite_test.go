//go:build conformance

package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot"
)

// suiteDir is ../shared/testsuites beside the module root. The suites are
// read where they lie, never copied in; a missing folder fails the test,
// because a conformance run that measured nothing must not pass.
func suiteDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("conformance: no go.mod above the test directory")
		}
		dir = parent
	}
	suites := filepath.Join(dir, "..", "shared", "testsuites")
	if fi, err := os.Stat(suites); err != nil || !fi.IsDir() {
		t.Fatalf("conformance: suite folder %s is missing: %v", suites, err)
	}
	return suites
}

// readJSONL decodes every non-blank line of a JSON Lines file into T,
// rejecting unknown keys so that a changed suite format is noticed.
func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var v T
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rolesParsePage parses a suite page offline exactly as domsnap parses any
// HTML file (snapshot.ParseHTML), so roles are measured on the tree the
// analyzer really sees.
func rolesParsePage(t *testing.T, path string) *domtree.Tree {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return tr
}

// rolesTargets returns, in tree order, the elements carrying class, the
// suites' way of naming a case's target (".ex", ".ex-generic").
func rolesTargets(tr *domtree.Tree, class string) []domtree.Node {
	var out []domtree.Node
	for n := range tr.All() {
		if !n.IsElement() {
			continue
		}
		for _, c := range domtree.Fields(n.AttrValue("class")) {
			if c == class {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// rolesTarget finds a case's target element: the index-th element matching
// a ".class" selector. It fails the test when the selector is of another
// form or the page has too few targets.
func rolesTarget(t *testing.T, cache map[string]*domtree.Tree, dir, page, target string, index int) domtree.Node {
	t.Helper()
	class, ok := strings.CutPrefix(target, ".")
	if !ok || strings.ContainsAny(class, " .#[:") {
		t.Fatalf("%s: unsupported target selector %q", page, target)
	}
	tr, ok := cache[page]
	if !ok {
		tr = rolesParsePage(t, filepath.Join(dir, page))
		cache[page] = tr
	}
	all := rolesTargets(tr, class)
	if index < 0 || index >= len(all) {
		t.Fatalf("%s: target %s[%d] out of range (%d found)", page, target, index, len(all))
	}
	return all[index]
}
