package live

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"testing"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// fakeCDP answers protocol calls over an in-memory connection. For each
// request it first sends the events listed for that method, then the reply,
// in that order, as a browser does when the events happened first.
type fakeCDP struct {
	events  map[string][]string // method -> raw event messages sent before the reply
	replies map[string]string   // method -> raw "result" or "error" member
}

func (f *fakeCDP) serve(conn net.Conn) {
	dec := json.NewDecoder(conn)
	for {
		var req struct {
			ID     int64
			Method string
		}
		if err := dec.Decode(&req); err != nil {
			conn.Close()
			return
		}
		for _, ev := range f.events[req.Method] {
			io.WriteString(conn, ev+"\n")
		}
		member, ok := f.replies[req.Method]
		if !ok {
			member = `"result":{}`
		}
		b, _ := json.Marshal(req.ID)
		io.WriteString(conn, `{"id":`+string(b)+`,`+member+"}\n")
	}
}

// fakePage returns a Page connected to f.
func fakePage(t *testing.T, f *fakeCDP) *Page {
	t.Helper()
	ctx := context.Background()
	conn, err := rpcc.DialContext(ctx, "fake", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) {
		client, server := net.Pipe()
		go f.serve(server)
		return client, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := cdp.NewClient(conn)
	nav, err := c.Page.FrameNavigated(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return &Page{conn: conn, client: c, navigate: nav}
}

const (
	mainNav  = `{"method":"Page.frameNavigated","params":{"frame":{"id":"F","loaderId":"L","url":"http://x/","domainAndRegistry":"","securityOrigin":"http://x","mimeType":"text/html","secureContextType":"Insecure","crossOriginIsolatedContextType":"NotIsolated","gatedAPIFeatures":[]},"type":"Navigation"}}`
	childNav = `{"method":"Page.frameNavigated","params":{"frame":{"id":"C","parentId":"F","loaderId":"L2","url":"http://y/","domainAndRegistry":"","securityOrigin":"http://y","mimeType":"text/html","secureContextType":"Insecure","crossOriginIsolatedContextType":"NotIsolated","gatedAPIFeatures":[]},"type":"Navigation"}}`
)

// TestPageCountsNavigationsBeforeTheReply checks the ordering the session's
// navigation check relies on: events sent before a capture's reply are
// counted by the Navigations call right after it. Child frames do not count.
func TestPageCountsNavigationsBeforeTheReply(t *testing.T) {
	f := &fakeCDP{
		events:  map[string][]string{"DOMSnapshot.captureSnapshot": {childNav, mainNav, mainNav}},
		replies: map[string]string{"DOMSnapshot.captureSnapshot": `"result":{"documents":[],"strings":[]}`},
	}
	p := fakePage(t, f)
	ctx := context.Background()
	if n, err := p.Navigations(ctx); err != nil || n != 0 {
		t.Fatalf("before: %d %v", n, err)
	}
	raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != `{"documents":[],"strings":[]}` {
		t.Fatalf("the reply was not passed on as sent: %s", raw)
	}
	if n, err := p.Navigations(ctx); err != nil || n != 2 {
		t.Fatalf("after: %d navigations, %v; want the 2 main-frame ones", n, err)
	}
	if n, _ := p.Navigations(ctx); n != 2 {
		t.Fatalf("a second read counted again: %d", n)
	}
}

func TestPageCaptureErrors(t *testing.T) {
	cases := []struct {
		reply string
		code  errcode.Code
	}{
		{`"error":{"code":-32601,"message":"'DOMSnapshot.captureSnapshot' wasn't found"}`, errcode.UnsupportedAdapter},
		{`"error":{"code":-32000,"message":"Document is not available"}`, errcode.CaptureFailed},
	}
	for _, c := range cases {
		p := fakePage(t, &fakeCDP{replies: map[string]string{"DOMSnapshot.captureSnapshot": c.reply}})
		_, err := p.CaptureSnapshot(context.Background(), snapshot.DefaultComputedStyles())
		if got := errcode.CodeOf(err); got != c.code {
			t.Errorf("reply %s: %v (%q), want %q", c.reply, err, got, c.code)
		}
	}
	// A session over a browser without the DOMSnapshot domain refuses
	// explicitly, and publishes nothing.
	p := fakePage(t, &fakeCDP{replies: map[string]string{"DOMSnapshot.captureSnapshot": cases[0].reply}})
	s, err := NewSession(p, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Capture(context.Background(), ReadOptions{})
	wantCode(t, err, errcode.UnsupportedAdapter)
	if _, ok, _ := s.Revision(context.Background()); ok {
		t.Fatal("a revision was published")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	wantCode(t, err, errcode.Cancelled)
}
