package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/mcp/internal/store"
	"github.com/domsnap/domsnap/profile"
)

// grant is what a session may do: whose it is, where it may go, and the
// profile it browses with. It is fixed when the session is made, so a
// principals file read again applies to new sessions only.
type grant struct {
	// principal names the hosted caller the session belongs to, "" over
	// stdio or with a single token.
	principal string
	// policy limits the main frame (--allow-origin, or the principal's
	// allow_origins, each with the other).
	policy []*Policy
	// profile names the persistent profile the session browses with, ""
	// for a fresh browser context.
	profile string
}

// session is the state of one MCP session: its browser context, tab and
// live session, created on the first navigation. Calls hold lock while
// they run; mu guards the fields, so end can tear them down while a call
// is in flight (that call then fails).
type session struct {
	srv  *Server
	lock chan struct{}
	// owner names the session's artifacts in the store.
	owner store.Owner
	grant grant

	mu      sync.Mutex
	ended   bool
	browser *live.Browser
	bctx    *live.BrowserContext
	page    *live.Page
	live    *live.Session
	// With a profile: the lease, held while the session's own browser
	// runs on the profile's folder, and the profile's origins.
	lease *profile.Lease
	bound *Policy
	// closing counts the resets closing what the session had.
	closing sync.WaitGroup
	// uploadDir is the session's folder of staged uploads, "" before the
	// first; uploaded counts the files staged in it (upload.go).
	uploadDir string
	uploaded  int
	// downloads are the downloads of the session's browser context, nil
	// before it has one or when they could not be allowed (download.go).
	downloads *downloadFolder
}

func newSession(s *Server, g grant) *session {
	return &session{srv: s, lock: make(chan struct{}, 1), owner: store.Owner(s.owners.Add(1)), grant: g}
}

// check is where the main frame may go, as an error: every policy of the
// grant, and with a profile its binding, must allow raw. The binding is
// read again when no browser holds it yet, so a profile that does not
// exist is unknown_profile before anything starts.
func (ss *session) check(raw string) error {
	for _, p := range ss.grant.policy {
		if err := p.check(raw); err != nil {
			return err
		}
	}
	if ss.grant.profile == "" {
		return nil
	}
	ss.mu.Lock()
	bound := ss.bound
	ss.mu.Unlock()
	if bound == nil {
		prof, err := ss.srv.profileStore().Get(ss.grant.profile)
		if err != nil {
			return err
		}
		if bound, err = NewPolicy(prof.Origins); err != nil {
			return err
		}
	}
	if err := bound.check(raw); err != nil {
		return errcode.New(errcode.NavigationRefused, pkg, "", "the URL's origin is not one the session's profile is bound to")
	}
	return nil
}

// allow is check as the guard asks it, for every main-frame request.
func (ss *session) allow(raw string) bool {
	for _, p := range ss.grant.policy {
		if !p.Allow(raw) {
			return false
		}
	}
	if ss.grant.profile == "" {
		return true
	}
	ss.mu.Lock()
	bound := ss.bound
	ss.mu.Unlock()
	return bound != nil && bound.Allow(raw)
}

// isEnded reports whether the session has ended.
func (ss *session) isEnded() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.ended
}

// acquire takes the session lock, or gives up when ctx ends first.
func (ss *session) acquire(ctx context.Context) error {
	select {
	case ss.lock <- struct{}{}:
	case <-ctx.Done():
		return errcode.Wrap(errcode.Cancelled, pkg, "", "cancelled while waiting for the session's previous call", ctx.Err())
	}
	ss.mu.Lock()
	ended := ss.ended
	ss.mu.Unlock()
	if ended {
		<-ss.lock
		return errcode.New(errcode.SessionExpired, pkg, "", "the session has ended")
	}
	return nil
}

func (ss *session) release() { <-ss.lock }

// alive reports whether the session has a tab in a browser still running.
func (ss *session) alive() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.page == nil || ss.browser == nil {
		return false
	}
	select {
	case <-ss.browser.Done():
		return false
	default:
		return true
	}
}

// current returns the current page and the live session, nil before the
// first navigation or after the browser died. The session's first tab
// (ss.page) is the current page until a window its pages opened is kept.
func (ss *session) current() (*live.Page, *live.Session) {
	if !ss.alive() {
		return nil, nil
	}
	ss.mu.Lock()
	l := ss.live
	ss.mu.Unlock()
	if l == nil {
		return nil, nil
	}
	return l.CurrentPage(), l
}

