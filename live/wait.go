package live

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/rpcc"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// Until is the navigation event a live read waits for before its snapshot.
type Until uint8

const (
	// UntilLoad waits for the load event: the document and its
	// subresources.
	UntilLoad Until = iota
	// UntilDOMReady waits for DOMContentLoaded: the document parsed.
	UntilDOMReady
	// UntilNetworkIdle waits for the load event and then for NetworkIdleQuiet
	// with no request of the tab in flight.
	UntilNetworkIdle
	// UntilLoadOrGrace is the wait when the caller named none: the load
	// event, but no longer than LoadGrace after DOMContentLoaded. A page
	// whose load event never comes (a stalled image, font or script) would
	// otherwise hold every default read until its deadline; its parsed
	// document is read instead, and Navigation.LoadComplete says so.
	UntilLoadOrGrace
)

// LoadGrace is how long UntilLoadOrGrace waits for the load event once the
// document is parsed.
const LoadGrace = 5 * time.Second

// NetworkIdleQuiet is how long no request may be in flight before the
// network counts as idle.
const NetworkIdleQuiet = 500 * time.Millisecond

// MaxSettle is the longest extra wait before a snapshot a caller may ask for.
const MaxSettle = 10 * time.Second

// DefaultPoll is the pause between the snapshots of a Condition.
const DefaultPoll = 100 * time.Millisecond

// ParseUntil reads "load", "dom_ready" or "network_idle".
func ParseUntil(s string) (Until, bool) {
	switch s {
	case "load":
		return UntilLoad, true
	case "dom_ready":
		return UntilDOMReady, true
	case "network_idle":
		return UntilNetworkIdle, true
	}
	return 0, false
}

func (u Until) String() string {
	switch u {
	case UntilLoad:
		return "load"
	case UntilDOMReady:
		return "dom_ready"
	case UntilNetworkIdle:
		return "network_idle"
	case UntilLoadOrGrace:
		return "load_or_grace"
	}
	return "invalid"
}

// Condition asks an observation to retake its snapshot until the visible
// collection Kind/Index is in the inventory, or Deadline passes; the last
// snapshot is then used whatever it holds, so a collection that never
// appeared is reported honestly as absent. The page is only read: no
// selector, no script.
type Condition struct {
	Kind  domsnap.Kind
	Index int
	// Deadline is when retaking stops.
	Deadline time.Time
	// Poll is the pause between snapshots; zero means DefaultPoll.
	Poll time.Duration
}

// Met reports whether the inventory of t lists the condition's collection.
func (c *Condition) Met(t *domtree.Tree) bool {
	for _, e := range domsnap.Inventory(t) {
		if e.Kind == c.Kind && e.Index == c.Index {
			return true
		}
	}
	return false
}

// retry decides, after a snapshot produced t, whether another one should be
// taken, and waits the pause before it. A nil condition never retries; a
// condition whose deadline would pass during the pause does not either.
func (c *Condition) retry(ctx context.Context, t *domtree.Tree, now func() time.Time) (bool, error) {
	if c == nil || c.Met(t) {
		return false, nil
	}
	poll := c.Poll
	if poll <= 0 {
		poll = DefaultPoll
	}
	if !now().Add(poll).Before(c.Deadline) {
		return false, nil
	}
	if err := sleep(ctx, poll); err != nil {
		return false, err
	}
	return true, nil
}

// sleep waits d or until ctx ends, which is a cancellation.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return cancelled(ctx.Err())
	case <-t.C:
		return nil
	}
}

// Settle waits d, at most MaxSettle and never past deadline (zero means no
// deadline). A cancelled ctx is an error.
func Settle(ctx context.Context, d time.Duration, deadline time.Time) error {
	d = min(d, MaxSettle)
	if !deadline.IsZero() {
		d = min(d, time.Until(deadline))
	}
	return sleep(ctx, d)
}

