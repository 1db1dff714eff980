package live

import (
	"context"
	"errors"
	"time"
)

// watch implements actor: it opens the tab's navigation watcher before the
// input is sent, so nothing the input causes is missed. It also makes sure
// the tab's popups are being closed before any input can open one.
func (p *Page) watch(ctx context.Context) (effectWatch, error) {
	if err := p.closePopups(ctx); err != nil {
		return nil, err
	}
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return nil, callError(ctx, "Page.getFrameTree", err)
	}
	p.act.submitted.Store(false)
	p.act.guard.Store(nil)
	w, err := p.openNavWatch(ctx, string(tree.FrameTree.Frame.ID), func(what string, err error) error {
		return callError(ctx, what, err)
	})
	if err != nil {
		return nil, err
	}
	// The click's own dispatch runs a beforeunload handler, so its dialog
	// may be answered before the wait begins.
	w.stayed0 = p.stayed.Load()
	return w, nil
}

// wait implements effectWatch: it follows the page until the wait o asks
// for is over (ActOptions.Until), or deadline passes, which is not an
// error: the effects say how far the page got. history says the input was
// a step through the tab's history, which is awaited until it shows.
func (w *navWatch) wait(ctx context.Context, o ActOptions, deadline time.Time, history bool) (effects, error) {
	w.history = history
	outer := ctx
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	// The default wait gives up on the load event DOMReadyGrace after
	// DOMContentLoaded.
	var grace time.Duration
	if !o.UntilSet {
		grace = DOMReadyGrace
	}
	w.begin(grace)
	// The settle cap bounds the default wait of an action that does not
	// navigate, and the window in which a navigation it starts is noticed
	// with an explicit load or dom_ready wait.
	capped := !o.UntilSet || o.Until != UntilNetworkIdle
	w.settleAfter(ActSettleCap)
	// A click that submitted a form has asked for a navigation even when
	// the page has not asked the browser for it yet.
	w.submitted = w.p.act.submitted.Load()
	var eff effects
	err := w.run(ctx, func() bool {
		eff = w.effects()
		switch {
		case eff.Refused, w.graceOver:
			return true
		case w.committed:
			switch {
			case !o.UntilSet && w.loaded,
				o.UntilSet && o.Until == UntilLoad && w.loaded,
				o.UntilSet && o.Until == UntilDOMReady && w.domReady,
				o.UntilSet && o.Until == UntilNetworkIdle && w.loaded && w.quiet:
				return true
			}
		case w.started:
			// A navigation in flight: wait for its commit.
		case w.history && !w.withinDoc:
			// The step back has not shown yet.
		case (w.quiet && !w.requested && !w.submitted) || (capped && w.settled):
			eff.Busy = len(w.inflight) > 0
			// A beforeunload dialog answered "stay" cancelled the
			// navigation asked for: the page stays, which is done.
			eff.Asked = (w.requested && w.toPage || w.submitted) && w.p.stayed.Load() == w.stayed0
			return true
		}
		return false
	})
	if err == nil {
		return eff, nil
	}
	if cerr := endedFirst(outer, ctx); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return w.deadline(), nil
		}
		return w.effects(), cancelled(cerr)
	}
	return w.effects(), callError(ctx, "following the page after the action", err)
}

// endedFirst is why the wait's context ended, asking the action's context
// (outer, on which the watcher's event streams were opened) before the
// wait's own (inner, derived from it). When outer's deadline passes, a
// stream sees it and closes, and the wait reads that close as an error,
// possibly before inner is cancelled in turn: its own timer, due at the
// same instant, or outer's cancellation reaching it, can come a moment
// later on a busy machine, where a deadline passed was once reported as a
// failure to follow the page. outer's error is set before its streams can
// see it end, so asking outer first never misses it.
func endedFirst(outer, inner context.Context) error {
	if err := outer.Err(); err != nil {
		return err
	}
	return inner.Err()
}

// effects is what the page did so far.
func (w *navWatch) effects() effects {
	eff := effects{Started: w.started, Committed: w.committed, Loaded: w.loaded,
		Refused: w.p.Refused() != w.refused0, HandedOff: w.handedOff}
	if w.committed {
		eff.Status = w.status(w.loader)
	}
	return eff
}

// deadline is the effects when the deadline passed: requests still in
// flight mean the page was busy.
func (w *navWatch) deadline() effects {
	eff := w.effects()
	if !w.committed && len(w.inflight) > 0 {
		eff.Busy = true
	}
	return eff
}
