package domsnap

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// Expansion anchors an observation's view scan at one region of the latest
// observation (docs/reference.md#the-page-view): the new view scan starts at
// that region's element and covers its subtree alone, on a fresh
// limits.ViewScanNodes budget, so a page too large for one answer can be
// read region by region.
type Expansion struct {
	// From is the latest observation of the document, whose revision an
	// expand's expected_revision names. It keeps, privately, where each of
	// its regions lies.
	From *Observation
	// Region is a region reference From published.
	Region string
}

// ObserveExpanded is Observe with the page view's scan anchored at
// ex.Region; the inventory and req's extraction are as Observe computes
// them, unaffected. The new observation's view scan names the region it
// started at.
//
// Checks, in order: req (invalid_request); the current revision
// (malformed_snapshot) and req's expected revision as Observe checks them;
// then the expansion: a missing From is invalid_request; ex.Region must be
// a region reference (an evidence or action reference, or one that is
// malformed, is invalid_reference); From's revision must name this document
// (a file revision the same bytes, foreign_revision otherwise; a live one
// the same session, foreign_revision otherwise, and the same navigation,
// navigated_revision when the page navigated since); the region must be one
// From published (unknown_reference). Whether From is the latest of a live
// session's observations only the session knows: it checks an expand's
// expected_revision against its latest published revision before it
// captures, as it checks a request's.
//
// The region's element is found again by the browser's node id in a tree
// that records them (a later capture), else at the same place in a tree
// parsed from the same bytes; a region no longer in the document is
// unknown_reference.
func ObserveExpanded(t *domtree.Tree, revision string, req Query, ex Expansion) (*Observation, error) {
	q, err := Check(req)
	if err != nil {
		return nil, err
	}
	return analyze(t, revision, q, true, &ex, nil)
}

// check applies the expansion's checks against the current revision and
// returns where its region lay.
func (ex *Expansion) check(cur Revision) (regionAnchor, error) {
	if _, _, err := parseRegionRef(ex.Region); err != nil {
		return regionAnchor{}, err
	}
	if ex.From == nil {
		return regionAnchor{}, errcode.New(errcode.InvalidRequest, pkgName, "", "an expansion needs the observation that published its region")
	}
	from, err := ParseRevision(ex.From.Revision)
	if err != nil {
		return regionAnchor{}, err
	}
	if err := sameDocument(from, cur); err != nil {
		return regionAnchor{}, err
	}
	return ex.From.regionAnchorOf(ex.Region)
}

// sameDocument checks that from, an earlier revision, names the document cur
// names: the same bytes, or the same session and navigation with no later
// sequence.
func sameDocument(from, cur Revision) error {
	if from.IsFile() || cur.IsFile() || from.Session != cur.Session || from.Navigation > cur.Navigation ||
		(from.Navigation == cur.Navigation && from.Sequence > cur.Sequence) {
		return compareRevisions(from, cur)
	}
	if from.Navigation < cur.Navigation {
		return compareRevisions(from, cur)
	}
	return nil
}

// find returns the anchored region's element in t.
func (a regionAnchor) find(t *domtree.Tree, ref string) (domtree.Node, error) {
	// Regions are found in the composed tree, where the page view found
	// them (the tree itself when the page has no shadow content).
	t = t.Composed()
	gone := func() (domtree.Node, error) {
		return domtree.Node{}, errcode.New(errcode.UnknownReference, pkgName, "",
			"region reference "+errcode.Quote(ref)+" names an element no longer in the document")
	}
	if a.id.known() && t.HasBackendIDs() {
		id := a.id.get()
		if id == 0 {
			return gone()
		}
		// Where it was, if nothing moved it; the horizon is not crossed to
		// look, since the element may as well have moved up.
		if a.index < t.Horizon() {
			if n := t.At(a.index); n.IsElement() && n.BackendNodeID() == id {
				return n, nil
			}
		}
		if n, ok := t.NodeByBackendID(id); ok && n.IsElement() {
			return n, nil
		}
		return gone()
	}
	// At marks a partial tree when the index lies past its horizon.
	n := t.At(a.index)
	if a.index <= 0 || !n.IsElement() {
		return gone()
	}
	return n, nil
}