// Navigation is what Goto learnt about a main-frame navigation.
type Navigation struct {
	// Status is the main document's HTTP status, 0 when the navigation had
	// none (a network error, a same-document navigation, about:blank).
	Status int
	// ErrorText is Chromium's network error when the navigation failed
	// ("net::ERR_CONNECTION_REFUSED"); it never holds page content.
	ErrorText string
	// WaitTimedOut is true when the navigation committed but the event it
	// was to wait for had not come by the deadline. That is not an error:
	// the snapshot says what is there. UntilLoadOrGrace ending at its grace
	// is not a time-out: that is its designed end.
	WaitTimedOut bool
	// LoadComplete is true when the main document's load event had come
	// by the end of the wait (and for a same-document navigation, which
	// loads nothing). False, a snapshot taken now may lack what the page
	// was still loading.
	LoadComplete bool
}

// Goto loads url in the main frame and waits for until. The navigation must
// commit by deadline, else the error is timeout; waiting for the event after
// the commit stops quietly at deadline (Navigation.WaitTimedOut). A
// navigation that fails in the network is reported in ErrorText, not as an
// error, so the caller decides what it means; one the page being left
// cancelled before any response came is tried once more first
// (abortedByPage). ctx ending is a cancellation.
func (p *Page) Goto(ctx context.Context, url string, until Until, deadline time.Time) (nav Navigation, err error) {
	if err := ctx.Err(); err != nil {
		return nav, cancelled(err)
	}
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	w, err := p.openWatch(wctx)
	if err != nil {
		return nav, deadlineError(ctx, wctx, "opening the navigation events", err)
	}
	defer w.close()
	p.leaving.Add(1)
	defer p.leaving.Add(-1)
	var r *page.NavigateReply
	for tries := 0; ; tries++ {
		refused := p.Refused()
		r, err = p.client.Page.Navigate(wctx, page.NewNavigateArgs(url))
		if err != nil {
			return nav, deadlineError(ctx, wctx, "Page.navigate", err)
		}
		if tries > 0 || !w.abortedByPage(r, p.Refused() != refused) {
			break
		}
	}
	if r.ErrorText != nil && *r.ErrorText != "" {
		nav.ErrorText = *r.ErrorText
		return nav, nil
	}
	if r.LoaderID == nil {
		// A same-document navigation: no new document, no load event.
		nav.LoadComplete = true
		return nav, nil
	}
	w.loader, w.frame = *r.LoaderID, string(r.FrameID)
	done, err := w.run(wctx, until)
	nav.Status = w.status
	nav.LoadComplete = w.loaded
	if err != nil {
		if ctx.Err() != nil {
			return nav, callError(ctx, "waiting for the navigation", err)
		}
		if wctx.Err() == nil {
			return nav, callError(ctx, "waiting for the navigation", err)
		}
	}
	nav.WaitTimedOut = !done
	return nav, nil
}

// abortedByPage reports whether a navigation Page.navigate answered with
// net::ERR_ABORTED was cancelled by the page it was leaving: neither the
// guard refused it nor did its document's response come (a 204 or a
// download is aborted once its response came, and would only be asked for
// again). A page that navigates itself with the user activation of an
// action just taken cancels a navigation the browser had under way, and
// Goto then tries once more. The responses read here are of the aborted
// navigation alone.
func (w *navWatch) abortedByPage(r *page.NavigateReply, refused bool) bool {
	if r.ErrorText == nil || *r.ErrorText != "net::ERR_ABORTED" || refused || r.LoaderID == nil {
		return false
	}
	w.loader, w.frame = *r.LoaderID, string(r.FrameID)
	defer func() { w.loader, w.frame, w.status = "", "", 0 }()
	if err := w.drainResponses(); err != nil {
		return false
	}
	return w.status == 0
}

// deadlineError codes a failure before the commit: timeout when the
// navigation deadline passed; when the caller's context ended first, what
// its end says (timeout for a passed deadline, cancelled otherwise).
func deadlineError(ctx, wctx context.Context, what string, err error) error {
	switch {
	case ctx.Err() != nil:
		return callError(ctx, what, err)
	case wctx.Err() != nil:
		return errcode.Wrap(errcode.Timeout, pkg, "", "the navigation did not commit before the deadline", err)
	}
	return errcode.Wrap(errcode.CaptureFailed, pkg, "", what, err)
}

