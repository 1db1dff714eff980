package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/mcp/internal/front"
)

// lagTransport holds back the answer to one call, once armed, until the
// client has finished reading its standalone event stream (or for lag,
// when that stream does not end): the order a loaded client may read
// them in, the two coming over two connections.
type lagTransport struct {
	base   http.RoundTripper
	lag    time.Duration
	armed  atomic.Bool
	ended  chan struct{} // the event stream was read to its end and closed
	closed sync.Once
}

func (l *lagTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := l.base.RoundTrip(r)
	if err != nil {
		return res, err
	}
	switch {
	case r.Method == http.MethodGet:
		res.Body = &streamBody{ReadCloser: res.Body, closed: func() { l.closed.Do(func() { close(l.ended) }) }}
	case r.Method == http.MethodPost && l.armed.CompareAndSwap(true, false):
		res.Body = &lateBody{ReadCloser: res.Body, l: l}
	}
	return res, nil
}

// streamBody reports when the client closes the event stream, which it
// does once the stream has ended, just before it fails the connection.
type streamBody struct {
	io.ReadCloser
	closed func()
}

func (b *streamBody) Close() error {
	err := b.ReadCloser.Close()
	b.closed()
	return err
}

// lateBody hands on the first bytes it reads only once the event stream
// has been closed (and the client has had a moment to act on that), or
// after lag.
type lateBody struct {
	io.ReadCloser
	l    *lagTransport
	once sync.Once
}

func (b *lateBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.once.Do(func() {
		select {
		case <-b.l.ended:
			time.Sleep(50 * time.Millisecond)
		case <-time.After(b.l.lag):
		}
	})
	return n, err
}

// TestHostedDrainAnswerFirst: a call that ends while the server drains
// gets its answer, also when its client reads that answer late: the
// server keeps the session, and so its event stream, open for a while
// after the last answer. Closing it at once would let the client see the
// stream end first and fail the call.
func TestHostedDrainAnswerFirst(t *testing.T) {
	srv := offlineServer(t, t.TempDir())
	started, release := make(chan struct{}), make(chan struct{})
	srv.mcp.AddTool(&sdk.Tool{Name: "hold", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			close(started)
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "released"}}}, nil
		})
	f := startFront(t, srv, HostedConfig{})
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	lt := &lagTransport{base: tr, lag: front.AnswerGrace / 4, ended: make(chan struct{})}
	cs, err := f.connect(t, lt)
	if err != nil {
		t.Fatal(err)
	}
	lt.armed.Store(true)
	type result struct {
		res *sdk.CallToolResult
		err error
	}
	got := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "hold", Arguments: map[string]any{}})
		got <- result{res, err}
	}()
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- f.stop() }()
	waitFor(t, "the drain to begin", srv.hosted.Draining)
	close(release)
	r := <-got
	if r.err != nil {
		t.Fatalf("the call that ended in the drain failed: %v", r.err)
	}
	if txt := text(t, r.res); txt != "released" {
		t.Fatalf("the call that ended in the drain answered %q", txt)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if sessionCount(srv) != 0 {
		t.Fatalf("%d sessions left after the drain", sessionCount(srv))
	}
}
