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
	"golang.org/x/net/html"
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

// rolesParsePage turns an HTML page into a tree for role computation.
// Roles depend on names, attributes and ancestry only, never on style, so
// every element is built as a visible block; the tree builder still applies
// its own rules (lower-cased names, the id index).
func rolesParsePage(t *testing.T, path string) *domtree.Tree {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := domtree.NewBuilder(0)
	type item struct {
		n      *html.Node
		parent int
	}
	var stack []item
	for c := doc.LastChild; c != nil; c = c.PrevSibling {
		stack = append(stack, item{c, 0})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var idx int
		switch it.n.Type {
		case html.ElementNode:
			attrs := make([]domtree.Attr, 0, len(it.n.Attr))
			for _, a := range it.n.Attr {
				attrs = append(attrs, domtree.Attr{Name: a.Key, Value: a.Val})
			}
			idx, err = b.AddElement(it.parent, it.n.Data, attrs, domtree.ElementInfo{Display: domtree.DisplayBlock})
		case html.TextNode:
			idx, err = b.AddText(it.parent, it.n.Data, 0)
		case html.CommentNode:
			idx, err = b.AddComment(it.parent, it.n.Data, 0)
		case html.DoctypeNode:
			idx, err = b.AddDoctype(it.parent, it.n.Data, 0)
		default:
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for c := it.n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, item{c, idx})
		}
	}
	return b.Build()
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
