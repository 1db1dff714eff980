package live

import (
	"context"
	"encoding/json"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
)

// Bounded observations. An observation that computes something (an
// inventory, an extraction, a condition) over a driver that can take
// bounded captures (BoundedSnapshotter, which Page is) does not ask for
// the whole page: it reads the main document in tree order until it has
// read a budget of nodes, builds a partial tree (capture.DecodeBounded,
// with the whole capture's checks), and computes. The tree notes any read
// past where the capture stopped, its horizon (domtree.Builder.MarkHorizon);
// when one happened, by the condition or by any scan of the computation,
// the capture is retaken with twice the budget and everything is computed
// again, up to the whole page (limits.MaxTreeNodes nodes). So the answer is
// always the one the whole snapshot gives, and its cost is what the scans
// read, not what the page holds. A page that ends within the budget is read
// whole the first time.
//
// The budget counts what a scan pays for: every node except those inside
// an element no scan enters (one not rendered, aria-hidden, the head, a
// script; docs/reference.md#visibility). Such an element costs a
// scan one node however large it is, and costs the budget one node too, so
// a page with a large hidden menu or a long head is read as far as its
// scans go without a retake. The nodes inside are still read (the partial
// tree must hold every node before its horizon), but they are bounded by
// limits.MaxTreeNodes like any capture.
//
// A page whose document holds content that content-visibility may skip is
// the exception: what of it the whole snapshot lists depends on what the
// browser rendered before, which no script can see (walkerSource), so on
// meeting such content the walker gives up (errWholePage) and the
// observation takes the whole snapshot.
//
// A capture taken to be saved (Capture) stays the whole
// snapshot: a saved snapshot must hold the page.

// DefaultBudget is the budget of an observation's first bounded capture.
// The inventory's collection scan and the page view's scan walk the same
// nodes and pay at most limits.CollectionScanNodes each; the inventory's
// row scans start at a collection the collection scan met and pay at most
// limits.RowScanNodes each. So one capture covers an observation on every
// page, unless a collection near the end of the scan holds nodes a row scan
// does not pay for (a control's options) in numbers.
const DefaultBudget = limits.CollectionScanNodes + limits.RowScanNodes

// ExtractBudget is the first budget of an extraction without an
// inventory: the collection scan stops at its collection and the row scan
// stays inside it, so a collection near the top of the page is read in a
// few thousand nodes, and one further down costs the doublings that reach
// it, at most twice what it needs.
const ExtractBudget = 2048

// startBudget is the first budget of an observation whose kind asks for
// spec (0: DefaultBudget), unless SessionOptions.FirstBudget sets one.
func (s *Session) startBudget(spec int) int {
	switch {
	case s.opts.FirstBudget > 0:
		return s.opts.FirstBudget
	case spec > 0:
		return spec
	}
	return DefaultBudget
}

// growBudget is the budget after b, for a capture whose tree t was read
// past its horizon (nextBudget).
func growBudget(b int, t *domtree.Tree) (int, error) {
	return nextBudget(b, t.Horizon(), limits.MaxTreeNodes)
}

// nextBudget is twice b, up to bound, after a capture that held held nodes.
// A page cut with a budget of bound nodes, or by the bound itself (a
// capture cut when it held as many nodes as any tree may), is too large,
// as it is for the whole snapshot: a retake would read no further.
func nextBudget(b, held, bound int) (int, error) {
	// The walker stops before a node, and its shadow root's place, that
	// would pass the bound, so a capture it cut holds bound-1 nodes or more.
	if b >= bound || held >= bound-1 {
		return 0, readbound.TooManyNodes(pkg, bound)
	}
	return min(2*b, bound), nil
}

// captureBoundedTree takes one bounded capture and builds its tree. The
// returned closer ends the capture (BoundedCapture.Close) once nothing
// reads the tree's backend ids any more, and reports a failure to find one.
// The identifier tells the tree's elements apart across the document's
// captures: by the capture's Identify, in one call for all of them, or
// else by their backend ids, one call each.
func captureBoundedTree(ctx context.Context, bs BoundedSnapshotter, budget int, again bool) (json.RawMessage, *domtree.Tree, func() error, identifier, error) {
	c, err := bs.captureBounded(ctx, budget, again)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	closer := c.Close
	if closer == nil {
		closer = func() error { return nil }
	}
	if c.Shadow || len(c.Hosts) > 0 {
		// Shadow content is in the page view (the composed tree), and
		// only the whole snapshot lists it, slotted nodes under their
		// slots and closed roots included.
		closer()
		return nil, nil, nil, nil, errWholePage
	}
	t, err := capture.DecodeBounded(c.Raw, limits.MaxTreeNodes, c.Hosts, c.Resolve, c.Find)
	if err != nil {
		closer()
		return nil, nil, nil, nil, err
	}
	identify := identifier(backendIdentity)
	if c.Identify != nil {
		identify = func(ctx context.Context, nodes []domtree.Node) (int64, []int64, error) {
			// A bounded tree's key of a node is its index in the
			// capture plus one (capture.DecodeBounded).
			idx := make([]int, len(nodes))
			for i, n := range nodes {
				idx[i] = int(n.BackendKey()) - 1
			}
			return c.Identify(ctx, idx)
		}
	}
	return c.Raw, t, closer, identify, nil
}
