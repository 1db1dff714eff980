//go:build browser

package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/mcp/internal/store"
)

// hostedSite serves the pages of the hosted tests. /hold answers only
// when release is closed, after telling arrived.
type hostedSite struct {
	*httptest.Server
	arrived chan string
	release chan struct{}
	once    sync.Once
}

func newHostedSite(t *testing.T) *hostedSite {
	t.Helper()
	s := &hostedSite{arrived: make(chan string, 16), release: make(chan struct{})}
	page := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!DOCTYPE html><html><body>" + body + "</body></html>"))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/table", func(w http.ResponseWriter, r *http.Request) {
		tag := r.URL.Query().Get("tag")
		page(w, fmt.Sprintf(`<table><tr><th>Tag</th><th>N</th></tr><tr><td>%s</td><td>1</td></tr><tr><td>%s</td><td>2</td></tr></table>`, tag, tag))
	})
	// /setstate leaves a cookie and a localStorage item in the session's
	// browser context; /showstate lists what it finds of them.
	mux.HandleFunc("/setstate", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "domsnap_test", Value: "kept-in-A", Path: "/"})
		page(w, `<ul><li>set</li></ul><script>localStorage.setItem("k", "stored-in-A")</script>`)
	})
	mux.HandleFunc("/showstate", func(w http.ResponseWriter, r *http.Request) {
		cookie := "none"
		if c, err := r.Cookie("domsnap_test"); err == nil {
			cookie = c.Value
		}
		page(w, `<ul><li>cookie `+cookie+`</li><li id="ls">storage pending</li></ul><script>document.getElementById("ls").textContent = "storage " + (localStorage.getItem("k") || "none")</script>`)
	})
	mux.HandleFunc("/hold", func(w http.ResponseWriter, r *http.Request) {
		s.arrived <- r.URL.Query().Get("who")
		select {
		case <-s.release:
		case <-r.Context().Done():
			return
		}
		page(w, `<ul><li>released</li></ul>`)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		s.free()
		s.Server.Close()
	})
	return s
}

func (s *hostedSite) free() { s.once.Do(func() { close(s.release) }) }

// arrival waits for a request to /hold.
func (s *hostedSite) arrival(t *testing.T) string {
	t.Helper()
	select {
	case who := <-s.arrived:
		return who
	case <-time.After(60 * time.Second):
		t.Fatal("no request reached /hold")
		return ""
	}
}

type hostedAnswer struct {
	Revision   string
	Artifact   string
	Extraction *struct {
		Rows []struct {
			Cells []struct {
				Value any
			}
		}
	}
}

