package live

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mafredri/cdp/protocol/dom"
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
	// captureBounded reads the main document in tree order until it has
	// read budget nodes that a scan pays for (bounded_session.go), the
	// document node included, and at most limits.MaxTreeNodes nodes in all.
	// again marks a retake within one observation, whose first capture
	// already waited for the page as captureSnapshot does.
	captureBounded(ctx context.Context, budget int, again bool) (*BoundedCapture, error)
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
	// Shadow says the walk met an open shadow root holding nodes. Shadow
	// content, and a closed host's, is in the page view's composed tree,
	// which only the whole snapshot lists: a session takes that instead
	// (captureBoundedTree).
	Shadow bool
	// Resolve finds the backend node id of the node at an index of Raw's
	// tables, 0 when it cannot; it asks the browser, so it is called only
	// for the nodes whose id something reads: an analysis, or an action on
	// a control the observation published, after the observation. Nil when
	// the driver has no ids.
	Resolve func(node int) int64
	// Find is the way back: the index of the node whose backend id is id,
	// or -1 when Raw's tables do not hold it, with beyond set when it lies
	// in the main document past the capture's horizon. Nil when the driver
	// cannot tell.
	Find func(id int64) (node int, beyond bool)
	// Identify tells the elements at indexes of Raw's tables apart from
	// every other element of the document, the same way in every capture
	// of it, in one call for all of them: an id for each (0 for an index
	// it cannot tell), meaningful within space alone, which no backend
	// node id's space (0) is. A session numbers the page view's records by
	// them (numbering.go). Nil when the driver cannot; the backend ids are
	// read instead, one call each.
	Identify func(ctx context.Context, indexes []int) (space int64, ids []int64, err error)
	// Close ends the observation's use of the capture and returns the first
	// error Resolve or Find met until then; both still answer afterwards,
	// while the page keeps the capture's nodes (the walker keeps those of
	// its last few captures). Nil when there is nothing to end.
	Close func() error
}

// boundedWorld names the isolated world the walker runs in, and
// boundedGroup the protocol object group of the handles it leaves.
const (
	boundedWorld = "domsnap-bounded"
	boundedGroup = "domsnap-bounded"
)

// captureBounded takes a bounded capture of the tab in one protocol call:
// the walker (walkerSource) runs in an isolated world, first waits for a
// rendered frame as captureSnapshot does (unless again), and returns the
// document's first nodes up to the budget; the custom elements it lists
// are then described (DOM.describeNode) to find closed shadow roots. Backend node
// ids are found later, node by node, when an analysis reads one (Resolve):
// the JavaScript API has no way to a node's backend id, so each costs two
// protocol calls, which for every node of a 16,384-node capture came to
// about a second, while an analysis reads the ids of a few dozen nodes at
// most. The ids are the browser's own, so a later call finds the element
// again with DOM.resolveNode, as acting does.
func (p *Page) captureBounded(ctx context.Context, budget int, again bool) (*BoundedCapture, error) {
	return p.walkBounded(ctx, budget, again, true)
}

// walkBounded is captureBounded; lightOnly makes the walker give up
// (errWholePage) at the first composed content it meets, an open shadow
// root holding nodes or a frame, since an observation takes the whole
// snapshot then and the rest of the walk, and the questions about closed
// roots after it, would be thrown away (measured: a sign-up form of
// Shoelace's components walked to its end cost an observation about 20 ms
// more). Without it the walk goes on and writes the open roots, as the
// tests of the walker read them.
func (p *Page) walkBounded(ctx context.Context, budget int, again, lightOnly bool) (*BoundedCapture, error) {
	life := ctx
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	if budget < 1 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a bounded capture needs a budget of at least one node")
	}
	p.framesWaited.Store(false)
	id := p.walks.Add(1)
	expr := walkerSource + "(" + strconv.Itoa(budget) + ", " + strconv.Itoa(limits.MaxTreeNodes) + ", " +
		strconv.FormatBool(!again) + ", " + strconv.FormatUint(id, 10) + ", " + strconv.Itoa(keptCaptures) + ", " +
		strconv.FormatBool(lightOnly) + ")"
	// The reply is read raw (invokeRaw): its value is one string, the
	// walker's JSON, which costs the browser far less to send than the same
	// tables as an object (measured on a 16,384-node capture: about 20 ms
	// less per capture).
	reply, world, err := p.evaluateInWalkerWorld(ctx, expr, "Runtime.evaluate (the bounded walker)")
	if err != nil {
		return nil, err
	}
	raw, plan, candidates, whole, shadow, ok := walkerReply(reply)
	if ok && whole {
		// The walker waited for a frame first unless this is a retake.
		p.framesWaited.Store(!again)
		return nil, errWholePage
	}
	if !ok {
		// The exception's text is not quoted: it could name page content.
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the bounded walker failed")
	}
	h := &nodeHandles{p: p, life: life, world: world, id: id}
	hosts, err := h.closedHosts(ctx, plan, candidates)
	if err != nil {
		h.close()
		return nil, err
	}
	if len(hosts) > 0 {
		// A session takes the whole snapshot for closed roots as it does
		// for open ones (captureBoundedTree), right after the frame this
		// walk waited for.
		p.framesWaited.Store(!again)
	}
	return &BoundedCapture{Raw: raw, Hosts: hosts, Shadow: shadow, Resolve: h.resolve, Find: h.find, Identify: h.identify, Close: h.close}, nil
}

