package live

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

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

// withShadowHosts adds to a whole capture the elements that host a shadow
// root, and the slots whose children are assigned nodes, where its marks
// cannot say so (capture.ShadowHostCandidates: an
// element in a shadow tree whose children are marked with the same mode
// may host a root of that mode, or hold light children of its own), as
// its shadowHosts and assignedSlots members, so that ID references resolve in the tree scope
// a browser resolves them in (docs/reference.md#the-composed-page). The
// browser says which host one when it describes each alone. A capture
// without such elements is returned as it is; a question the browser does
// not answer leaves that element out, never the capture.
func (p *Page) withShadowHosts(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	if !marksShadow(raw) {
		return raw, nil
	}
	index, backend, err := capture.ShadowHostCandidates(raw, limits.MaxTreeNodes, maxHostQuestions)
	if err != nil || len(index) == 0 {
		// The capture's own reader reports what is wrong with it.
		return raw, nil
	}
	var hosts, slots []int32
	for k, id := range backend {
		if id == 0 {
			continue
		}
		reply, err := invokeRaw(ctx, p.conn, "DOM.describeNode", &describeBackendArgs{BackendNodeID: id, Depth: 0})
		if err != nil {
			if ctx.Err() != nil {
				return nil, callError(ctx, "DOM.describeNode", err)
			}
			continue
		}
		host, assigned := describedShadow(reply)
		if host {
			hosts = append(hosts, index[k])
		}
		if assigned {
			slots = append(slots, index[k])
		}
	}
	if len(hosts) == 0 && len(slots) == 0 {
		return raw, nil
	}
	end := bytes.LastIndexByte(raw, '}')
	if end < 0 {
		return raw, nil
	}
	out := make([]byte, 0, len(raw)+32+8*(len(hosts)+len(slots)))
	out = append(out, raw[:end]...)
	for _, m := range []struct {
		name  string
		nodes []int32
	}{{"shadowHosts", hosts}, {"assignedSlots", slots}} {
		if len(m.nodes) == 0 {
			continue
		}
		out = append(out, `,"`+m.name+`":[`...)
		for k, h := range m.nodes {
			if k > 0 {
				out = append(out, ',')
			}
			out = strconv.AppendInt(out, int64(h), 10)
		}
		out = append(out, ']')
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
