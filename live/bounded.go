package live

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/limits"
)

// BoundedSnapshotter is a Snapshotter that can also take a bounded capture:
// the main document read in tree order only as far as a budget of nodes. Page
// implements it; a Session observes through it when its driver does
// (bounded_session.go).
type BoundedSnapshotter interface {
	Snapshotter
	// CaptureBounded reads the main document in tree order until it has
	// read budget nodes that a scan pays for (bounded_session.go), the
	// document node included, and at most limits.MaxTreeNodes nodes in all. again marks a retake within one
	// observation, whose first capture already waited for the page as
	// CaptureSnapshot does.
	CaptureBounded(ctx context.Context, budget int, again bool) (*BoundedCapture, error)
}

// BoundedCapture is one bounded capture as a page gave it.
type BoundedCapture struct {
	// Raw is the walker's reply (walkerSource): the tables of a
	// captureSnapshot result and the horizon member, as
	// capture.DecodeBounded reads them. It holds no form control value.
	Raw json.RawMessage
	// Hosts are the nodes that host a closed shadow root, which no script
	// can see (capture.DecodeBounded).
	Hosts []int
	// Resolve finds the backend node id of the node at an index of Raw's
	// tables, 0 when it cannot; it asks the browser, so it is called only
	// for the nodes whose id an analysis reads. Nil when the driver has no
	// ids.
	Resolve func(node int) int64
	// Close ends the capture: Resolve answers 0 from then on, the handles
	// the walker kept are released, and the first error Resolve met is
	// returned. Nil when there is nothing to end.
	Close func() error
}

// boundedWorld names the isolated world the walker runs in, and
// boundedGroup the protocol object group of the handles it leaves.
const (
	boundedWorld = "domsnap-bounded"
	boundedGroup = "domsnap-bounded"
)

// CaptureBounded takes a bounded capture of the tab in one protocol call:
// the walker (walkerSource) runs in an isolated world, first waits for a
// rendered frame as CaptureSnapshot does (unless again), and returns the
// document's first nodes up to the budget; the custom elements it lists are then
// described (DOM.describeNode) to find closed shadow roots. Backend node
// ids are found later, node by node, when an analysis reads one (Resolve):
// the JavaScript API has no way to a node's backend id, so each costs two
// protocol calls, which for every node of a 16,384-node capture came to
// about a second, while an analysis reads the ids of a few dozen nodes at
// most. The ids are the browser's own, so a later call finds the element
// again with DOM.resolveNode, as acting does.
func (p *Page) CaptureBounded(ctx context.Context, budget int, again bool) (*BoundedCapture, error) {
	life := ctx
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	if budget < 1 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a bounded capture needs a budget of at least one node")
	}
	id := p.walks.Add(1)
	expr := walkerSource + "(" + strconv.Itoa(budget) + ", " + strconv.Itoa(limits.MaxTreeNodes) + ", " +
		strconv.FormatBool(!again) + ", " + strconv.FormatUint(id, 10) + ")"
	// The reply is read raw (invokeRaw): its value is one string, the
	// walker's JSON, which costs the browser far less to send than the same
	// tables as an object (measured on a 16,384-node capture: about 20 ms
	// less per capture).
	var reply json.RawMessage
	walk := func(world runtime.ExecutionContextID) error {
		args := runtime.NewEvaluateArgs(expr).SetContextID(world).
			SetReturnByValue(true).SetAwaitPromise(true)
		var err error
		reply, err = invokeRaw(ctx, p.conn, "Runtime.evaluate", args)
		return err
	}
	// A world belongs to one document: the count of main-frame
	// navigations says whether the document is still the one it was made
	// in (a document kept for going back could otherwise still answer).
	nav, err := p.countNavigations(ctx)
	if err != nil {
		return nil, err
	}
	world, cached := p.walkerWorld.get(nav)
	err = errStale
	if cached {
		err = walk(world)
	}
	if err != nil && ctx.Err() == nil {
		// No world yet, or the document it belonged to is gone: a world
		// lives as long as its document.
		if world, err = p.newWalkerWorld(ctx, nav); err != nil {
			return nil, err
		}
		err = walk(world)
	}
	if err != nil {
		p.walkerWorld.drop()
		return nil, callError(ctx, "Runtime.evaluate (the bounded walker)", err)
	}
	raw, candidates, whole, ok := walkerReply(reply)
	if ok && whole {
		return nil, errWholePage
	}
	if !ok {
		// The exception's text is not quoted: it could name page content.
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the bounded walker failed")
	}
	h := &nodeHandles{p: p, life: life, world: world, id: id}
	hosts, err := h.closedHosts(ctx, candidates)
	if err != nil {
		h.close()
		return nil, err
	}
	return &BoundedCapture{Raw: raw, Hosts: hosts, Resolve: h.resolve, Close: h.close}, nil
}