// open makes sure the session has a tab in a running browser. On the
// first navigation, and after the browser died, it starts over with a new
// browser context; after a tab was dropped because its page stopped
// answering (fail), it opens a new tab in the context the session has. Either
// way the tab comes with a new live session, whose revisions are new, so the
// old ones are foreign.
func (ss *session) open(ctx context.Context) (*live.Page, *live.Session, error) {
	if p, l := ss.current(); p != nil {
		return p, l, nil
	}
	if ss.grant.profile != "" {
		return ss.openProfile(ctx)
	}
	b, bctx, err := ss.context(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ss.openTab(ctx, b, bctx.NewPage, func() bool { return ss.bctx == bctx })
}

// openTab opens the session's tab with newPage in browser b, guards it by
// the session's policy and gives it a live session, which the session
// keeps unless it ended meanwhile or no longer holds where the tab was
// opened (held, asked under ss.mu). A failure resets the session, so the
// next call starts afresh.
func (ss *session) openTab(ctx context.Context, b *live.Browser, newPage func(context.Context) (*live.Page, error), held func() bool) (*live.Page, *live.Session, error) {
	p, err := newPage(ctx)
	if err != nil {
		ss.reset()
		return nil, nil, err
	}
	if err := p.Guard(ctx, ss.allow); err != nil {
		p.Close()
		ss.reset()
		return nil, nil, err
	}
	l, err := live.NewSession(p, live.SessionOptions{Browser: b.Version(), Windows: ss.allow})
	if err != nil {
		p.Close()
		ss.reset()
		return nil, nil, err
	}
	ss.mu.Lock()
	if ss.ended || !held() {
		ss.mu.Unlock()
		p.Close()
		return nil, nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended")
	}
	ss.page, ss.live = p, l
	ss.mu.Unlock()
	return p, l, nil
}

// context returns the browser context to open the session's tab in: the
// one the session has while its browser runs, else a new one, which the
// session keeps.
func (ss *session) context(ctx context.Context) (*live.Browser, *live.BrowserContext, error) {
	ss.mu.Lock()
	b, bctx := ss.browser, ss.bctx
	ss.mu.Unlock()
	if b != nil && bctx != nil {
		select {
		case <-b.Done():
		default:
			return b, bctx, nil
		}
	}
	ss.reset()
	b, err := ss.srv.browserFor(ctx)
	if err != nil {
		return nil, nil, err
	}
	bctx, err = b.NewContext(ctx)
	if err != nil && ctx.Err() == nil && !b.Responsive(probeTimeout) {
		// The browser died before its death was noticed (a process killed
		// a moment ago is not reaped at once): start a new one now rather
		// than fail this navigation too.
		ss.srv.retire(b)
		if b, err = ss.srv.browserFor(ctx); err != nil {
			return nil, nil, err
		}
		bctx, err = b.NewContext(ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	ss.mu.Lock()
	if ss.ended {
		ss.mu.Unlock()
		bctx.Close()
		return nil, nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended")
	}
	ss.browser, ss.bctx = b, bctx
	ss.mu.Unlock()
	ss.allowDownloads(ctx, bctx)
	return b, bctx, nil
}

// openProfile opens the session's tab in a browser of its own on its
// profile's folder: the profile's cookies and storage live in that
// browser's default context, which no other session shares. The browser is
// started, under the profile's lease, on the first navigation and after it
// died; a tab dropped because its page stopped answering (fail) is
// replaced in the same browser. The lease is held until the browser has
// exited (reset).
func (ss *session) openProfile(ctx context.Context) (*live.Page, *live.Session, error) {
	b, err := ss.profileBrowser(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ss.openTab(ctx, b, b.NewPage, func() bool { return ss.browser == b })
}

// profileBrowser returns the session's own browser while it runs, else
// leases the profile and starts a new one, which the session keeps.
func (ss *session) profileBrowser(ctx context.Context) (_ *live.Browser, err error) {
	ss.mu.Lock()
	b := ss.browser
	ss.mu.Unlock()
	if b != nil {
		select {
		case <-b.Done():
		default:
			return b, nil
		}
	}
	ss.reset()
	prof, err := ss.srv.profileStore().Get(ss.grant.profile)
	if err != nil {
		return nil, err
	}
	bound, err := NewPolicy(prof.Origins)
	if err != nil {
		return nil, err
	}
	lease, err := prof.Lease()
	if err != nil {
		return nil, err
	}
	ss.mu.Lock()
	ss.bound = bound
	ss.mu.Unlock()
	if b, err = ss.srv.launchProfile(ctx, lease); err != nil {
		lease.Close()
		return nil, err
	}
	ss.mu.Lock()
	if ss.ended {
		ss.mu.Unlock()
		b.Close()
		lease.Close()
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended")
	}
	ss.browser, ss.lease = b, lease
	ss.mu.Unlock()
	return b, nil
}

// fail passes a call's error on. When the browser has died under the
// call, the session forgets its tab and the server its browser, so the next
// navigation starts a new one, and the error is capture_failed whatever the
// protocol said. When the call ran out of time on a page that no longer
// answers (its script never yields), the session closes that tab, so the
// next navigation opens a new one in the same browser context instead of
// timing out on the stuck page too.
func (ss *session) fail(err error) error {
	ss.mu.Lock()
	b, l := ss.browser, ss.live
	ss.mu.Unlock()
	var p *live.Page
	if l != nil {
		p = l.CurrentPage()
	}
	if b == nil || errcode.CodeOf(err) != errcode.CaptureFailed && errcode.CodeOf(err) != errcode.Timeout {
		return err
	}
	if !b.Responsive(probeTimeout) {
		ss.reset()
		if ss.grant.profile == "" {
			ss.srv.retire(b)
		}
		return errcode.Wrap(errcode.CaptureFailed, pkg, "", "the browser exited; navigate again to start a new one", err)
	}
	if p != nil && errcode.CodeOf(err) == errcode.Timeout && !p.Answers(probeTimeout) {
		ss.dropTab(l)
		return errcode.Wrap(errcode.Timeout, pkg, "", "the page stopped answering and its tab was closed; navigate again to open a new one", err)
	}
	return err
}

// probeTimeout bounds the check that a browser still answers.
const probeTimeout = 2 * time.Second

// dropTab closes the pages of live session l and forgets it, if it is
// still the session's, and keeps the browser context. Closing a tab ends
// its renderer, which a page stuck in its own script would hold forever.
func (ss *session) dropTab(l *live.Session) {
	ss.mu.Lock()
	mine := ss.live == l
	if mine {
		ss.page, ss.live = nil, nil
	}
	ss.mu.Unlock()
	if mine {
		l.ClosePages()
	}
}

// reset closes the tab and the browser context, if any. A session with a
// profile closes its own browser, and only once that has exited releases
// the lease, so the next holder never meets a browser still on the folder.
func (ss *session) reset() {
	ss.mu.Lock()
	p, l, bctx, b, lease, dls := ss.page, ss.live, ss.bctx, ss.browser, ss.lease, ss.downloads
	ss.browser, ss.bctx, ss.page, ss.live, ss.lease, ss.downloads = nil, nil, nil, nil, nil, nil
	if lease != nil {
		// The next browser is bound by the binding read when it starts.
		ss.bound = nil
	}
	ss.closing.Add(1)
	ss.mu.Unlock()
	defer ss.closing.Done()
	if l != nil {
		l.ClosePages()
	} else if p != nil {
		p.Close()
	}
	if dls != nil {
		dls.dispose()
	}
	if bctx != nil {
		bctx.Close()
	}
	if lease != nil {
		if b != nil {
			b.Close()
		}
		lease.Close()
	}
}

// end ends the session: its browser context is disposed, a call in flight
// fails, and later calls get session_expired.
func (ss *session) end() {
	ss.mu.Lock()
	ss.ended = true
	ss.mu.Unlock()
	ss.reset()
	// Another goroutine's reset may be closing what the session had (a
	// server shutting down and the SDK ending the session both end it):
	// end returns once that is closed too, so a profile's browser never
	// outlives its session's end.
	ss.closing.Wait()
	ss.removeUploads()
	if ss.srv.store != nil {
		ss.srv.store.Release(ss.owner)
	}
}
