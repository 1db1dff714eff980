package live

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/domsnapshot"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
)

// Page is one browser tab, connected over a DevTools session of its own (a
// virtual connection of the browser's pipe, pipe.go). It is the Driver a live
// Session uses.
//
// A Page listens to Page.frameNavigated from the moment it opens and counts
// the main frame's navigations. Because the protocol delivers a session's
// events before the reply of any later command, and the pipe keeps that
// order for each session (pipe.go), draining that stream right after a
// capture tells whether the main document changed while the capture ran.
type Page struct {
	b      *Browser
	id     target.ID
	conn   *rpcc.Conn
	client *cdp.Client

	mu       sync.Mutex // guards navs and the stream's non-blocking reads
	navs     uint64
	navigate page.FrameNavigatedClient
	once     sync.Once

	// life ends when the tab is closed (or its browser shut down); the
	// event streams live under it.
	life    context.Context
	endLife context.CancelFunc
	// dialogsDone is closed when the dialog dismisser has returned;
	// dismissed counts the dialogs it dismissed outside actions.
	dialogsDone chan struct{}
	dismissed   atomic.Int64
	// dialogRun, while an action's input is sent and waited on, says how
	// the dialogs it raises are answered (dialog.go).
	dialogRun atomic.Pointer[dialogRun]
	// leaving counts the main-frame navigations the package itself has
	// under way (Goto, the guard's blank page): a beforeunload dialog
	// raised meanwhile is accepted, so a page cannot keep the tab.
	leaving atomic.Int32
	// stayed counts the beforeunload dialogs answered "stay" (dismissed):
	// each cancelled the navigation that raised it (dialog.go).
	stayed atomic.Int64
	// refused counts main-frame requests Guard aborted; guard is the rest
	// of Guard's state, nil without a Guard.
	refused atomic.Uint64
	guard   atomic.Pointer[guard]
	// netEnabled is set once Goto has turned the Network domain on.
	netEnabled atomic.Bool
	// lifecycleEnabled is set once Goto has turned lifecycle events on.
	lifecycleEnabled atomic.Bool
	// act is the state of acting on the tab (act_page.go).
	act actState
	// walkerWorld is the isolated world bounded captures reuse (bounded.go).
	walkerWorld boundedWorldCache
	// framesWaited says the last capture was a bounded walk that waited
	// for a rendered frame and then gave up for the whole snapshot, which
	// a session takes at once: that capture need not wait again (a second
	// wait of two frames cost a page of components about 30 ms an
	// observation). Every bounded walk clears it, and the whole capture
	// that follows takes it.
	framesWaited atomic.Bool
	// frameWaits counts the waits for a rendered frame the tab's whole
	// captures made (awaitRenderedFrame), for the tests that bound them.
	frameWaits atomic.Int64
	// walks counts the bounded captures taken, each one's id among the
	// page's (bounded.go).
	walks atomic.Uint64
	// describes counts the DOM.describeNode calls bounded captures made,
	// so tests can hold the cost of finding closed shadow roots and ids.
	describes atomic.Uint64
	// detached is closed once the browser has ended the tab's session
	// (the tab closed): a command then in flight is never answered.
	detached <-chan struct{}
	// windows, when set, keeps the windows this tab's pages open to
	// allowed URLs as pages of its session (pages.go); nil closes them all.
	windows atomic.Pointer[windowKeeper]
}

