package live

import (
	"context"
	"strings"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/rpcc"
)

// navWatch follows a tab's main-frame navigation for one call: Goto's wait
// for the navigation it started (wait.go) and an action's wait for what its
// input led to (act_watch.go). Both read the same events the same way; only
// when each wait is over differs.
//
// Its streams are opened before the navigation or the input, so no event of
// it is missed, and they are synchronised: they deliver in the order the
// browser sent the events. A select over streams that are each ready would
// otherwise pick among them at random, and could take a request's end
// before its start (the request then stays counted in flight, and an idle
// network never comes) or a document's commit before its request.
//
// The document is followed by its loader: a commit (Page.frameNavigated)
// names the main frame's new document, and only that document's lifecycle
// events count as its DOMContentLoaded and load. Page.loadEventFired names
// no document, so a load event of the document before, still loading when
// the navigation started, would be taken for the new one's.
type navWatch struct {
	p *Page
	// main is the main frame's id; requests, responses and lifecycle events
	// of other frames are not the navigation's.
	main string
	// awaited, when set, is the loader of the navigation Goto started:
	// commits before that navigation's own are not counted (the page's own
	// move, the guard's about:blank). Every main-frame commit after it
	// counts: a client redirect (a script or a meta refresh moving the new
	// page on before its load) makes the page it moved to the one waited
	// for, as a person waiting for the page would see it.
	awaited network.LoaderID
	// refused0 is the tab's count of requests the navigation policy
	// aborted when the watch opened.
	refused0 uint64

	reqNav    page.FrameRequestedNavigationClient
	navigated page.FrameNavigatedClient
	within    page.NavigatedWithinDocumentClient
	life      page.LifecycleEventClient
	sent      network.RequestWillBeSentClient
	resp      network.ResponseReceivedClient
	finished  network.LoadingFinishedClient
	failed    network.LoadingFailedClient

	// requested: the page asked for a main-frame navigation. started: the
	// navigation's document request went out (navReq), or a document
	// committed. A mailto: link or a cancelled navigation asks and goes
	// nowhere; a download, a 204 or the policy's refusal ends the document
	// request before any commit, and the navigation counts as not started.
	requested bool
	started   bool
	// toPage: the navigation asked for goes to an http or https address
	// and has neither begun a document request nor stayed within the
	// document yet.
	toPage bool
	// submitted: the action's click submitted a form that navigates the
	// tab, and the page has not asked for that navigation yet.
	submitted bool
	// stayed0 is the tab's count of beforeunload dialogs answered "stay"
	// when the watch opened for an action.
	stayed0 int64
	navReq  network.RequestID
	// history: the action itself moved the tab through its history, a
	// navigation the page does not ask for (no requested event comes) and
	// that a busy browser may start well after the quiet period. It is
	// pending until it commits, stays within the document (withinDoc), or
	// its document request ends first.
	history   bool
	withinDoc bool
	// committed: a counted main-frame commit came; loader is the document
	// of the last one, and domReady and loaded say how far it got.
	committed bool
	loader    network.LoaderID
	domReady  bool
	loaded    bool
	// handedOff counts the main-frame navigations whose successful
	// response ended without a document: the browser's downloads took it.
	handedOff int
	// statuses holds the HTTP status of each main-frame document response
	// by its loader.
	statuses map[network.LoaderID]int
	// inflight holds the requests started and not ended, each with the
	// loader of the document it is for.
	inflight map[network.RequestID]network.LoaderID

	// quiet: no request has been in flight for NetworkIdleQuiet, counted
	// from the last request event, commit or load. The timer runs while
	// quietArmed.
	quiet      bool
	quietArmed bool
	quietTimer *time.Timer
	// grace, when set, ends the wait that long after the current
	// document's DOMContentLoaded (graceOver); the timer starts once.
	grace      time.Duration
	graceTimer *time.Timer
	graceOver  bool
	// settled: settleTimer, when a wait starts one, has fired.
	settleTimer *time.Timer
	settled     bool
}

