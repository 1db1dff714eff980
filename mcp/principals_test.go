package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
)

func digest(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func TestParsePrincipals(t *testing.T) {
	good := `{"principals": [
  {"name": "reports-bot", "token_sha256": "` + digest("tok-a-0123456789") + `", "profile": "intranet", "max_sessions": 1},
  {"name": "public-reader", "token_sha256": "` + strings.ToUpper(digest("tok-b-0123456789")) + `", "allow_origins": ["https://shop.example"], "max_sessions": 4},
  {"name": "any", "token_sha256": "` + digest("tok-c-0123456789") + `"}
]}`
	ps, err := parsePrincipals([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.list) != 3 {
		t.Fatalf("%d principals", len(ps.list))
	}
	if p := ps.lookup([]byte("tok-a-0123456789")); p == nil || p.Name != "reports-bot" || p.Profile != "intranet" || p.MaxSessions != 1 {
		t.Errorf("a: %+v", p)
	}
	if p := ps.lookup([]byte("tok-b-0123456789")); p == nil || p.Name != "public-reader" || p.MaxSessions != 4 || !p.policy.Allow("https://shop.example/x") || p.policy.Allow("https://other.example/") {
		t.Errorf("b: %+v", p)
	}
	if p := ps.lookup([]byte("tok-c-0123456789")); p == nil || p.MaxSessions != 1 || !p.policy.Allow("https://other.example/") {
		t.Errorf("c: %+v", p)
	}
	for _, tok := range []string{"", "tok-a-012345678", "tok-a-0123456789x", digest("tok-a-0123456789")} {
		if p := ps.lookup([]byte(tok)); p != nil {
			t.Errorf("%q selected %s", tok, p.Name)
		}
	}

	h := digest("x")
	bad := map[string]string{
		"empty":            `{"principals": []}`,
		"not json":         `{`,
		"two values":       `{"principals":[{"name":"a","token_sha256":"` + h + `"}]} {}`,
		"unknown key":      `{"principals":[{"name":"a","token_sha256":"` + h + `","token":"x"}]}`,
		"bad name":         `{"principals":[{"name":".a","token_sha256":"` + h + `"}]}`,
		"upper name":       `{"principals":[{"name":"A","token_sha256":"` + h + `"}]}`,
		"duplicate name":   `{"principals":[{"name":"a","token_sha256":"` + h + `"},{"name":"a","token_sha256":"` + digest("y") + `"}]}`,
		"duplicate digest": `{"principals":[{"name":"a","token_sha256":"` + h + `"},{"name":"b","token_sha256":"` + h + `"}]}`,
		"short digest":     `{"principals":[{"name":"a","token_sha256":"abcd"}]}`,
		"not hex":          `{"principals":[{"name":"a","token_sha256":"` + strings.Repeat("g", 64) + `"}]}`,
		"both":             `{"principals":[{"name":"a","token_sha256":"` + h + `","profile":"p","allow_origins":["https://a.example"]}]}`,
		"bad profile":      `{"principals":[{"name":"a","token_sha256":"` + h + `","profile":"../p"}]}`,
		"bad origin":       `{"principals":[{"name":"a","token_sha256":"` + h + `","allow_origins":["file:///"]}]}`,
		"zero sessions":    `{"principals":[{"name":"a","token_sha256":"` + h + `","max_sessions":0}]}`,
		"many sessions":    `{"principals":[{"name":"a","token_sha256":"` + h + `","max_sessions":65}]}`,
	}
	for what, body := range bad {
		if _, err := parsePrincipals([]byte(body)); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("%s: %v", what, err)
		}
	}
}

func writePrincipals(t *testing.T, path, body string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestReadPrincipals: the file must be a regular file, the owner's alone;
// no message quotes its content.
func TestReadPrincipals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "principals.json")
	secret := digest("tok-secret-0123456789")
	body := `{"principals":[{"name":"a","token_sha256":"` + secret + `"}]}`
	writePrincipals(t, path, body)
	if ps, err := ReadPrincipals(path); err != nil || len(ps.list) != 1 {
		t.Fatalf("%v", err)
	}
	os.Chmod(path, 0o640)
	if _, err := ReadPrincipals(path); errcode.CodeOf(err) != errcode.InvalidRequest || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("group-readable: %v", err)
	}
	writePrincipals(t, path, `{"principals":[{"name":"a","token_sha256":"`+secret+`","x":1}]}`)
	if _, err := ReadPrincipals(path); err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("a bad file: %v", err)
	}
	if _, err := ReadPrincipals(filepath.Join(dir, "missing")); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("missing: %v", err)
	}
	if _, err := ReadPrincipals(dir); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("a folder: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadPrincipals(fifo); done <- err }()
	select {
	case err := <-done:
		if errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("fifo: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a named pipe was waited on")
	}
	big := `{"principals":[{"name":"a","token_sha256":"` + secret + `"}]}` + strings.Repeat(" ", maxPrincipalsBytes)
	writePrincipals(t, path, big)
	if _, err := ReadPrincipals(path); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("too large: %v", err)
	}
}

// principalsFront serves srv over HTTP with the principals file at path.
type principalsFront struct {
	srv  *Server
	url  string
	path string
	log  *lockedBuffer
	stop func() error
}

func startPrincipals(t *testing.T, srv *Server, path string, tokens ...string) *principalsFront {
	t.Helper()
	ps, err := ReadPrincipals(path)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lb := &lockedBuffer{}
	cfg := HostedConfig{Addr: ln.Addr().String(), Log: lb, Principals: ps}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln, cfg, nil) }()
	f := &principalsFront{srv: srv, url: "http://" + cfg.Addr, path: path, log: lb}
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
		for _, tok := range tokens {
			if strings.Contains(lb.String(), tok) || strings.Contains(lb.String(), digest(tok)) {
				t.Error("a token or its digest is in the log")
			}
		}
	})
	return f
}

