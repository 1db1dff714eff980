package live

import (
	"context"
	"encoding/json"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
)

// DefaultHorizon is the node horizon of an observation's first bounded
// capture. The collection scan visits at most limits.CollectionScanNodes
// nodes from the document, so twice that covers it on a page whose early
// excluded subtrees (the head, scripts, hidden blocks, each skipped for a
// node of budget) stay small, and a page that small is read whole. A scan
// that reads further doubles it (growHorizon).
const DefaultHorizon = 2 * limits.CollectionScanNodes

// Bounded observations. An observation that computes something (an
// inventory, an extraction, a condition) over a driver that can take
// bounded captures (BoundedSnapshotter, which Page is) does not ask for
// the whole page: it reads the main document in tree order up to a node
// horizon, builds a partial tree (capture.DecodeBounded, with the whole
// capture's checks), and computes. The tree notes any read past its
// horizon (domtree.Builder.MarkHorizon); when one happened, by the
// condition or by any scan of the computation, the capture is retaken with
// twice the horizon and everything is computed again, up to the whole page
// (limits.MaxTreeNodes nodes). So the answer is always the one the whole
// snapshot gives, and its cost is what the scans read, not what the page
// holds. A page that ends before the horizon is read whole the first time.
//
// A capture taken to be saved (Capture) stays the whole
// snapshot: a saved snapshot must hold the page.

// ExtractHorizon is the first horizon of an extraction without an
// inventory: the collection scan stops at its collection and the row scan
// stays inside it, so a collection near the top of the page is read in a
// few thousand nodes, and one further down costs the doublings that reach
// it, at most twice what it needs.
const ExtractHorizon = 2048

// startHorizon is the first horizon of an observation whose kind asks for
// spec (0: DefaultHorizon); a test may set another for the session.
func (s *Session) startHorizon(spec int) int {
	switch {
	case s.horizon > 0:
		return s.horizon
	case spec > 0:
		return spec
	}
	return DefaultHorizon
}

// growHorizon is the horizon after h: twice h, up to limits.MaxTreeNodes.
// A page still cut at that many nodes is too large, as it is for the whole
// snapshot.
func growHorizon(h int) (int, error) {
	if h >= limits.MaxTreeNodes {
		return 0, readbound.TooManyNodes(pkg, limits.MaxTreeNodes)
	}
	return min(2*h, limits.MaxTreeNodes), nil
}

// captureBoundedTree takes one bounded capture and builds its tree. The
// returned closer ends the capture (BoundedCapture.Close) once nothing
// reads the tree's backend ids any more, and reports a failure to find one.
func captureBoundedTree(ctx context.Context, bs BoundedSnapshotter, horizon int, again bool) (json.RawMessage, *domtree.Tree, func() error, error) {
	c, err := bs.CaptureBounded(ctx, horizon, again)
	if err != nil {
		return nil, nil, nil, err
	}
	closer := c.Close
	if closer == nil {
		closer = func() error { return nil }
	}
	t, err := capture.DecodeBounded(c.Raw, limits.MaxTreeNodes, c.Hosts, c.Resolve)
	if err != nil {
		closer()
		return nil, nil, nil, err
	}
	return c.Raw, t, closer, nil
}
