package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
)

// lockedBuffer is a log that several goroutines write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// servedFront is a Server serving HTTP on a loopback port in this process.
type servedFront struct {
	srv   *Server
	url   string // http://127.0.0.1:PORT
	token string
	log   *lockedBuffer
	stop  func() error
}

// startFront serves srv over HTTP with a fresh token until the test ends,
// then checks that Serve returned and that the log never held the token.
func startFront(t *testing.T, srv *Server, cfg HostedConfig) *servedFront {
	t.Helper()
	var raw [16]byte
	rand.Read(raw[:])
	token := "tok-" + hex.EncodeToString(raw[:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr = ln.Addr().String()
	lb := &lockedBuffer{}
	cfg.Log = lb
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, cfg, []byte(token)) }()
	f := &servedFront{srv: srv, url: "http://" + cfg.Addr, token: token, log: lb}
	f.stop = sync.OnceValue(func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(60 * time.Second):
			return errors.New("Serve did not return")
		}
	})
	t.Cleanup(func() {
		if err := f.stop(); err != nil {
			t.Error(err)
		}
		if strings.Contains(lb.String(), token) {
			t.Error("the token is in the log")
		}
	})
	return f
}

// bearer adds the token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// connect opens a session with the SDK's streamable client over base
// (nil: a transport of its own).
func (f *servedFront) connect(t *testing.T, base http.RoundTripper) (*sdk.ClientSession, error) {
	t.Helper()
	if base == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		t.Cleanup(tr.CloseIdleConnections)
		base = tr
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "hosted-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: f.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{f.token, base}}, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func (f *servedFront) mustConnect(t *testing.T) *sdk.ClientSession {
	t.Helper()
	cs, err := f.connect(t, nil)
	if err != nil {
		t.Fatalf("%v (log: %s)", err, f.log.String())
	}
	return cs
}

// live counts the admitted sessions that hold a place.
func (f *servedFront) live() int { return f.srv.hosted.Live() }

// waitFor polls cond for up to 30 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitWithin(t, 30*time.Second, what, cond)
}