// errWholePage is CaptureBounded's answer for a page whose main document
// holds content that content-visibility may skip (walkerSource): only the
// whole snapshot says what of it is rendered, so the observation takes
// that instead.
var errWholePage = errors.New("the page holds content-visibility content: a bounded capture cannot read it")

// walkerReply reads the reply of the walker's Runtime.evaluate: a string
// holding the capture and the list of custom elements with children, or
// saying that the page must be read whole. It fails on an exception or any
// other shape.
func walkerReply(reply []byte) (capture json.RawMessage, candidates []int, whole, ok bool) {
	var text string
	l := jsonlex.Lexer{Data: reply}
	typ, thrown := "", false
	err := l.Members("", func(k jsonlex.Span) error {
		switch l.Decode(k) {
		case "result":
			return l.Members("", func(k jsonlex.Span) error {
				l.SkipSpace()
				switch l.Decode(k) {
				case "type":
					sp, err := l.StringSpan("")
					typ = l.Decode(sp)
					return err
				case "value":
					sp, err := l.StringSpan("")
					text = l.Decode(sp)
					return err
				}
				return l.SkipValue("")
			})
		case "exceptionDetails":
			thrown = true
		}
		return l.SkipValue("")
	})
	if err != nil || l.End() != nil || thrown || typ != "string" {
		return nil, nil, false, false
	}
	// The walker's own JSON: {"capture": {...}, "candidates": [...]}, or
	// {"whole": true}.
	data := []byte(text)
	l = jsonlex.Lexer{Data: data}
	err = l.Members("", func(k jsonlex.Span) error {
		l.SkipSpace()
		switch l.Decode(k) {
		case "capture":
			start := l.Pos
			err := l.SkipValue("")
			capture = data[start:l.Pos:l.Pos]
			return err
		case "whole":
			start := l.Pos
			err := l.SkipValue("")
			whole = string(data[start:l.Pos]) == "true"
			return err
		case "candidates":
			return l.Elements("", func(int) error {
				n, err := l.Int32("")
				if err == nil && n < 0 {
					err = l.Unexpected("", "a node index")
				}
				candidates = append(candidates, int(n))
				return err
			})
		}
		return l.SkipValue("")
	})
	if err != nil || l.End() != nil {
		return nil, nil, false, false
	}
	if whole {
		return nil, nil, true, true
	}
	if len(capture) == 0 {
		return nil, nil, false, false
	}
	return capture, candidates, false, true
}

// nodeHandles finds the walker's nodes again, for as long as a capture's
// tree may need an id. The walker leaves its nodes in its world's global
// __domsnapNodes, under the capture's id: they stay there until the next
// walk of the page replaces them or the document goes, so the handles a
// capture hands out always name the nodes it wrote, and a later capture's
// nodes are never taken for them.
type nodeHandles struct {
	p *Page
	// life is the context of the observation: ids are found while it lasts.
	life context.Context
	// world is the walker's world, id the capture's.
	world runtime.ExecutionContextID
	id    uint64

	mu     sync.Mutex
	closed bool
	// handles counts the protocol handles made, which close releases.
	handles int
	err     error
}

// closedHosts is the candidates that host a closed shadow root, found by
// describing each (DOM.describeNode): no script can see a closed root.
func (h *nodeHandles) closedHosts(ctx context.Context, candidates []int) ([]int, error) {
	var hosts []int
	for _, i := range candidates {
		d, err := h.describe(ctx, i)
		if err != nil {
			return nil, callError(ctx, "DOM.describeNode (a custom element)", err)
		}
		for _, r := range d.Node.ShadowRoots {
			// Open roots the walker wrote itself; a user-agent root is not
			// in a whole capture either.
			if r.Type == "closed" {
				hosts = append(hosts, i)
				break
			}
		}
	}
	return hosts, nil
}

