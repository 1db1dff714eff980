package live

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// A session's pages: its first tab, and the windows its pages opened
// during actions to URLs the session allows (SessionOptions.Windows), at
// most limits.MaxPages in all. A window kept becomes the current page, its
// opener kept behind it; every other window is closed before it sends
// anything, as without pages, and counted in ActResult.PopupsClosed.
//
// A window is adopted while the browser still holds it paused (popup.go):
// it is connected, its main frame guarded by the session's policy, and
// only then let run, so its first request is judged as every later one.

// windowKeeper is what a session keeps of the windows its pages open. One
// keeper serves all the session's pages.
type windowKeeper struct {
	allow func(raw string) bool
	// held counts the session's pages and the windows being adopted, at
	// most limits.MaxPages; the browser's event handler reserves a place
	// without the session's lock, which an action holds meanwhile.
	held atomic.Int32

	mu sync.Mutex
	// adopted are the windows adopted and not yet taken by the session;
	// pending counts those being adopted.
	adopted []*Page
	pending int
}

// reserve takes a place for one more page, false when the session has
// MaxPages already. A reservation counts as pending until add or release.
func (k *windowKeeper) reserve() bool {
	for {
		n := k.held.Load()
		if n >= limits.MaxPages {
			return false
		}
		if k.held.CompareAndSwap(n, n+1) {
			k.mu.Lock()
			k.pending++
			k.mu.Unlock()
			return true
		}
	}
}

// release gives back a reservation that did not become a page.
func (k *windowKeeper) release() {
	k.mu.Lock()
	k.pending--
	k.mu.Unlock()
	k.held.Add(-1)
}

// add hands an adopted window to the session.
func (k *windowKeeper) add(p *Page) {
	k.mu.Lock()
	k.pending--
	k.adopted = append(k.adopted, p)
	k.mu.Unlock()
}

// drop gives back the place of a page the session closed.
func (k *windowKeeper) drop() { k.held.Add(-1) }

// take returns the windows adopted so far, waiting until deadline for
// those whose adoption has begun.
func (k *windowKeeper) take(ctx context.Context, deadline time.Time) []*Page {
	for {
		k.mu.Lock()
		pending := k.pending
		out := k.adopted
		if pending == 0 || !time.Now().Before(deadline) || ctx.Err() != nil {
			k.adopted = nil
			k.mu.Unlock()
			return out
		}
		k.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(pagePoll):
		}
	}
}

// pagePoll is the pause between looks at a page being opened.
const pagePoll = 50 * time.Millisecond

// adopt makes the paused window ev (attached over c) a page of keeper's
// session. Its renderer answers nothing before it runs, so it is let run
// first; until it is connected and guarded as a tab of the package's own,
// the browser-wide hold judges its main frame's documents by the session's
// policy (decideDocument) and holds its other frames' until then. False
// when any step failed; the caller then closes it as any other window.
func (b *Browser) adopt(ctx context.Context, ev *target.AttachedToTargetReply, c *cdp.Client, k *windowKeeper) bool {
	id := ev.TargetInfo.TargetID
	b.popups.setAdopting(id, k)
	defer b.popups.setAdopting(id, nil)
	if err := c.Runtime.RunIfWaitingForDebugger(ctx); err != nil {
		return false
	}
	p, err := openPage(ctx, b, id)
	if err != nil {
		return false
	}
	if err := p.Guard(ctx, k.allow); err != nil {
		p.Close()
		return false
	}
	p.keepWindows(k)
	_ = b.client.Target.DetachFromTarget(ctx, target.NewDetachFromTargetArgs().SetSessionID(ev.SessionID))
	k.add(p)
	return true
}

// keepWindows makes the windows p's pages open pages of k's session.
func (p *Page) keepWindows(k *windowKeeper) {
	if p.windows.Swap(k) == nil {
		p.b.popups.keeping.Add(1)
	}
}

// unknownFrameWait is how long a document request of a frame no tab
// holds waits, while a session keeps windows, for its window to be
// adopted: a window's request can be paused before the browser reports
// the window.
const unknownFrameWait = time.Second

