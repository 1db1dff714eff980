package cells

import (
	"github.com/domsnap/domsnap/domtree"
)

// tb is what the helpers need from *testing.T and *rapid.T alike.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// spec describes one node of a test tree.
type spec struct {
	kind  domtree.Kind
	name  string
	attrs []domtree.Attr
	text  string
	kids  []spec
	// display and visibility overrides; zero means "default".
	display   displayMark
	hidden    visMark
	checked   bool
	backendID int64
}

type displayMark uint8

const (
	defaultDisplay displayMark = iota
	Block
	Inline
	DisplayNone
)

type visMark uint8

const (
	inheritVis visMark = iota
	Hid                // visibility: hidden
	Vis                // visibility: visible, overriding a hidden ancestor
)

// checkedMark marks a checkbox or radio as checked.
type checkedMark struct{}

var Checked checkedMark

// A is one attribute.
type A [2]string

// E describes an element. Arguments are attributes (A), children (spec or
// string for a text node), and display, visibility or checked marks.
func E(name string, args ...any) spec {
	s := spec{kind: domtree.Element, name: name}
	for _, a := range args {
		switch v := a.(type) {
		case A:
			s.attrs = append(s.attrs, domtree.Attr{Name: v[0], Value: v[1]})
		case spec:
			s.kids = append(s.kids, v)
		case string:
			s.kids = append(s.kids, T(v))
		case displayMark:
			s.display = v
		case visMark:
			s.hidden = v
		case checkedMark:
			s.checked = true
		default:
			panic("E: unknown argument")
		}
	}
	return s
}

// T is a text node, C a comment.
func T(s string) spec { return spec{kind: domtree.Text, text: s} }
func C(s string) spec { return spec{kind: domtree.Comment, text: s} }

// blockNames are the elements the user-agent stylesheet makes not
// inline-level, as far as these tests need.
var blockNames = map[string]bool{
	"html": true, "body": true, "div": true, "p": true, "table": true, "tr": true, "td": true,
	"th": true, "thead": true, "tbody": true, "tfoot": true, "caption": true, "ul": true, "ol": true,
	"li": true, "menu": true, "form": true, "fieldset": true, "legend": true, "section": true,
	"details": true, "summary": true, "h1": true, "dl": true, "dt": true, "dd": true, "option": true,
	"optgroup": true, "pre": true, "blockquote": true, "hr": true,
}

// build makes a tree whose document holds the given top-level nodes. It
// walks with an explicit stack, so generated deep trees are fine.
func build(t tb, top ...spec) *domtree.Tree {
	t.Helper()
	b := domtree.NewBuilder(0)
	type item struct {
		s      *spec
		parent int
		hidden bool // the parent's inherited visibility
	}
	stack := make([]item, 0, len(top))
	for i := len(top) - 1; i >= 0; i-- {
		stack = append(stack, item{&top[i], 0, false})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s := it.s
		var (
			idx int
			err error
		)
		switch s.kind {
		case domtree.Text:
			idx, err = b.AddText(it.parent, s.text, 0)
		case domtree.Comment:
			idx, err = b.AddComment(it.parent, s.text, 0)
		default:
			hidden := it.hidden
			switch s.hidden {
			case Hid:
				hidden = true
			case Vis:
				hidden = false
			}
			info := domtree.ElementInfo{Checked: s.checked}
			if hidden {
				info.Visibility = domtree.Hidden
			}
			switch s.display {
			case Block:
				info.Display = domtree.DisplayBlock
			case Inline:
				info.Display = domtree.DisplayInline
			case DisplayNone:
				info.Display = domtree.DisplayNone
			default:
				if blockNames[domtree.ToLowerASCII(s.name)] {
					info.Display = domtree.DisplayBlock
				}
			}
			idx, err = b.AddElement(it.parent, s.name, s.attrs, info)
			for i := len(s.kids) - 1; i >= 0; i-- {
				stack = append(stack, item{&s.kids[i], idx, hidden})
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// byID finds an element by id or fails the test.
func byID(t tb, tr *domtree.Tree, id string) domtree.Node {
	t.Helper()
	n, ok := tr.ElementByID(id)
	if !ok {
		t.Fatalf("no element with id %q", id)
	}
	return n
}

// first is the document's first child.
func first(tr *domtree.Tree) domtree.Node { return tr.Root().FirstChild() }
