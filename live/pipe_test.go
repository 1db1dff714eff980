package live

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/mafredri/cdp/rpcc"
)

// fakeBrowser answers the commands it reads from the pipe the way Chromium
// does over --remote-debugging-pipe: for each command it first sends an
// event "Test.event" of the command's session, carrying the command's id,
// then a message for a session nobody opened, then the reply, all
// NUL-terminated. It returns when its input ends.
func fakeBrowser(in, out *os.File) {
	defer out.Close()
	br := bufio.NewReader(in)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var req struct {
			ID        uint64          `json:"id"`
			Method    string          `json:"method"`
			Params    json.RawMessage `json:"params"`
			SessionID string          `json:"sessionId"`
		}
		if json.Unmarshal(msg[:len(msg)-1], &req) != nil {
			return
		}
		sess := ""
		if req.SessionID != "" {
			sess = fmt.Sprintf(`,"sessionId":%q`, req.SessionID)
		}
		fmt.Fprintf(out, `{"method":"Test.event","params":{"id":%d}%s}`+"\x00", req.ID, sess)
		fmt.Fprintf(out, `{"id":%d,"result":{"wrong":true},"sessionId":"nobody"}`+"\x00", req.ID)
		switch req.Method {
		case "Test.raw":
			// Spacing and an escape a decoder would not keep.
			fmt.Fprintf(out, `{ "id" : %d , "result" : %s , "error" : null %s}`+"\x00", req.ID, rawResult, sess)
			continue
		case "Test.fail":
			fmt.Fprintf(out, `{"id":%d,"error":{"code":-32000,"message":"refused","data":"d"}%s}`+"\x00", req.ID, sess)
			continue
		case "Test.empty":
			fmt.Fprintf(out, `{"id":%d%s}`+"\x00", req.ID, sess)
			continue
		}
		fmt.Fprintf(out, `{"id":%d,"result":{"session":%q,"method":%q,"params":%s}%s}`+"\x00", req.ID, req.SessionID, req.Method, orNull(req.Params), sess)
	}
}

// rawResult is the result the fake sends for Test.raw.
const rawResult = `{"a" : [1, 2.50],"s":"\u0041\"b"}`

func orNull(b json.RawMessage) string {
	if len(b) == 0 {
		return "null"
	}
	return string(b)
}

// startFake connects a devtoolsPipe to a fakeBrowser.
func startFake(t *testing.T) *devtoolsPipe {
	t.Helper()
	child, p, err := newPipes()
	if err != nil {
		t.Fatal(err)
	}
	go fakeBrowser(child[0], child[1])
	p.start()
	t.Cleanup(func() {
		p.close()
		child[0].Close()
		if !p.wait(5 * time.Second) {
			t.Error("the reader did not stop")
		}
	})
	return p
}

type echo struct {
	Session, Method string
	Params          json.RawMessage
	Wrong           bool
}