// judgeFrame says whose frame a paused document request is for: the main
// frame of a window being adopted (its keeper, whose policy decides its
// documents until its own guard does), a frame of the package's tabs
// (tab: the request goes on), or neither, a window a page opened (the
// request fails). A tab's frames are answered at once. While a session
// keeps windows, a frame no one knows yet is given a moment to become
// known, and waits for the adoptions under way, since a frame of a window
// being adopted is in no tab's tree until its adoption ends. A window's
// own main frame never waits for its adoption: the browser may answer the
// adoption's first call only once that document has committed.
func (b *Browser) judgeFrame(ctx context.Context, frame page.FrameID) (k *windowKeeper, tab bool) {
	h := &b.popups
	unknownUntil := time.Now().Add(unknownFrameWait)
	for {
		if k := h.adopter(target.ID(frame)); k != nil {
			return k, false
		}
		if b.tabsHold(ctx, frame) {
			return nil, true
		}
		if h.keeping.Load() == 0 || (!time.Now().Before(unknownUntil) && !h.anyAdopting()) {
			return nil, false
		}
		h.framesWaited.Add(1)
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(pagePoll):
		}
	}
}

// anyAdopting says whether a window is being adopted.
func (h *popupHold) anyAdopting() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.adopting) > 0
}

// PageInfo describes one of a session's open pages.
type PageInfo struct {
	// Index is the page's place among the session's pages, in the order
	// they opened; the first tab is 0.
	Index int
	// Origin is the origin of the page's URL, "" when it is none the
	// session allows (a page between documents).
	Origin string
	// Current marks the page observations and actions are about.
	Current bool
}

// pageSlot is one of a session's pages.
type pageSlot struct {
	p *Page
	// opener is the page whose action opened it, nil for the first tab.
	opener *Page
}

// currentTab is a session's driver when it has pages: the current page,
// with the navigation count running on across changes of page, each of
// which counts as a navigation (the new page's document is another one).
type currentTab struct {
	*Page
	// base is the session's count when the page became current, at the
	// page's own count then.
	base, at uint64
}

// Navigations implements Driver.
func (c *currentTab) Navigations(ctx context.Context) (uint64, error) {
	n, err := c.Page.Navigations(ctx)
	if n < c.at {
		n = c.at
	}
	return c.base + n - c.at, err
}

// pagesOn says whether the session keeps windows as pages.
func (s *Session) pagesOn() bool { return s.keeper != nil }

// startPages sets the session up to keep windows: called by NewSession
// when its driver is a Page and SessionOptions.Windows is set.
func (s *Session) startPages(p *Page, allow func(string) bool) {
	s.keeper = &windowKeeper{allow: allow}
	s.keeper.held.Store(1)
	s.pages = []*pageSlot{{p: p}}
	s.drv = &currentTab{Page: p}
	p.keepWindows(s.keeper)
}

// switchTo makes slot i current, as a navigation: the next count is one
// more than any the session gave.
func (s *Session) switchTo(ctx context.Context, i int) {
	n, _ := s.drv.(*currentTab).Navigations(ctx)
	s.makeCurrent(ctx, i, n)
}

// makeCurrent makes page i current, n being the navigations the page
// current until now had counted: the change is one more.
func (s *Session) makeCurrent(ctx context.Context, i int, n uint64) {
	next := s.pages[i].p
	// A page behind another one is hidden: its animation frames stop,
	// and the walker waits for two of them. A person looks at the page
	// they turn to, so it is brought to the front.
	_ = next.client.Page.BringToFront(ctx)
	at, _ := next.countNavigations(ctx)
	s.cur = i
	s.drv = &currentTab{Page: next, base: n + 1, at: at}
}