// openPage connects to a tab the browser just created and readies it
// before anything is loaded into it: the main frame's navigations are
// counted, JavaScript dialogs are dismissed as they open, and the reference
// screen is pinned (pinReferenceScreen). Every tab the package opens comes
// through here, so no page is ever loaded without these.
func openPage(ctx context.Context, b *Browser, id target.ID) (p *Page, err error) {
	att, err := b.client.Target.AttachToTarget(ctx, target.NewAttachToTargetArgs(id).SetFlatten(true))
	if err != nil {
		return nil, callError(ctx, "Target.attachToTarget", err)
	}
	conn, err := b.pipe.dial(ctx, string(att.SessionID))
	if err != nil {
		return nil, callError(ctx, "connecting to the tab", err)
	}
	life, endLife := context.WithCancel(b.life)
	defer func() {
		if err != nil {
			endLife()
			conn.Close()
		}
	}()
	c := cdp.NewClient(conn)
	// The streams are opened before Page.enable so that no navigation or
	// dialog can slip between the two.
	nav, err := c.Page.FrameNavigated(life)
	if err != nil {
		return nil, callError(ctx, "Page.frameNavigated", err)
	}
	dialogs, err := c.Page.JavascriptDialogOpening(life)
	if err != nil {
		nav.Close()
		return nil, callError(ctx, "Page.javascriptDialogOpening", err)
	}
	p = &Page{b: b, id: id, conn: conn, client: c, navigate: nav, life: life, endLife: endLife, dialogsDone: make(chan struct{}),
		detached: b.pipe.detachedSignal(string(att.SessionID))}
	go p.dismissDialogs(dialogs)
	if err := c.Page.Enable(ctx); err != nil {
		p.stopStreams()
		return nil, callError(ctx, "Page.enable", err)
	}
	if err := pinReferenceScreen(ctx, c); err != nil {
		p.stopStreams()
		return nil, err
	}
	// The typing guard's first listeners, in every document from now on
	// (earlyGuardJS).
	if _, err := c.Page.AddScriptToEvaluateOnNewDocument(ctx,
		page.NewAddScriptToEvaluateOnNewDocumentArgs(earlyGuardJS).SetWorldName(actWorld)); err != nil {
		p.stopStreams()
		return nil, callError(ctx, "Page.addScriptToEvaluateOnNewDocument", err)
	}
	b.popups.addTab(p)
	return p, nil
}

// stopStreams ends the tab's event streams and the goroutine reading the
// dialogs, and closes the connection.
func (p *Page) stopStreams() {
	if p.endLife != nil {
		p.endLife()
	}
	p.navigate.Close()
	p.conn.Close()
	if p.dialogsDone != nil {
		<-p.dialogsDone
	}
}

// Navigations reports how many main-frame navigations have committed in this
// tab since it opened. It consumes every event already received and never
// blocks on the page. Under a Guard, a main-frame commit outside the policy
// since the last call makes it answer navigation_refused (see Guard).
func (p *Page) Navigations(ctx context.Context) (uint64, error) {
	n, err := p.countNavigations(ctx)
	if err != nil {
		return n, err
	}
	return n, p.policyError()
}

// countNavigations is Navigations without the policy's judgement, for a
// caller that only needs to know whether the document changed (the bounded
// capture's world cache): it leaves a refusal for Navigations to answer,
// so the session still reports it.
func (p *Page) countNavigations(ctx context.Context) (uint64, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		select {
		case <-p.navigate.Ready():
			ev, err := p.navigate.Recv()
			if err != nil {
				return p.navs, callError(ctx, "reading Page.frameNavigated", err)
			}
			if ev.Frame.ParentID == nil {
				p.navs++
			}
		default:
			if err := ctx.Err(); err != nil {
				return p.navs, cancelled(err)
			}
			return p.navs, nil
		}
	}
}

// Navigate loads url in the main frame and waits for its load event (its
// own document's: Goto's wait).
//
// A context without a deadline gets limits.LiveTimeout; when the deadline
// passes (a server that never answers, a page whose script never lets the
// load event fire) the error's code is timeout.
func (p *Page) Navigate(ctx context.Context, url string) error {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	deadline, _ := ctx.Deadline()
	nav, err := p.Goto(ctx, url, UntilLoad, deadline)
	switch {
	case err != nil:
		return err
	case nav.ErrorText != "":
		return errcode.New(errcode.CaptureFailed, pkg, "", "navigation failed: "+errcode.Quote(nav.ErrorText))
	case nav.WaitTimedOut:
		return errcode.New(errcode.Timeout, pkg, "", "the load event did not come before the deadline")
	}
	return nil
}