// candidate is a custom element with children, which may host a closed
// shadow root: its index, the plan entry whose description says of it, and
// its place among that description's elements.
type candidate struct{ node, entry, place int }

// planEntry is one description the walker planned: the node's index, the
// depth to describe it to (0 alone, 1 with its children, -1 with its whole
// subtree), and how many elements the description holds (the node itself
// if an element, then its element children or descendants in order) if the
// page did not change since the walk.
type planEntry struct{ node, depth, count int }

// errWholePage is captureBounded's answer for a page whose main document
// holds content that content-visibility may skip (walkerSource): only the
// whole snapshot says what of it is rendered, so the observation takes
// that instead.
var errWholePage = errors.New("the page holds content-visibility content: a bounded capture cannot read it")

// walkerReply reads the reply of the walker's Runtime.evaluate: a string
// holding the capture and the list of custom elements with children, or
// saying that the page must be read whole. It fails on an exception or any
// other shape.
func walkerReply(reply []byte) (capture json.RawMessage, plan []planEntry, candidates []candidate, whole, shadow, ok bool) {
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
		return nil, nil, nil, false, false, false
	}
	// The walker's own JSON: {"capture": {...}, "plan": [...],
	// "candidates": [...]}, or {"whole": true}.
	data := []byte(text)
	l = jsonlex.Lexer{Data: data}
	err = l.Members("", func(k jsonlex.Span) error {
		l.SkipSpace()
		switch l.Decode(k) {
		case "capture":
			var err error
			capture, err = l.RawValue("")
			return err
		case "whole":
			v, err := l.RawValue("")
			whole = string(v) == "true"
			return err
		case "shadow":
			v, err := l.RawValue("")
			shadow = string(v) == "true"
			return err
		case "plan":
			return triples(&l, true, func(node, depth, count int) { plan = append(plan, planEntry{node, depth, count}) })
		case "candidates":
			return triples(&l, false, func(node, entry, place int) { candidates = append(candidates, candidate{node, entry, place}) })
		}
		return l.SkipValue("")
	})
	if err != nil || l.End() != nil {
		return nil, nil, nil, false, false, false
	}
	if whole {
		return nil, nil, nil, true, false, true
	}
	if len(capture) == 0 {
		return nil, nil, nil, false, false, false
	}
	for _, c := range candidates {
		if c.entry >= len(plan) {
			return nil, nil, nil, false, false, false
		}
	}
	for _, e := range plan {
		if e.depth < -1 || e.depth > 1 {
			return nil, nil, nil, false, false, false
		}
	}
	return capture, plan, candidates, false, shadow, true
}

// triples reads an array of integers in threes, none below 0 but the
// second of each when it is a depth, which may be -1.
func triples(l *jsonlex.Lexer, depth bool, add func(a, b, c int)) error {
	var flat []int
	err := l.Elements("", func(i int) error {
		n, err := l.Int32("")
		if err == nil && n < 0 && !(depth && i%3 == 1 && n == -1) {
			err = l.Unexpected("", "a node index, a count or a depth")
		}
		flat = append(flat, int(n))
		return err
	})
	if err == nil && len(flat)%3 != 0 {
		err = l.Unexpected("", "triples")
	}
	for k := 0; k+2 < len(flat); k += 3 {
		add(flat[k], flat[k+1], flat[k+2])
	}
	return err
}

