package live

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
)

// popupTimeout bounds the handling of one new page: a window opened into
// a renderer of its own runs only once that renderer has started, which
// takes a second on a loaded machine.
const popupTimeout = 15 * time.Second

// popupHold closes the windows and tabs the browser's pages open before
// any of them sends a request. Closing a new window once the browser
// reports it (Target.targetCreated) is too late: its first request (a
// link's, a form's, window.open's) is already out, with the profile's
// cookies when there is one. So the browser attaches to every new page
// paused (Target.setAutoAttach with waitForDebuggerOnStart): a page
// without an opener (a tab the package opened) is let run at once; one
// with an opener gets every request failed (the Fetch domain, before it
// runs), is let run (a paused window of the opener's own renderer holds
// that renderer, opener included, until it runs) and is closed.
//
// A window the page's script opens blank is different: it exists at once,
// in the opener's renderer, and the script can point it elsewhere (set its
// location, submit a form written into it) in the same task, before the
// paused attachment has held its requests. So the browser's own session
// holds every document request as well (Fetch at the browser level) and
// fails each one whose frame is none of the tabs' the package opened: the
// tabs' own documents and their frames' go on.
//
// It starts with the first action on any of the browser's tabs, since a
// page opens a window only with the user activation an action gives it;
// a browser that never acts (a person signing in) keeps its windows.
type popupHold struct {
	once sync.Once
	err  error

	mu sync.Mutex
	// owners are the tabs whose closed windows are counted, by target id.
	owners map[target.ID]*Page
	// tabs are the tabs the package opened and has not closed, whose
	// documents the browser-wide hold lets go.
	tabs map[target.ID]*Page

	// adopting are the windows being made pages of a session (adopt),
	// with the keeper whose policy their main frames' documents follow
	// until they are tabs with a guard of their own.
	adopting map[target.ID]*windowKeeper
	// keeping counts the tabs whose sessions keep windows: while one does,
	// a document request of a frame no one knows yet waits a moment for
	// its window to be adopted.
	keeping atomic.Int32

	// documentsFailed counts the document requests of windows pages
	// opened that the browser-wide hold failed, for tests.
	documentsFailed atomic.Int64
	// framesWaited counts the pauses judgeFrame made waiting for a frame
	// to become known, for tests: a tab's frames never wait.
	framesWaited atomic.Int64
}

// keeperOf is the window keeper of the tab whose id is opener, nil when
// it keeps none or is not counted.
func (h *popupHold) keeperOf(opener target.ID) *windowKeeper {
	h.mu.Lock()
	owner := h.owners[opener]
	h.mu.Unlock()
	if owner == nil {
		return nil
	}
	return owner.windows.Load()
}

// setAdopting marks a window as being adopted by k, or no longer (k nil).
func (h *popupHold) setAdopting(id target.ID, k *windowKeeper) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.adopting == nil {
		h.adopting = map[target.ID]*windowKeeper{}
	}
	if k != nil {
		h.adopting[id] = k
	} else {
		delete(h.adopting, id)
	}
}

// adopter is the keeper adopting the window id, nil when none is.
func (h *popupHold) adopter(id target.ID) *windowKeeper {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.adopting[id]
}

// ownAttachment says whether id is a window being adopted or a tab of
// the package's: an attachment to it that is not waiting is the package's
// own (openPage's).
func (h *popupHold) ownAttachment(id target.ID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.adopting[id] != nil || h.tabs[id] != nil
}

// closePopups starts closing the windows p's browser's pages open, once
// per browser, and counts those p opens in p.act.popups until p closes.
func (p *Page) closePopups(ctx context.Context) error {
	h := &p.b.popups
	h.mu.Lock()
	if h.owners == nil {
		h.owners = map[target.ID]*Page{}
	}
	h.owners[p.id] = p
	h.mu.Unlock()
	h.once.Do(func() { h.err = p.b.startHold(ctx) })
	if h.err != nil {
		// A failed start is tried again by the next action.
		err := h.err
		h.once, h.err = sync.Once{}, nil
		return err
	}
	return nil
}

// forget stops counting p's windows once it closes, and stops taking its
// documents for a tab's.
func (h *popupHold) forget(p *Page) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.owners[p.id] == p {
		delete(h.owners, p.id)
	}
	if h.tabs[p.id] == p {
		delete(h.tabs, p.id)
	}
}

// addTab records a tab the package opened.
func (h *popupHold) addTab(p *Page) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tabs == nil {
		h.tabs = map[target.ID]*Page{}
	}
	h.tabs[p.id] = p
}