// openNavWatch opens the streams, synchronises them, and turns the Network
// domain and lifecycle events on the first time in the tab. main is the main
// frame's id, "" when the caller learns it later (Goto, from the
// navigation's reply); wrap turns a failed call into the caller's error.
func (p *Page) openNavWatch(ctx context.Context, main string, wrap func(what string, err error) error) (_ *navWatch, err error) {
	w := &navWatch{p: p, main: main, refused0: p.Refused(),
		statuses: map[network.LoaderID]int{}, inflight: map[network.RequestID]network.LoaderID{},
		quietTimer: time.NewTimer(NetworkIdleQuiet)}
	w.quietTimer.Stop()
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	c := p.client
	for _, s := range []struct {
		what string
		open func() error
	}{
		{"Page.frameRequestedNavigation", func() (err error) { w.reqNav, err = c.Page.FrameRequestedNavigation(ctx); return }},
		{"Page.frameNavigated", func() (err error) { w.navigated, err = c.Page.FrameNavigated(ctx); return }},
		{"Page.navigatedWithinDocument", func() (err error) { w.within, err = c.Page.NavigatedWithinDocument(ctx); return }},
		{"Page.lifecycleEvent", func() (err error) { w.life, err = c.Page.LifecycleEvent(ctx); return }},
		{"Network.requestWillBeSent", func() (err error) { w.sent, err = c.Network.RequestWillBeSent(ctx); return }},
		{"Network.responseReceived", func() (err error) { w.resp, err = c.Network.ResponseReceived(ctx); return }},
		{"Network.loadingFinished", func() (err error) { w.finished, err = c.Network.LoadingFinished(ctx); return }},
		{"Network.loadingFailed", func() (err error) { w.failed, err = c.Network.LoadingFailed(ctx); return }},
	} {
		if err := s.open(); err != nil {
			return nil, wrap(s.what, err)
		}
	}
	// Synchronising drops what a stream already holds: it is done before
	// anything the watch is to see can have happened.
	if err := cdp.Sync(w.reqNav, w.navigated, w.within, w.life, w.sent, w.resp, w.finished, w.failed); err != nil {
		return nil, wrap("ordering the navigation events", err)
	}
	// Network.enable is sent once per tab: sent again while a navigation
	// is still pending, Chromium holds its reply until that navigation
	// ends, which may be never.
	if !p.netEnabled.Load() {
		if err := c.Network.Enable(ctx, network.NewEnableArgs()); err != nil {
			return nil, wrap("Network.enable", err)
		}
		p.netEnabled.Store(true)
	}
	// Lifecycle events are turned on once per tab too.
	if !p.lifecycleEnabled.Load() {
		if err := c.Page.SetLifecycleEventsEnabled(ctx, page.NewSetLifecycleEventsEnabledArgs(true)); err != nil {
			return nil, wrap("Page.setLifecycleEventsEnabled", err)
		}
		p.lifecycleEnabled.Store(true)
	}
	return w, nil
}

func (w *navWatch) close() {
	for _, s := range []rpcc.Stream{w.reqNav, w.navigated, w.within, w.life, w.sent, w.resp, w.finished, w.failed} {
		if s != nil {
			s.Close()
		}
	}
	for _, t := range []*time.Timer{w.quietTimer, w.graceTimer, w.settleTimer} {
		if t != nil {
			t.Stop()
		}
	}
}

// begin starts a wait: the quiet period is counted from now, and grace,
// when not zero, is how long after DOMContentLoaded the wait ends.
func (w *navWatch) begin(grace time.Duration) {
	w.grace = grace
	w.rearm()
}

// settleAfter makes settled true d from now.
func (w *navWatch) settleAfter(d time.Duration) {
	w.settleTimer = time.NewTimer(d)
}

// rearm starts the quiet period again while no request is in flight, and
// stops it while one is.
func (w *navWatch) rearm() {
	w.quiet = false
	w.quietTimer.Stop()
	w.quietArmed = len(w.inflight) == 0
	if w.quietArmed {
		w.quietTimer.Reset(NetworkIdleQuiet)
	}
}

