package domtree

import (
	"iter"
	"strings"
)

// Node is a cursor on one node of a Tree. It is a small comparable value; the
// zero Node is invalid, and every method on it returns a zero result rather
// than panicking, so walks can step off the tree and simply stop.
type Node struct {
	t *Tree
	i int32
}

func (n Node) rec() *record {
	if n.t == nil {
		return nil
	}
	return &n.t.nodes[n.i]
}

func (n Node) at(i int32) Node {
	if i == none || n.t == nil {
		return Node{}
	}
	n.t.past(i)
	return Node{n.t, i}
}

// Valid reports whether n is a node of a tree.
func (n Node) Valid() bool { return n.t != nil }

// Tree is the tree n belongs to.
func (n Node) Tree() *Tree { return n.t }

// Index is n's position in tree order (the document is 0); -1 for the zero Node.
func (n Node) Index() int {
	if n.t == nil {
		return -1
	}
	return int(n.i)
}

// Kind is n's node kind.
func (n Node) Kind() Kind {
	if r := n.rec(); r != nil {
		return r.kind
	}
	return KindInvalid
}

// IsElement reports whether n is an element.
func (n Node) IsElement() bool { return n.Kind() == Element }

// Name is an element's lower-case name, "" for other kinds.
func (n Node) Name() string {
	if r := n.rec(); r != nil && r.kind == Element {
		return n.t.data(r)
	}
	return ""
}

// Is reports whether n is an element named name (lower-case).
func (n Node) Is(name string) bool {
	r := n.rec()
	return r != nil && r.kind == Element && n.t.data(r) == name
}

// Data is the content of a text or comment node, or a doctype's name; "" for
// elements and the document.
func (n Node) Data() string {
	if r := n.rec(); r != nil && r.kind != Element {
		return n.t.data(r)
	}
	return ""
}

// Attr returns the value of the attribute named name (lower-case).
func (n Node) Attr(name string) (string, bool) {
	r := n.rec()
	if r == nil {
		return "", false
	}
	start, end := n.t.attrSpan(n.i)
	for _, a := range n.t.attrs[start:end] {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// AttrValue returns the attribute's value, "" when absent.
func (n Node) AttrValue(name string) string {
	v, _ := n.Attr(name)
	return v
}

// HasAttr reports whether the attribute is present.
func (n Node) HasAttr(name string) bool {
	_, ok := n.Attr(name)
	return ok
}

// AttrEquals reports whether the attribute is present and equals value ASCII
// case-insensitively (value must be lower-case).
func (n Node) AttrEquals(name, value string) bool {
	v, ok := n.Attr(name)
	return ok && EqualFold(v, value)
}

// Attrs returns the element's attributes in source order. The slice is shared
// with the tree and must not be modified.
func (n Node) Attrs() []Attr {
	r := n.rec()
	if r == nil {
		return nil
	}
	start, end := n.t.attrSpan(n.i)
	return n.t.attrs[start:end:end]
}

// Parent is n's parent, the zero Node for the document.
func (n Node) Parent() Node {
	if r := n.rec(); r != nil {
		return n.at(r.parent)
	}
	return Node{}
}

// FirstChild is n's first child: the node after it in tree order, when
// n's subtree holds it.
func (n Node) FirstChild() Node {
	if r := n.rec(); r != nil && r.end > n.i+1 {
		return n.at(n.i + 1)
	}
	return Node{}
}

// LastChild is n's last child.
func (n Node) LastChild() Node {
	if r := n.rec(); r != nil {
		return n.at(r.lastChild)
	}
	return Node{}
}

// NextSibling is n's next sibling: the node after n's subtree, when its
// parent's subtree still holds it.
func (n Node) NextSibling() Node {
	if r := n.rec(); r != nil && r.parent != none && r.end < n.t.nodes[r.parent].end {
		return n.at(r.end)
	}
	return Node{}
}

// PrevSibling is n's previous sibling.
func (n Node) PrevSibling() Node {
	if r := n.rec(); r != nil {
		return n.at(r.prevSibling)
	}
	return Node{}
}

// Children yields n's children in order.
func (n Node) Children() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
			if !yield(c) {
				return
			}
		}
	}
}

// ChildElements yields n's element children in order.
func (n Node) ChildElements() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := n.FirstChild(); c.Valid(); c = c.NextSibling() {
			if c.Kind() == Element && !yield(c) {
				return
			}
		}
	}
}

