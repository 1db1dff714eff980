package live

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/limits"
)

// maxHostQuestions bounds the elements a capture asks the browser about
// (withShadowHosts): past it, the rest share their enclosing scope.
const maxHostQuestions = 512

// describeBackendArgs are DOM.describeNode's arguments for a node by its
// backend node id, described alone.
type describeBackendArgs struct {
	BackendNodeID int64 `json:"backendNodeId"`
	Depth         int   `json:"depth"`
}

// withShadowHosts adds to a whole capture of the page the elements that
// host a shadow root, and the slots whose children are assigned nodes,
// where its marks cannot say so (askShadowHosts).
func (p *Page) withShadowHosts(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	return askShadowHosts(ctx, p.conn, raw)
}

// askShadowHosts adds to a whole capture, taken over conn, the elements
// that host a shadow root, and the slots whose children are assigned
// nodes, where its marks cannot say so (capture.ShadowHostCandidates: an
// element in a shadow tree whose children are marked with the same mode
// may host a root of that mode, or hold light children of its own): the
// main document's as its shadowHosts and assignedSlots members, those of
// its frame documents as frameShadowHosts and frameAssignedSlots, pairs of
// a document index and a node index. So ID references resolve in the tree
// scope a browser resolves them in (docs/reference.md#the-composed-page).
// The browser says which host one when it describes each alone. A capture
// without such elements is returned as it is; a question the browser does
// not answer leaves that element out, never the capture.
func askShadowHosts(ctx context.Context, conn *rpcc.Conn, raw json.RawMessage) (json.RawMessage, error) {
	if !marksShadow(raw) {
		return raw, nil
	}
	cands, err := capture.ShadowHostCandidates(raw, limits.MaxTreeNodes, maxHostQuestions)
	if err != nil || len(cands) == 0 {
		// The capture's own reader reports what is wrong with it.
		return raw, nil
	}
	// members: shadowHosts, assignedSlots, then the frames' two, whose
	// entries are pairs.
	var members [4][]int32
	for _, c := range cands {
		if c.Backend == 0 {
			continue
		}
		reply, err := invokeRaw(ctx, conn, "DOM.describeNode", &describeBackendArgs{BackendNodeID: c.Backend, Depth: 0})
		if err != nil {
			if ctx.Err() != nil {
				return nil, callError(ctx, "DOM.describeNode", err)
			}
			continue
		}
		host, assigned := describedShadow(reply)
		for m, yes := range []bool{host, assigned} {
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

// describedShadow reads a description of one node and says whether it
// hosts a shadow root other than the browser's own (user-agent) one, and
// whether it is a slot with nodes assigned (distributedNodes). Only the
// root types and the count of assigned nodes are read; the node's
// attributes are skipped unread.
func describedShadow(reply []byte) (host, assigned bool) {
	found := false
	l := jsonlex.Lexer{Data: reply}
	err := l.Members("", func(k jsonlex.Span) error {
		if l.Decode(k) != "node" {
			return l.SkipValue("")
		}
		return l.Members("", func(k jsonlex.Span) error {
			switch l.Decode(k) {
			case "distributedNodes":
				l.SkipSpace()
				return l.Elements("", func(int) error {
					assigned = true
					return l.SkipValue("")
				})
			case "shadowRoots":
			default:
				return l.SkipValue("")
			}
			l.SkipSpace()
			return l.Elements("", func(int) error {
				return l.Members("", func(k jsonlex.Span) error {
					l.SkipSpace()
					if l.Decode(k) != "shadowRootType" {
						return l.SkipValue("")
					}
					sp, err := l.StringSpan("")
					if err == nil && l.Decode(sp) != "user-agent" {
						found = true
					}
					return err
				})
			})
		})
	})
	if err != nil {
		return false, false
	}
	return found, assigned
}