// TestPipeRoutesBySession: each virtual connection's commands carry its
// session, its replies come back to it alone (a message of another session
// with the same id does not), and each sees its own events before the reply
// of the command that caused them, which Page's navigation count relies on.
func TestPipeRoutesBySession(t *testing.T) {
	p := startFake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conns := map[string]*rpcc.Conn{}
	for _, s := range []string{"", "A", "B"} {
		c, err := p.dial(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[s] = c
	}
	if _, err := p.dial(ctx, "A"); err == nil {
		t.Fatal("a second connection to the same session was opened")
	}
	for round := 0; round < 50; round++ {
		for s, c := range conns {
			ev, err := rpcc.NewStream(ctx, "Test.event", c)
			if err != nil {
				t.Fatal(err)
			}
			var got echo
			if err := rpcc.Invoke(ctx, "Test.echo", map[string]int{"n": round}, &got, c); err != nil {
				t.Fatal(err)
			}
			if got.Session != s || got.Method != "Test.echo" || string(got.Params) != fmt.Sprintf(`{"n":%d}`, round) || got.Wrong {
				t.Fatalf("session %q got %+v", s, got)
			}
			// The event was sent before the reply: it must be there now,
			// without waiting.
			select {
			case <-ev.Ready():
			default:
				t.Fatalf("session %q: the event sent before the reply was not delivered before it", s)
			}
			var e struct{ ID uint64 }
			if err := ev.RecvMsg(&e); err != nil || e.ID == 0 {
				t.Fatalf("session %q: event %+v %v", s, e, err)
			}
			select {
			case <-ev.Ready():
				t.Fatalf("session %q: another session's event was delivered", s)
			default:
			}
			ev.Close()
		}
	}
}

// TestPipeCloseEndsEverything: closing the pipe ends the reader and every
// virtual connection, whose calls then fail at once; the counters the
// browser tests read go back to where they were.
func TestPipeCloseEndsEverything(t *testing.T) {
	readers, open := pipeReaders.Load(), pipeConns.Load()
	p := startFake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := p.dial(ctx, "A")
	if err != nil {
		t.Fatal(err)
	}
	if pipeReaders.Load() != readers+1 || pipeConns.Load() != open+1 {
		t.Fatalf("readers %d conns %d, want %d %d", pipeReaders.Load(), pipeConns.Load(), readers+1, open+1)
	}
	p.close()
	if !p.wait(5 * time.Second) {
		t.Fatal("the reader did not stop")
	}
	select {
	case <-c.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the virtual connection outlived the pipe")
	}
	if err := rpcc.Invoke(ctx, "Test.echo", nil, nil, c); err == nil {
		t.Fatal("a call on a closed pipe succeeded")
	}
	if _, err := p.dial(ctx, "B"); err == nil {
		t.Fatal("a connection was opened on a closed pipe")
	}
	noPipeLeft(t, readers, open)
}

// TestPipeEndsWhenBrowserEnds: the reader stops by itself when the browser
// closes its end, as when it exits, and the connections end with it.
func TestPipeEndsWhenBrowserEnds(t *testing.T) {
	child, p, err := newPipes()
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	p.start()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := p.dial(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	child[0].Close()
	child[1].Close() // the only writer of the reader's pipe
	if !p.wait(5 * time.Second) {
		t.Fatal("the reader did not stop when the browser's end closed")
	}
	select {
	case <-c.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the virtual connection outlived the browser")
	}
}

// TestParseMessage: a message's members are its top-level ones wherever
// they stand (a "sessionId" nested in a value is never the session), values
// are kept as written, a message without a session belongs to the browser,
// and one that is not a JSON object, or whose id is not a count, to nobody.
func TestParseMessage(t *testing.T) {
	for _, c := range []struct {
		msg                      string
		want                     wireMessage
		result, params, errValue string
		ok                       bool
	}{
		{msg: `{"id":1,"result":{},"sessionId":"AB"}`, want: wireMessage{session: "AB", id: 1}, result: `{}`, ok: true},
		{msg: `{"sessionId":"AB","method":"Page.frameNavigated","params":{"frame":{}}}`, want: wireMessage{session: "AB", method: "Page.frameNavigated"}, params: `{"frame":{}}`, ok: true},
		{msg: ` { "id" : 1 , "sessionId" : "A\u0042" } `, want: wireMessage{session: "AB", id: 1}, ok: true},
		{msg: `{"id":1,"result":{"sessionId":"NESTED"}}`, want: wireMessage{id: 1}, result: `{"sessionId":"NESTED"}`, ok: true},
		{msg: `{"method":"Target.attachedToTarget","params":{"sessionId":"X","targetInfo":{"url":"\"sessionId\":\"Y\""}}}`, want: wireMessage{method: "Target.attachedToTarget"}, params: `{"sessionId":"X","targetInfo":{"url":"\"sessionId\":\"Y\""}}`, ok: true},
		{msg: `{"id":2,"result":{"value":"},\"sessionId\":\"Z\""}}`, want: wireMessage{id: 2}, result: `{"value":"},\"sessionId\":\"Z\""}`, ok: true},
		{msg: `{"id":3,"error":{"code":-32601,"message":"m"}, "result" : [ 1 ,2 ] }`, want: wireMessage{id: 3}, result: `[ 1 ,2 ]`, errValue: `{"code":-32601,"message":"m"}`, ok: true},
		{msg: `{"id":18446744073709551615}`, want: wireMessage{id: 18446744073709551615}, ok: true},
		{msg: `{"id":1}`, want: wireMessage{id: 1}, ok: true},
		{msg: `{"id":-1}`},
		{msg: `{"id":1.5}`},
		{msg: `{"id":"1"}`},
		{msg: `{"id":18446744073709551616}`},
		{msg: `{"sessionId":7}`},
		{msg: `{"id":1} {}`},
		{msg: `[1]`},
		{msg: `{"id":1,`},
		{msg: `{"id":1,"result":[}`},
		{msg: ``},
	} {
		got, ok := parseMessage([]byte(c.msg))
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.msg, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.session != c.want.session || got.id != c.want.id || got.method != c.want.method ||
			string(got.result) != c.result || string(got.params) != c.params || string(got.errValue) != c.errValue {
			t.Errorf("%s: %+v", c.msg, got)
		}
		for _, v := range [][]byte{got.result, got.params, got.errValue} {
			if len(v) != cap(v) {
				t.Errorf("%s: a value's slice can reach past it (len %d, cap %d)", c.msg, len(v), cap(v))
			}
		}
	}
}

// TestPipeRawReply: invokeRaw hands back a reply's result exactly as the
// browser wrote it (spacing, escapes and number spelling kept, the other
// members not included), a call through rpcc.Invoke on the same connection
// is still decoded, an error reply is rpcc's ResponseError in both, a reply
// without a result fails the call, and no raw call is left waiting.
func TestPipeRawReply(t *testing.T) {
	p := startFake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := p.dial(ctx, "A")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < 3; i++ {
		raw, err := invokeRaw(ctx, c, "Test.raw", map[string]int{"n": i})
		if err != nil || string(raw) != rawResult {
			t.Fatalf("invokeRaw: %s %v, want %s", raw, err, rawResult)
		}
		var got echo
		if err := rpcc.Invoke(ctx, "Test.echo", nil, &got, c); err != nil || got.Session != "A" || got.Wrong {
			t.Fatalf("Invoke after invokeRaw: %+v %v", got, err)
		}
	}
	var re *rpcc.ResponseError
	if _, err := invokeRaw(ctx, c, "Test.fail", nil); !errors.As(err, &re) || re.Code != -32000 || re.Message != "refused" || re.Data != "d" {
		t.Fatalf("invokeRaw of an error reply: %v", err)
	}
	if err := rpcc.Invoke(ctx, "Test.fail", nil, nil, c); !errors.As(err, &re) || re.Code != -32000 {
		t.Fatalf("Invoke of an error reply: %v", err)
	}
	if raw, err := invokeRaw(ctx, c, "Test.empty", nil); err == nil {
		t.Fatalf("invokeRaw of a reply without a result: %s, no error", raw)
	}
	p.mu.Lock()
	pc := p.conns["A"]
	p.mu.Unlock()
	pc.mu.Lock()
	left := len(pc.raw)
	pc.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d raw calls left waiting", left)
	}
	// A connection that does not know raw calls sends their arguments.
	b, err := json.Marshal(&rawCall{args: map[string]int{"n": 1}})
	if err != nil || string(b) != `{"n":1}` {
		t.Fatalf("rawCall marshals to %s %v", b, err)
	}
}

// BenchmarkParseMessage splits a reply the size of a large capture's, for
// comparison with BenchmarkParseMessageUnmarshal, what rpcc's own codec
// does with it.
func BenchmarkParseMessage(b *testing.B) {
	msg := bigReply()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if m, ok := parseMessage(msg); !ok || m.session != "S" {
			b.Fatal(m.session, ok)
		}
	}
}

