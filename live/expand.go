package live

import (
	"context"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// observeExpanded is Observe with the page view's scan anchored at a
// region of the latest observation (docs/reference.md#expansion): ex.From
// must be the observation this session published last, and its revision
// is checked, under the session lock and before the snapshot, exactly as a
// request's expected revision is (foreign_revision, navigated_revision,
// stale_revision). A region reference From did not publish is
// unknown_reference and anything else in its place invalid_reference, both
// refused before anything is captured. The region's element is found
// again in the new capture by the browser's node id; when it is gone, the
// call fails with unknown_reference after the capture, and like any failed
// observation that invalidates the previous one, since the page changed.
func (s *Session) observeExpanded(ctx context.Context, opts ReadOptions) (*domsnap.Observation, *Snapshot, error) {
	ex := *opts.Expand
	if ex.From == nil {
		return nil, nil, errcode.New(errcode.InvalidRequest, pkg, "", "an expansion needs the observation that published its region")
	}
	// A bad reference is refused before anything is captured, so it
	// changes nothing.
	if err := ex.From.CheckRegion(ex.Region); err != nil {
		return nil, nil, err
	}
	var obs *domsnap.Observation
	snap, _, err := s.observeWith(ctx, observeSpec{req: opts.Query, once: opts.Once, cond: opts.When, expected: ex.From.Revision},
		func(t *domtree.Tree, rev string, q *domsnap.Checked) error {
			var err error
			obs, err = domsnap.ObserveExpanded(t, rev, q, ex)
			return err
		})
	if err != nil {
		return nil, nil, err
	}
	return obs, snap, nil
}
