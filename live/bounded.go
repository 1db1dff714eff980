package live

import (
	"context"
	"encoding/json"
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
	// Backend holds the backend node id of each node of Raw's tables, in
	// order; 0 where none was found.
	Backend []int64
	// Hosts are the nodes that host a shadow root, open or closed, which
	// the walker cannot tell (capture.DecodeBounded).
	Hosts []int
}

// boundedWorld names the isolated world the walker runs in, and
// boundedGroup the protocol object group of the handles it leaves.
const (
	boundedWorld = "domsnap-bounded"
	boundedGroup = "domsnap-bounded"
)

// identityCalls is how many DOM.describeNode calls are in flight at once
// while backend node ids are found: enough to keep the pipe and the
// renderer busy, few enough not to flood either.
const identityCalls = 32

// CaptureBounded takes a bounded capture of the tab, after the same wait
// for a rendered frame as CaptureSnapshot unless again: the walker (walkerSource) runs
// in an isolated world and returns the document's first horizon nodes;
// then the backend node id of every element among them, and of the
// document, is found (elementIDs), so that the tree's nodes carry the ids
// a whole capture gives them and a later call can find an element again
// with DOM.resolveNode, as acting does.
func (p *Page) CaptureBounded(ctx context.Context, horizon int, again bool) (*BoundedCapture, error) {
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
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return nil, callError(ctx, "Page.getFrameTree", err)
	}
	world, err := p.client.Page.CreateIsolatedWorld(ctx,
		page.NewCreateIsolatedWorldArgs(tree.FrameTree.Frame.ID).SetWorldName(boundedWorld))
	if err != nil {
		return nil, callError(ctx, "Page.createIsolatedWorld", err)
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
	args := runtime.NewEvaluateArgs(walkerSource + "(" + strconv.Itoa(horizon) + ")").
		SetContextID(world.ExecutionContextID).SetReturnByValue(true)
	if err := rpcc.Invoke(ctx, "Runtime.evaluate", args, &reply, p.conn); err != nil {
		return nil, callError(ctx, "Runtime.evaluate (the bounded walker)", err)
	}
	if len(reply.ExceptionDetails) > 0 || reply.Result.Type != "object" {
		// The exception's text is not quoted: it could name page content.
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the bounded walker failed")
	}
	defer func() {
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), closeCallTimeout)
		defer rcancel()
		_ = p.client.Runtime.ReleaseObjectGroup(rctx, runtime.NewReleaseObjectGroupArgs(boundedGroup))
	}()
	ids, hosts, err := p.elementIDs(ctx, world.ExecutionContextID)
	if err != nil {
		return nil, err
	}
	return &BoundedCapture{Raw: reply.Result.Value, Backend: ids, Hosts: hosts}, nil
}

// elementIDs finds the backend node ids of the nodes the walker wrote,
// which it left in its world's __domsnapNodes: the array's elements are
// listed (Runtime.getProperties) and each element node, and the document,
// is described (DOM.describeNode) for its id. Text, comment and doctype
// nodes keep 0: nothing refers to them by id. The description also lists
// an element's shadow roots, closed ones included, which no script of the
// page's can see: the elements that have one are returned as hosts.
//
// The JavaScript API has no way to a backend node id, so this is one
// protocol call a node; they are issued identityCalls at a time. A
// description holds an element's attributes, an input's value attribute
// among them: each reply is decoded into its backend id alone, so no other
// part of it becomes a string, as the whole capture's value tables never
// do either.
func (p *Page) elementIDs(ctx context.Context, world runtime.ExecutionContextID) ([]int64, []int, error) {
	const take = `(() => { const a = globalThis.__domsnapNodes; delete globalThis.__domsnapNodes; return a; })()`
	r, err := p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(take).
		SetContextID(world).SetObjectGroup(boundedGroup))
	if err != nil {
		return nil, nil, callError(ctx, "Runtime.evaluate (the walker's nodes)", err)
	}
	if r.ExceptionDetails != nil || r.Result.ObjectID == nil {
		return nil, nil, errcode.New(errcode.CaptureFailed, pkg, "", "the bounded walker's nodes are gone")
	}
	var props struct {
		Result []struct {
			Name  string `json:"name"`
			Value *struct {
				ObjectID  runtime.RemoteObjectID `json:"objectId"`
				ClassName string                 `json:"className"`
			} `json:"value"`
		} `json:"result"`
	}
	pargs := runtime.NewGetPropertiesArgs(*r.Result.ObjectID).SetOwnProperties(true)
	if err := rpcc.Invoke(ctx, "Runtime.getProperties", pargs, &props, p.conn); err != nil {
		return nil, nil, callError(ctx, "Runtime.getProperties (the walker's nodes)", err)
	}
	type job struct {
		at  int
		obj runtime.RemoteObjectID
	}
	var jobs []job
	n := 0
	for _, d := range props.Result {
		i, err := strconv.Atoi(d.Name)
		if err != nil || i < 0 || d.Value == nil || d.Value.ObjectID == "" {
			continue // length, and anything not an index
		}
		n = max(n, i+1)
		switch d.Value.ClassName {
		case "Text", "Comment", "CDATASection", "DocumentType":
			continue
		}
		jobs = append(jobs, job{i, d.Value.ObjectID})
	}
	ids := make([]int64, n)
	var hosts []int
	var (
		mu      sync.Mutex
		failure error
		wg      sync.WaitGroup
	)
	next := make(chan job)
	for range min(identityCalls, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				var d struct {
					Node struct {
						BackendNodeID int64 `json:"backendNodeId"`
						ShadowRoots   []struct {
							Type string `json:"shadowRootType"`
						} `json:"shadowRoots"`
					} `json:"node"`
				}
				args := struct {
					ObjectID runtime.RemoteObjectID `json:"objectId"`
				}{j.obj}
				err := rpcc.Invoke(ctx, "DOM.describeNode", &args, &d, p.conn)
				mu.Lock()
				if err != nil && failure == nil {
					failure = err
				}
				ids[j.at] = d.Node.BackendNodeID
				for _, r := range d.Node.ShadowRoots {
					// A user-agent shadow root (a details', a
					// textarea's) is not in a whole capture either.
					if r.Type != "user-agent" {
						hosts = append(hosts, j.at)
						break
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	if failure != nil {
		return nil, nil, callError(ctx, "DOM.describeNode (the walker's nodes)", failure)
	}
	return ids, hosts, nil
}