// BenchmarkParseMessageUnmarshal is the same read with encoding/json into
// rpcc.Response, and the result decoded again as a raw message, as a
// call's reply was.
func BenchmarkParseMessageUnmarshal(b *testing.B) {
	msg := bigReply()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		var r rpcc.Response
		if err := json.Unmarshal(msg, &r); err != nil || r.ID != 7 {
			b.Fatal(err)
		}
		var raw json.RawMessage
		if err := json.Unmarshal(r.Result, &raw); err != nil {
			b.Fatal(err)
		}
	}
}

// bigReply is a reply of about 8 MB shaped like a capture's: long arrays
// of numbers and a string table.
func bigReply() []byte {
	var sb []byte
	sb = append(sb, `{"id":7,"result":{"documents":[{"nodes":{"parentIndex":[`...)
	for i := 0; i < 400000; i++ {
		if i > 0 {
			sb = append(sb, ',')
		}
		sb = fmt.Appendf(sb, "%d", i-1)
	}
	sb = append(sb, `]}}],"strings":[`...)
	for i := 0; i < 200000; i++ {
		if i > 0 {
			sb = append(sb, ',')
		}
		sb = fmt.Appendf(sb, `"string number %d with \"quotes\""`, i)
	}
	return append(sb, `]},"sessionId":"S"}`...)
}

