package domtree

import (
	"iter"
	"strings"
)

// A page built of web components has two trees a reader may mean
// (docs/reference.md#the-composed-page). The light tree is the main
// document alone: the extraction walks it, and its indexes and answers do
// not depend on what shadow roots hold. The composed (flat) tree is the
// page as it is rendered: a shadow host's children are its shadow root's
// children, each slot stands for the light nodes assigned to it (its own
// children when none are), and unassigned light children are absent. The
// page view walks that one.
//
// Both are ordinary Trees. A source that saw shadow content builds the
// composed tree first, then hands it to the light tree's builder
// ([Builder.SetComposed]); [Tree.Composed] returns it, or the tree itself
// when the page has no shadow content, which costs nothing.
//
// Each node of a composed tree belongs to a tree scope: 0 for the main
// document, and for a shadow tree a positive number the source gives
// ([Builder.SetScope]). ID references (getElementById, label for,
// aria-labelledby) resolve within the node's own scope, as browsers
// resolve them ([Node.ElementByID], [Node.LabelsFor]).

// scopeKey is an id or label-for key inside a shadow tree's scope.
type scopeKey struct {
	scope int32
	id    string
}

// scoped is what a tree with shadow scopes records besides its nodes.
type scoped struct {
	// scope is each node's tree scope; nil when every node is in scope 0.
	scope []int32
	// scopedIDs and scopedLabels are the id and label-for indexes of the
	// shadow scopes; scope 0 keeps Tree.ids and Tree.labelsFor.
	scopedIDs    map[scopeKey]int32
	scopedLabels map[scopeKey][]int32
	// composed is the light tree's composed twin; nil when there is none.
	// lightTree is the way back, from a composed tree to its light twin,
	// so that a scan reading past a partial composed tree's horizon marks
	// the light tree, whose mark its source asks about.
	composed, lightTree *Tree
	// light maps a composed tree's node to its light tree index (-1 for a
	// node of a shadow tree); toComposed is the other way round, on the
	// light tree (-1 for a light node the composed tree leaves out).
	light, toComposed []int32
	// scopeFrame maps the tree scope of each frame document attached to
	// the composed tree, and of each shadow tree inside one, to the
	// frame's id as its source gave it; nil without frames.
	scopeFrame map[int32]string
	// framesOmitted counts the frame documents the source did not attach
	// (limits.MaxFrames, limits.MaxFrameDepth, a frame it was not allowed
	// or able to read).
	framesOmitted int
}

// SetScopeFrame says that tree scope s (not 0) is a frame document's, or
// a shadow tree's inside one, whose frame the source knows as id ("" when
// it does not say).
func (b *Builder) SetScopeFrame(s int32, id string) {
	if b.done || s == 0 {
		return
	}
	if b.t.scopeFrame == nil {
		b.t.scopeFrame = map[int32]string{}
	}
	b.t.scopeFrame[s] = id
}

// SetFramesOmitted records how many frame documents the source left out.
func (b *Builder) SetFramesOmitted(n int) {
	if !b.done && n > 0 {
		b.t.framesOmitted = n
	}
}

// FramesOmitted is how many frame documents the tree's source left out of
// it (docs/reference.md#the-composed-page).
func (t *Tree) FramesOmitted() int {
	if t == nil {
		return 0
	}
	return t.framesOmitted
}

// HasFrames reports whether t is a composed tree holding frame documents.
func (t *Tree) HasFrames() bool { return t != nil && len(t.scopeFrame) > 0 }

// Frame says whether n lies in a frame document attached to the composed
// tree, and that frame's id as the source gave it.
func (n Node) Frame() (id string, ok bool) {
	if n.t == nil || n.t.scopeFrame == nil {
		return "", false
	}
	id, ok = n.t.scopeFrame[n.Scope()]
	return id, ok
}

// SetScope puts node i, added earlier, in tree scope s (0 is the main
// document). Scopes are numbered by the source; a node not set stays in 0.
// It is a no-op on a built tree or an index out of range.
func (b *Builder) SetScope(i int, s int32) {
	if b.done || i <= 0 || i >= len(b.t.nodes) || s == 0 {
		return
	}
	if b.t.scope == nil {
		b.t.scope = make([]int32, len(b.t.nodes), cap(b.t.nodes))
	}
	for len(b.t.scope) < len(b.t.nodes) {
		b.t.scope = append(b.t.scope, 0)
	}
	b.t.scope[i] = s
}

// SetLightIndex records that node i of a composed tree being built is the
// light tree's node li. Nodes not set are shadow-tree nodes.
func (b *Builder) SetLightIndex(i, li int) {
	if b.done || i < 0 || i >= len(b.t.nodes) || li < 0 {
		return
	}
	for len(b.t.light) < len(b.t.nodes) {
		b.t.light = append(b.t.light, none)
	}
	b.t.light[i] = int32(li)
}