func callOK(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) hostedAnswer {
	t.Helper()
	res := call(t, cs, name, args)
	b := []byte(text(t, res))
	if res.IsError {
		t.Fatalf("%s: %s", name, b)
	}
	var a hostedAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func callErr(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res := call(t, cs, name, args)
	b := []byte(text(t, res))
	var e errorBody
	if !res.IsError || json.Unmarshal(b, &e) != nil {
		t.Fatalf("%s: want an error, got %s", name, b)
	}
	return e.Error.Code
}

// listValues extracts the first list's items as strings.
func listValues(t *testing.T, cs *sdk.ClientSession, rev string) []string {
	t.Helper()
	a := callOK(t, cs, "browser_observe", map[string]any{"extract": map[string]any{
		"expected_revision": rev, "kind": "list", "index": 0,
		"fields": []any{map[string]any{"name": "item", "column": 0, "type": "string"}},
	}})
	var out []string
	for _, r := range a.Extraction.Rows {
		out = append(out, fmt.Sprint(r.Cells[0].Value))
	}
	return out
}

// browserGone checks, after the server stopped, that the browser process
// has exited and its profile folder is gone.
func browserGone(t *testing.T, pid int, profile string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil || bytes.Contains(stat, []byte(") Z ")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("browser %d still running", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("profile %s left behind: %v", profile, err)
	}
}

func hostedServer(t *testing.T) *Server {
	t.Helper()
	srv, err := New(Config{StateDir: filepath.Join(t.TempDir(), "state"), MaxStoreBytes: store.MinBytes})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestHostedIsolation: two sessions of one server are two browser
// contexts of one Chromium: a cookie and a localStorage item one session
// set are not seen by the other, each session's revisions are
// foreign_revision in the other and its artifacts unknown_artifact. A session the client ends
// takes its context with it; stopping the server ends the browser.
func TestHostedIsolation(t *testing.T) {
	web := newHostedSite(t)
	srv := hostedServer(t)
	f := startFront(t, srv, HostedConfig{})
	a, b := f.mustConnect(t), f.mustConnect(t)

	callOK(t, a, "browser_navigate", map[string]any{"url": web.URL + "/setstate"})
	seenA := callOK(t, a, "browser_navigate", map[string]any{"url": web.URL + "/showstate"})
	if got := listValues(t, a, seenA.Revision); strings.Join(got, "|") != "cookie kept-in-A|storage stored-in-A" {
		t.Fatalf("session A does not see its own state: %v", got)
	}
	seenB := callOK(t, b, "browser_navigate", map[string]any{"url": web.URL + "/showstate"})
	if got := listValues(t, b, seenB.Revision); strings.Join(got, "|") != "cookie none|storage none" {
		t.Fatalf("session B sees A's state: %v", got)
	}
	// One browser, one context per session.
	br := srv.currentBrowser()
	ids, err := br.Contexts(context.Background())
	if err != nil || len(ids) != 2 {
		t.Fatalf("contexts %v, %v", ids, err)
	}
	pid, profile := br.PID(), br.Profile()

	latestA := callOK(t, a, "browser_observe", map[string]any{})
	extract := func(rev string) map[string]any {
		return map[string]any{"extract": map[string]any{"expected_revision": rev, "kind": "list", "index": 0,
			"fields": []any{map[string]any{"name": "item", "column": 0, "type": "string"}}}}
	}
	if code := callErr(t, b, "browser_observe", extract(latestA.Revision)); code != "foreign_revision" {
		t.Fatalf("A's revision in B: %s", code)
	}
	if code := callErr(t, b, "browser_artifact", map[string]any{"artifact": latestA.Artifact}); code != "unknown_artifact" {
		t.Fatalf("A's artifact in B: %s", code)
	}
	callOK(t, a, "browser_artifact", map[string]any{"artifact": latestA.Artifact})

	// The client ends A: its context goes, B's stays.
	a.Close()
	waitFor(t, "A's context to be disposed", func() bool {
		ids, err := br.Contexts(context.Background())
		return err == nil && len(ids) == 1
	})
	callOK(t, b, "browser_observe", map[string]any{})
	if err := f.stop(); err != nil {
		t.Fatal(err)
	}
	browserGone(t, pid, profile)
}

// TestHostedSessionLock: two calls of one session run one after the
// other while another session's calls run meanwhile.
func TestHostedSessionLock(t *testing.T) {
	web := newHostedSite(t)
	srv := hostedServer(t)
	f := startFront(t, srv, HostedConfig{})
	a, b := f.mustConnect(t), f.mustConnect(t)
	// Both sessions have a browser context before the race starts.
	callOK(t, a, "browser_navigate", map[string]any{"url": web.URL + "/table?tag=a0"})
	callOK(t, b, "browser_navigate", map[string]any{"url": web.URL + "/table?tag=b0"})

	type result struct {
		a   hostedAnswer
		err error
	}
	run := func(cs *sdk.ClientSession, name string, args map[string]any) chan result {
		ch := make(chan result, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: wholeView(name, args)})
			var r result
			r.err = err
			if err == nil {
				if res.IsError {
					r.err = fmt.Errorf("%s", text(t, res))
				} else {
					r.err = json.Unmarshal([]byte(text(t, res)), &r.a)
				}
			}
			ch <- r
		}()
		return ch
	}
	held := run(a, "browser_navigate", map[string]any{"url": web.URL + "/hold?who=a"})
	if who := web.arrival(t); who != "a" {
		t.Fatalf("arrival %q", who)
	}
	// A's second call waits for the first, which holds the lock.
	second := run(a, "browser_observe", map[string]any{})
	// Meanwhile B runs whole rounds.
	for i := 1; i <= 3; i++ {
		nav := callOK(t, b, "browser_navigate", map[string]any{"url": web.URL + "/table?tag=b" + strconv.Itoa(i)})
		callOK(t, b, "browser_observe", map[string]any{"extract": map[string]any{"expected_revision": nav.Revision, "kind": "table", "index": 0,
			"fields": []any{map[string]any{"name": "tag", "column": 0, "type": "string"}}}})
	}
	select {
	case r := <-second:
		t.Fatalf("A's second call ran while its first held the lock: %+v", r)
	case r := <-held:
		t.Fatalf("A's held call returned: %+v", r)
	default:
	}
	web.free()
	first := <-held
	next := <-second
	if first.err != nil || next.err != nil {
		t.Fatalf("after the release: %v, %v", first.err, next.err)
	}
	if !strings.HasSuffix(first.a.Revision, ".n2.o2") || !strings.HasSuffix(next.a.Revision, ".n2.o3") {
		t.Fatalf("A's calls out of order: %s then %s", first.a.Revision, next.a.Revision)
	}
}

// TestHostedIdleDisposesContext: a session idle for the timeout loses its
// browser context at once, and its later calls get session_expired.
func TestHostedIdleDisposesContext(t *testing.T) {
	web := newHostedSite(t)
	srv := hostedServer(t)
	f := startFront(t, srv, HostedConfig{IdleTimeout: MinIdleTimeout})
	a := f.mustConnect(t)
	callOK(t, a, "browser_navigate", map[string]any{"url": web.URL + "/table?tag=x"})
	br := srv.currentBrowser()
	waitFor(t, "the idle session's context to be disposed", func() bool {
		ids, err := br.Contexts(context.Background())
		return err == nil && len(ids) == 0
	})
	if f.live() != 0 {
		t.Fatalf("%d live after the expiry", f.live())
	}
	if code := callErr(t, a, "browser_navigate", map[string]any{"url": web.URL + "/table?tag=y"}); code != "session_expired" {
		t.Fatalf("after the expiry: %s", code)
	}
	if code := callErr(t, a, "browser_observe", map[string]any{}); code != "session_expired" {
		t.Fatalf("after the expiry: %s", code)
	}
}

// connTracker is a dialer that remembers its connections, so a test can
// cut them as a client that goes away would; after the cut it dials no
// more (the SDK's client would otherwise say goodbye with a DELETE).
type connTracker struct {
	mu    sync.Mutex
	conns []net.Conn
	gone  bool
	// through are the requests begun before the cut and answered after.
	through []string
}

func (c *connTracker) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c.mu.Lock()
	gone := c.gone
	c.mu.Unlock()
	if gone {
		return nil, errors.New("the client has gone away")
	}
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	// A dial that began before cut and ended after it must not hand the
	// client a live connection: through it the client could still end its
	// session (a DELETE), which is not what a client that went away does.
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone {
		conn.Close()
		return nil, errors.New("the client has gone away")
	}
	c.conns = append(c.conns, conn)
	return conn, nil
}