// TestPipeCloseUnblocksWrite: a browser that stops reading its commands
// fills the pipe and blocks the write in flight; closing the pipe ends that
// write, and with it the call, instead of waiting for the browser forever.
func TestPipeCloseUnblocksWrite(t *testing.T) {
	child, p, err := newPipes()
	if err != nil {
		t.Fatal(err)
	}
	defer child[0].Close() // never read: the pipe fills
	defer child[1].Close()
	p.start()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := p.open("")
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 1<<20) // more than a pipe holds
	for i := range big {
		big[i] = 'x'
	}
	done := make(chan error, 1)
	go func() {
		done <- c.WriteRequest(&rpcc.Request{ID: 1, Method: "Test.big", Args: map[string]string{"x": string(big)}})
	}()
	// Give the write a moment to start and block; a pipe holds far less
	// than a megabyte, so it cannot finish. Closing too early would only
	// make the test pass without proving anything.
	select {
	case err := <-done:
		t.Fatalf("a megabyte went into a pipe nobody reads: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	p.close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the blocked write succeeded")
		}
	case <-ctx.Done():
		t.Fatal("closing the pipe did not end the blocked write")
	}
	if !p.wait(5 * time.Second) {
		t.Fatal("the reader did not stop")
	}
}

// TestPipeMarksDetachedSessions: the browser's Target.detachedFromTarget,
// sent on the session that attached (the browser's own or a tab's, for the
// frames a tab attached to), marks the named session's connection detached,
// and no other; a session without a connection gets no signal.
func TestPipeMarksDetachedSessions(t *testing.T) {
	child, p, err := newPipes()
	if err != nil {
		t.Fatal(err)
	}
	p.start()
	defer func() {
		p.close()
		child[0].Close()
		child[1].Close()
		if !p.wait(5 * time.Second) {
			t.Error("the reader did not stop")
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, s := range []string{"", "tab", "frame"} {
		if _, err := p.dial(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if p.detachedSignal("nobody") != nil {
		t.Fatal("a session without a connection has a signal")
	}
	tab, frame, browser := p.detachedSignal("tab"), p.detachedSignal("frame"), p.detachedSignal("")
	isDetached := func(c <-chan struct{}, within time.Duration) bool {
		select {
		case <-c:
			return true
		case <-time.After(within):
			return false
		}
	}
	send := func(msg string) {
		if _, err := child[1].WriteString(msg + "\x00"); err != nil {
			t.Fatal(err)
		}
	}
	// Another session's end, and a sessionId nested deeper, mark nothing.
	send(`{"method":"Target.detachedFromTarget","params":{"sessionId":"elsewhere"}}`)
	send(`{"method":"Target.detachedFromTarget","params":{"targetInfo":{"sessionId":"tab"}}}`)
	send(`{"method":"Target.attachedToTarget","params":{"sessionId":"tab"}}`)
	// The frame's end, said on the tab's session.
	send(`{"method":"Target.detachedFromTarget","params":{"sessionId":"frame","targetId":"F"},"sessionId":"tab"}`)
	if !isDetached(frame, 5*time.Second) {
		t.Fatal("the frame's session was not marked detached")
	}
	if isDetached(tab, 0) || isDetached(browser, 0) {
		t.Fatal("a session the browser did not end was marked detached")
	}
	// The tab's end, said on the browser's session.
	send(`{"method":"Target.detachedFromTarget","params":{"targetId":"T","sessionId":"tab"}}`)
	if !isDetached(tab, 5*time.Second) {
		t.Fatal("the tab's session was not marked detached")
	}
	if isDetached(browser, 0) {
		t.Fatal("the browser's own session was marked detached")
	}
}
