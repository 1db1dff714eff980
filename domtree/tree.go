package domtree

import "iter"

// node bits.
const (
	bitExcluded uint8 = 1 << iota
	bitChecked
)

const none int32 = -1

// record is one node's storage; the cursor type Node points at one.
//
// A node's first child and next sibling are not stored: in tree order the
// first child is the node right after it, when its subtree holds more than
// itself, and the next sibling is the node right after its subtree, when
// that is still inside the parent's. Its name or content is not a string
// of its own but a span of the tree's text, and its attribute count
// follows from where the next node's attributes start. These keep a record
// at 36 bytes, and the text of a page in a few chunks instead of one
// allocation a node, each rounded up to the allocator's size class.
type record struct {
	parent, lastChild, prevSibling int32
	// end is one past the last index of the node's subtree.
	end int32
	// attrStart is where the node's attributes begin in Tree.attrs; they
	// end where the next node's begin (every node sets it, an element's
	// attributes being appended right after it), so no count is stored.
	attrStart  int32
	kind       Kind
	display    Display
	visibility Visibility
	flags      Flags
	bits       uint8
	// dataOff and dataLen are the span of Tree.text holding an element's
	// lower-case name, or a text, comment or doctype's content.
	dataOff, dataLen uint32
}

// attrSpan is node i's span of t.attrs.
func (t *Tree) attrSpan(i int32) (start, end int32) {
	start, end = t.nodes[i].attrStart, int32(len(t.attrs))
	if int(i)+1 < len(t.nodes) {
		end = t.nodes[i+1].attrStart
	}
	return start, end
}

// The text of a tree is held in chunks of at most chunkSize bytes; a
// record's dataOff is its chunk's slot in Tree.text shifted left by
// chunkBits, plus its position in the chunk.
const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
)

// data is r's name or content.
func (t *Tree) data(r *record) string {
	if r.dataLen == 0 {
		return ""
	}
	pos := r.dataOff & (chunkSize - 1)
	return t.text[r.dataOff>>chunkBits][pos : pos+r.dataLen]
}

// Tree is an immutable DOM tree. Build one with a Builder.
type Tree struct {
	nodes []record
	attrs []Attr
	// text holds every node's name or content, in chunks; records hold
	// spans of them.
	text      []string
	backend   []int64 // nil when no node has a backend id
	ids       map[string]int32
	labelsFor map[string][]int32
	// horizonState marks a partial tree (horizon.go).
	horizonState
	// lazy, when set, resolves backend holds' keys into ids (lazyid.go).
	lazy *lazyIDs
	// scoped holds tree scopes and the composed twin (composed.go).
	scoped
}

// Len is the number of nodes, the document included.
func (t *Tree) Len() int {
	if t.Partial() {
		t.reach() // the document's length is not known
	}
	return len(t.nodes)
}

// Root is the document node.
func (t *Tree) Root() Node {
	if t == nil || len(t.nodes) == 0 {
		return Node{}
	}
	return Node{t, 0}
}

// At returns the node at tree-order index i, or the zero Node when out of range.
func (t *Tree) At(i int) Node {
	if t == nil || i < 0 || i >= len(t.nodes) {
		if t.Partial() && i >= 0 {
			t.reach()
		}
		return Node{}
	}
	t.past(int32(i))
	return Node{t, int32(i)}
}

// ElementByID returns the first element in tree order whose id attribute is
// exactly id, as getElementById does. The empty id names nothing.
func (t *Tree) ElementByID(id string) (Node, bool) {
	if t == nil || id == "" {
		return Node{}, false
	}
	i, ok := t.ids[id]
	if !ok {
		if t.Partial() {
			t.reach() // the element may lie past the horizon
		}
		return Node{}, false
	}
	return Node{t, i}, true
}

// LabelsFor returns, in tree order, the label elements whose for attribute is
// exactly id.
func (t *Tree) LabelsFor(id string) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		if t == nil || id == "" {
			return
		}
		if t.Partial() && t.labelsBeyond {
			t.reach()
		}
		for _, i := range t.labelsFor[id] {
			if !yield(Node{t, i}) {
				return
			}
		}
	}
}

// All yields every node of the tree in tree order.
func (t *Tree) All() iter.Seq[Node] {
	return t.Root().Subtree()
}

// HasBackendIDs reports whether the source recorded backend node ids.
func (t *Tree) HasBackendIDs() bool { return t != nil && t.backend != nil }
