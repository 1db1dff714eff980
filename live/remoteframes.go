package live

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/domsnapshot"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/limits"
)

// remoteFrame is a protocol session of the package's own on an
// out-of-process frame: the browser renders a frame of another site in a
// process of its own, as a target of its own whose id is the frame's, and
// the page's capture holds none of its document.
type remoteFrame struct {
	p      *Page
	id     target.SessionID
	conn   *rpcc.Conn
	client *cdp.Client
	// ids are all the sessions attached with it, ended with it.
	ids map[string]target.SessionID
}

// remoteSessions asks the tab to attach to the frames other processes
// render in it and returns their sessions by frame id. The browser
// reports each attachment before it answers the request (the tab's
// session keeps that order), so reading the events at hand once the
// answer came finds them all. The sessions last until stopRemote, which
// turns attaching off again (the browser then ends them all).
func (p *Page) remoteSessions(ctx context.Context) (map[string]target.SessionID, error) {
	evs, err := p.client.Target.AttachedToTarget(ctx)
	if err != nil {
		return nil, callError(ctx, "Target.attachedToTarget", err)
	}
	defer evs.Close()
	if err := p.client.Target.SetAutoAttach(ctx, target.NewSetAutoAttachArgs(true, false).SetFlatten(true)); err != nil {
		p.stopRemote(nil)
		return nil, callError(ctx, "Target.setAutoAttach", err)
	}
	out := map[string]target.SessionID{}
	for {
		select {
		case <-evs.Ready():
			ev, err := evs.Recv()
			if err != nil {
				return out, nil
			}
			if ev.TargetInfo.Type == "iframe" {
				out[string(ev.TargetInfo.TargetID)] = ev.SessionID
			}
		default:
			return out, nil
		}
	}
}

// stopRemote turns attaching to the tab's frames off and ends the
// sessions remoteSessions opened, within closeCallTimeout each.
func (p *Page) stopRemote(ids map[string]target.SessionID) {
	ctx, cancel := context.WithTimeout(p.life, closeCallTimeout)
	defer cancel()
	_ = p.client.Target.SetAutoAttach(ctx, target.NewSetAutoAttachArgs(false, false).SetFlatten(true))
	for _, id := range ids {
		p.detachSession(id)
	}
}

// attachFrame opens a session on the out-of-process frame frame.
func (p *Page) attachFrame(ctx context.Context, frame string) (*remoteFrame, error) {
	ids, err := p.remoteSessions(ctx)
	if err != nil {
		return nil, err
	}
	id, ok := ids[frame]
	if !ok {
		p.stopRemote(ids)
		return nil, notActionable(ReasonDetached, "the element's frame is no longer in the page")
	}
	r, err := p.dialFrame(ctx, id)
	if err != nil {
		p.stopRemote(ids)
		return nil, err
	}
	r.ids = ids
	return r, nil
}

// dialFrame connects to a session on a frame; on failure the session is
// detached.
func (p *Page) dialFrame(ctx context.Context, id target.SessionID) (*remoteFrame, error) {
	conn, err := p.b.pipe.dial(ctx, string(id))
	if err != nil {
		return nil, callError(ctx, "connecting to the frame", err)
	}
	return &remoteFrame{p: p, id: id, conn: conn, client: cdp.NewClient(conn)}, nil
}

// close ends the session and the others attached with it.
func (r *remoteFrame) close() {
	r.conn.Close()
	r.p.stopRemote(r.ids)
}

// detachSession ends a session the tab's own opened, within
// closeCallTimeout.
func (p *Page) detachSession(id target.SessionID) {
	ctx, cancel := context.WithTimeout(p.life, closeCallTimeout)
	defer cancel()
	_ = p.client.Target.DetachFromTarget(ctx, target.NewDetachFromTargetArgs().SetSessionID(id))
}