// takeOpened makes the windows the action adopted pages of the session,
// once each has loaded a document the session allows (until deadline);
// the last becomes current. A window that reached none is closed and
// counted in res.PopupsClosed.
func (s *Session) takeOpened(ctx context.Context, res *ActResult, deadline time.Time) {
	opener := s.pages[s.cur].p
	if res.Pending {
		// The opener's navigation still under way is stopped before the
		// session turns from it, as Act would stop it.
		if err := opener.stopLoading(ctx); err == nil {
			res.Pending = false
		}
	}
	kept := -1
	for _, p := range s.keeper.take(ctx, deadline) {
		if !s.opened(ctx, p, deadline) {
			p.Close()
			s.keeper.drop()
			res.PopupsClosed++
			continue
		}
		s.pages = append(s.pages, &pageSlot{p: p, opener: opener})
		kept = len(s.pages) - 1
	}
	if kept >= 0 {
		s.switchTo(ctx, kept)
		res.Outcome = OutcomeOpened
	}
}

// windowWait bounds how long an action waits for a window it opened to
// show a document: one that shows none by then (left blank) is closed.
const windowWait = 10 * time.Second

// opened waits until p shows a document the session allows and has
// loaded it, or deadline (at most windowWait from now) passes: true when
// it shows one by then, loaded or not. A window left blank, or showing a
// document the session does not allow (a refused or failed load), is
// false.
func (s *Session) opened(ctx context.Context, p *Page, deadline time.Time) bool {
	if cap := time.Now().Add(windowWait); cap.Before(deadline) {
		deadline = cap
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	allowed := false
	for {
		if p.Refused() > 0 {
			return false
		}
		var state struct {
			Href  string `json:"href"`
			Ready string `json:"ready"`
		}
		reply, err := p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(`({href: location.href, ready: document.readyState})`).SetReturnByValue(true))
		if err == nil && reply.ExceptionDetails == nil && reply.Result.Value != nil && json.Unmarshal(reply.Result.Value, &state) == nil {
			blank := state.Href == "" || state.Href == "about:blank"
			allowed = !blank && s.keeper.allow(state.Href)
			switch {
			case allowed && state.Ready == "complete":
				return true
			case !blank && !allowed:
				return false
			}
		}
		select {
		case <-ctx.Done():
			return allowed
		case <-time.After(pagePoll):
		}
	}
}

// prunePages forgets the pages that closed themselves (window.close());
// when the current one did, its opener becomes current (see removePages).
// Called under the session lock.
func (s *Session) prunePages(ctx context.Context) {
	if !s.pagesOn() || len(s.pages) < 2 {
		return
	}
	s.removePages(ctx, func(sl *pageSlot) bool { return sl.p.gone(ctx) })
}

// removePages closes and forgets the pages drop picks. When the current
// page is one of them, its opener (or the opener's, and so on) becomes
// current, else the last page left, and the change counts as a
// navigation. At least one page always stays: the first left when drop
// picks them all.
func (s *Session) removePages(ctx context.Context, drop func(*pageSlot) bool) {
	n, _ := s.drv.Navigations(ctx)
	cur := s.pages[s.cur]
	kept := make([]*pageSlot, 0, len(s.pages))
	gone := map[*Page]*pageSlot{}
	for _, sl := range s.pages {
		if drop(sl) {
			gone[sl.p] = sl
			continue
		}
		kept = append(kept, sl)
	}
	if len(gone) == 0 {
		return
	}
	if len(kept) == 0 {
		kept = s.pages[:1]
		delete(gone, kept[0].p)
	}
	for _, sl := range gone {
		sl.p.Close()
		s.keeper.drop()
	}
	s.pages = kept
	if gone[cur.p] == nil {
		s.cur = s.indexOf(cur.p)
		return
	}
	next := len(s.pages) - 1
	for want := cur.opener; want != nil; {
		if i := s.indexOf(want); i >= 0 {
			next = i
			break
		}
		sl := gone[want]
		if sl == nil {
			break
		}
		want = sl.opener
	}
	s.makeCurrent(ctx, next, n)
}

// indexOf is p's place among the pages, -1 when it is none of them.
func (s *Session) indexOf(p *Page) int {
	for i, sl := range s.pages {
		if sl.p == p {
			return i
		}
	}
	return -1
}

// gone says whether the tab has closed: the browser no longer knows its
// target. A browser that does not answer is not taken for a closed tab.
func (p *Page) gone(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, frameTreeWait)
	defer cancel()
	_, err := p.b.client.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs().SetTargetID(p.id))
	return err != nil && ctx.Err() == nil
}