// nodeHandles finds the walker's nodes again, for as long as anything may
// need an id of the capture's: the analysis, and then an action on a control
// the observation published. The walker keeps the nodes of its last few
// captures (keptCaptures) in its world's global __domsnapCaptures, by
// capture id, so a handle always names a node the capture wrote, and a
// capture's nodes outlive the observation that took it until later
// captures of the page push them out. Every protocol handle made to read
// one is released at once.
type nodeHandles struct {
	p *Page
	// life is the context of the observation; calls made after it ended
	// (an action's) keep its values but not its end.
	life context.Context
	// world is the walker's world, id the capture's.
	world runtime.ExecutionContextID
	id    uint64

	mu sync.Mutex
	// closed is set when the observation ended; err is the first failure
	// before that, which the observation reports. A failure after it is
	// the reader's to report (an unknown id).
	closed bool
	err    error
}

// keptCaptures is how many captures' nodes the walker keeps in its world:
// the one an observation published and a few retakes or observations
// after it, which already make it stale.
const keptCaptures = 4

// closedHosts is the candidates that host a closed shadow root, which no
// script can see, in document order. The browser says which elements host
// one when it describes them (DOM.describeNode); the walker planned which
// nodes to describe, and how deep, so that every candidate is in one
// description at the least cost (walkerSource), and the descriptions are
// asked all in one round of calls.
func (h *nodeHandles) closedHosts(ctx context.Context, plan []planEntry, cands []candidate) ([]int, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	nodes := make([]int, len(plan))
	for k, e := range plan {
		nodes[k] = e.node
	}
	group := boundedGroup + "-" + strconv.FormatUint(h.id, 10)
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeCallTimeout)
		defer cancel()
		_ = h.p.client.Runtime.ReleaseObjectGroup(rctx, runtime.NewReleaseObjectGroupArgs(group))
	}()
	objs, err := h.nodeObjects(ctx, nodes, group)
	if err != nil {
		return nil, callError(ctx, "reading the nodes to describe", err)
	}
	closed := make([][]bool, len(plan))
	errs := make([]error, len(plan))
	describeAtOnce(len(objs), func(k int) {
		closed[k], errs[k] = h.describeElements(ctx, objs[k], plan[k].depth)
	})
	for k, err := range errs {
		if err != nil {
			return nil, callError(ctx, "DOM.describeNode (custom elements)", err)
		}
		if len(closed[k]) != plan[k].count {
			return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the page changed while its custom elements were read")
		}
	}
	var hosts []int
	for _, c := range cands {
		if c.place >= len(closed[c.entry]) {
			return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the page changed while its custom elements were read")
		}
		if closed[c.entry][c.place] {
			hosts = append(hosts, c.node)
		}
	}
	sort.Ints(hosts)
	return hosts, nil
}

// describeCalls is how many descriptions are asked at once: enough to keep
// the browser busy between replies, few enough not to flood its queue.
const describeCalls = 8

// describeAtOnce calls ask for each k below n, describeCalls at a time,
// and returns once every call has: each call asks the browser for one
// description and keeps its answer at k.
func describeAtOnce(n int, ask func(k int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, describeCalls)
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ask(k)
		}()
	}
	wg.Wait()
}

// nodeObjects makes a protocol handle, in group, for each of the capture's
// nodes at the indexes given, in two calls whatever their number.
func (h *nodeHandles) nodeObjects(ctx context.Context, indexes []int, group string) ([]runtime.RemoteObjectID, error) {
	list := make([]string, len(indexes))
	for k, i := range indexes {
		list[k] = strconv.Itoa(i)
	}
	expr := "((a) => { if (a === undefined) throw new Error('gone'); return [" + strings.Join(list, ",") +
		"].map((i) => a[i]); })(" + h.keptNodes() + ")"
	r, err := h.p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(h.world).SetObjectGroup(group))
	if err != nil {
		return nil, err
	}
	if r.ExceptionDetails != nil || r.Result.ObjectID == nil {
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the walker's nodes are gone")
	}
	props, err := h.p.client.Runtime.GetProperties(ctx, runtime.NewGetPropertiesArgs(*r.Result.ObjectID).SetOwnProperties(true))
	if err != nil {
		return nil, err
	}
	objs := make([]runtime.RemoteObjectID, len(indexes))
	for _, p := range props.Result {
		k, err := strconv.Atoi(p.Name)
		if err != nil || k < 0 || k >= len(objs) || p.Value == nil || p.Value.ObjectID == nil {
			continue
		}
		objs[k] = *p.Value.ObjectID
	}
	for _, o := range objs {
		if o == "" {
			return nil, errcode.New(errcode.CaptureFailed, pkg, "", "a node the walker wrote is gone")
		}
	}
	return objs, nil
}

