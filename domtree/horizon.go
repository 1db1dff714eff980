package domtree

import (
	"math"
	"sync/atomic"
)

// A tree may be partial: a source that read a document only up to a point
// in tree order (a horizon) builds the nodes before it and then calls
// [Builder.MarkHorizon]. Analyses run on such a tree as on any other, and
// the tree notes when one of them looked past the horizon; the source then
// reads further and runs the analysis again. This is how a live observation
// costs what its scans read rather than what the page holds, with answers
// equal to those of the whole document.
//
// The check is generic: it is made by the tree's own accessors, not by the
// scans, so every scan, present or future, is covered. A partial tree's
// nodes before the horizon are exactly the document's first nodes in tree
// order, with their names, attributes, styles and ancestors, so every
// answer that stays among them is the whole document's answer. What a
// prefix cannot know is what follows it, and MarkHorizon puts a stand-in
// there: a comment node as the last child of every node left open (the
// document, the ancestors of the last node read, and that node). Any step
// that would reach the document's continuation — a next sibling or last
// child of an open node, the next node of a walk, a subtree iteration, the
// node at an index past the horizon — hands out a stand-in, and handing out
// a node at or past the horizon is what sets the mark. The answers a prefix
// cannot give without stepping (the tree's length, the size of an open
// subtree, an id not found, the labels of an id when labels lie beyond)
// set it directly.
//
// Setting the mark is the only change a built tree ever sees; it is an
// atomic flag, so concurrent readers stay safe.

// noHorizon is the horizon of a whole tree: no index reaches it.
const noHorizon = math.MaxInt32

// horizonState is what a partial tree records besides its nodes.
type horizonState struct {
	// horizon is the index of the first stand-in; noHorizon for a whole tree.
	horizon int32
	// labelsBeyond says label elements with a for attribute may lie past
	// the horizon, so LabelsFor cannot answer from the prefix.
	labelsBeyond bool
	reached      atomic.Bool
}

// MarkHorizon ends a partial document: the nodes added so far are the
// document's first nodes in tree order, and more follow. labelsBeyond says
// whether a label element with a for attribute may follow (a source that
// counted them all and read every one passes false, so label lookups stay
// exact). It adds the stand-ins described above; nothing may be added
// after it. It is a no-op on a built tree or when called twice.
func (b *Builder) MarkHorizon(labelsBeyond bool) {
	if b.done || b.t.horizon != noHorizon {
		return
	}
	h := int32(len(b.t.nodes))
	// The open path, deepest first: each stand-in closes one open node.
	// Only elements and the document have children.
	open := append([]int32(nil), b.open...)
	for k := len(open) - 1; k >= 0; k-- {
		p := open[k]
		if kind := b.t.nodes[p].kind; kind != Element && kind != Document {
			continue
		}
		if _, err := b.add(int(p), Comment, ""); err != nil {
			// add refuses only a built builder or an impossible
			// parent, neither of which the open path holds.
			panic("domtree: MarkHorizon: " + err.Error())
		}
	}
	b.t.horizon = h
	b.t.labelsBeyond = labelsBeyond
	b.sealed = true
}

// Partial reports whether t is a partial tree (see [Builder.MarkHorizon]).
func (t *Tree) Partial() bool { return t != nil && t.horizon != noHorizon }

// HorizonReached reports whether anything read t past its horizon since it
// was built: an analysis run on it may differ from the whole document's. It
// is always false for a whole tree.
func (t *Tree) HorizonReached() bool { return t != nil && t.reached.Load() }

// Horizon is the number of nodes before the horizon, the document
// included; Len for a whole tree. It does not set the mark.
func (t *Tree) Horizon() int {
	if t == nil {
		return 0
	}
	if t.horizon == noHorizon {
		return len(t.nodes)
	}
	return int(t.horizon)
}

// reach sets the mark.
func (t *Tree) reach() {
	if !t.reached.Load() {
		t.reached.Store(true)
	}
	if t.lightTree != nil {
		t.lightTree.reach()
	}
}

// past reports whether index i is at or past t's horizon, setting the mark
// if so.
func (t *Tree) past(i int32) bool {
	if i >= t.horizon {
		t.reach()
		return true
	}
	return false
}
