package live

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"

	"github.com/domsnap/domsnap/errcode"
)

// guardReplyTimeout bounds each answer the guard sends for a paused request,
// and each load of about:blank it starts.
const guardReplyTimeout = 5 * time.Second

// blankURL is the empty document a tab starts on and the guard leaves a
// tab on when its main frame got somewhere the policy refuses.
const blankURL = "about:blank"

// errorPagePrefix starts the URL of the page Chromium commits for a
// navigation that failed (a refused connection, an unsafe redirect): it is
// the browser's own and holds nothing of any origin.
const errorPagePrefix = "chrome-error://"

// Guard limits where the tab's main frame may go, in two places.
//
// Where a navigation is requested: every document request of the main
// frame (the first one of a navigation, each redirect hop, and navigations
// the page starts itself) is paused by the Fetch domain and let through
// only when allow accepts its URL, and every redirect response of a main
// frame document is paused too, so a redirect towards a URL allow refuses
// is stopped before the browser follows it (for schemes such as file: the
// browser would otherwise fail the navigation itself and show an error
// page). A refused request is aborted, so the frame stays on the document it
// showed. Refused counts them. Subresources and documents of subframes are
// never paused.
//
// Where a navigation commits: not every way into the main frame is a
// request the Fetch domain sees (a page served from a speculation-rules
// prefetch or prerender, a blob: URL the page made, about:blank), so every
// main-frame commit is checked as well. One allow refuses (except the
// browser's own error page, and the about:blank loads the guard starts
// itself) is an escape: the guard loads about:blank at once, and the next
// Navigations answers navigation_refused, so a Session never captures that
// document; its revisions are gone with it. Same-document navigations are
// not checked: they cannot change the document's origin or scheme.
//
// Guard is called once, before the tab's first navigation. Its goroutines
// end when the tab closes.
func (p *Page) Guard(ctx context.Context, allow func(url string) bool) error {
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return callError(ctx, "Page.getFrameTree", err)
	}
	main := string(tree.FrameTree.Frame.ID)
	commits, err := p.client.Page.FrameNavigated(p.life)
	if err != nil {
		return callError(ctx, "Page.frameNavigated", err)
	}
	paused, err := p.client.Fetch.RequestPaused(p.life)
	if err != nil {
		commits.Close()
		return callError(ctx, "Fetch.requestPaused", err)
	}
	doc := network.ResourceTypeDocument
	args := fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{
		{ResourceType: &doc, RequestStage: fetch.RequestStageRequest},
		{ResourceType: &doc, RequestStage: fetch.RequestStageResponse},
	})
	if err := p.client.Fetch.Enable(ctx, args); err != nil {
		paused.Close()
		commits.Close()
		return callError(ctx, "Fetch.enable", err)
	}
	g := &guard{allow: allow, commits: commits}
	p.guard.Store(g)
	go p.watchCommits(g)
	go func() {
		defer paused.Close()
		for {
			ev, err := paused.Recv()
			if err != nil {
				return // the tab closed
			}
			rctx, cancel := context.WithTimeout(p.life, guardReplyTimeout)
			if string(ev.FrameID) == main && !allowPaused(ev, allow) {
				p.refused.Add(1)
				_ = p.client.Fetch.FailRequest(rctx, fetch.NewFailRequestArgs(ev.RequestID, network.ErrorReasonAborted))
			} else {
				_ = p.client.Fetch.ContinueRequest(rctx, fetch.NewContinueRequestArgs(ev.RequestID))
			}
			cancel()
		}
	}()
	return nil
}

// allowPaused decides one paused document request: at the request stage by
// its URL, at the response stage by where a redirect leads (a response that
// is no redirect goes on; its URL was allowed at the request stage).
func allowPaused(ev *fetch.RequestPausedReply, allow func(string) bool) bool {
	if ev.ResponseStatusCode == nil && ev.ResponseErrorReason == nil {
		return allow(ev.Request.URL)
	}
	if ev.ResponseStatusCode == nil || *ev.ResponseStatusCode < 300 || *ev.ResponseStatusCode > 399 {
		return true
	}
	for _, h := range ev.ResponseHeaders {
		if !strings.EqualFold(h.Name, "Location") {
			continue
		}
		base, err := url.Parse(ev.Request.URL)
		if err != nil {
			return false
		}
		to, err := base.Parse(strings.TrimSpace(h.Value))
		if err != nil {
			return false
		}
		return allow(to.String())
	}
	return true // a 3xx without Location is not followed
}

// Refused reports how many main-frame document requests and redirects
// Guard aborted.
func (p *Page) Refused() uint64 { return p.refused.Load() }

// guard is the commit side of Guard: the main frame's commits, read both
// by a goroutine (so an escape is stopped at once, between calls too) and
// by Navigations (so a count taken after a capture has judged every commit
// before the capture's reply). mu orders the two readers.
type guard struct {
	allow   func(string) bool
	commits page.FrameNavigatedClient

	mu sync.Mutex
	// blanks counts the about:blank loads the guard started whose commit
	// it has not read yet.
	blanks int
	// escapes counts main-frame commits outside the policy; told is how
	// many of them Navigations has answered with navigation_refused.
	escapes, told uint64
}

// watchCommits judges the main frame's commits as they come, until the
// tab's life ends.
func (p *Page) watchCommits(g *guard) {
	defer g.commits.Close()
	for {
		select {
		case <-p.life.Done():
			return
		case <-g.commits.Ready():
			g.drain(p)
		}
	}
}

// drain judges every commit already received, without blocking on the
// page, and sends the tab to about:blank after each escape.
func (g *guard) drain(p *Page) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		select {
		case <-g.commits.Ready():
		default:
			return
		}
		ev, err := g.commits.Recv()
		if err != nil {
			return // the tab closed
		}
		if ev.Frame.ParentID != nil || g.permitted(ev.Frame.URL) {
			continue
		}
		g.escapes++
		g.blanks++
		ctx, cancel := context.WithTimeout(p.life, guardReplyTimeout)
		p.leaving.Add(1)
		if _, err := p.client.Page.Navigate(ctx, page.NewNavigateArgs(blankURL)); err != nil {
			g.blanks--
		}
		p.leaving.Add(-1)
		cancel()
	}
}

// permitted reports whether a main-frame commit of u stays within the
// policy, and counts the guard's own about:blank loads as they commit.
func (g *guard) permitted(u string) bool {
	switch {
	case u == blankURL && g.blanks > 0:
		g.blanks--
		return true
	case strings.HasPrefix(u, errorPagePrefix):
		return true
	}
	return g.allow(u)
}

// policyError judges the commits received so far and answers
// navigation_refused once for the escapes not yet answered for.
func (p *Page) policyError() error {
	g := p.guard.Load()
	if g == nil {
		return nil
	}
	g.drain(p)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.escapes == g.told {
		return nil
	}
	g.told = g.escapes
	return errcode.New(errcode.NavigationRefused, pkg, "", "the page moved its main frame to a URL the policy refuses; it was stopped and the tab left blank")
}
