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
)

// BoundedSnapshotter is a Snapshotter that can also take a bounded capture:
// the main document read in tree order only up to a node horizon. Page
// implements it; a Session observes through it when its driver does
// (bounded_session.go).
type BoundedSnapshotter interface {
	Snapshotter
	// CaptureBounded reads the main document up to horizon nodes, the
	// document node included. again marks a retake within one
	// observation, whose first capture already waited for the page as
	// CaptureSnapshot does.
	CaptureBounded(ctx context.Context, horizon int, again bool) (*BoundedCapture, error)
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

// CaptureBounded takes a bounded capture of the tab, after the same wait
// for a rendered frame as CaptureSnapshot unless again: the walker
// (walkerSource) runs in an isolated world and returns the document's
// first horizon nodes; the custom elements it lists are described
// (DOM.describeNode) to find closed shadow roots. Backend node ids are
// found later, node by node, when an analysis reads one (Resolve): the
// JavaScript API has no way to a node's backend id, so each costs two
// protocol calls, which for every node of a 16,384-node horizon came to
// about a second, while an analysis reads the ids of a few dozen nodes at
// most. The ids are the browser's own, so a later call finds the element
// again with DOM.resolveNode, as acting does.
func (p *Page) CaptureBounded(ctx context.Context, horizon int, again bool) (*BoundedCapture, error) {
	life := ctx
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	if horizon < 1 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a bounded capture needs a horizon of at least one node")
	}
	if !again {
		if err := p.awaitRenderedFrame(ctx); err != nil {
			return nil, err
		}
	}
	// The reply is read raw: its value, the capture, is handed on as the
	// bytes the protocol sent, like a whole capture's.
	var reply struct {
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	walk := func(world runtime.ExecutionContextID) error {
		args := runtime.NewEvaluateArgs(walkerSource + "(" + strconv.Itoa(horizon) + ")").
			SetContextID(world).SetReturnByValue(true)
		return rpcc.Invoke(ctx, "Runtime.evaluate", args, &reply, p.conn)
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
	if len(reply.ExceptionDetails) > 0 || reply.Result.Type != "object" {
		// The exception's text is not quoted: it could name page content.
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the bounded walker failed")
	}
	h := &nodeHandles{p: p, life: life}
	ok := false
	defer func() {
		if !ok {
			h.close()
		}
	}()
	candidates, err := h.take(ctx, world)
	if err != nil {
		return nil, err
	}
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
	ok = true
	return &BoundedCapture{Raw: reply.Result.Value, Hosts: hosts, Resolve: h.resolve, Close: h.close}, nil
}

// nodeHandles holds the walker's nodes, as a protocol handle on the array
// it left in its world, for as long as a capture's tree may need an id.
type nodeHandles struct {
	p *Page
	// life is the context of the observation: ids are found while it lasts.
	life context.Context
	// nodes is the handle of the walker's array of nodes.
	nodes runtime.RemoteObjectID

	mu     sync.Mutex
	closed bool
	err    error
}

// take gets the walker's nodes and its list of custom elements, and deletes
// the globals it left them in.
func (h *nodeHandles) take(ctx context.Context, world runtime.ExecutionContextID) ([]int, error) {
	const cands = `(() => { const c = globalThis.__domsnapCandidates; delete globalThis.__domsnapCandidates; return c; })()`
	var list struct {
		Result struct {
			Value []int `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	args := runtime.NewEvaluateArgs(cands).SetContextID(world).SetReturnByValue(true)
	if err := rpcc.Invoke(ctx, "Runtime.evaluate", args, &list, h.p.conn); err != nil {
		return nil, callError(ctx, "Runtime.evaluate (the walker's custom elements)", err)
	}
	const take = `(() => { const a = globalThis.__domsnapNodes; delete globalThis.__domsnapNodes; return a; })()`
	r, err := h.p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(take).
		SetContextID(world).SetObjectGroup(boundedGroup))
	if err != nil {
		return nil, callError(ctx, "Runtime.evaluate (the walker's nodes)", err)
	}
	if len(list.ExceptionDetails) > 0 || r.ExceptionDetails != nil || r.Result.ObjectID == nil {
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the bounded walker's nodes are gone")
	}
	h.nodes = *r.Result.ObjectID
	return list.Result.Value, nil
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
	}
	fargs := runtime.NewCallFunctionOnArgs("function (i) { return this[i]; }").
		SetObjectID(h.nodes).SetObjectGroup(boundedGroup).
		SetArguments([]runtime.CallArgument{{Value: json.RawMessage(strconv.Itoa(i))}})
	if err := rpcc.Invoke(ctx, "Runtime.callFunctionOn", fargs, &node, h.p.conn); err != nil {
		return nil, err
	}
	d := &description{}
	if node.Result.ObjectID == "" {
		return d, nil // a shadow root's place, or past the array
	}
	args := struct {
		ObjectID runtime.RemoteObjectID `json:"objectId"`
		Depth    int                    `json:"depth"`
	}{node.Result.ObjectID, 0}
	if err := rpcc.Invoke(ctx, "DOM.describeNode", &args, d, h.p.conn); err != nil {
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

// close releases the handles and reports the first failure to find an id.
func (h *nodeHandles) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		ctx, cancel := context.WithTimeout(context.WithoutCancel(h.life), closeCallTimeout)
		defer cancel()
		_ = h.p.client.Runtime.ReleaseObjectGroup(ctx, runtime.NewReleaseObjectGroupArgs(boundedGroup))
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
