package aria

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"golang.org/x/net/html"
)

// parseTree builds a domtree from HTML source for role tests. Styles do not
// matter to roles, so every element is a visible block; exclusion rules the
// builder applies on its own still hold.
func parseTree(t testing.TB, src string) *domtree.Tree {
	t.Helper()
	tr, err := buildTree(src)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// buildTree is parseTree's work, reporting a parse or build error instead
// of failing, for fuzz inputs the HTML parser refuses (nesting too deep).
func buildTree(src string) (*domtree.Tree, error) {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return nil, err
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
		var err error
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
			return nil, err
		}
		for c := it.n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, item{c, idx})
		}
	}
	return b.Build(), nil
}

// byID finds the element with the given id, failing the test when absent.
func byID(t testing.TB, tr *domtree.Tree, id string) domtree.Node {
	t.Helper()
	n, ok := tr.ElementByID(id)
	if !ok {
		t.Fatalf("no element with id %q", id)
	}
	return n
}
