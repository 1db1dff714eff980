package mcp

import (
	"context"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/live"
)

// The tools reach a live session only through these functions, so a
// change to live's entry points is made here once.

// observeLive takes a fresh observation of the session's page, with req's
// extraction when req is not nil, once cond (when not nil) holds; with
// expand, the observation covers that region of the latest one alone.
func observeLive(ctx context.Context, l *live.Session, req domsnap.Query, expand *domsnap.Expansion, cond *live.Condition) (*domsnap.Observation, error) {
	o, _, err := l.Observe(ctx, live.ReadOptions{Query: req, Expand: expand, When: cond})
	return o, err
}

// checkCurrentLive checks that expected is the session's latest revision,
// not invalidated since, as an action needs.
func checkCurrentLive(ctx context.Context, l *live.Session, expected string) error {
	return l.CheckCurrent(ctx, expected)
}

// actLive performs one action on the session's page.
func actLive(ctx context.Context, l *live.Session, expected string, a live.Action, t *live.Target, o live.ActOptions) (live.ActResult, error) {
	return l.Act(ctx, expected, a, t, o)
}