// waitWithin polls cond for up to d.
func waitWithin(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends one raw initialize request with the given headers.
func (f *servedFront) post(t *testing.T, path string, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.url+path, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v // the client sends req.Host, not the header
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	return res.StatusCode, res.Header, string(body)
}

func sessionCount(s *Server) int {
	n := 0
	for range s.mcp.Sessions() {
		n++
	}
	return n
}

// TestHostedFront: /healthz needs no token and says only ok; /mcp without
// the right token is 401 and starts nothing; a foreign Origin is 403 and
// the server's own passes; other paths are 404.
func TestHostedFront(t *testing.T) {
	srv := offlineServer(t, t.TempDir())
	f := startFront(t, srv, HostedConfig{})

	res, err := http.Get(f.url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "ok\n" {
		t.Fatalf("healthz: %d %q", res.StatusCode, body)
	}
	if code, _, _ := f.post(t, "/healthz", nil); code != http.StatusMethodNotAllowed {
		t.Fatalf("POST /healthz: %d", code)
	}

	wrong := []map[string]string{
		nil,
		{"Authorization": "Bearer " + f.token[:len(f.token)-1]},
		{"Authorization": "Bearer " + f.token + "x"},
		{"Authorization": "Bearer " + strings.ToUpper(f.token)},
		{"Authorization": "Basic " + f.token},
		{"Authorization": f.token},
	}
	for i, h := range wrong {
		code, hdr, _ := f.post(t, "/mcp", h)
		if code != http.StatusUnauthorized || !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("wrong token %d: %d, challenge %q", i, code, hdr.Get("WWW-Authenticate"))
		}
	}
	if n := sessionCount(srv); n != 0 || f.live() != 0 {
		t.Fatalf("refused requests started %d sessions", n)
	}

	auth := "Bearer " + f.token
	port := f.url[strings.LastIndexByte(f.url, ':')+1:]
	for _, o := range []string{"http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:" + port, "http://127.0.0.1:" + port + "/x"} {
		if code, _, _ := f.post(t, "/mcp", map[string]string{"Authorization": auth, "Origin": o}); code != http.StatusForbidden {
			t.Fatalf("Origin %s: %d", o, code)
		}
	}
	if n := sessionCount(srv); n != 0 {
		t.Fatalf("refused origins started %d sessions", n)
	}
	for i, o := range []string{"http://127.0.0.1:" + port, "http://localhost:" + port, "http://[::1]:" + port} {
		code, hdr, _ := f.post(t, "/mcp", map[string]string{"Authorization": auth, "Origin": o})
		if code != http.StatusOK || hdr.Get("Mcp-Session-Id") == "" {
			t.Fatalf("own Origin %s: %d", o, code)
		}
		if f.live() != i+1 {
			t.Fatalf("own Origin %s: %d live sessions", o, f.live())
		}
	}
	if code, _, _ := f.post(t, "/other", map[string]string{"Authorization": auth}); code != http.StatusNotFound {
		t.Fatalf("other path: %d", code)
	}
	// Health says nothing about the sessions now there are some.
	res, _ = http.Get(f.url + "/healthz")
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "ok\n" {
		t.Fatalf("healthz with sessions: %q", body)
	}
}

// TestHostedRefusalsLogged: each refused request leaves one log line that
// says why, and none holds the token, right or wrong: a request with no
// token or no bearer one (401), a wrong token (401), a foreign Origin
// (403) and a foreign Host (403).
func TestHostedRefusalsLogged(t *testing.T) {
	srv := offlineServer(t, t.TempDir())
	f := startFront(t, srv, HostedConfig{})
	auth := "Bearer " + f.token
	wrong := f.token[:len(f.token)-1] + "z"
	// Serve logs that it listens after the listener takes requests.
	waitFor(t, "the listening line", func() bool { return strings.Contains(f.log.String(), "listening") })
	for _, c := range []struct {
		name    string
		headers map[string]string
		code    int
		line    string
	}{
		{"no token", nil, http.StatusUnauthorized, "without a bearer token"},
		{"basic", map[string]string{"Authorization": "Basic " + wrong}, http.StatusUnauthorized, "without a bearer token"},
		{"bare token", map[string]string{"Authorization": wrong}, http.StatusUnauthorized, "without a bearer token"},
		{"wrong token", map[string]string{"Authorization": "Bearer " + wrong}, http.StatusUnauthorized, "wrong token"},
		{"foreign Origin", map[string]string{"Authorization": auth, "Origin": "http://evil.example"}, http.StatusForbidden, "foreign Origin"},
		{"foreign Host", map[string]string{"Authorization": auth, "Host": "evil.example"}, http.StatusForbidden, "foreign Host"},
		{"foreign Host with port", map[string]string{"Authorization": auth, "Host": "evil.example:" + f.url[strings.LastIndexByte(f.url, ':')+1:]}, http.StatusForbidden, "foreign Host"},
	} {
		before := f.log.String()
		code, _, _ := f.post(t, "/mcp", c.headers)
		if code != c.code {
			t.Fatalf("%s: %d, want %d", c.name, code, c.code)
		}
		added := strings.TrimPrefix(f.log.String(), before)
		if strings.Count(added, "\n") != 1 || !strings.Contains(added, "refused a request") || !strings.Contains(added, c.line) {
			t.Fatalf("%s: logged %q, want one line saying %q", c.name, added, c.line)
		}
		if strings.Contains(added, wrong) || strings.Contains(added, f.token) || strings.Contains(added, "evil") {
			t.Fatalf("%s: the log holds what the request sent: %q", c.name, added)
		}
	}
	if n := sessionCount(srv); n != 0 {
		t.Fatalf("refused requests started %d sessions", n)
	}
	// A request the server takes logs no refusal.
	before := f.log.String()
	if code, _, _ := f.post(t, "/mcp", map[string]string{"Authorization": auth, "Host": "localhost"}); code != http.StatusOK {
		t.Fatalf("own Host: %d", code)
	}
	if added := strings.TrimPrefix(f.log.String(), before); strings.Contains(added, "refused") {
		t.Fatalf("an accepted request logged %q", added)
	}
}

// TestHostedSessionLimit: with --max-sessions 2, a first and a second
// session are admitted, a third is refused with 429 and a message naming
// the limit, and once a client ends its session a new one is admitted.
func TestHostedSessionLimit(t *testing.T) {
	srv := offlineServer(t, t.TempDir())
	f := startFront(t, srv, HostedConfig{MaxSessions: 2})
	c1 := f.mustConnect(t)
	if f.live() != 1 {
		t.Fatalf("%d live after one", f.live())
	}
	f.mustConnect(t)
	if _, err := f.connect(t, nil); err == nil {
		t.Fatal("a third session was admitted")
	}
	code, hdr, body := f.post(t, "/mcp", map[string]string{"Authorization": "Bearer " + f.token})
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !strings.Contains(body, "--max-sessions") {
		t.Fatalf("refusal: %d %q", code, body)
	}
	// The refused client's own end of its attempt may reach the SDK a
	// moment after the refusal; a session the refusal left for good would
	// still fail this.
	waitWithin(t, 5*time.Second, "two sessions after the refusals", func() bool {
		return f.live() == 2 && sessionCount(srv) == 2
	})
	c1.Close()
	waitFor(t, "the closed session to go", func() bool { return f.live() == 1 })
	f.mustConnect(t)
	if !strings.Contains(f.log.String(), "refused a new session") {
		t.Fatalf("the refusal is not logged: %s", f.log.String())
	}
}

// TestHostedIdleTimeout: a session idle for the timeout is ended: its
// place is freed at once, its later calls get session_expired, and one
// idle period on it is forgotten.
func TestHostedIdleTimeout(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "page.html"), []byte(`<ul><li>a</li><li>b</li></ul>`), 0o600)
	srv := offlineServer(t, root)
	f := startFront(t, srv, HostedConfig{MaxSessions: 1, IdleTimeout: MinIdleTimeout})
	cs := f.mustConnect(t)
	wantAnswer(t, call(t, cs, "snapshot_observe", map[string]any{"path": "page.html"}), 0)
	waitFor(t, "the session to expire", func() bool { return f.live() == 0 })
	wantError(t, call(t, cs, "snapshot_observe", map[string]any{"path": "page.html"}), "session_expired")
	wantError(t, call(t, cs, "browser_artifact", map[string]any{"artifact": "sha256:" + strings.Repeat("0", 64)}), "session_expired")
	// The expired session's place is free.
	next := f.mustConnect(t)
	wantAnswer(t, call(t, next, "snapshot_observe", map[string]any{"path": "page.html"}), 0)
	// One idle period on, the expired session is forgotten: its requests
	// are no longer answered with tool results.
	waitFor(t, "the expired session to be forgotten", func() bool {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "snapshot_observe", Arguments: map[string]any{"path": "page.html"}})
		if err == nil && !strings.Contains(text(t, res), "session_expired") {
			t.Fatalf("the expired session answered: %s", text(t, res))
		}
		return err != nil
	})
	if !strings.Contains(f.log.String(), "session expired") {
		t.Fatalf("the expiry is not logged: %s", f.log.String())
	}
}