// keptNodes is a script expression, in the walker's world, for the nodes
// the capture wrote as the walker keeps them (walkerSource): undefined once
// later captures pushed them out.
func (h *nodeHandles) keptNodes() string {
	return "globalThis.__domsnapCaptures?.get(" + strconv.FormatUint(h.id, 10) + ")"
}

// describeArgs are DOM.describeNode's arguments: a node by its handle, and
// how deep to describe its children.
type describeArgs struct {
	ObjectID runtime.RemoteObjectID `json:"objectId"`
	Depth    int                    `json:"depth"`
}

// describeElements describes obj to depth and says, of each element the
// description holds (obj itself if an element, then its element children,
// or at depth -1 its element descendants, in document order), whether it
// hosts a closed shadow root; a user-agent root is not in a whole capture
// either, and open roots the walker wrote itself. The browser leaves text
// of white space out of a description but never an element, so an
// element's place is the one the walker counted. The reply is read raw: a
// subtree's description holds every attribute of its nodes, none of which
// is decoded (an input's value attribute among them), as a whole capture's
// value tables never are either.
func (h *nodeHandles) describeElements(ctx context.Context, obj runtime.RemoteObjectID, depth int) ([]bool, error) {
	h.p.describes.Add(1)
	raw, err := invokeRaw(ctx, h.p.conn, "DOM.describeNode", &describeArgs{obj, depth})
	if err != nil {
		return nil, err
	}
	var root *describedNode
	l := jsonlex.Lexer{Data: raw}
	err = l.Members("", func(k jsonlex.Span) error {
		if l.Decode(k) != "node" {
			return l.SkipValue("")
		}
		var err error
		root, err = readDescribed(&l, 0)
		return err
	})
	if err == nil {
		err = l.End()
	}
	if err == nil && root == nil {
		err = errors.New("DOM.describeNode replied without a node")
	}
	if err != nil {
		return nil, err
	}
	var out []bool
	switch depth {
	case 0:
		out = append(out, root.closed)
	case 1:
		for _, c := range root.children {
			if c.element {
				out = append(out, c.closed)
			}
		}
	default:
		out = root.elements(out)
	}
	return out, nil
}

// describedNode is what is read of one node of a description.
type describedNode struct {
	element, closed bool
	children        []*describedNode
}

// elements appends the flags of n, if an element, and of its element
// descendants, in document order.
func (n *describedNode) elements(out []bool) []bool {
	if n.element {
		out = append(out, n.closed)
	}
	for _, c := range n.children {
		out = c.elements(out)
	}
	return out
}

// maxDescribedDepth bounds the nesting readDescribed follows: the walker
// plans no description deeper than its wholeHeight (100), and a page that
// grew deeper since is read again rather than followed.
const maxDescribedDepth = 128

// readDescribed reads one node of a description: its type, whether a shadow
// root of it is closed, and its children; every other member is skipped
// unread.
func readDescribed(l *jsonlex.Lexer, level int) (*describedNode, error) {
	if level > maxDescribedDepth {
		return nil, errors.New("a description nested deeper than planned")
	}
	n := &describedNode{}
	err := l.Members("", func(k jsonlex.Span) error {
		l.SkipSpace()
		switch l.Decode(k) {
		case "nodeType":
			t, err := l.Int32("")
			n.element = t == 1
			return err
		case "shadowRoots":
			return l.Elements("", func(int) error {
				return l.Members("", func(k jsonlex.Span) error {
					l.SkipSpace()
					if l.Decode(k) != "shadowRootType" {
						return l.SkipValue("")
					}
					sp, err := l.StringSpan("")
					if err == nil && l.Decode(sp) == "closed" {
						n.closed = true
					}
					return err
				})
			})
		case "children":
			return l.Elements("", func(int) error {
				c, err := readDescribed(l, level+1)
				n.children = append(n.children, c)
				return err
			})
		}
		return l.SkipValue("")
	})
	return n, err
}

