package live

import (
	"context"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// observeExpanded is Observe with the page view's scan anchored at a
// region of the session's latest observation (docs/reference.md#expansion).
// Under the session lock and before the snapshot, the region's revision is
// checked exactly as a request's expected revision is (foreign_revision,
// navigated_revision, stale_revision; and foreign_revision when it names a
// capture or extraction, which publish no regions), then the reference: one
// that observation did not publish is unknown_reference, anything else in
// its place invalid_reference. Refusals change nothing. The region's
// element is found again in the new capture by the browser's node id; when
// it is gone, the call fails with unknown_reference after the capture, and
// like any failed observation that invalidates the previous one, since the
// page changed.
func (s *Session) observeExpanded(ctx context.Context, opts ReadOptions) (*domsnap.Observation, *Snapshot, error) {
	ex := *opts.Expand
	if ex.Revision == "" {
		return nil, nil, errcode.New(errcode.InvalidRequest, pkg, "/expected_revision", "an expansion needs the revision of the observation that published its region")
	}
	spec := opts.spec()
	spec.expected, spec.region = ex.Revision, ex.Ref
	obs, snap, err := s.observeCompute(ctx, spec, func(t *domtree.Tree, rev string, q *domsnap.Checked, from *domsnap.Observation, num domsnap.Numbering) (*domsnap.Observation, error) {
		return domsnap.ObserveNumbered(t, rev, q, &domsnap.Expansion{From: from, Region: ex.Ref}, num)
	})
	if err != nil {
		return nil, nil, err
	}
	return obs, snap, nil
}