// TestHostedArtifactsStayInTheirSession: an artifact one session made,
// and one of an earlier run, are to another session exactly what an
// artifact never stored is: the same error text, code and message, so
// the answer tells nothing of what another session has seen.
func TestHostedArtifactsStayInTheirSession(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.html"), []byte(`<ul><li>a</li></ul>`), 0o600)
	os.WriteFile(filepath.Join(root, "b.html"), []byte(`<ul><li>b</li><li>c</li></ul>`), 0o600)
	srv := offlineServer(t, root)
	old, err := srv.store.Put([]byte(`{"an":"earlier run"}`), []byte("{}"), 1024)
	if err != nil {
		t.Fatal(err)
	}
	f := startFront(t, srv, HostedConfig{})
	a, b := f.mustConnect(t), f.mustConnect(t)
	ra := artifactOf(t, wantAnswer(t, call(t, a, "snapshot_observe", map[string]any{"path": "a.html"}), 0))
	rb := artifactOf(t, wantAnswer(t, call(t, b, "snapshot_observe", map[string]any{"path": "b.html"}), 0))
	wantAnswer(t, call(t, a, "browser_artifact", map[string]any{"artifact": ra}), 0)
	wantAnswer(t, call(t, b, "browser_artifact", map[string]any{"artifact": rb}), 0)
	never := call(t, a, "browser_artifact", map[string]any{"artifact": "sha256:" + strings.Repeat("0", 64)})
	wantError(t, never, "unknown_artifact")
	for _, c := range []struct {
		cs  *sdk.ClientSession
		ref string
	}{{a, rb}, {b, ra}, {a, old}} {
		res := call(t, c.cs, "browser_artifact", map[string]any{"artifact": c.ref})
		wantError(t, res, "unknown_artifact")
		if text(t, res) != text(t, never) {
			t.Fatalf("another session's artifact answers %s, one never stored %s", text(t, res), text(t, never))
		}
	}
}