// origin is the origin of the tab's URL as the browser reports it, "" when
// allow refuses it or it cannot be read.
func (p *Page) origin(ctx context.Context, allow func(string) bool) string {
	ctx, cancel := context.WithTimeout(ctx, frameTreeWait)
	defer cancel()
	info, err := p.b.client.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs().SetTargetID(p.id))
	if err != nil || !allow(info.TargetInfo.URL) {
		return ""
	}
	u, err := url.Parse(info.TargetInfo.URL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Pages lists the session's open pages, the closed ones forgotten first;
// a session without pages has one, its driver.
func (s *Session) Pages(ctx context.Context) []PageInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pagesOn() {
		return []PageInfo{{Index: 0, Current: true}}
	}
	s.prunePages(ctx)
	out := make([]PageInfo, len(s.pages))
	for i, sl := range s.pages {
		out[i] = PageInfo{Index: i, Origin: sl.p.origin(ctx, s.keeper.allow), Current: i == s.cur}
	}
	return out
}

// CurrentPage is the page observations and actions are about, nil when
// the session's driver is not a Page.
func (s *Session) CurrentPage() *Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch d := s.drv.(type) {
	case *currentTab:
		return d.Page
	case *Page:
		return d
	}
	return nil
}

// ClosePages closes every page of the session. The session answers no
// observation afterwards.
func (s *Session) ClosePages() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pagesOn() {
		if p, ok := s.drv.(*Page); ok {
			p.Close()
		}
		return
	}
	for _, sl := range s.pages {
		sl.p.Close()
	}
}

// SwitchPage makes page i current, expected naming the latest observation,
// and observes it as Act does (o.View, o.When). Changing page is a
// navigation: the earlier revisions are navigated_revision from then on.
func (s *Session) SwitchPage(ctx context.Context, expected string, i int, o ActOptions) (ActResult, error) {
	return s.pageStep(ctx, expected, o, func() error {
		if i < 0 || i >= len(s.pages) {
			return errcode.New(errcode.InvalidRequest, pkg, "/page", "the session has no such page")
		}
		if i != s.cur {
			s.switchTo(ctx, i)
		}
		return nil
	})
}

// ClosePage closes the current page, expected naming the latest
// observation; its opener, when still open, else the last page, becomes
// current and is observed as Act does. The only page cannot be closed.
func (s *Session) ClosePage(ctx context.Context, expected string, o ActOptions) (ActResult, error) {
	return s.pageStep(ctx, expected, o, func() error {
		if len(s.pages) < 2 {
			return errcode.New(errcode.InvalidRequest, pkg, "/action", "the session's only page cannot be closed; navigate it elsewhere instead")
		}
		cur := s.pages[s.cur]
		s.removePages(ctx, func(sl *pageSlot) bool { return sl == cur })
		return nil
	})
}

// pageStep runs change under the session lock after checking expected,
// then observes the page that is current.
func (s *Session) pageStep(ctx context.Context, expected string, o ActOptions, change func() error) (ActResult, error) {
	o.Deadline = actDeadline(ctx, o.Deadline)
	err := func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.pagesOn() {
			return errcode.New(errcode.UnsupportedAdapter, pkg, "", "this session keeps no pages")
		}
		nav, err := s.drv.Navigations(ctx)
		if err != nil {
			return asCaptureError(ctx, "reading navigations", err)
		}
		if err := s.checkCurrent(expected, nav); err != nil {
			return err
		}
		s.prunePages(ctx)
		return change()
	}()
	if err != nil {
		return ActResult{Outcome: OutcomeUnchanged}, err
	}
	octx, cancel := context.WithDeadline(ctx, o.Deadline)
	defer cancel()
	obs, _, err := s.Observe(octx, ReadOptions{When: o.When, View: o.View})
	if err != nil {
		return ActResult{Outcome: OutcomeDone}, err
	}
	return ActResult{Outcome: OutcomeDone, Observation: obs}, nil
}