// Subtree yields n and all its descendants in tree order.
func (n Node) Subtree() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		r := n.rec()
		if r == nil {
			return
		}
		for i := n.i; i < r.end; i++ {
			n.t.past(i)
			if !yield(Node{n.t, i}) {
				return
			}
		}
	}
}

// Ancestors yields n's parent, its parent, and so on up to the document.
func (n Node) Ancestors() iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for p := n.Parent(); p.Valid(); p = p.Parent() {
			if !yield(p) {
				return
			}
		}
	}
}

// Next is the node after n in a pre-order walk of within's subtree: n's first
// child when enter is true and n has children, else the node after n's
// subtree; the zero Node when the walk leaves within. It is how bounded scans
// walk without recursion: each call is O(1).
func (n Node) Next(within Node, enter bool) Node {
	r, w := n.rec(), within.rec()
	if r == nil || w == nil || n.t != within.t {
		return Node{}
	}
	next := r.end
	if enter && r.end > n.i+1 {
		next = n.i + 1 // the first child
	}
	if next >= w.end {
		return Node{}
	}
	n.t.past(next)
	return Node{n.t, next}
}

// Contains reports whether m is n or a descendant of n.
func (n Node) Contains(m Node) bool {
	r := n.rec()
	return r != nil && m.t == n.t && m.i >= n.i && m.i < r.end
}

// Before reports whether n comes before m in tree order.
func (n Node) Before(m Node) bool { return n.t != nil && n.t == m.t && n.i < m.i }

// SubtreeSize is the number of nodes in n's subtree, n included.
func (n Node) SubtreeSize() int {
	if r := n.rec(); r != nil {
		if r.end > n.t.horizon {
			n.t.reach() // an open subtree: its size is not known
		}
		return int(r.end - n.i)
	}
	return 0
}

// Excluded reports whether n is excluded (docs/reference.md#visibility): not rendered or
// aria-hidden, itself or through an ancestor. Any node kind may be excluded.
func (n Node) Excluded() bool {
	r := n.rec()
	return r == nil || r.bits&bitExcluded != 0
}

// Invisible reports whether n is an element that is not excluded and whose
// computed visibility is hidden or collapse.
func (n Node) Invisible() bool {
	r := n.rec()
	return r != nil && r.kind == Element && r.bits&bitExcluded == 0 && r.visibility == Hidden
}

// Visible reports whether n is neither excluded nor invisible. A text node is
// visible when it is not excluded and its parent is not invisible.
func (n Node) Visible() bool {
	r := n.rec()
	if r == nil || r.bits&bitExcluded != 0 {
		return false
	}
	switch r.kind {
	case Element:
		return r.visibility == Visible
	case Text:
		return !n.Parent().Invisible()
	}
	return true
}

// Display is an element's display class as the source computed it.
func (n Node) Display() Display {
	if r := n.rec(); r != nil {
		return r.display
	}
	return DisplayNone
}

// Visibility is an element's computed visibility as the source gave it.
func (n Node) Visibility() Visibility {
	if r := n.rec(); r != nil {
		return r.visibility
	}
	return Visible
}

// Checked is the checked state the source recorded for an element.
func (n Node) Checked() bool {
	r := n.rec()
	return r != nil && r.bits&bitChecked != 0
}

// Flags says which never-entered content the element had.
func (n Node) Flags() Flags {
	if r := n.rec(); r != nil {
		return r.flags
	}
	return 0
}

// BackendNodeID is the browser's backend node id, 0 when unknown.
func (n Node) BackendNodeID() int64 {
	if n.t == nil || n.t.backend == nil {
		return 0
	}
	if n.t.lazy != nil {
		return n.t.lazy.get(n.i, n.t.backend[n.i])
	}
	return n.t.backend[n.i]
}

// EqualFold reports whether s equals lower, a lower-case ASCII string, ASCII
// case-insensitively. Unlike strings.EqualFold it folds nothing outside ASCII
// (the Kelvin sign is not "k"), as HTML's comparisons require.
func EqualFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// ToLowerASCII lower-cases ASCII letters only.
func ToLowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// IsASCIISpace reports whether c is ASCII whitespace: tab, LF, FF, CR, space.
func IsASCIISpace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// Fields splits s on runs of ASCII whitespace.
func Fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r < 0x80 && IsASCIISpace(byte(r)) })
}
