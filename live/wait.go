package live

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/page"

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
	// with no request of the tab in flight. The requests of the documents
	// the navigation replaced are not counted: the browser never reports
	// the end of those still in flight when it commits.
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
	w, err := p.openNavWatch(wctx, "", func(what string, err error) error {
		return deadlineError(ctx, wctx, what, err)
	})
	if err != nil {
		return nav, err
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
	w.awaited, w.main = *r.LoaderID, string(r.FrameID)
	done, err := w.gotoWait(wctx, until)
	nav.Status = w.status(w.awaited)
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
	// Awaiting the aborted navigation while its events are read keeps the
	// commit of any other document (the one the page moved to) from
	// counting as Goto's; the aborted one never commits, and a retry
	// awaits its own.
	w.awaited, w.main = *r.LoaderID, string(r.FrameID)
	if err := w.drain(); err != nil {
		return false
	}
	return w.status(*r.LoaderID) == 0
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

// gotoWait follows Goto's navigation until the event until names (for
// network_idle, the quiet period after the load event; for load_or_grace,
// the load event or LoadGrace after dom_ready, whichever is first) or until
// ctx ends; done says whether the wait was met. The events already received
// when it is met are taken in too, so a load event just behind dom_ready
// is not missed.
func (w *navWatch) gotoWait(ctx context.Context, until Until) (done bool, err error) {
	var grace time.Duration
	if until == UntilLoadOrGrace {
		grace = LoadGrace
	}
	w.begin(grace)
	err = w.run(ctx, func() bool {
		switch until {
		case UntilDOMReady:
			return w.domReady
		case UntilLoad:
			return w.loaded
		case UntilLoadOrGrace:
			return w.loaded || w.graceOver
		case UntilNetworkIdle:
			return w.loaded && w.quiet
		}
		return false
	})
	if err != nil {
		return false, err
	}
	return true, w.drain()
}