// tabList is the tabs the package has open.
func (h *popupHold) tabList() []*Page {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Page, 0, len(h.tabs))
	for _, p := range h.tabs {
		out = append(out, p)
	}
	return out
}

// startHold turns the paused attachment on and reads its events until the
// browser shuts down.
func (b *Browser) startHold(ctx context.Context) error {
	attached, err := b.client.Target.AttachedToTarget(b.life)
	if err != nil {
		return callError(ctx, "Target.attachedToTarget", err)
	}
	pages := "page"
	args := target.NewSetAutoAttachArgs(true, true).SetFlatten(true).SetFilter(target.Filter{{Type: &pages}})
	if err := b.client.Target.SetAutoAttach(ctx, args); err != nil {
		attached.Close()
		return callError(ctx, "Target.setAutoAttach", err)
	}
	if err := b.holdPopupDocuments(ctx); err != nil {
		attached.Close()
		return err
	}
	go func() {
		defer attached.Close()
		for {
			ev, err := attached.Recv()
			if err != nil {
				return // the browser shut down
			}
			// Each page is handled on its own: a window that answers
			// slowly must not hold up the tab the package opens next.
			go b.attached(ev)
		}
	}()
	return nil
}

// attached lets a page the browser attached to run, after failing every
// request of one that has an opener, and closes that one.
func (b *Browser) attached(ev *target.AttachedToTargetReply) {
	ctx, cancel := context.WithTimeout(b.life, popupTimeout)
	defer cancel()
	info := ev.TargetInfo
	popup := info.OpenerID != nil
	var keeper *windowKeeper
	if popup && ev.WaitingForDebugger {
		if keeper = b.popups.keeperOf(*info.OpenerID); keeper != nil && !keeper.reserve() {
			keeper = nil
		}
		if keeper == nil {
			// Counted as it opens, so the action that opened it counts
			// it, though a window in a renderer of its own may take a
			// second to be let run and closed.
			b.popups.count(*info.OpenerID)
		}
	}
	if !ev.WaitingForDebugger && (!popup || b.popups.ownAttachment(info.TargetID)) {
		// A tab that was open already when the attachment began, or the
		// package's own attachment to a tab (openPage), which the browser
		// reports here as well, a window being adopted included: it is
		// not this hold's to end.
		return
	}
	conn, err := b.pipe.dial(ctx, string(ev.SessionID))
	if err != nil {
		b.closePopup(ctx, info)
		return
	}
	defer conn.Close()
	c := cdp.NewClient(conn)
	if !popup {
		_ = c.Runtime.RunIfWaitingForDebugger(ctx)
		_ = b.client.Target.DetachFromTarget(ctx, target.NewDetachFromTargetArgs().SetSessionID(ev.SessionID))
		return
	}
	if keeper != nil {
		if b.adopt(ctx, ev, c, keeper) {
			return
		}
		// Not adopted: closed as any other window, and counted.
		keeper.release()
		b.popups.count(*info.OpenerID)
	}
	// Every request of the window fails, its first document's included,
	// from before it runs until it is gone: a request left paused when
	// the session ends would be let go. The session ends with the window;
	// failing goes on until then, at most until ctx ends. The window is
	// let run even when the interception could not start (its target was
	// gone already): left paused, it would hold its opener's renderer.
	failing := make(chan struct{})
	if paused, err := c.Fetch.RequestPaused(ctx); err != nil {
		close(failing)
	} else if err := c.Fetch.Enable(ctx, fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{{URLPattern: strPtr("*")}})); err != nil {
		paused.Close()
		close(failing)
	} else {
		go func() {
			defer close(failing)
			failAll(ctx, c, paused)
		}()
	}
	detached, err := b.client.Target.DetachedFromTarget(ctx)
	if ev.WaitingForDebugger {
		_ = c.Runtime.RunIfWaitingForDebugger(ctx)
	}
	if b.closePopup(ctx, info) && err == nil {
		// Failing goes on until the window's session ends.
		for {
			d, err := detached.Recv()
			if err != nil || d.SessionID == ev.SessionID {
				break
			}
		}
	}
	if err == nil {
		detached.Close()
	}
	cancel()
	<-failing
}