func (f *principalsFront) connect(t *testing.T, token string) (*sdk.ClientSession, error) {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	c := sdk.NewClient(&sdk.Implementation{Name: "principal-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: f.url + "/mcp", HTTPClient: &http.Client{Transport: bearer{token, tr}}, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// rawPost sends a tools/list request under session id with token and
// returns the status and body.
func (f *principalsFront) rawPost(t *testing.T, token, id string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
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
	buf := make([]byte, 4096)
	n, _ := res.Body.Read(buf)
	return res.StatusCode, string(buf[:n])
}

// TestHostedPrincipals: each request's token selects its principal, whose
// sessions, artifacts and session count are its own: another principal's
// artifact is unknown_artifact word for word as one never stored, another
// principal's session id is "not found" as one that never existed, a
// principal's max_sessions holds, a principal's allow_origins and profile
// apply, and the log names principals, never tokens. Reading the file
// again (what SIGHUP does) ends the sessions of a removed principal, lets a
// new one in, and a file that cannot be read keeps the principals in force.
func TestHostedPrincipals(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.html"), []byte(`<ul><li>a</li></ul>`), 0o600)
	srv := offlineServer(t, root)
	const (
		tokA = "tok-alpha-0123456789abcdef"
		tokB = "tok-beta-0123456789abcdef"
		tokC = "tok-gamma-0123456789abcdef"
	)
	path := filepath.Join(t.TempDir(), "principals.json")
	writePrincipals(t, path, `{"principals":[
 {"name":"alpha","token_sha256":"`+digest(tokA)+`","max_sessions":1},
 {"name":"beta","token_sha256":"`+digest(tokB)+`","allow_origins":["https://shop.example"],"max_sessions":2},
 {"name":"gamma","token_sha256":"`+digest(tokC)+`","profile":"nosuch"}]}`)
	f := startPrincipals(t, srv, path, tokA, tokB, tokC)

	a, err := f.connect(t, tokA)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.connect(t, tokB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.connect(t, "tok-nobody-0123456789abcdef"); err == nil {
		t.Fatal("an unknown token connected")
	}
	// alpha's one session is all it may have.
	if _, err := f.connect(t, tokA); err == nil {
		t.Fatal("alpha opened a second session beyond max_sessions")
	}
	if !strings.Contains(f.log.String(), "refused a new session for alpha") {
		t.Errorf("log: %s", f.log.String())
	}

	ra := artifactOf(t, wantAnswer(t, call(t, a, "snapshot_observe", map[string]any{"path": "a.html"}), 0))
	wantAnswer(t, call(t, a, "browser_artifact", map[string]any{"artifact": ra}), 0)
	never := call(t, b, "browser_artifact", map[string]any{"artifact": "sha256:" + strings.Repeat("0", 64)})
	res := call(t, b, "browser_artifact", map[string]any{"artifact": ra})
	wantError(t, res, "unknown_artifact")
	if text(t, res) != text(t, never) {
		t.Fatalf("another principal's artifact answers %s, one never stored %s", text(t, res), text(t, never))
	}

	// beta names alpha's session: the same answer as a session that never
	// existed.
	st1, body1 := f.rawPost(t, tokB, a.ID())
	st2, body2 := f.rawPost(t, tokB, "no-such-session-id")
	if st1 != http.StatusNotFound || st1 != st2 || body1 != body2 {
		t.Fatalf("another principal's session: %d %q; none: %d %q", st1, body1, st2, body2)
	}
	if st, _ := f.rawPost(t, tokA, a.ID()); st != http.StatusOK {
		t.Fatalf("alpha's own session: %d", st)
	}

	// beta's origins, and gamma's missing profile, before any browser.
	wantError(t, call(t, b, "browser_navigate", map[string]any{"url": "https://other.example/"}), "navigation_refused")
	c, err := f.connect(t, tokC)
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, call(t, c, "browser_navigate", map[string]any{"url": "https://shop.example/"}), "unknown_profile")

	// A principals server does not take a token file.
	if err := srv.ReloadToken(path); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("a token read again on a principals server: %v", err)
	}
	// A file open to others is not read again: everything stays.
	os.Chmod(path, 0o644)
	if err := srv.ReloadPrincipals(path); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("reload of a file open to others: %v", err)
	}
	wantAnswer(t, call(t, a, "browser_artifact", map[string]any{"artifact": ra}), 0)

	// alpha removed, delta added.
	const tokD = "tok-delta-0123456789abcdef"
	writePrincipals(t, path, `{"principals":[
 {"name":"beta","token_sha256":"`+digest(tokB)+`","allow_origins":["https://shop.example"],"max_sessions":2},
 {"name":"delta","token_sha256":"`+digest(tokD)+`"}]}`)
	if err := srv.ReloadPrincipals(path); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if r, err := a.CallTool(ctx, &sdk.CallToolParams{Name: "browser_artifact", Arguments: map[string]any{"artifact": ra}}); err == nil && !r.IsError {
		t.Fatal("a removed principal's session still answers")
	}
	if _, err := f.connect(t, tokA); err == nil {
		t.Fatal("a removed principal connected")
	}
	if _, err := f.connect(t, tokD); err != nil {
		t.Fatalf("a new principal: %v", err)
	}
	wantError(t, call(t, b, "browser_navigate", map[string]any{"url": "https://other.example/"}), "navigation_refused")
	for _, want := range []string{"session admitted for alpha", "session admitted for delta", "session for alpha ended: its principal was removed", "principals read again: 2 in force"} {
		if !strings.Contains(f.log.String(), want) {
			t.Errorf("the log does not say %q: %s", want, f.log.String())
		}
	}
}
