package domtree

import (
	"fmt"
	"math"
	"slices"
)

// BuildError says why a node could not be added. Sources turn it into their
// own coded error (malformed_snapshot for a capture) with their own path.
type BuildError struct {
	Msg string
}

func (e *BuildError) Error() string { return "domtree: " + e.Msg }

// Builder assembles a Tree in pre-order. The document node exists from the
// start, at index 0.
type Builder struct {
	t *Tree
	// open is the path from the document to the node added last: a new node's
	// parent must be on it, which is what pre-order means.
	open []int32
	done bool
	// buf is the chunk of text being filled, slot cur of Tree.text (-1
	// before the first); it is copied out, at its exact size, when full
	// and at Build, so the text costs one allocation a chunk and nothing
	// is ever copied twice. names finds an element name already stored, so
	// each distinct name is stored once.
	buf   []byte
	cur   int
	names map[string]uint32
	// sealed is set by MarkHorizon: the document is cut there.
	sealed bool
}

// NewBuilder returns a builder holding only the document node. sizeHint, when
// positive, preallocates room for that many nodes.
func NewBuilder(sizeHint int) *Builder {
	if sizeHint < 1 {
		sizeHint = 1
	}
	t := &Tree{nodes: make([]record, 0, sizeHint)}
	t.horizon = noHorizon
	t.nodes = append(t.nodes, record{
		parent: none, lastChild: none, prevSibling: none,
		kind: Document, display: DisplayBlock,
	})
	return &Builder{t: t, open: []int32{0}, cur: -1, names: map[string]uint32{}}
}

// ReserveAttrs makes room for n more attributes, for a source that knows
// how many its elements carry, so that adding them never copies the array.
func (b *Builder) ReserveAttrs(n int) {
	if n > 0 && !b.done {
		b.t.attrs = slices.Grow(b.t.attrs, n)
	}
}

// SetStyle changes the display and visibility of element i, added
// earlier, for a source that settles them only once the element's subtree
// is known (a display: contents element without rendered content has no
// box). It is a no-op when i is not an element or the tree is built.
func (b *Builder) SetStyle(i int, d Display, v Visibility) {
	if b.done || i <= 0 || i >= len(b.t.nodes) || b.t.nodes[i].kind != Element {
		return
	}
	b.t.nodes[i].display, b.t.nodes[i].visibility = d, v
}

// Len is the number of nodes added so far, the document included.
func (b *Builder) Len() int { return len(b.t.nodes) }

// SetDocumentBackendID records the document node's backend node id.
func (b *Builder) SetDocumentBackendID(id int64) { b.setBackend(0, id) }

// AddElement appends an element as the last child of parent and returns its index.
func (b *Builder) AddElement(parent int, name string, attrs []Attr, info ElementInfo) (int, error) {
	name = ToLowerASCII(name)
	i, err := b.add(parent, Element, name)
	if err != nil {
		return 0, err
	}
	r := &b.t.nodes[i]
	r.display, r.visibility, r.flags = info.Display, info.Visibility, info.Flags
	if info.Checked {
		r.bits |= bitChecked
	}
	keepValue := name != "input" || !InputValueSecret(firstType(attrs))
	for _, a := range attrs {
		a.Name = ToLowerASCII(a.Name)
		if a.Name == "value" && !keepValue {
			continue // secret rule: a control's value never enters the tree
		}
		b.t.attrs = append(b.t.attrs, a)
	}
	b.setBackend(i, info.BackendNodeID)
	return int(i), nil
}

// AddText appends a text node. Text under a textarea is stored empty.
func (b *Builder) AddText(parent int, text string, backendID int64) (int, error) {
	if b.validParent(parent) && b.t.nodes[parent].kind == Element && b.data(parent) == "textarea" {
		text = "" // secret rule: a textarea's content is its value
	}
	i, err := b.add(parent, Text, text)
	if err == nil {
		b.setBackend(i, backendID)
	}
	return int(i), err
}

// AddComment appends a comment node.
func (b *Builder) AddComment(parent int, text string, backendID int64) (int, error) {
	i, err := b.add(parent, Comment, text)
	if err == nil {
		b.setBackend(i, backendID)
	}
	return int(i), err
}

// AddDoctype appends a doctype node.
func (b *Builder) AddDoctype(parent int, name string, backendID int64) (int, error) {
	i, err := b.add(parent, Doctype, name)
	if err == nil {
		b.setBackend(i, backendID)
	}
	return int(i), err
}