// run reads events, in order, until over says the wait is over or ctx
// ends (its error is returned). An error of a stream is returned as is.
func (w *navWatch) run(ctx context.Context, over func() bool) error {
	for !over() {
		if err := w.step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// step waits for one event or timer and takes it in.
func (w *navWatch) step(ctx context.Context) error {
	var quiet, grace, settle <-chan time.Time
	if w.quietArmed && !w.quiet {
		quiet = w.quietTimer.C
	}
	if w.graceTimer != nil && !w.graceOver {
		grace = w.graceTimer.C
	}
	if w.settleTimer != nil && !w.settled {
		settle = w.settleTimer.C
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-quiet:
		w.quiet = true
	case <-grace:
		w.graceOver = true
	case <-settle:
		w.settled = true
	case <-w.reqNav.Ready():
		return w.readRequested()
	case <-w.navigated.Ready():
		return w.readCommit()
	case <-w.within.Ready():
		return w.readWithin()
	case <-w.life.Ready():
		return w.readLifecycle()
	case <-w.sent.Ready():
		return w.readSent()
	case <-w.resp.Ready():
		return w.readResponse()
	case <-w.finished.Ready():
		return w.readFinished()
	case <-w.failed.Ready():
		return w.readFailed()
	}
	return nil
}

// drain takes in the events already received, without waiting for more.
// The streams are synchronised, so at most one of them is ready at a time,
// and reading its event makes the next one's ready at once.
func (w *navWatch) drain() error {
	for {
		read := w.queued()
		if read == nil {
			return nil
		}
		if err := read(); err != nil {
			return err
		}
	}
}

// queued is the reader of the stream that holds the next event, nil when
// none does.
func (w *navWatch) queued() func() error {
	for _, s := range []struct {
		s    rpcc.Stream
		read func() error
	}{
		{w.reqNav, w.readRequested}, {w.navigated, w.readCommit}, {w.within, w.readWithin}, {w.life, w.readLifecycle},
		{w.sent, w.readSent}, {w.resp, w.readResponse}, {w.finished, w.readFinished}, {w.failed, w.readFailed},
	} {
		select {
		case <-s.s.Ready():
			return s.read
		default:
		}
	}
	return nil
}

func (w *navWatch) readRequested() error {
	ev, err := w.reqNav.Recv()
	if err != nil {
		return err
	}
	if string(ev.FrameID) == w.main {
		w.requested, w.submitted = true, false
		// A navigation to a page (not a mailto: link, which the browser
		// hands to no one here) that has not begun by the settle cap is
		// one a busy browser has yet to start, not one that went nowhere.
		u := strings.ToLower(ev.URL)
		w.toPage = strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "https:")
	}
	return nil
}

// readWithin takes in a main-frame navigation that kept its document: a
// history step onto an entry made by pushState or a fragment ends there.
func (w *navWatch) readWithin() error {
	ev, err := w.within.Recv()
	if err != nil {
		return err
	}
	if string(ev.FrameID) == w.main {
		w.withinDoc = true
		// A link to a fragment asks for a navigation that ends here.
		w.toPage = false
	}
	return nil
}

// readCommit takes in a main-frame commit: from the awaited navigation's
// on (from the first when none is awaited), it is the document followed.
func (w *navWatch) readCommit() error {
	ev, err := w.navigated.Recv()
	if err != nil {
		return err
	}
	if ev.Frame.ParentID != nil {
		return nil
	}
	if !w.committed && w.awaited != "" && ev.Frame.LoaderID != w.awaited {
		return nil
	}
	w.started, w.committed = true, true
	w.loader = ev.Frame.LoaderID
	// The documents the commit replaced, the main frame's and its frames',
	// end with their requests, and the browser reports no end for those
	// still in flight: they would be counted in flight for ever. The
	// streams are in order, so every request started so far is for an
	// earlier document, but the new document's own.
	for id, loader := range w.inflight {
		if loader != w.loader {
			delete(w.inflight, id)
		}
	}
	w.domReady, w.loaded = false, false
	// A page restored from the back/forward cache is loaded as it
	// commits: no lifecycle event follows.
	if ev.Type == page.NavigationTypeBackForwardCacheRestore {
		w.domReady, w.loaded = true, true
	}
	w.rearm()
	return nil
}

// readLifecycle takes in DOMContentLoaded and load of the main frame's
// current document; every other lifecycle event, and every one of another
// frame or of a document before it, is passed over.
func (w *navWatch) readLifecycle() error {
	ev, err := w.life.Recv()
	if err != nil {
		return err
	}
	if !w.committed || string(ev.FrameID) != w.main || ev.LoaderID != w.loader {
		return nil
	}
	switch ev.Name {
	case "DOMContentLoaded":
		w.domReady = true
		if w.grace > 0 && w.graceTimer == nil {
			w.graceTimer = time.NewTimer(w.grace)
		}
	case "load":
		w.loaded = true
		w.rearm()
	}
	return nil
}

func (w *navWatch) readSent() error {
	ev, err := w.sent.Recv()
	if err != nil {
		return err
	}
	if ev.Type == network.ResourceTypeDocument && ev.FrameID != nil && string(*ev.FrameID) == w.main &&
		string(ev.RequestID) == string(ev.LoaderID) {
		w.started, w.navReq, w.submitted = true, ev.RequestID, false
	}
	w.inflight[ev.RequestID] = ev.LoaderID
	w.rearm()
	return nil
}

// readResponse records the status of a main-frame document response.
func (w *navWatch) readResponse() error {
	ev, err := w.resp.Recv()
	if err != nil {
		return err
	}
	if ev.Type == network.ResourceTypeDocument && (ev.FrameID == nil || string(*ev.FrameID) == w.main) {
		w.statuses[ev.LoaderID] = ev.Response.Status
	}
	return nil
}

func (w *navWatch) readFinished() error {
	ev, err := w.finished.Recv()
	if err != nil {
		return err
	}
	delete(w.inflight, ev.RequestID)
	w.rearm()
	return nil
}

func (w *navWatch) readFailed() error {
	ev, err := w.failed.Recv()
	if err != nil {
		return err
	}
	delete(w.inflight, ev.RequestID)
	if ev.RequestID == w.navReq && !w.committed {
		// The navigation ended before it committed: given up (a
		// download, a 204, an external scheme, the policy's refusal), or
		// failed, when an error page commits next. A successful response
		// with content that never became a document is one the browser
		// took as a download.
		if s := w.statuses[network.LoaderID(ev.RequestID)]; s >= 200 && s < 300 && s != 204 && s != 205 {
			w.handedOff++
		}
		w.started, w.navReq, w.requested, w.history, w.toPage = false, "", false, false, false
	}
	w.rearm()
	return nil
}

// status is the HTTP status of the document of loader, 0 when none came.
func (w *navWatch) status(loader network.LoaderID) int {
	return w.statuses[loader]
}