// captureSnapshot takes one DOMSnapshot.captureSnapshot of the tab and
// returns the reply's bytes exactly as the protocol sent them, before any
// scrub: only a Session (which scrubs them where they arrive) and package
// livehook call it. It asks for the given computed styles and for nothing
// else: no DOM rects, paint order, colours or text-box details. A browser
// that has no DOMSnapshot domain answers unsupported_adapter.
func (p *Page) captureSnapshot(ctx context.Context, computedStyles []string) (json.RawMessage, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	if !p.framesWaited.Swap(false) {
		if err := p.awaitRenderedFrame(ctx); err != nil {
			return nil, err
		}
	}
	args := domsnapshot.NewCaptureSnapshotArgs(computedStyles)
	raw, err := invokeRaw(ctx, p.conn, "DOMSnapshot.captureSnapshot", args)
	if err != nil {
		var re *rpcc.ResponseError
		if errors.As(err, &re) && re.Code == methodNotFound {
			return nil, errcode.Wrap(errcode.UnsupportedAdapter, pkg, "", "the browser cannot take DOM snapshots", err)
		}
		return nil, callError(ctx, "DOMSnapshot.captureSnapshot", err)
	}
	raw, err = p.withFrames(ctx, raw)
	if err != nil {
		return nil, err
	}
	raw, err = p.withRemoteFrames(ctx, raw, computedStyles)
	if err != nil {
		return nil, err
	}
	return p.withShadowHosts(ctx, raw)
}

// frameWaitWorld names the isolated world in which awaitRenderedFrame waits.
const frameWaitWorld = "domsnap-frame-wait"

// awaitRenderedFrame returns once the page has produced a frame and started
// the next one. The load event can come before the first frame, and some
// rendering decisions are only made while a frame is produced: an element
// with content-visibility: auto stays skipped (its descendants have no layout
// objects) until the frame's viewport-intersection step finds it on screen,
// and the unlock takes effect in the frame after that. A capture taken before
// then reads content as not rendered that a person sees. Two animation-frame
// callbacks in a row guarantee that one whole frame, with its intersection
// step, lay between them.
//
// The wait runs in an isolated world of the main frame: the page's own
// script cannot see it or replace requestAnimationFrame to stall it, and the
// page's Content-Security-Policy does not apply to it. It waits for as long as
// ctx allows; a renderer that never produces a frame ends in ctx's deadline.
func (p *Page) awaitRenderedFrame(ctx context.Context) error {
	p.frameWaits.Add(1)
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return callError(ctx, "Page.getFrameTree", err)
	}
	world, err := p.client.Page.CreateIsolatedWorld(ctx,
		page.NewCreateIsolatedWorldArgs(tree.FrameTree.Frame.ID).SetWorldName(frameWaitWorld))
	if err != nil {
		return callError(ctx, "Page.createIsolatedWorld", err)
	}
	const twoFrames = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`
	r, err := p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(twoFrames).
		SetContextID(world.ExecutionContextID).SetAwaitPromise(true).SetReturnByValue(true))
	if err != nil {
		return callError(ctx, "waiting for a rendered frame", err)
	}
	if r.ExceptionDetails != nil {
		return errcode.New(errcode.CaptureFailed, pkg, "", "waiting for a rendered frame failed")
	}
	return nil
}

// methodNotFound is JSON-RPC's code for a method the server does not know.
const methodNotFound = -32601

// evaluate runs a script in the page and returns its JSON value. Only tests
// and benchmarks use it (through package livehook); analysis runs no script
// in the page's own world (an observation's bounded walker runs in an
// isolated one, bounded.go).
func (p *Page) evaluate(ctx context.Context, expr string) (json.RawMessage, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	r, err := p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetReturnByValue(true))
	if err != nil {
		return nil, callError(ctx, "Runtime.evaluate", err)
	}
	if r.ExceptionDetails != nil {
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "script threw an exception")
	}
	return json.RawMessage(r.Result.Value), nil
}

// Answers reports whether the tab's renderer runs a script within timeout.
// A page whose own script never yields (an endless loop) holds the
// renderer's main thread, and then nothing that needs the page answers:
// not a snapshot, not a navigation away. The probe evaluates a literal,
// which no page script can intercept.
func (p *Page) Answers(timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(p.life, timeout)
	defer cancel()
	_, err := p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs("0").SetReturnByValue(true))
	return err == nil
}

// Close closes the tab and its connection. It is safe to call more than once.
func (p *Page) Close() error {
	p.once.Do(func() {
		p.b.popups.forget(p)
		if p.windows.Load() != nil {
			p.b.popups.keeping.Add(-1)
		}
		p.stopStreams()
		ctx, cancel := context.WithTimeout(context.Background(), closeCallTimeout)
		defer cancel()
		_, _ = p.b.client.Target.CloseTarget(ctx, target.NewCloseTargetArgs(p.id))
	})
	return nil
}