func (b *Builder) validParent(p int) bool { return p >= 0 && p < len(b.t.nodes) }

// data is node i's name or content while its chunk may still be filling.
// The comparisons it serves allocate nothing.
func (b *Builder) data(i int) string {
	r := &b.t.nodes[i]
	if r.dataLen == 0 {
		return ""
	}
	slot, pos := int(r.dataOff>>chunkBits), r.dataOff&(chunkSize-1)
	if slot == b.cur {
		return string(b.buf[pos : pos+r.dataLen])
	}
	return b.t.text[slot][pos : pos+r.dataLen]
}

// firstChunkCap is the capacity the text buffer starts with.
const firstChunkCap = 4 << 10

// maxSlots is how many chunk slots a tree's text may take, so that every
// offset fits its uint32 field (4 GiB of offset space); tests lower it.
var maxSlots = 1 << (32 - chunkBits)

// span stores data in the text and returns where it lies: a slot and a
// position packed in one offset. Small data is copied into the current
// chunk; data over a quarter of a chunk is kept as it is, in slots of its
// own (it is one allocation already, so copying it would gain nothing). An
// element's name is stored once however many elements carry it.
func (b *Builder) span(kind Kind, data string) (off, n uint32, err error) {
	if len(data) == 0 {
		return 0, 0, nil
	}
	if kind == Element {
		if off, ok := b.names[data]; ok {
			return off, uint32(len(data)), nil
		}
	}
	if len(data) > chunkSize/4 {
		slots := (len(data) + chunkSize - 1) / chunkSize
		if len(b.t.text)+slots > maxSlots {
			return 0, 0, errTooMuchText()
		}
		off = uint32(len(b.t.text)) << chunkBits
		b.t.text = append(b.t.text, data)
		for range slots - 1 {
			b.t.text = append(b.t.text, "") // the offsets data spans
		}
	} else {
		if b.cur < 0 || len(b.buf)+len(data) > chunkSize {
			if len(b.t.text)+1 > maxSlots {
				return 0, 0, errTooMuchText()
			}
			b.seal()
			b.cur = len(b.t.text)
			b.t.text = append(b.t.text, "") // filled by seal
			if b.buf == nil {
				// A small page's text fits in a few KiB: the buffer
				// starts there and doubles as it fills, up to
				// chunkSize. Starting at chunkSize cost every tree
				// 64 KiB, zeroed, which was a tenth of what a 1k-node
				// page allocates.
				b.buf = make([]byte, 0, firstChunkCap)
			}
		}
		if need := len(b.buf) + len(data); need > cap(b.buf) {
			grown := make([]byte, len(b.buf), min(chunkSize, max(2*cap(b.buf), need)))
			copy(grown, b.buf)
			b.buf = grown
		}
		off = uint32(b.cur)<<chunkBits | uint32(len(b.buf))
		b.buf = append(b.buf, data...)
	}
	if kind == Element {
		b.names[data] = off
	}
	return off, uint32(len(data)), nil
}

// errTooMuchText is made only when needed: a value built on every call
// would be an allocation a node.
func errTooMuchText() error {
	return &BuildError{Msg: "more text than a tree holds (4 GiB)"}
}

// seal copies the current chunk into its slot.
func (b *Builder) seal() {
	if b.cur >= 0 {
		b.t.text[b.cur] = string(b.buf)
		b.buf = b.buf[:0]
	}
}