// description is what is read of a DOM.describeNode reply: the id. A
// description holds an element's attributes, an input's value attribute
// among them; nothing else of it is decoded, so no other part becomes a
// string, as a whole capture's value tables never do either (the same
// holds of describeElements' reading).
type description struct {
	Node struct {
		BackendNodeID int64 `json:"backendNodeId"`
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
	expr := "(" + h.keptNodes() + ")?.[" + strconv.Itoa(i) + "] || null"
	args := runtime.NewEvaluateArgs(expr).SetContextID(h.world)
	if err := rpcc.Invoke(ctx, "Runtime.evaluate", args, &node, h.p.conn); err != nil {
		return nil, err
	}
	d := &description{}
	if len(node.ExceptionDetails) > 0 || node.Result.ObjectID == "" {
		// A shadow root's place, past the array, or the nodes of a
		// capture pushed out since: no node, no id.
		return d, nil
	}
	defer h.release(ctx, node.Result.ObjectID)
	h.p.describes.Add(1)
	if err := rpcc.Invoke(ctx, "DOM.describeNode", &describeArgs{node.Result.ObjectID, 0}, d, h.p.conn); err != nil {
		return nil, err
	}
	return d, nil
}

// release lets go of a handle made to read one node.
func (h *nodeHandles) release(ctx context.Context, obj runtime.RemoteObjectID) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeCallTimeout)
	defer cancel()
	_ = h.p.client.Runtime.ReleaseObject(ctx, runtime.NewReleaseObjectArgs(obj))
}

// call runs f with a deadline from the observation's context (without its
// end, once the observation is over) and keeps its first failure while the
// observation lasts.
func (h *nodeHandles) call(what string, f func(ctx context.Context) error) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed && h.err != nil {
		return false
	}
	life := h.life
	if h.closed {
		life = context.WithoutCancel(life)
	}
	ctx, cancel := withDeadline(life)
	defer cancel()
	if err := f(ctx); err != nil {
		if !h.closed {
			h.err = callError(ctx, what, err)
		}
		return false
	}
	return true
}

// resolve finds node i's backend id, 0 when it cannot.
func (h *nodeHandles) resolve(i int) int64 {
	var id int64
	h.call("finding a node's backend id", func(ctx context.Context) error {
		d, err := h.describe(ctx, i)
		if err == nil {
			id = d.Node.BackendNodeID
		}
		return err
	})
	return id
}

// identifyJS numbers the nodes of a capture the walker kept, in its world:
// each node keeps the serial number it was first given, as a property under
// a symbol of that world, which no other world's script can see (each has
// its own wrappers of the page's nodes) and which keeps the wrapper, and so
// the number, as long as the node lives. Numbers grow from 1 in the world,
// which lives as long as its document. An index the capture does not hold
// gives 0; nodes the walker no longer keeps make it throw.
const identifyJS = `((a, want) => {
	if (a === undefined) throw new Error('gone');
	const g = globalThis, key = g.__domsnapSerialKey || (g.__domsnapSerialKey = Symbol('domsnap'));
	let next = g.__domsnapSerialNext || 0;
	const out = want.map((i) => {
		const n = a[i];
		if (!n) return 0;
		if (n[key] === undefined) n[key] = ++next;
		return n[key];
	});
	g.__domsnapSerialNext = next;
	return out;
})`

// identify is BoundedCapture.Identify: the walker's serial numbers of the
// capture's nodes at indexes, within the space of the walker's world, in
// one protocol call whatever their number.
func (h *nodeHandles) identify(ctx context.Context, indexes []int) (int64, []int64, error) {
	list := make([]string, len(indexes))
	for k, i := range indexes {
		list[k] = strconv.Itoa(i)
	}
	expr := identifyJS + "(" + h.keptNodes() + ", [" + strings.Join(list, ",") + "])"
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	r, err := h.p.client.Runtime.Evaluate(ctx, runtime.NewEvaluateArgs(expr).SetContextID(h.world).SetReturnByValue(true))
	if err != nil {
		return 0, nil, callError(ctx, "Runtime.evaluate (numbering the page's elements)", err)
	}
	var ids []int64
	if r.ExceptionDetails != nil || json.Unmarshal(r.Result.Value, &ids) != nil || len(ids) != len(indexes) {
		return 0, nil, errcode.New(errcode.CaptureFailed, pkg, "", "the walker's nodes could not be numbered")
	}
	return int64(h.world), ids, nil
}