// holdPopupDocuments pauses every document request of the browser's
// pages at the browser's own session, and fails those that are no tab's
// (judgeFrame), until the browser shuts down. Each is decided on
// its own, so a slow answer about one does not hold up the rest.
func (b *Browser) holdPopupDocuments(ctx context.Context) error {
	paused, err := b.client.Fetch.RequestPaused(b.life)
	if err != nil {
		return callError(ctx, "Fetch.requestPaused", err)
	}
	doc := network.ResourceTypeDocument
	args := fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{{ResourceType: &doc, RequestStage: fetch.RequestStageRequest}})
	if err := b.client.Fetch.Enable(ctx, args); err != nil {
		paused.Close()
		return callError(ctx, "Fetch.enable", err)
	}
	go func() {
		defer paused.Close()
		for {
			ev, err := paused.Recv()
			if err != nil {
				return // the browser shut down
			}
			go b.decideDocument(ev)
		}
	}()
	return nil
}

// decideDocument fails a paused document request that is no tab's (a
// window's a page opened) and lets the tabs' go on. A request must be answered whatever
// happens: one left paused would hold its navigation for ever.
func (b *Browser) decideDocument(ev *fetch.RequestPausedReply) {
	ctx, cancel := context.WithTimeout(b.life, popupTimeout)
	defer cancel()
	k, tab := b.judgeFrame(ctx, ev.FrameID)
	// The answer gets a time of its own: judging may have used up ctx.
	ctx, cancel = context.WithTimeout(b.life, answerTimeout)
	defer cancel()
	switch {
	case k != nil && k.allow(ev.Request.URL), tab:
		// A tab's frame, or the main frame of a window being adopted
		// whose session's policy allows the document, as its own guard
		// will once it has one.
		_ = b.client.Fetch.ContinueRequest(ctx, fetch.NewContinueRequestArgs(ev.RequestID))
	default:
		b.popups.documentsFailed.Add(1)
		_ = b.client.Fetch.FailRequest(ctx, fetch.NewFailRequestArgs(ev.RequestID, network.ErrorReasonBlockedByClient))
	}
}

// answerTimeout bounds the answer to a paused request.
const answerTimeout = 5 * time.Second

// tabsHold says whether frame is one of the tabs': the main frame of a tab
// the package opened (its target's id) or a frame of one of their
// documents. What is not is a window's a page opened. The browser may list
// such a window only after its first request is paused, so the frame is
// judged by what is known to be the tabs', not by what is known to be a
// window. A frame of a tab is in the tab's frame tree before it asks for
// its document; a tab that does not answer in time is passed over, and
// its frame taken for a window's.
func (b *Browser) tabsHold(ctx context.Context, frame page.FrameID) bool {
	tabs := b.popups.tabList()
	for _, p := range tabs {
		if string(p.id) == string(frame) {
			return true
		}
	}
	for _, p := range tabs {
		tctx, cancel := context.WithTimeout(ctx, frameTreeWait)
		tree, err := p.client.Page.GetFrameTree(tctx)
		cancel()
		if err == nil && holdsFrame(tree.FrameTree, frame) {
			return true
		}
		// A frame another process renders (a frame of another site)
		// may be missing from the tab's tree, but its owner element is
		// one of the tab's documents'.
		tctx, cancel = context.WithTimeout(ctx, frameTreeWait)
		o, err := p.client.DOM.GetFrameOwner(tctx, dom.NewGetFrameOwnerArgs(frame))
		cancel()
		if err == nil && o.BackendNodeID != 0 {
			return true
		}
	}
	return false
}

// frameTreeWait bounds one tab's answer about its frames.
const frameTreeWait = 2 * time.Second

// holdsFrame says whether frame is in tree.
func holdsFrame(tree page.FrameTree, frame page.FrameID) bool {
	if tree.Frame.ID == frame {
		return true
	}
	for _, c := range tree.ChildFrames {
		if holdsFrame(c, frame) {
			return true
		}
	}
	return false
}

// closePopup closes a window a page opened; false when it could not be
// closed (it is gone already).
func (b *Browser) closePopup(ctx context.Context, info target.Info) bool {
	_, err := b.client.Target.CloseTarget(ctx, target.NewCloseTargetArgs(info.TargetID))
	return err == nil
}

// count counts a window opener opened, for opener's actions.
func (h *popupHold) count(opener target.ID) {
	h.mu.Lock()
	owner := h.owners[opener]
	h.mu.Unlock()
	if owner != nil {
		owner.act.popups.Add(1)
	}
}

// failAll fails every request paused on a window's session until ctx
// ends.
func failAll(ctx context.Context, c *cdp.Client, paused fetch.RequestPausedClient) {
	defer paused.Close()
	for {
		ev, err := paused.Recv()
		if err != nil {
			return
		}
		_ = c.Fetch.FailRequest(ctx, fetch.NewFailRequestArgs(ev.RequestID, network.ErrorReasonBlockedByClient))
	}
}

func strPtr(s string) *string { return &s }
