package front

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeServer is a tool server with no tools: its sessions' state is a
// count of those opened and ended, and whether it is closed.
type fakeServer struct {
	m *sdk.Server

	mu     sync.Mutex
	closed bool
	opened map[*sdk.ServerSession]string // the principal's grant, by session
	ended  map[string]int                // by grant
}

func newFakeServer() *fakeServer {
	return &fakeServer{m: sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1"}, nil),
		opened: map[*sdk.ServerSession]string{}, ended: map[string]int{}}
}

func (s *fakeServer) SDK() *sdk.Server { return s.m }

func (s *fakeServer) Open(ss *sdk.ServerSession, g string) (func(), bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	s.opened[ss] = g
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.ended[g]++
	}, true
}

func (s *fakeServer) End(ss *sdk.ServerSession) {}

func (s *fakeServer) StopCalls() {}

func (s *fakeServer) endedOf(g string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended[g]
}

func (s *fakeServer) sessions() int {
	n := 0
	for range s.m.Sessions() {
		n++
	}
	return n
}

// fakeCallers finds a caller by its token, the token being its name.
type fakeCallers []*Caller[string]

func (cs fakeCallers) Lookup(token []byte) *Caller[string] {
	for _, c := range cs {
		if c.Name == string(token) {
			return c
		}
	}
	return nil
}

func (cs fakeCallers) Named(name string) bool { return cs.Lookup([]byte(name)) != nil }

func (cs fakeCallers) Len() int { return len(cs) }

