//go:build browser

package live

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// pagesTab is a session that keeps windows as pages, on a tab guarded by
// the same policy, acted on only through its page views' references.
func pagesTab(t *testing.T, b *Browser, allowed, url string) *appTab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	allow := func(u string) bool { return strings.HasPrefix(u, allowed+"/") }
	if err := p.Guard(ctx, allow); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(p, SessionOptions{Browser: b.Version(), Windows: allow})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.ClosePages)
	if _, err := p.Goto(ctx, url, UntilLoad, time.Now().Add(20*time.Second)); err != nil {
		t.Fatal(err)
	}
	a := &appTab{t: t, ctx: ctx, s: s}
	a.observe()
	return a
}

// wantPages checks the session's pages: how many, which is current, and
// that every one shows origin.
func (a *appTab) wantPages(n, current int, origin string) {
	a.t.Helper()
	pages := a.s.Pages(a.ctx)
	if len(pages) != n {
		a.t.Fatalf("%d pages, want %d: %+v", len(pages), n, pages)
	}
	for i, p := range pages {
		if p.Index != i || p.Current != (i == current) || p.Origin != origin {
			a.t.Fatalf("page %d: %+v, want current %d, origin %s", i, p, current, origin)
		}
	}
}

// switchTo makes page i current; its observation becomes the latest.
func (a *appTab) switchTo(i int) {
	a.t.Helper()
	res, err := a.s.SwitchPage(a.ctx, a.o.Revision, i, ActOptions{})
	if err != nil || res.Observation == nil {
		a.t.Fatalf("switch to page %d: %v", i, err)
	}
	a.o = res.Observation
}

// shows fails unless the latest page view's text holds s.
func (a *appTab) shows(s string) {
	a.t.Helper()
	if !strings.Contains(a.o.Text, s) {
		a.t.Fatalf("the page view does not show %q: %.300s", s, a.o.Text)
	}
}