// navWatch follows one navigation's events: the main document's response
// for its status, the lifecycle events, and every request in flight for the
// idle network.
type navWatch struct {
	// life is the frames' lifecycle events ("init" at a commit,
	// "DOMContentLoaded", "load"), read in the order they happened: unlike
	// Page.loadEventFired they name the document's loader, so a load event
	// of a document that was still loading when this navigation started
	// (a page's own move, the guard's about:blank) is not taken for this
	// navigation's. committed says this navigation's document committed;
	// current is the loader of the main frame's document since then, which
	// a client redirect (a script or a meta refresh moving the new page on
	// before its load) changes, as a person waiting for the page would.
	life      page.LifecycleEventClient
	committed bool
	current   network.LoaderID
	resp      network.ResponseReceivedClient
	sent      network.RequestWillBeSentClient
	finished  network.LoadingFinishedClient
	failed    network.LoadingFailedClient

	loader   network.LoaderID
	frame    string
	status   int
	loaded   bool
	inflight map[network.RequestID]struct{}
}

// openWatch opens the streams before the navigation starts, so no event of
// it is missed, and turns the Network domain on the first time.
func (p *Page) openWatch(ctx context.Context) (_ *navWatch, err error) {
	w := &navWatch{inflight: map[network.RequestID]struct{}{}}
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	c := p.client
	if w.life, err = c.Page.LifecycleEvent(ctx); err != nil {
		return nil, err
	}
	if w.resp, err = c.Network.ResponseReceived(ctx); err != nil {
		return nil, err
	}
	if w.sent, err = c.Network.RequestWillBeSent(ctx); err != nil {
		return nil, err
	}
	if w.finished, err = c.Network.LoadingFinished(ctx); err != nil {
		return nil, err
	}
	if w.failed, err = c.Network.LoadingFailed(ctx); err != nil {
		return nil, err
	}
	// Network.enable is sent once per tab: sent again while a navigation
	// is still pending, Chromium holds its reply until that navigation
	// ends, which may be never.
	if !p.netEnabled.Load() {
		if err := c.Network.Enable(ctx, network.NewEnableArgs()); err != nil {
			return nil, err
		}
		p.netEnabled.Store(true)
	}
	// Lifecycle events are turned on once per tab too.
	if !p.lifecycleEnabled.Load() {
		if err := c.Page.SetLifecycleEventsEnabled(ctx, page.NewSetLifecycleEventsEnabledArgs(true)); err != nil {
			return nil, err
		}
		p.lifecycleEnabled.Store(true)
	}
	return w, nil
}

func (w *navWatch) close() {
	for _, s := range []rpcc.Stream{w.life, w.resp, w.sent, w.finished, w.failed} {
		if s != nil {
			s.Close()
		}
	}
}

