package live

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/limits"
)

// maxHostQuestions bounds the descriptions a capture asks the browser
// for (askShadowHosts): past it, the candidates left share their
// enclosing scope.
const maxHostQuestions = 512

// hostQuestions counts the descriptions askShadowHosts has asked for, and
// hostReaches the scripts reachHosts ran, for the benchmarks and tests
// that bound them.
var hostQuestions, hostReaches atomic.Int64

// describeBackendArgs are DOM.describeNode's arguments for a node by its
// backend node id: alone (Depth 0), or with its whole subtree through
// shadow roots (Depth -1, Pierce).
type describeBackendArgs struct {
	BackendNodeID int64 `json:"backendNodeId"`
	Depth         int   `json:"depth"`
	Pierce        bool  `json:"pierce,omitempty"`
}

// withShadowHosts adds to a whole capture of the page the elements that
// host a shadow root, and the slots whose children are assigned nodes,
// where its marks cannot say so (askShadowHosts).
func (p *Page) withShadowHosts(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	return askShadowHosts(ctx, p.conn, raw, func(query []byte) ([]capture.HostAnswer, error) {
		return p.reachHosts(ctx, query)
	})
}

// askShadowHosts adds to a whole capture, taken over conn, the elements
// that host a shadow root, and the slots whose children are assigned
// nodes, where its marks cannot say so (capture.ShadowHostQuestions: an
// element in a shadow tree whose children are marked with the same mode
// may host a root of that mode, or hold light children of its own): the
// main document's as its shadowHosts and assignedSlots members, those of
// its frame documents as frameShadowHosts and frameAssignedSlots, pairs of
// a document index and a node index. So ID references resolve in the tree
// scope a browser resolves them in (docs/reference.md#the-composed-page).
// reach, when given, answers first the candidates a script can reach in
// open shadow trees, all in one call (reachHosts); the others are asked
// of the browser. The browser says which host one when it describes them: the capture's
// plan names the cheapest descriptions that cover every candidate, a
// subtree described whole where that costs less than a call for each
// candidate in it (a page of components holds hundreds, each a round
// trip: measured, 512 calls took 60 ms where one description of the page
// took 16), and they are asked describeCalls at a time. A capture without
// such elements is returned as it is; a description the browser does not
// give leaves the candidates it covers out, never the capture.
func askShadowHosts(ctx context.Context, conn *rpcc.Conn, raw json.RawMessage, reach capture.Reach) (json.RawMessage, error) {
	if !marksShadow(raw) {
		return raw, nil
	}
	cands, known, qs, err := capture.ShadowHostQuestions(raw, limits.MaxTreeNodes, maxHostQuestions, reach)
	if err != nil || len(cands) == 0 {
		// The capture's own reader reports what is wrong with it.
		return raw, nil
	}
	of := make(map[int64]int, len(cands))
	for k, c := range cands {
		if c.Backend != 0 {
			of[c.Backend] = k
		}
	}
	type answer struct{ host, assigned bool }
	answers := make([]answer, len(cands))
	for k, a := range known {
		answers[k] = answer{a == capture.HostRoot, a == capture.HostAssigned}
	}
	var mu sync.Mutex
	errs := make([]error, len(qs))
	describeAtOnce(len(qs), func(k int) {
		hostQuestions.Add(1)
		args := &describeBackendArgs{BackendNodeID: qs[k].Backend}
		if qs[k].Whole {
			args.Depth, args.Pierce = -1, true
		}
		reply, err := invokeRaw(ctx, conn, "DOM.describeNode", args)
		if err != nil {
			errs[k] = err
			return
		}
		mu.Lock()
		defer mu.Unlock()
		readDescription(reply, func(backend int64, host, assigned bool) {
			if i, ok := of[backend]; ok {
				answers[i] = answer{host, assigned}
			}
		})
	})
	if ctx.Err() != nil {
		for _, err := range errs {
			if err != nil {
				return nil, callError(ctx, "DOM.describeNode", err)
			}
		}
	}
	// members: shadowHosts, assignedSlots, then the frames' two, whose
	// entries are pairs; in the candidates' order, whatever order the
	// replies came in.
	var members [4][]int32
	for k, c := range cands {
		for m, yes := range []bool{answers[k].host, answers[k].assigned} {
			switch {
			case !yes:
			case c.Doc == 0:
				members[m] = append(members[m], c.Node)
			default:
				members[m+2] = append(members[m+2], c.Doc, c.Node)
			}
		}
	}
	end := bytes.LastIndexByte(raw, '}')
	if end < 0 {
		return raw, nil
	}
	out := raw[:end:end]
	added := false
	for m, name := range []string{"shadowHosts", "assignedSlots", "frameShadowHosts", "frameAssignedSlots"} {
		if len(members[m]) == 0 {
			continue
		}
		if !added {
			out = make([]byte, 0, len(raw)+64+8*(len(members[0])+len(members[1])+len(members[2])+len(members[3])))
			out = append(out, raw[:end]...)
			added = true
		}
		out = append(out, `,"`+name+`":[`...)
		for k, h := range members[m] {
			if k > 0 {
				out = append(out, ',')
			}
			out = strconv.AppendInt(out, int64(h), 10)
		}
		out = append(out, ']')
	}
	if !added {
		return raw, nil
	}
	out = append(out, '}')
	return out, nil
}

