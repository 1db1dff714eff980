package live

import (
	"context"
	"errors"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
)

// pageWatch follows what one action's input leads to in a tab: whether a
// main-frame navigation starts, commits and loads, and which requests are
// in flight. Its streams are opened before the input is sent, so nothing
// the input causes is missed.
type pageWatch struct {
	p        *Page
	main     string
	refused0 uint64

	reqNav    page.FrameRequestedNavigationClient
	navigated page.FrameNavigatedClient
	dom       page.DOMContentEventFiredClient
	load      page.LoadEventFiredClient
	sent      network.RequestWillBeSentClient
	resp      network.ResponseReceivedClient
	finished  network.LoadingFinishedClient
	failed    network.LoadingFailedClient

	eff      effects
	navReq   network.RequestID
	loader   network.LoaderID
	statuses map[network.LoaderID]int
	inflight map[network.RequestID]bool
	domReady bool
	// requested: the page asked for a main-frame navigation. It counts as
	// started only once its document request or its commit follows: a
	// mailto: link or a cancelled navigation asks and goes nowhere. Until
	// then the quiet period does not end the wait; the settle cap does.
	requested bool
}

// watch implements actor. It also makes sure the tab's popups are being
// closed before any input can open one.
func (p *Page) watch(ctx context.Context) (_ effectWatch, err error) {
	if err := p.closePopups(ctx); err != nil {
		return nil, err
	}
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return nil, callError(ctx, "Page.getFrameTree", err)
	}
	w := &pageWatch{p: p, main: string(tree.FrameTree.Frame.ID), refused0: p.Refused(),
		statuses: map[network.LoaderID]int{}, inflight: map[network.RequestID]bool{}}
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	c := p.client
	open := func(what string, f func() error) error {
		if err := f(); err != nil {
			return callError(ctx, what, err)
		}
		return nil
	}
	for _, s := range []struct {
		what string
		f    func() error
	}{
		{"Page.frameRequestedNavigation", func() (err error) { w.reqNav, err = c.Page.FrameRequestedNavigation(ctx); return }},
		{"Page.frameNavigated", func() (err error) { w.navigated, err = c.Page.FrameNavigated(ctx); return }},
		{"Page.domContentEventFired", func() (err error) { w.dom, err = c.Page.DOMContentEventFired(ctx); return }},
		{"Page.loadEventFired", func() (err error) { w.load, err = c.Page.LoadEventFired(ctx); return }},
		{"Network.requestWillBeSent", func() (err error) { w.sent, err = c.Network.RequestWillBeSent(ctx); return }},
		{"Network.responseReceived", func() (err error) { w.resp, err = c.Network.ResponseReceived(ctx); return }},
		{"Network.loadingFinished", func() (err error) { w.finished, err = c.Network.LoadingFinished(ctx); return }},
		{"Network.loadingFailed", func() (err error) { w.failed, err = c.Network.LoadingFailed(ctx); return }},
	} {
		if err := open(s.what, s.f); err != nil {
			return nil, err
		}
	}
	// The streams deliver in the order the browser sent the events: a
	// select over streams that are each ready would otherwise take a
	// request's failure before its start, or a commit before the request.
	if err := cdp.Sync(w.reqNav, w.navigated, w.dom, w.load, w.sent, w.resp, w.finished, w.failed); err != nil {
		return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "ordering the page's events", err)
	}
	// Network.enable is sent once per tab (openWatch says why).
	if !p.netEnabled.Load() {
		if err := c.Network.Enable(ctx, network.NewEnableArgs()); err != nil {
			return nil, callError(ctx, "Network.enable", err)
		}
		p.netEnabled.Store(true)
	}
	return w, nil
}

func (w *pageWatch) close() {
	for _, s := range []rpcc.Stream{w.reqNav, w.navigated, w.dom, w.load, w.sent, w.resp, w.finished, w.failed} {
		if s != nil {
			s.Close()
		}
	}
}

