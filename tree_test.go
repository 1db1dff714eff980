package domsnap

import (
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

// nd describes a node for build: an element with attributes and children,
// or a text node when name is "".
type nd struct {
	name  string
	attrs []domtree.Attr
	text  string
	kids  []nd
}

// E is an element; args are domtree.Attr values and child nodes.
func E(name string, args ...any) nd {
	n := nd{name: name}
	for _, a := range args {
		switch a := a.(type) {
		case domtree.Attr:
			n.attrs = append(n.attrs, a)
		case nd:
			n.kids = append(n.kids, a)
		case []nd:
			n.kids = append(n.kids, a...)
		default:
			panic("E: unexpected argument")
		}
	}
	return n
}

// T is a text node.
func T(s string) nd { return nd{text: s} }

// A is an attribute.
func A(name, value string) domtree.Attr { return domtree.Attr{Name: name, Value: value} }

// inlineNames are the elements the tests render inline; everything else is
// block-level, which is all the tests need of the user-agent stylesheet.
var inlineNames = map[string]bool{"b": true, "i": true, "span": true, "a": true, "label": true,
	"input": true, "button": true, "select": true, "textarea": true, "br": true}

// build makes a tree under the document from the given nodes.
func build(t testing.TB, nodes ...nd) *domtree.Tree {
	t.Helper()
	b := domtree.NewBuilder(0)
	type item struct {
		parent int
		n      nd
	}
	// An explicit stack in reverse keeps the pre-order the builder needs.
	var stack []item
	for i := len(nodes) - 1; i >= 0; i-- {
		stack = append(stack, item{0, nodes[i]})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n.name == "" {
			if _, err := b.AddText(it.parent, it.n.text, 0); err != nil {
				t.Fatal(err)
			}
			continue
		}
		info := domtree.ElementInfo{Display: domtree.DisplayBlock}
		if inlineNames[it.n.name] {
			info.Display = domtree.DisplayInline
		}
		for _, a := range it.n.attrs {
			if a.Name == "hidden" {
				info.Display = domtree.DisplayNone
			}
			if a.Name == "checked" {
				info.Checked = true
			}
		}
		i, err := b.AddElement(it.parent, it.n.name, it.n.attrs, info)
		if err != nil {
			t.Fatal(err)
		}
		for k := len(it.n.kids) - 1; k >= 0; k-- {
			stack = append(stack, item{i, it.n.kids[k]})
		}
	}
	return b.Build()
}

// page wraps body content in html and body elements.
func page(body ...nd) []nd {
	return []nd{E("html", E("body", body))}
}

// tr builds a row of cells of the given element name holding the texts.
func tr(cell string, texts ...string) nd {
	var cells []nd
	for _, s := range texts {
		cells = append(cells, E(cell, T(s)))
	}
	return E("tr", cells)
}