// findJS is called on a node in the walker's world with a capture id: the
// node's index among that capture's nodes, and whether a node the capture
// does not hold lies in the main document's light tree, where a capture
// that reads further would meet it.
const findJS = `function (id) {
	const c = globalThis.__domsnapCaptures, a = c === undefined ? undefined : c.get(id);
	if (a === undefined) return [-1, false];
	const i = a.indexOf(this);
	return [i, i < 0 && this.getRootNode() === document];
}`

// find is the index of the node whose backend id is id in the capture; -1
// when the capture does not hold it, with beyond set when it lies in the
// document past the capture's horizon.
func (h *nodeHandles) find(id int64) (int, bool) {
	node, beyond := -1, false
	h.call("finding a node by its backend id", func(ctx context.Context) error {
		r, err := h.p.client.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().
			SetBackendNodeID(dom.BackendNodeID(id)).SetExecutionContextID(h.world))
		if err != nil || r.Object.ObjectID == nil {
			var re *rpcc.ResponseError
			if err == nil || errors.As(err, &re) {
				return nil // no such node in the page any more
			}
			return err
		}
		defer h.release(ctx, *r.Object.ObjectID)
		var reply struct {
			Result struct {
				Value []json.RawMessage `json:"value"`
			} `json:"result"`
			ExceptionDetails json.RawMessage `json:"exceptionDetails"`
		}
		args := runtime.NewCallFunctionOnArgs(findJS).SetObjectID(*r.Object.ObjectID).SetReturnByValue(true).
			SetArguments([]runtime.CallArgument{{Value: json.RawMessage(strconv.FormatUint(h.id, 10))}})
		if err := rpcc.Invoke(ctx, "Runtime.callFunctionOn", args, &reply, h.p.conn); err != nil {
			return err
		}
		v := reply.Result.Value
		if len(reply.ExceptionDetails) > 0 || len(v) != 2 ||
			json.Unmarshal(v[0], &node) != nil || json.Unmarshal(v[1], &beyond) != nil {
			node, beyond = -1, false
			return errcode.New(errcode.CaptureFailed, pkg, "", "finding a node by its backend id failed")
		}
		return nil
	})
	return node, beyond
}

// close ends the observation's use of the capture and reports the first
// failure of it. The nodes stay for later reads.
func (h *nodeHandles) close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
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

// evaluateInWalkerWorld evaluates expr in the walker's isolated world of
// the current main-frame document, awaiting a promise and returning the
// value, and returns the protocol's reply raw with the world it ran in.
// A world belongs to one document: the count of main-frame navigations
// says whether the document is still the one it was made in (a document
// kept for going back could otherwise still answer). A call that fails is
// made once more in a new world; a second failure forgets the world and
// is reported as the call what.
func (p *Page) evaluateInWalkerWorld(ctx context.Context, expr, what string) (json.RawMessage, runtime.ExecutionContextID, error) {
	var reply json.RawMessage
	run := func(world runtime.ExecutionContextID) error {
		args := runtime.NewEvaluateArgs(expr).SetContextID(world).
			SetReturnByValue(true).SetAwaitPromise(true)
		var err error
		reply, err = invokeRaw(ctx, p.conn, "Runtime.evaluate", args)
		return err
	}
	nav, err := p.countNavigations(ctx)
	if err != nil {
		return nil, 0, err
	}
	world, cached := p.walkerWorld.get(nav)
	err = errStale
	if cached {
		err = run(world)
	}
	if err != nil && ctx.Err() == nil {
		// No world yet, or the document it belonged to is gone: a world
		// lives as long as its document.
		if world, err = p.newWalkerWorld(ctx, nav); err != nil {
			return nil, 0, err
		}
		err = run(world)
	}
	if err != nil {
		p.walkerWorld.drop()
		return nil, 0, callError(ctx, what, err)
	}
	return reply, world, nil
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