// TestPagesKeepAllowedWindows: a window an action opens to an allowed URL
// becomes the current page (opened), its opener kept; switching and
// closing move between them as navigations; a window to a refused origin
// is closed with nothing sent; past MaxPages every window is closed and
// counted; a page that closes itself gives the session back to its opener.
func TestPagesKeepAllowedWindows(t *testing.T) {
	other := newActSite(t, map[string]string{"/": `<p>elsewhere</p>`})
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>home</title><p>home page</p>
<a target="_blank" href="/details?id=1">Details</a>
<a target="_blank" href="` + other.url("/") + `?link">Partner</a>
<button onclick="window.open()">Open blank</button>`,
		"/details": `<!DOCTYPE html><title>details</title><p>details page</p><button onclick="window.close()">Close me</button><button onmousedown="window.close()">Close at press</button>`,
	})
	b := actBrowser(t)
	a := pagesTab(t, b, site.srv.URL, site.url("/"))
	origin := site.srv.URL
	first := a.o.Revision
	tabs := pageTargets(t, &actTab{t: t, ctx: a.ctx, p: a.s.CurrentPage()}, -1)

	a.act(a.control("link", "Details"), Action{Kind: ActClick}, OutcomeOpened)
	a.shows("details page")
	a.wantPages(2, 1, origin)
	// The change of page is a navigation for the revisions before it.
	if _, err := a.s.Act(a.ctx, first, "", Action{Kind: ActBack}, ActOptions{}); errcode.CodeOf(err) != errcode.NavigatedRevision {
		t.Fatalf("a revision of the opener: %v, want navigated_revision", err)
	}
	a.observe()

	a.switchTo(0)
	a.shows("home page")
	a.wantPages(2, 0, origin)

	// A window to a refused origin: closed, counted, never asked.
	c := a.control("link", "Partner")
	res, err := a.s.Act(a.ctx, a.o.Revision, c.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(30 * time.Second)})
	wantOutcome(t, res, err, OutcomeDone)
	if res.PopupsClosed != 1 {
		t.Fatalf("%d windows closed, want 1", res.PopupsClosed)
	}
	if got := other.requests(); len(got) != 0 {
		t.Fatalf("the refused origin was asked %v", got)
	}
	a.o = res.Observation
	a.wantPages(2, 0, origin)

	// A blank window shows nothing the session allows: closed, counted.
	c = a.control("button", "Open blank")
	res, err = a.s.Act(a.ctx, a.o.Revision, c.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(30 * time.Second)})
	wantOutcome(t, res, err, OutcomeDone)
	if res.PopupsClosed != 1 {
		t.Fatalf("blank: %d windows closed, want 1", res.PopupsClosed)
	}
	a.o = res.Observation
	a.wantPages(2, 0, origin)

	// Up to MaxPages pages, each window opened from the first tab; past
	// them a window is closed and counted, and the session stays. (One
	// click opens one window: the browser's popup blocker spends the
	// click's activation on the first.)
	for n := 3; n <= limits.MaxPages+1; n++ {
		a.switchTo(0)
		c = a.control("link", "Details")
		res, err = a.s.Act(a.ctx, a.o.Revision, c.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(30 * time.Second)})
		a.o = res.Observation
		if n <= limits.MaxPages {
			wantOutcome(t, res, err, OutcomeOpened)
			a.shows("details page")
			a.wantPages(n, n-1, origin)
			continue
		}
		wantOutcome(t, res, err, OutcomeDone)
		if res.PopupsClosed != 1 {
			t.Fatalf("past MaxPages: %d windows closed, want 1", res.PopupsClosed)
		}
		a.shows("home page")
		a.wantPages(limits.MaxPages, 0, origin)
	}
	if n := pageTargets(t, &actTab{t: t, ctx: a.ctx, p: a.s.CurrentPage()}, tabs-1+limits.MaxPages); n != tabs-1+limits.MaxPages {
		t.Fatalf("%d tabs open in the browser, want %d", n, tabs-1+limits.MaxPages)
	}
	a.switchTo(limits.MaxPages - 1)

	// Closing the current page returns to its opener, the first tab.
	res, err = a.s.ClosePage(a.ctx, a.o.Revision, ActOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a.o = res.Observation
	a.shows("home page")
	a.wantPages(limits.MaxPages-1, 0, origin)

	// A page that closes itself: the session goes back to its opener.
	a.switchTo(1)
	a.act(a.control("button", "Close me"), Action{Kind: ActClick}, OutcomeDone)
	a.observe()
	a.shows("home page")
	a.wantPages(limits.MaxPages-2, 0, origin)

	// One that closes itself as the button goes down: the tab may be gone
	// before the press is answered, or while the release is in flight;
	// either way the click is done, well within its deadline.
	a.switchTo(1)
	a.act(a.control("button", "Close at press"), Action{Kind: ActClick}, OutcomeDone)
	a.observe()
	a.shows("home page")
	a.wantPages(limits.MaxPages-3, 0, origin)

	for len(a.s.Pages(a.ctx)) > 1 {
		if res, err = a.s.ClosePage(a.ctx, a.o.Revision, ActOptions{}); err != nil {
			t.Fatal(err)
		}
		a.o = res.Observation
	}
	if _, err := a.s.ClosePage(a.ctx, a.o.Revision, ActOptions{}); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("closing the only page: %v, want invalid_request", err)
	}
	if n := pageTargets(t, &actTab{t: t, ctx: a.ctx, p: a.s.CurrentPage()}, tabs); n != tabs {
		t.Fatalf("%d tabs open in the browser, want %d", n, tabs)
	}
	for _, r := range site.requests() {
		if strings.Contains(r, "details") && !strings.HasPrefix(r, "GET /details?id=") {
			t.Errorf("unexpected request %s", r)
		}
	}
}

// TestPagesHostileWindows: a click that asks for a thousand windows keeps
// at most MaxPages pages and ends within its deadline (the browser's popup
// blocker lets one through); a window that sends its opener to a refused
// origin gets nothing sent there, the opener staying where it was; one
// that sends its opener to an allowed address moves it, which the session
// sees when it turns back to it.
func TestPagesHostileWindows(t *testing.T) {
	other := newActSite(t, map[string]string{"/": `<p>elsewhere</p>`})
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>home</title><p>home page</p>
<button onclick="for (let i = 0; i < 1000; i++) window.open('/details?id=' + i)">Open a thousand</button>
<button onclick="window.open('/turn?to=` + url.QueryEscape(other.url("/")+"?opener") + `')">Turn away</button>
<button onclick="window.open('/turn?to=%2Fmoved')">Move me</button>`,
		"/details": `<!DOCTYPE html><title>details</title><p>details page</p>`,
		"/turn":    `<!DOCTYPE html><title>turn</title><p>turning page</p><script>opener.location = new URLSearchParams(location.search).get("to")</script>`,
		"/moved":   `<!DOCTYPE html><title>moved</title><p>moved page</p>`,
	})
	b := actBrowser(t)
	a := pagesTab(t, b, site.srv.URL, site.url("/"))
	origin := site.srv.URL
	tabs := pageTargets(t, &actTab{t: t, ctx: a.ctx, p: a.s.CurrentPage()}, -1)

	c := a.control("button", "Open a thousand")
	res, err := a.s.Act(a.ctx, a.o.Revision, c.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(30 * time.Second)})
	wantOutcome(t, res, err, OutcomeOpened)
	a.o = res.Observation
	a.shows("details page")
	if n := len(a.s.Pages(a.ctx)); n < 2 || n > limits.MaxPages {
		t.Fatalf("%d pages after a thousand windows", n)
	}
	if n := pageTargets(t, &actTab{t: t, ctx: a.ctx, p: a.s.CurrentPage()}, -1); n > tabs-1+limits.MaxPages {
		t.Fatalf("%d tabs open in the browser, want at most %d", n, tabs-1+limits.MaxPages)
	}
	for len(a.s.Pages(a.ctx)) > 1 {
		if res, err = a.s.ClosePage(a.ctx, a.o.Revision, ActOptions{}); err != nil {
			t.Fatal(err)
		}
		a.o = res.Observation
	}
	a.shows("home page")

	// The window turns its opener to a refused origin: nothing is sent.
	// The click answers opened, or navigation_refused (the input sent)
	// when the opener's refusal came within the action's wait; either way
	// the window is the current page.
	c = a.control("button", "Turn away")
	res, err = a.s.Act(a.ctx, a.o.Revision, c.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(30 * time.Second)})
	switch {
	case err != nil && (errcode.CodeOf(err) != errcode.NavigationRefused || !ActionSent(err)):
		t.Fatalf("turn away: %v", err)
	case err == nil && res.Outcome != OutcomeOpened:
		t.Fatalf("turn away: outcome %s", res.Outcome)
	}
	a.observe()
	a.shows("turning page")
	a.wantPages(2, 1, origin)
	a.switchTo(0)
	a.shows("home page")
	if got := other.requests(); len(got) != 0 {
		t.Fatalf("the refused origin was asked %v", got)
	}

	// The window moves its opener within the policy: seen on turning back.
	a.act(a.control("button", "Move me"), Action{Kind: ActClick}, OutcomeOpened)
	a.shows("turning page")
	a.wantPages(3, 2, origin)
	deadline := time.Now().Add(20 * time.Second)
	for {
		a.switchTo(0)
		if strings.Contains(a.o.Text, "moved page") || time.Now().After(deadline) {
			break
		}
		// Not there yet: look from the window again, then turn back.
		a.switchTo(2)
	}
	a.shows("moved page")
}

// TestPagesFramesNotHeld: while a session keeps windows, the documents of
// its tab's frames go on at once; only a frame no tab holds waits to be
// known. (Before, every frame document of every tab waited a second.)
func TestPagesFramesNotHeld(t *testing.T) {
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>home</title><p>home page</p>
<button onclick="for (let i = 0; i < 3; i++) { const f = document.createElement('iframe'); f.src = '/frame?' + i; document.body.append(f); }">Add frames</button>`,
		"/frame": `<!DOCTYPE html><p>a frame</p>`,
	})
	b := actBrowser(t)
	a := pagesTab(t, b, site.srv.URL, site.url("/"))
	a.act(a.control("button", "Add frames"), Action{Kind: ActClick}, OutcomeDone)
	deadline := time.Now().Add(20 * time.Second)
	for {
		n := 0
		for _, r := range site.requests() {
			if strings.HasPrefix(r, "GET /frame?") {
				n++
			}
		}
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 3 frames asked for their documents", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := b.popups.framesWaited.Load(); n != 0 {
		t.Fatalf("the tab's frame documents waited %d times", n)
	}
	if n := b.popups.documentsFailed.Load(); n != 0 {
		t.Fatalf("%d of the tab's documents failed", n)
	}
}