// serve runs a front of srv for cs on a loopback port until the test ends, and
// returns its URL.
func serve[P any](t *testing.T, srv Server[P], cs Callers[P], cfg Config) (*Front[P], string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := New(srv, cs, cfg, ln.Addr())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return f, "http://" + ln.Addr().String()
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// open sends one initialize request with token and returns the status
// and the body.
func open(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	return res.StatusCode, string(body)
}

// within polls cond until it holds or 10 seconds pass.
func within(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAdmissionBounds: a named caller gets as many sessions as its own
// bound, each admitted into the server with its grant, and the server's
// bound holds over all callers; a refusal is 429 naming the bound it hit.
func TestAdmissionBounds(t *testing.T) {
	srv := newFakeServer()
	a := &Caller[string]{Name: "alpha", MaxSessions: 1, Grant: "grant-a"}
	b := &Caller[string]{Name: "beta", MaxSessions: 5, Grant: "grant-b"}
	f, url := serve[string](t, srv, fakeCallers{a, b}, Config{MaxSessions: 2, IdleTimeout: time.Hour})
	if code, body := open(t, url, "alpha"); code != http.StatusOK {
		t.Fatalf("alpha's first session: %d %s", code, body)
	}
	if code, body := open(t, url, "alpha"); code != http.StatusTooManyRequests || !strings.Contains(body, "max_sessions") {
		t.Fatalf("alpha's second session: %d %s", code, body)
	}
	if code, body := open(t, url, "beta"); code != http.StatusOK {
		t.Fatalf("beta's first session: %d %s", code, body)
	}
	if code, body := open(t, url, "beta"); code != http.StatusTooManyRequests || !strings.Contains(body, "--max-sessions") {
		t.Fatalf("a third session: %d %s", code, body)
	}
	if code, _ := open(t, url, "gamma"); code != http.StatusUnauthorized {
		t.Fatalf("an unknown token: %d", code)
	}
	if f.Live() != 2 {
		t.Fatalf("%d live, want 2", f.Live())
	}
	srv.mu.Lock()
	grants := map[string]int{}
	for _, g := range srv.opened {
		grants[g]++
	}
	srv.mu.Unlock()
	if len(grants) != 2 || grants["grant-a"] != 1 || grants["grant-b"] != 1 {
		t.Fatalf("the server opened %v", grants)
	}
}

// TestAdmissionServerClosed: a session that opens after the server closed
// is not admitted: it holds no place, and the SDK's session is closed.
func TestAdmissionServerClosed(t *testing.T) {
	srv := newFakeServer()
	srv.closed = true
	f, url := serve[string](t, srv, fakeCallers{{Name: "alpha", MaxSessions: 1}}, Config{MaxSessions: 1, IdleTimeout: time.Hour})
	if code, body := open(t, url, "alpha"); code != http.StatusOK {
		t.Fatalf("initialize: %d %s", code, body)
	}
	within(t, "the SDK's session to be closed", func() bool { return srv.sessions() == 0 })
	if f.Live() != 0 {
		t.Fatalf("%d live", f.Live())
	}
	// It left no place taken: the same caller, bound to one session, is
	// not refused another.
	if code, body := open(t, url, "alpha"); code != http.StatusOK {
		t.Fatalf("initialize again: %d %s", code, body)
	}
}

// TestReload: principals put in force by Reload end the sessions of those
// they no longer name, at once, and keep the others'.
func TestReload(t *testing.T) {
	srv := newFakeServer()
	a := &Caller[string]{Name: "alpha", MaxSessions: 1, Grant: "grant-a"}
	b := &Caller[string]{Name: "beta", MaxSessions: 1, Grant: "grant-b"}
	f, url := serve[string](t, srv, fakeCallers{a, b}, Config{MaxSessions: 4, IdleTimeout: time.Hour})
	for _, tok := range []string{"alpha", "beta"} {
		if code, body := open(t, url, tok); code != http.StatusOK {
			t.Fatalf("%s: %d %s", tok, code, body)
		}
	}
	f.Reload(fakeCallers{b})
	if srv.endedOf("grant-a") != 1 || srv.endedOf("grant-b") != 0 {
		t.Fatalf("ended alpha's %d, beta's %d", srv.endedOf("grant-a"), srv.endedOf("grant-b"))
	}
	within(t, "alpha's session to go", func() bool { return f.Live() == 1 && srv.sessions() == 1 })
	if code, _ := open(t, url, "alpha"); code != http.StatusUnauthorized {
		t.Fatalf("a removed caller: %d", code)
	}
}

// TestBeginUnknown: a call in a session the front never admitted is
// session_expired.
func TestBeginUnknown(t *testing.T) {
	f := New[string](newFakeServer(), fakeCallers{}, Config{MaxSessions: 1, IdleTimeout: time.Hour}, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1})
	if _, err := f.Begin(nil); err == nil || !strings.Contains(err.Error(), "session_expired") {
		t.Fatalf("got %v", err)
	}
}

// rawPost sends a tools/list request naming the session id with token,
// and returns the status and the body.
func rawPost(t *testing.T, url, token, id string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	return res.StatusCode, string(body)
}

// TestOpeningSessionOfAnother: while alpha's session is being initialised,
// the SDK already knows it but the front has not admitted it; beta naming
// its id gets exactly what a session that never existed gets (404
// "session not found"), not the SDK's 403 "session user mismatch", which
// would tell that it exists. Once admitted, it is alpha's alone.
func TestOpeningSessionOfAnother(t *testing.T) {
	const id = "OPENINGSESSIONID0123456789"
	srv := newFakeServer()
	srv.m = sdk.NewServer(&sdk.Implementation{Name: "fake", Version: "1"}, &sdk.ServerOptions{GetSessionID: func() string { return id }})
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv.m.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "initialize" {
				once.Do(func() { close(entered) })
				select {
				case <-release:
				case <-ctx.Done():
				}
			}
			return next(ctx, method, req)
		}
	})
	a := &Caller[string]{Name: "alpha", MaxSessions: 1, Grant: "grant-a"}
	b := &Caller[string]{Name: "beta", MaxSessions: 1, Grant: "grant-b"}
	f, url := serve[string](t, srv, fakeCallers{a, b}, Config{MaxSessions: 4, IdleTimeout: time.Hour})
	opened := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(initBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer alpha")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			opened <- 0
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		opened <- res.StatusCode
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("the initialize never reached the server")
	}
	st1, body1 := rawPost(t, url, "beta", id)
	st2, body2 := rawPost(t, url, "beta", "NOSUCHSESSIONID0123456789A")
	close(release)
	if st1 != http.StatusNotFound || st1 != st2 || body1 != body2 {
		t.Fatalf("beta naming alpha's opening session: %d %q; a session that never existed: %d %q", st1, body1, st2, body2)
	}
	if code := <-opened; code != http.StatusOK {
		t.Fatalf("alpha's initialize: %d", code)
	}
	within(t, "alpha's session to be admitted", func() bool { return f.Live() == 1 })
	if st, body := rawPost(t, url, "beta", id); st != st2 || body != body2 {
		t.Fatalf("beta naming alpha's session: %d %q", st, body)
	}
	if st, body := rawPost(t, url, "alpha", id); st != http.StatusOK {
		t.Fatalf("alpha in its own session: %d %q", st, body)
	}
}