// watch refuses every request made after the cut, as a client that went
// away sends none (its DELETE included), whatever connections its
// transport still holds; and it notes a request begun before the cut and
// answered after it.
func (c *connTracker) watch(base http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c.mu.Lock()
		gone := c.gone
		c.mu.Unlock()
		if gone {
			return nil, errors.New("the client has gone away")
		}
		res, err := base.RoundTrip(r)
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.gone && err == nil {
			c.through = append(c.through, r.Method+" "+res.Status)
		}
		return res, err
	})
}

func (c *connTracker) after() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.through...)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func (c *connTracker) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gone = true
	for _, conn := range c.conns {
		conn.Close()
	}
}

// TestHostedClientGone: a client that goes away in the middle of a call
// has its capture cancelled: the call ends before the page answers, and
// nothing is published, neither a revision nor an artifact.
func TestHostedClientGone(t *testing.T) {
	web := newHostedSite(t)
	srv := hostedServer(t)
	f := startFront(t, srv, HostedConfig{})
	tracker := &connTracker{}
	tr := &http.Transport{DialContext: tracker.dial}
	defer tr.CloseIdleConnections()
	a, err := f.connect(t, tracker.watch(tr))
	if err != nil {
		t.Fatal(err)
	}
	first := callOK(t, a, "browser_navigate", map[string]any{"url": web.URL + "/table?tag=a"})
	stored := srv.store.Len()
	var sess *session
	srv.mu.Lock()
	for _, s := range srv.sessions {
		sess = s
	}
	srv.mu.Unlock()

	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		a.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": web.URL + "/hold?who=a",
			"wait": map[string]any{"timeout_ms": 300000}}})
	}()
	web.arrival(t)
	tracker.cut()
	// The call ends (the session's lock is free) while the page still
	// holds its answer back, long before the call's own five-minute
	// deadline: the capture was cancelled, not finished.
	waitWithin(t, 20*time.Second, "the call to end", func() bool {
		select {
		case sess.lock <- struct{}{}:
			<-sess.lock
			return true
		default:
			return false
		}
	})
	web.free()
	if n := srv.store.Len(); n != stored {
		t.Fatalf("the store went from %d to %d artifacts", stored, n)
	}
	sess.mu.Lock()
	l, ended := sess.live, sess.ended
	sess.mu.Unlock()
	if l == nil || ended {
		t.Fatalf("the session lost its page (ended %v; requests begun before the cut and answered after it: %v; log: %s)", ended, tracker.after(), f.log.String())
	}
	rev, _, err := l.Revision(context.Background())
	if err != nil || rev != first.Revision {
		t.Fatalf("published %q after the client went away (before %q): %v", rev, first.Revision, err)
	}
	<-done
}