func (b *Builder) add(parent int, kind Kind, data string) (int32, error) {
	if b.done {
		return 0, &BuildError{Msg: "builder already built"}
	}
	if b.sealed {
		return 0, &BuildError{Msg: "the document was cut at its horizon"}
	}
	if !b.validParent(parent) {
		return 0, &BuildError{Msg: fmt.Sprintf("parent index %d out of range", parent)}
	}
	if len(b.t.nodes) >= math.MaxInt32-1 {
		return 0, &BuildError{Msg: "too many nodes"}
	}
	pk := b.t.nodes[parent].kind
	if pk != Element && pk != Document {
		return 0, &BuildError{Msg: fmt.Sprintf("parent %d is a %s node, which has no children", parent, pk)}
	}
	if kind == Doctype && pk != Document {
		return 0, &BuildError{Msg: "doctype outside the document node"}
	}
	// Pop the open path back to the parent; if it is not on the path, the
	// parent's subtree was already closed and the order is not pre-order.
	p := int32(parent)
	for len(b.open) > 0 && b.open[len(b.open)-1] != p {
		b.open = b.open[:len(b.open)-1]
	}
	if len(b.open) == 0 {
		return 0, &BuildError{Msg: fmt.Sprintf("node %d is not in tree order: its parent %d closed earlier", len(b.t.nodes), parent)}
	}
	off, n, err := b.span(kind, data)
	if err != nil {
		return 0, err
	}
	i := int32(len(b.t.nodes))
	b.t.nodes = append(b.t.nodes, record{
		parent: p, lastChild: none, prevSibling: none,
		kind: kind, dataOff: off, dataLen: n,
		attrStart: int32(len(b.t.attrs)),
	})
	pr := &b.t.nodes[p]
	b.t.nodes[i].prevSibling = pr.lastChild
	pr.lastChild = i
	b.open = append(b.open, i)
	return i, nil
}

func (b *Builder) setBackend(i int32, id int64) {
	if id == 0 && b.t.backend == nil {
		return
	}
	if b.t.backend == nil {
		b.t.backend = make([]int64, len(b.t.nodes), cap(b.t.nodes))
	}
	for len(b.t.backend) < len(b.t.nodes) {
		b.t.backend = append(b.t.backend, 0)
	}
	b.t.backend[i] = id
}

// Build finishes the tree: subtree ends, exclusion, and the indexes. The
// builder cannot be used afterwards.
func (b *Builder) Build() *Tree {
	t := b.t
	b.done = true
	b.seal()
	b.buf, b.names, b.cur = nil, nil, -1
	if t.backend != nil {
		for len(t.backend) < len(t.nodes) {
			t.backend = append(t.backend, 0)
		}
	}
	// Subtree ends, children before parents: walking backwards, a node's end
	// is its last child's end, or itself plus one.
	for i := len(t.nodes) - 1; i >= 0; i-- {
		r := &t.nodes[i]
		if r.lastChild == none {
			r.end = int32(i) + 1
		} else {
			r.end = t.nodes[r.lastChild].end
		}
	}
	t.finishScopes()
	t.ids = make(map[string]int32)
	t.labelsFor = make(map[string][]int32)
	// Parents come before children, so one forward pass inherits exclusion.
	for i := 1; i < len(t.nodes); i++ {
		r := &t.nodes[i]
		n := Node{t, int32(i)}
		parent := Node{t, r.parent}
		if parent.Excluded() || selfExcluded(n, parent) {
			r.bits |= bitExcluded
		}
		if r.kind != Element {
			continue
		}
		if t.scope != nil && t.scope[i] != 0 {
			f := ""
			if t.data(r) == "label" {
				f = n.AttrValue("for")
			}
			t.indexScoped(int32(i), t.scope[i], n.AttrValue("id"), f)
			continue
		}
		if id, ok := n.Attr("id"); ok && id != "" {
			if _, seen := t.ids[id]; !seen {
				t.ids[id] = int32(i)
			}
		}
		if t.data(r) == "label" {
			if f, ok := n.Attr("for"); ok && f != "" {
				t.labelsFor[f] = append(t.labelsFor[f], int32(i))
			}
		}
	}
	b.open = nil
	// Building reads nodes through the cursor, as an analysis would; only
	// the analyses' reads count.
	t.reached.Store(false)
	return t
}

// selfExcluded applies the exclusion rules that concern n itself.
func selfExcluded(n, parent Node) bool {
	if parent.Is("details") && !parent.HasAttr("open") && !isFirstSummary(n, parent) {
		return true
	}
	if n.Kind() != Element {
		return false
	}
	if n.Display() == DisplayNone || n.AttrEquals("aria-hidden", "true") {
		return true
	}
	switch n.Name() {
	case "head", "script", "style", "template", "noscript", "title":
		return true
	case "input":
		return n.AttrEquals("type", "hidden")
	}
	return false
}

func isFirstSummary(n, details Node) bool {
	if !n.Is("summary") {
		return false
	}
	for c := range details.ChildElements() {
		if c.Is("summary") {
			return c == n
		}
	}
	return false
}

// firstType is the value of the first type attribute, "" when there is
// none.
func firstType(attrs []Attr) string {
	for _, a := range attrs {
		if EqualFold(a.Name, "type") {
			return a.Value
		}
	}
	return ""
}