// run consumes events until the awaited one (and for network_idle, the
// quiet period after the load event; for load_or_grace, the load event or
// LoadGrace after dom_ready, whichever is first) or until ctx ends; done
// says whether the wait was met. The status and whether the load event came
// are read from the events as they come.
func (w *navWatch) run(ctx context.Context, until Until) (done bool, err error) {
	domReady := false
	var quiet, grace <-chan time.Time
	var quietTimer, graceTimer *time.Timer
	defer func() {
		for _, t := range []*time.Timer{quietTimer, graceTimer} {
			if t != nil {
				t.Stop()
			}
		}
	}()
	// rearm starts the quiet period again whenever the network is idle
	// after the load event, and stops it while requests are in flight.
	rearm := func() {
		if until != UntilNetworkIdle || !w.loaded {
			return
		}
		if quietTimer != nil {
			quietTimer.Stop()
			quiet = nil
		}
		if len(w.inflight) == 0 {
			quietTimer = time.NewTimer(NetworkIdleQuiet)
			quiet = quietTimer.C
		}
	}
	for {
		switch {
		case until == UntilDOMReady && domReady,
			(until == UntilLoad || until == UntilLoadOrGrace) && w.loaded:
			// Drain what is already queued, so a status sent before the
			// awaited event is not missed (nor a load event just behind
			// dom_ready).
			return true, w.drainQueued()
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-quiet:
			return true, nil
		case <-grace:
			return true, w.drainQueued()
		case <-w.life.Ready():
			switch ev, err := w.lifecycle(); {
			case err != nil:
				return false, err
			case ev == lifeLoad:
				w.loaded = true
				rearm()
			case ev == lifeDOMReady:
				domReady = true
				if until == UntilLoadOrGrace && graceTimer == nil {
					graceTimer = time.NewTimer(LoadGrace)
					grace = graceTimer.C
				}
			}
		case <-w.resp.Ready():
			if err := w.readResponse(); err != nil {
				return false, err
			}
		case <-w.sent.Ready():
			ev, err := w.sent.Recv()
			if err != nil {
				return false, err
			}
			w.inflight[ev.RequestID] = struct{}{}
			rearm()
		case <-w.finished.Ready():
			ev, err := w.finished.Recv()
			if err != nil {
				return false, err
			}
			delete(w.inflight, ev.RequestID)
			rearm()
		case <-w.failed.Ready():
			ev, err := w.failed.Recv()
			if err != nil {
				return false, err
			}
			delete(w.inflight, ev.RequestID)
			rearm()
		}
	}
}

// drainQueued reads the responses and the load event already queued when
// the wait ends, without waiting for more.
func (w *navWatch) drainQueued() error {
	if err := w.drainResponses(); err != nil {
		return err
	}
	for {
		select {
		case <-w.life.Ready():
			ev, err := w.lifecycle()
			if err != nil {
				return err
			}
			if ev == lifeLoad {
				w.loaded = true
			}
		default:
			return nil
		}
	}
}

// Lifecycle events of the navigation's document that the wait reads.
const (
	lifeOther = iota
	lifeDOMReady
	lifeLoad
)

// lifecycle reads one lifecycle event and says which of the wait's it is:
// an event of the main frame's current document once the navigation's own
// committed. Every event of another frame, of a document before the
// navigation's commit or of one replaced since, and of any other name, is
// lifeOther.
func (w *navWatch) lifecycle() (int, error) {
	ev, err := w.life.Recv()
	if err != nil {
		return lifeOther, err
	}
	if string(ev.FrameID) != w.frame {
		return lifeOther, nil
	}
	if ev.Name == "init" {
		if ev.LoaderID == w.loader {
			w.committed = true
		}
		if w.committed {
			w.current = ev.LoaderID
		}
		return lifeOther, nil
	}
	if !w.committed || ev.LoaderID != w.current {
		return lifeOther, nil
	}
	switch ev.Name {
	case "load":
		return lifeLoad, nil
	case "DOMContentLoaded":
		return lifeDOMReady, nil
	}
	return lifeOther, nil
}

func (w *navWatch) drainResponses() error {
	for {
		select {
		case <-w.resp.Ready():
			if err := w.readResponse(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// readResponse records the status of the navigation's own document
// response: a Document response of the main frame under the navigation's
// loader.
func (w *navWatch) readResponse() error {
	ev, err := w.resp.Recv()
	if err != nil {
		return err
	}
	if ev.Type != network.ResourceTypeDocument || ev.LoaderID != w.loader {
		return nil
	}
	if ev.FrameID != nil && string(*ev.FrameID) != w.frame {
		return nil
	}
	w.status = ev.Response.Status
	return nil
}

func (s *Session) observeCompute(ctx context.Context, spec observeSpec) (*domsnap.Observation, *Snapshot, error) {
	var obs *domsnap.Observation
	snap, _, err := s.observeWith(ctx, spec, func(t *domtree.Tree, rev string, q *domsnap.Checked) error {
		var err error
		obs, err = domsnap.Observe(t, rev, q)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return obs, snap, nil
}

// Captures reports how many snapshots the session has asked its driver for,
// failed ones included.
func (s *Session) Captures() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.captures
}