func artifactOf(t *testing.T, answer []byte) string {
	t.Helper()
	i := bytes.Index(answer, []byte(`"artifact":"`))
	if i < 0 {
		t.Fatalf("no artifact in %s", answer)
	}
	rest := answer[i+len(`"artifact":"`):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}

// TestHostedConfigCheck: the address is loopback unless remote is
// allowed, and the limits are checked just under, at and just over their
// bounds.
func TestHostedConfigCheck(t *testing.T) {
	for _, a := range []string{"127.0.0.1:0", "127.1.2.3:8080", "[::1]:9", "localhost:65535"} {
		if err := checkAddr(a, false); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	for _, a := range []string{":8080", "0.0.0.0:80", "[::]:1", "10.0.0.1:80", "example.test:80"} {
		if err := checkAddr(a, false); errcode.CodeOf(err) != errcode.InvalidRequest || !strings.Contains(err.Error(), "--allow-remote") {
			t.Errorf("%s: %v", a, err)
		}
		if err := checkAddr(a, true); err != nil {
			t.Errorf("%s with --allow-remote: %v", a, err)
		}
	}
	for _, a := range []string{"127.0.0.1", "127.0.0.1:x", "127.0.0.1:65536", ""} {
		if err := checkAddr(a, true); err == nil {
			t.Errorf("%q accepted", a)
		}
	}
	check := func(max int, idle time.Duration) (HostedConfig, error) {
		c := HostedConfig{Addr: "127.0.0.1:0", MaxSessions: max, IdleTimeout: idle}
		err := c.Check()
		return c, err
	}
	if c, err := check(0, 0); err != nil || c.MaxSessions != DefaultMaxSessions || c.IdleTimeout != DefaultIdleTimeout {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	for _, m := range []struct {
		n  int
		ok bool
	}{{-1, false}, {1, true}, {2, true}, {MaxMaxSessions - 1, true}, {MaxMaxSessions, true}, {MaxMaxSessions + 1, false}} {
		if _, err := check(m.n, 0); (err == nil) != m.ok {
			t.Errorf("max sessions %d: %v", m.n, err)
		}
	}
	for _, d := range []struct {
		d  time.Duration
		ok bool
	}{{-time.Second, false}, {MinIdleTimeout - 1, false}, {MinIdleTimeout, true}, {MinIdleTimeout + 1, true}, {maxIdleTimeout - 1, true}, {maxIdleTimeout, true}, {maxIdleTimeout + 1, false}} {
		if _, err := check(0, d.d); (err == nil) != d.ok {
			t.Errorf("idle %v: %v", d.d, err)
		}
	}
	if _, err := check(0, maxIdleTimeout+1); err == nil || !strings.Contains(err.Error(), "must be 1s to 24h,") {
		t.Errorf("the idle timeout's refusal: %v", err)
	}
	if msg := strconv.Itoa(MaxMaxSessions); !strings.Contains(func() string { _, err := check(MaxMaxSessions+1, 0); return err.Error() }(), msg) {
		t.Error("the refusal does not name the bound")
	}
}

func TestShortDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{time.Second, "1s"}, {10 * time.Second, "10s"}, {5 * time.Minute, "5m"}, {90 * time.Second, "1m30s"},
		{24 * time.Hour, "24h"}, {time.Hour + time.Minute, "1h1m"}, {time.Hour + time.Second, "1h0m1s"},
		{500 * time.Millisecond, "500ms"},
	} {
		if got := shortDuration(c.d); got != c.want {
			t.Errorf("shortDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// swapBearer adds whichever token is current to every request.
type swapBearer struct {
	token *atomic.Pointer[string]
	base  http.RoundTripper
}

func (b swapBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+*b.token.Load())
	return b.base.RoundTrip(r)
}

// TestHostedTokenReload: reading the token file again (what SIGHUP does)
// puts the new token in force, the old one gets 401, and a session opened
// before goes on with the new token; a file that cannot be read keeps the
// token in force. A token server cannot read principals again, nor a
// principals server a token. Neither token is logged.
func TestHostedTokenReload(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.html"), []byte(`<ul><li>a</li></ul>`), 0o600)
	srv := offlineServer(t, root)
	f := startFront(t, srv, HostedConfig{})
	var cur atomic.Pointer[string]
	old := f.token
	cur.Store(&old)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "reload-test", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: f.url + "/mcp", HTTPClient: &http.Client{Transport: swapBearer{&cur, tr}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	wantAnswer(t, call(t, cs, "snapshot_observe", map[string]any{"path": "a.html"}), 0)

	status := func(token string) int {
		req, _ := http.NewRequest(http.MethodPost, f.url+"/mcp", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	const fresh = "tok-fresh-0123456789abcdef"
	path := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(path, []byte(fresh+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.ReloadToken(path); err != nil {
		t.Fatal(err)
	}
	if st := status(old); st != http.StatusUnauthorized {
		t.Fatalf("the old token after the reload: %d", st)
	}
	if st := status(fresh); st == http.StatusUnauthorized {
		t.Fatalf("the new token after the reload: %d", st)
	}
	next := fresh
	cur.Store(&next)
	wantAnswer(t, call(t, cs, "snapshot_observe", map[string]any{"path": "a.html"}), 0)

	// A file open to others is not read: the token in force stays.
	os.Chmod(path, 0o644)
	if err := srv.ReloadToken(path); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("reload of a file open to others: %v", err)
	}
	wantAnswer(t, call(t, cs, "snapshot_observe", map[string]any{"path": "a.html"}), 0)
	if err := srv.ReloadPrincipals(path); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("principals read again on a token server: %v", err)
	}
	for _, want := range []string{"token read again", "kept the token in force"} {
		if !strings.Contains(f.log.String(), want) {
			t.Errorf("the log does not say %q: %s", want, f.log.String())
		}
	}
	if strings.Contains(f.log.String(), fresh) {
		t.Error("the new token is in the log")
	}
}