// description is what is read of a DOM.describeNode reply: the id and the
// kinds of shadow roots. A description holds an element's attributes, an
// input's value attribute among them; nothing else of it is decoded, so no
// other part becomes a string, as a whole capture's value tables never do
// either.
type description struct {
	Node struct {
		BackendNodeID int64 `json:"backendNodeId"`
		ShadowRoots   []struct {
			Type string `json:"shadowRootType"`
		} `json:"shadowRoots"`
	} `json:"node"`
}

// describe describes the walker's node i, without its children.
func (h *nodeHandles) describe(ctx context.Context, i int) (*description, error) {
	var node struct {
		Result struct {
			ObjectID runtime.RemoteObjectID `json:"objectId"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	expr := "((g) => g !== undefined && g.id === " + strconv.FormatUint(h.id, 10) +
		" && g.nodes[" + strconv.Itoa(i) + "] || null)(globalThis.__domsnapNodes)"
	args := runtime.NewEvaluateArgs(expr).SetContextID(h.world).SetObjectGroup(boundedGroup)
	h.handles++
	if err := rpcc.Invoke(ctx, "Runtime.evaluate", args, &node, h.p.conn); err != nil {
		return nil, err
	}
	d := &description{}
	if len(node.ExceptionDetails) > 0 || node.Result.ObjectID == "" {
		// A shadow root's place, past the array, or the nodes of a
		// capture replaced since: no node, no id.
		return d, nil
	}
	dargs := struct {
		ObjectID runtime.RemoteObjectID `json:"objectId"`
		Depth    int                    `json:"depth"`
	}{node.Result.ObjectID, 0}
	if err := rpcc.Invoke(ctx, "DOM.describeNode", &dargs, d, h.p.conn); err != nil {
		return nil, err
	}
	return d, nil
}

// resolve finds node i's backend id while the capture is open; the first
// failure is kept for close.
func (h *nodeHandles) resolve(i int) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.err != nil {
		return 0
	}
	ctx, cancel := withDeadline(h.life)
	defer cancel()
	d, err := h.describe(ctx, i)
	if err != nil {
		h.err = callError(ctx, "finding a node's backend id", err)
		return 0
	}
	return d.Node.BackendNodeID
}

// close releases the handles made, if any, and reports the first failure
// to find an id.
func (h *nodeHandles) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		if h.handles > 0 {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(h.life), closeCallTimeout)
			defer cancel()
			_ = h.p.client.Runtime.ReleaseObjectGroup(ctx, runtime.NewReleaseObjectGroupArgs(boundedGroup))
		}
	}
	return h.err
}

// boundedWorldCache keeps the isolated world of the walker between
// captures of one document: creating one costs two protocol calls, and a
// world that has walked a document already holds its script objects for
// the nodes, so the next walk of the same page is cheaper too. The page's
// scripts cannot reach it, whatever its age.
type boundedWorldCache struct {
	mu    sync.Mutex
	world runtime.ExecutionContextID
	// nav is the count of main-frame navigations the world was made at.
	nav uint64
	ok  bool
}

// get is the world made at navigation count nav, if any.
func (c *boundedWorldCache) get(nav uint64) (runtime.ExecutionContextID, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.world, c.ok && c.nav == nav
}

func (c *boundedWorldCache) set(w runtime.ExecutionContextID, nav uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.world, c.nav, c.ok = w, nav, true
}

func (c *boundedWorldCache) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ok = false
}

// errStale stands for a world that is not there to use.
var errStale = errors.New("no walker world")

// newWalkerWorld creates the walker's isolated world in the current main
// frame and keeps it for navigation count nav.
func (p *Page) newWalkerWorld(ctx context.Context, nav uint64) (runtime.ExecutionContextID, error) {
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return 0, callError(ctx, "Page.getFrameTree", err)
	}
	world, err := p.client.Page.CreateIsolatedWorld(ctx,
		page.NewCreateIsolatedWorldArgs(tree.FrameTree.Frame.ID).SetWorldName(boundedWorld))
	if err != nil {
		return 0, callError(ctx, "Page.createIsolatedWorld", err)
	}
	p.walkerWorld.set(world.ExecutionContextID, nav)
	return world.ExecutionContextID, nil
}
