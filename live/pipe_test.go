package live

import (
	"bufio"
	"context"
	"encoding/json"
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
		fmt.Fprintf(out, `{"id":%d,"result":{"session":%q,"method":%q,"params":%s}%s}`+"\x00", req.ID, req.SessionID, req.Method, orNull(req.Params), sess)
	}
}

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
	if pipeReaders.Load() != readers || pipeConns.Load() != open {
		t.Fatalf("readers %d conns %d left, want %d %d", pipeReaders.Load(), pipeConns.Load(), readers, open)
	}
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

// TestSessionOf: the session of a message is its top-level "sessionId"
// wherever it stands among the members, never one nested in a value; a
// message without one belongs to the browser, and one that is not a JSON
// object to nobody.
func TestSessionOf(t *testing.T) {
	for _, c := range []struct {
		msg, want string
		ok        bool
	}{
		{`{"id":1,"result":{},"sessionId":"AB"}`, "AB", true},
		{`{"sessionId":"AB","method":"Page.frameNavigated","params":{"frame":{}}}`, "AB", true},
		{` { "id" : 1 , "sessionId" : "A\u0042" } `, "AB", true},
		{`{"id":1,"result":{"sessionId":"NESTED"}}`, "", true},
		{`{"method":"Target.attachedToTarget","params":{"sessionId":"X","targetInfo":{"url":"\"sessionId\":\"Y\""}}}`, "", true},
		{`{"id":2,"result":{"value":"},\"sessionId\":\"Z\""}}`, "", true},
		{`{"id":1}`, "", true},
		{`[1]`, "", false},
		{`{"id":1,`, "", false},
		{``, "", false},
	} {
		got, ok := sessionOf([]byte(c.msg))
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %q %v, want %q %v", c.msg, got, ok, c.want, c.ok)
		}
	}
}

// BenchmarkSessionOf reads the session of a reply the size of a large
// capture's, for comparison with BenchmarkSessionOfUnmarshal.
func BenchmarkSessionOf(b *testing.B) {
	msg := bigReply()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if s, ok := sessionOf(msg); !ok || s != "S" {
			b.Fatal(s, ok)
		}
	}
}

// BenchmarkSessionOfUnmarshal is the same read with encoding/json.
func BenchmarkSessionOfUnmarshal(b *testing.B) {
	msg := bigReply()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		var h struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(msg, &h); err != nil || h.SessionID != "S" {
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