// withRemoteFrames adds to a whole capture the documents of the frames
// the browser renders in other processes (capture.RemoteOwners), at most
// limits.MaxFrames of them, as its subframes member: each frame's own
// capture and the frame owner it belongs under
// (docs/reference.md#the-composed-page). A frame whose URL the tab's
// guard refuses is not captured at all; one whose document the capture
// then finds of a refused origin (it navigated meanwhile) is dropped. A
// frame that cannot be captured (it went away, or is still loading) is
// tried once more, then left out, and the composed tree counts it as
// omitted. Frames inside an out-of-process frame's own process are in
// its capture; frames of yet another process inside one are counted,
// not read.
func (p *Page) withRemoteFrames(ctx context.Context, raw json.RawMessage, styles []string) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(`"IFRAME"`)) && !bytes.Contains(raw, []byte(`"FRAME"`)) {
		return raw, nil
	}
	owners, err := capture.RemoteOwners(raw, limits.MaxTreeNodes, limits.MaxFrames)
	if err != nil || len(owners) == 0 {
		// The capture's own reader reports what is wrong with it.
		return raw, nil
	}
	var allow func(string) bool
	if g := p.guard.Load(); g != nil {
		allow = g.allow
	}
	type sub struct {
		owner capture.RemoteOwner
		raw   json.RawMessage
	}
	var subs []sub
	ids, err := p.remoteSessions(ctx)
	if err != nil {
		return nil, err
	}
	defer p.stopRemote(ids)
	for _, o := range owners {
		var got json.RawMessage
		for try := 0; try < 2 && got == nil; try++ {
			if try > 0 {
				// The frame may have moved (navigated, or been put
				// back): its new session is asked for once more.
				more, err := p.remoteSessions(ctx)
				if err != nil {
					return nil, err
				}
				for f, id := range more {
					ids[f] = id
				}
			}
			got, err = p.captureRemote(ctx, ids, o.Backend, styles, allow)
			if err != nil {
				return nil, err
			}
		}
		if got != nil {
			subs = append(subs, sub{o, got})
		}
	}

	if len(subs) == 0 {
		return raw, nil
	}
	end := bytes.LastIndexByte(raw, '}')
	if end < 0 {
		return raw, nil
	}
	out := make([]byte, 0, len(raw)+64)
	out = append(out, raw[:end]...)
	out = append(out, `,"subframes":[`...)
	for k, s := range subs {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"owner":[`...)
		out = strconv.AppendInt(out, int64(s.owner.Doc), 10)
		out = append(out, ',')
		out = strconv.AppendInt(out, int64(s.owner.Node), 10)
		out = append(out, `],"capture":`...)
		out = append(out, s.raw...)
		out = append(out, '}')
	}
	out = append(out, ']', '}')
	return out, nil
}

// captureRemote captures the document of the out-of-process frame whose
// owner has backend node id owner, or answers nil when the frame cannot
// be captured now (no frame, gone, refused, no answer). Only ctx's end is
// an error.
func (p *Page) captureRemote(ctx context.Context, ids map[string]target.SessionID, owner int64, styles []string, allow func(string) bool) (json.RawMessage, error) {
	desc, err := invokeRaw(ctx, p.conn, "DOM.describeNode", &describeBackendArgs{BackendNodeID: owner, Depth: 0})
	if err != nil {
		return nil, ctxErr(ctx, "DOM.describeNode")
	}
	frame := describedFrameID(desc)
	if frame == "" {
		return nil, nil
	}
	id, ok := ids[frame]
	if !ok {
		return nil, nil
	}
	r, err := p.dialFrame(ctx, id)
	if err != nil {
		return nil, ctxErr(ctx, "connecting to the frame")
	}
	defer r.conn.Close()
	if allow != nil {
		// The frame's URL before anything of it is read.
		info, err := r.client.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs())
		if err != nil || !allow(info.TargetInfo.URL) {
			return nil, ctxErr(ctx, "Target.getTargetInfo")
		}
	}
	got, err := invokeRaw(ctx, r.conn, "DOMSnapshot.captureSnapshot", domsnapshot.NewCaptureSnapshotArgs(styles))
	if err != nil {
		return nil, ctxErr(ctx, "DOMSnapshot.captureSnapshot")
	}
	if allow != nil {
		if u, err := capture.MainDocumentURL(got); err != nil || !allow(u) {
			return nil, nil
		}
	}
	// The frame's own frames under the same policy, and its values out,
	// before the bytes go anywhere.
	out, err := capture.ScrubFrames(got, allow)
	if err != nil {
		return nil, nil
	}
	// Its shadow hosts, asked of its own process, which numbers its
	// nodes.
	return askShadowHosts(ctx, r.conn, out, nil)
}

// ctxErr is nil while ctx lasts (a call about a frame that failed leaves
// the frame out), and ctx's end once it is over.
func ctxErr(ctx context.Context, what string) error {
	if err := ctx.Err(); err != nil {
		return callError(ctx, what, err)
	}
	return nil
}

// describedFrameID reads a description of a frame owner and returns the
// id of the frame it owns, "" when none.
func describedFrameID(reply []byte) string {
	id := ""
	l := jsonlex.Lexer{Data: reply}
	err := l.Members("", func(k jsonlex.Span) error {
		if l.Decode(k) != "node" {
			return l.SkipValue("")
		}
		return l.Members("", func(k jsonlex.Span) error {
			if l.Decode(k) != "frameId" {
				return l.SkipValue("")
			}
			l.SkipSpace()
			sp, err := l.StringSpan("")
			if err == nil {
				id = l.Decode(sp)
			}
			return err
		})
	})
	if err != nil {
		return ""
	}
	return id
}