// SetComposed gives the light tree being built its composed twin, built
// already with every light node's index set (SetLightIndex). A partial
// twin is a prefix of the composed tree as a partial light tree is of the
// light one, and reaching past its horizon marks the light tree too. A
// tree that is some tree's twin already, or has one, is refused.
func (b *Builder) SetComposed(c *Tree) {
	if b.done || c == nil || c == b.t || c.lightTree != nil || c.composed != nil {
		return
	}
	b.t.composed = c
	// The twin is built but not yet handed to anyone: this is the one
	// field set on it after its Build.
	c.lightTree = b.t
}

// finishScopes completes, at Build, the per-scope indexes and the map from
// light nodes to composed ones.
func (t *Tree) finishScopes() {
	if t.scope != nil {
		for len(t.scope) < len(t.nodes) {
			t.scope = append(t.scope, 0)
		}
	}
	if t.light != nil {
		for len(t.light) < len(t.nodes) {
			t.light = append(t.light, none)
		}
	}
	if c := t.composed; c != nil {
		t.toComposed = make([]int32, len(t.nodes))
		for i := range t.toComposed {
			t.toComposed[i] = none
		}
		for ci, li := range c.light {
			if li >= 0 && int(li) < len(t.toComposed) {
				t.toComposed[li] = int32(ci)
			}
		}
	}
}

// indexScoped records element i's id and label-for in its shadow scope s;
// scope 0 is indexed by Build itself.
func (t *Tree) indexScoped(i int32, s int32, id, labelFor string) {
	if id != "" {
		if t.scopedIDs == nil {
			t.scopedIDs = map[scopeKey]int32{}
		}
		k := scopeKey{s, id}
		if _, seen := t.scopedIDs[k]; !seen {
			t.scopedIDs[k] = i
		}
	}
	if labelFor != "" {
		if t.scopedLabels == nil {
			t.scopedLabels = map[scopeKey][]int32{}
		}
		k := scopeKey{s, labelFor}
		t.scopedLabels[k] = append(t.scopedLabels[k], i)
	}
}

// Composed is the tree's composed (flat) twin, or the tree itself when the
// source saw no shadow content (or t is a composed tree already).
func (t *Tree) Composed() *Tree {
	if t != nil && t.composed != nil {
		return t.composed
	}
	return t
}

// HasShadow reports whether t is a composed tree holding shadow-tree nodes.
func (t *Tree) HasShadow() bool { return t != nil && t.scope != nil }

// InComposed is the composed tree's node for the light node n, or the zero
// Node when the composed tree leaves n out (an unassigned light child of a
// shadow host) or n is of another tree. Without a composed twin it is n.
func (t *Tree) InComposed(n Node) Node {
	if t == nil || n.t != t {
		return Node{}
	}
	if t.composed == nil {
		return n
	}
	if int(n.i) >= len(t.toComposed) || t.toComposed[n.i] == none {
		return Node{}
	}
	return Node{t.composed, t.toComposed[n.i]}
}

// Scope is n's tree scope: 0 for the main document, another number for a
// shadow tree.
func (n Node) Scope() int32 {
	if n.t == nil || n.t.scope == nil || int(n.i) >= len(n.t.scope) {
		return 0
	}
	return n.t.scope[n.i]
}

// InShadow reports whether n lies in a shadow tree or a frame document:
// outside the main document's own tree scope.
func (n Node) InShadow() bool { return n.Scope() != 0 }

// ElementByID is the first element in tree order with id exactly id in
// n's own tree scope, as getElementById on n's root does.
func (n Node) ElementByID(id string) (Node, bool) {
	s := n.Scope()
	if s == 0 {
		return n.t.ElementByID(id)
	}
	if id == "" {
		return Node{}, false
	}
	i, ok := n.t.scopedIDs[scopeKey{s, id}]
	if !ok {
		if n.t.Partial() {
			n.t.reach() // the element may lie past the horizon
		}
		return Node{}, false
	}
	return Node{n.t, i}, true
}

// LabelsFor yields, in tree order, the label elements in n's own tree
// scope whose for attribute is exactly id.
func (n Node) LabelsFor(id string) iter.Seq[Node] {
	s := n.Scope()
	if s == 0 {
		return n.t.LabelsFor(id)
	}
	return func(yield func(Node) bool) {
		if id == "" {
			return
		}
		if n.t.Partial() && n.t.labelsBeyond {
			n.t.reach()
		}
		for _, i := range n.t.scopedLabels[scopeKey{s, id}] {
			if !yield(Node{n.t, i}) {
				return
			}
		}
	}
}

// MayHostShadow reports whether an element of this lower-case name may
// host a shadow root: a name with a hyphen (a custom element's; the
// validity of the rest is left to the source) or one of the HTML elements
// attachShadow accepts.
func MayHostShadow(name string) bool {
	switch name {
	case "article", "aside", "blockquote", "body", "div", "footer",
		"h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span":
		return true
	}
	return strings.Contains(name, "-")
}