// wait consumes the events until the wait o asks for is over
// (ActOptions.Until), or deadline passes, which is not an error: the
// effects say how far the page got.
func (w *pageWatch) wait(ctx context.Context, o ActOptions, deadline time.Time) (effects, error) {
	start := time.Now()
	end := time.NewTimer(time.Until(deadline))
	defer end.Stop()
	// The settle cap bounds the default wait of an action that does not
	// navigate, and the window in which a navigation it starts is noticed
	// with an explicit load or dom_ready wait.
	capped := !o.UntilSet || o.Until != UntilNetworkIdle
	settle := time.NewTimer(time.Until(start.Add(ActSettleCap)))
	defer settle.Stop()
	var quiet *time.Timer
	quietOK := false
	rearm := func() {
		if quiet != nil {
			quiet.Stop()
		}
		quietOK = false
		if len(w.inflight) == 0 {
			quiet = time.NewTimer(NetworkIdleQuiet)
		} else {
			quiet = nil
		}
	}
	rearm()
	defer func() {
		if quiet != nil {
			quiet.Stop()
		}
	}()
	var domCap <-chan time.Time
	settled := false
	for {
		if w.p.Refused() != w.refused0 {
			w.eff.Refused = true
			return w.eff, nil
		}
		switch {
		case w.eff.Committed:
			switch {
			case !o.UntilSet && w.eff.Loaded,
				o.UntilSet && o.Until == UntilLoad && w.eff.Loaded,
				o.UntilSet && o.Until == UntilDOMReady && w.domReady,
				o.UntilSet && o.Until == UntilNetworkIdle && w.eff.Loaded && quietOK:
				return w.eff, nil
			}
		case w.eff.Started:
			// A navigation in flight: wait for its commit.
		case (quietOK && !w.requested) || (capped && settled):
			w.eff.Busy = len(w.inflight) > 0
			return w.eff, nil
		}
		var quietC <-chan time.Time
		if quiet != nil && !quietOK {
			quietC = quiet.C
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return w.deadline(), nil
			}
			return w.eff, cancelled(ctx.Err())
		case <-end.C:
			return w.deadline(), nil
		case <-settle.C:
			settled = true
		case <-quietC:
			quietOK = true
		case <-domCap:
			// The default wait gives up on the load event DOMReadyGrace
			// after DOMContentLoaded.
			return w.eff, nil
		case <-w.reqNav.Ready():
			ev, err := w.reqNav.Recv()
			if err != nil {
				return w.streamErr(ctx, err)
			}
			if string(ev.FrameID) == w.main {
				w.requested = true
			}
		case <-w.navigated.Ready():
			ev, err := w.navigated.Recv()
			if err != nil {
				return w.streamErr(ctx, err)
			}
			if ev.Frame.ParentID != nil {
				continue
			}
			w.eff.Started, w.eff.Committed = true, true
			w.loader = ev.Frame.LoaderID
			w.eff.Status = w.statuses[w.loader]
			w.eff.Loaded, w.domReady = false, false
			// A page restored from the back/forward cache is loaded as
			// it commits: no load event follows.
			if ev.Type == page.NavigationTypeBackForwardCacheRestore {
				w.eff.Loaded, w.domReady = true, true
			}
			rearm()
		case <-w.dom.Ready():
			if _, err := w.dom.Recv(); err != nil {
				return w.streamErr(ctx, err)
			}
			if w.eff.Committed {
				w.domReady = true
				if !o.UntilSet && domCap == nil {
					domCap = time.After(DOMReadyGrace)
				}
			}
		case <-w.load.Ready():
			if _, err := w.load.Recv(); err != nil {
				return w.streamErr(ctx, err)
			}
			if w.eff.Committed {
				w.eff.Loaded = true
				rearm()
			}
		case <-w.sent.Ready():
			ev, err := w.sent.Recv()
			if err != nil {
				return w.streamErr(ctx, err)
			}
			if ev.Type == network.ResourceTypeDocument && ev.FrameID != nil && string(*ev.FrameID) == w.main &&
				string(ev.RequestID) == string(ev.LoaderID) {
				w.eff.Started, w.navReq = true, ev.RequestID
			}
			w.inflight[ev.RequestID] = true
			rearm()
		case <-w.resp.Ready():
			ev, err := w.resp.Recv()
			if err != nil {
				return w.streamErr(ctx, err)
			}
			if ev.Type == network.ResourceTypeDocument && (ev.FrameID == nil || string(*ev.FrameID) == w.main) {
				w.statuses[ev.LoaderID] = ev.Response.Status
				if w.eff.Committed && ev.LoaderID == w.loader {
					w.eff.Status = ev.Response.Status
				}
			}
		case <-w.finished.Ready():
			ev, err := w.finished.Recv()
			if err != nil {
				return w.streamErr(ctx, err)
			}
			delete(w.inflight, ev.RequestID)
			rearm()
		case <-w.failed.Ready():
			ev, err := w.failed.Recv()
			if err != nil {
				return w.streamErr(ctx, err)
			}
			delete(w.inflight, ev.RequestID)
			if ev.RequestID == w.navReq && !w.eff.Committed {
				// The navigation ended before it committed: given up (a
				// download, a 204, an external scheme, the policy's
				// refusal, caught above by its count), or failed, when an
				// error page commits next, within the quiet period.
				w.eff.Started, w.navReq, w.requested = false, "", false
			}
			rearm()
		}
	}
}

// deadline is the effects when the deadline passed: requests still in
// flight mean the page was busy.
func (w *pageWatch) deadline() effects {
	if w.p.Refused() != w.refused0 {
		w.eff.Refused = true
	}
	if !w.eff.Committed && len(w.inflight) > 0 {
		w.eff.Busy = true
	}
	return w.eff
}

// streamErr is the end of the wait when a stream ended: the deadline's
// (no error), a cancellation, or the tab's end.
func (w *pageWatch) streamErr(ctx context.Context, err error) (effects, error) {
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return w.deadline(), nil
		}
		return w.eff, cancelled(cerr)
	}
	return w.eff, callError(ctx, "following the page after the action", err)
}