// marksShadow says whether some document of a whole capture marks a node
// with a shadow root type. Each document has the member, a frame's
// document too, so one document's empty list says nothing of the others'.
func marksShadow(raw []byte) bool {
	key := []byte(`"shadowRootType":{"index":[`)
	for rest := raw; ; {
		k := bytes.Index(rest, key)
		if k < 0 {
			return false
		}
		rest = rest[k+len(key):]
		if len(rest) > 0 && rest[0] != ']' {
			return true
		}
	}
}

// readDescription reads a DOM.describeNode reply and calls each for the
// node described and, through its children and shadow roots, every node
// below it the reply holds, with its backend node id, whether it hosts a
// shadow root other than the browser's own (user-agent) one, and whether
// it is a slot with nodes assigned (distributedNodes). A frame's document,
// a template's content and pseudo-elements are not entered (the plan
// describes nothing holding a frame whole). Only ids, root types and the
// count of assigned nodes are read; attributes and values are skipped
// unread. A reply that does not read as one stops the reading where it
// fails: the nodes read so far were called for.
func readDescription(reply []byte, each func(backend int64, host, assigned bool)) {
	l := jsonlex.Lexer{Data: reply}
	// node reads one node object and returns its shadowRootType, "" for
	// none (a shadow root's own).
	var node func() (string, error)
	node = func() (string, error) {
		var backend int64
		var host, assigned bool
		rootType := ""
		err := l.Members("", func(k jsonlex.Span) error {
			l.SkipSpace()
			switch l.Decode(k) {
			case "backendNodeId":
				v, err := l.RawValue("")
				if err == nil {
					backend, _ = strconv.ParseInt(string(v), 10, 64)
				}
				return err
			case "shadowRootType":
				sp, err := l.StringSpan("")
				rootType = l.Decode(sp)
				return err
			case "distributedNodes":
				return l.Elements("", func(int) error {
					assigned = true
					return l.SkipValue("")
				})
			case "children":
				return l.Elements("", func(int) error {
					_, err := node()
					return err
				})
			case "shadowRoots":
				return l.Elements("", func(int) error {
					t, err := node()
					if t != "" && t != "user-agent" {
						host = true
					}
					return err
				})
			}
			return l.SkipValue("")
		})
		if err == nil && backend != 0 {
			each(backend, host, assigned)
		}
		return rootType, err
	}
	_ = l.Members("", func(k jsonlex.Span) error {
		if l.Decode(k) != "node" {
			return l.SkipValue("")
		}
		_, err := node()
		return err
	})
}

// reachHostsScript answers a capture.ReachQuery in the walker's isolated
// world, where the page's own scripts cannot change what a node's
// properties say: it follows each node entry from its parent through the
// flat tree (an open root's children for a host, the assigned nodes for a
// slot that has some, else the children), checking the count of flat
// children and the node name at every step, and answers each candidate
// the capture can vouch for: 1 neither, 2 an open root, 3 nodes assigned;
// 0 for one it cannot reach as the capture lists it (the page changed, or
// a closed root stands in the way), left to the browser's descriptions.
const reachHostsScript = `(function (q) {
	const flat = (n) => {
		if (n.nodeType === 1) {
			if (n.shadowRoot !== null) return n.shadowRoot.childNodes;
			if (n instanceof HTMLSlotElement) {
				const a = n.assignedNodes();
				if (a.length > 0) return a;
			}
		}
		return n.childNodes;
	};
	const got = [];
	for (const [up, at, count, name] of q.nodes) {
		const p = up < 0 ? document : got[up];
		let n = null;
		if (p !== null) {
			const kids = flat(p);
			if (kids.length === count && at < count && kids[at].nodeName === name) n = kids[at];
		}
		got.push(n);
	}
	return q.cands.map(([i, slot, count]) => {
		const n = got[i];
		if (n === null || n.nodeType !== 1 || flat(n).length !== count) return 0;
		if (slot) return n instanceof HTMLSlotElement && n.assignedNodes().length > 0 ? 3 : 1;
		return n.shadowRoot !== null ? 2 : 1;
	});
})`

// reachHosts runs reachHostsScript on query in the walker's world and
// returns its answers; hostReaches counts the calls.
func (p *Page) reachHosts(ctx context.Context, query []byte) ([]capture.HostAnswer, error) {
	hostReaches.Add(1)
	reply, _, err := p.evaluateInWalkerWorld(ctx, reachHostsScript+"("+string(query)+")", "Runtime.evaluate (the shadow hosts)")
	if err != nil {
		return nil, err
	}
	var r struct {
		Result struct {
			Value []capture.HostAnswer `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(reply, &r); err != nil || r.ExceptionDetails != nil {
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the shadow-host script failed or answered in another form")
	}
	return r.Result.Value, nil
}
