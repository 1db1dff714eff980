//go:build browser

package mcp_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/mcp"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	// binTemp is the temporary folder as the run started: a test that
	// runs the server in process points TMPDIR at a folder of its own,
	// which must not hold the binary the later tests run.
	binTemp = os.TempDir()
)

// binary builds the domsnap command once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp(binTemp, "domsnap-mcp-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "domsnap")
		out, err := exec.Command("go", "build", "-o", binPath, "../cmd/domsnap").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// server is one `domsnap mcp` process driven by the SDK's client, or a
// server in this process (startInProcess).
type server struct {
	cs     *sdk.ClientSession
	cmd    *exec.Cmd
	tmp    string // the process's TMPDIR: its browser profile lives here
	stderr *bytes.Buffer
	closed bool
	// run is what the in-process server's Run returned; nil for a process.
	run <-chan error
}

func start(t *testing.T, stateDir string, args ...string) *server {
	t.Helper()
	tmp := t.TempDir()
	cmd := exec.Command(binary(t), append([]string{"mcp", "--state-dir", stateDir}, args...)...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	c := sdk.NewClient(&sdk.Implementation{Name: "domsnap-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cs: cs, cmd: cmd, tmp: tmp, stderr: &stderr}
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop closes the client's end (stdin), waits for the server to exit, and
// checks it left no browser process and no profile folder behind.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if s.closed {
		return
	}
	s.closed = true
	if err := s.cs.Close(); err != nil {
		t.Errorf("closing the server: %v (stderr %q)", err, s.stderr.String())
	}
	if s.run != nil {
		// Run ends once the client's end is closed, and closes the server.
		select {
		case err := <-s.run:
			if err != nil {
				t.Errorf("the server's Run: %v", err)
			}
		case <-time.After(60 * time.Second):
			t.Errorf("the server did not stop within a minute of its client's close")
		}
	} else if st := s.cmd.ProcessState; st == nil || !st.Exited() || st.ExitCode() != 0 {
		t.Errorf("the server did not exit cleanly: %v (stderr %q)", st, s.stderr.String())
	}
	if pids := processesUnder(s.tmp); len(pids) > 0 {
		t.Errorf("processes left running: %v", pids)
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
	}
	ents, _ := os.ReadDir(s.tmp)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "domsnap-chrome-") {
			t.Errorf("profile folder left behind: %s", e.Name())
		}
	}
}

// processesUnder lists processes whose command line names dir.
func processesUnder(dir string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte(dir)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// browserPID is the main Chromium process of the server: the one under its
// TMPDIR without a --type= flag (helpers have one).
func (s *server) browserPID(t *testing.T) int {
	t.Helper()
	for _, pid := range processesUnder(s.tmp) {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if !bytes.Contains(cmdline, []byte("--type=")) && bytes.Contains(cmdline, []byte("--user-data-dir=")) {
			return pid
		}
	}
	t.Fatal("no browser process found")
	return 0
}

// call calls a tool. The tests read whole page views: browser_observe and
// browser_act are asked for the full view unless the call names a view
// (the default itself is tested with the client's own calls).
func (s *server) call(t *testing.T, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: mcp.WholeView(name, args)})
	if err != nil {
		t.Fatalf("%s: %v (stderr %q)", name, err, s.stderr.String())
	}
	return res
}

func resultText(t *testing.T, res *sdk.CallToolResult) []byte {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d content items", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content %T", res.Content[0])
	}
	return []byte(tc.Text)
}

// ok returns a successful answer's bytes after checking that its
// structured content is the same object.
func ok(t *testing.T, res *sdk.CallToolResult) []byte {
	t.Helper()
	b := resultText(t, res)
	if res.IsError {
		t.Fatalf("error: %s", b)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var x, y any
	json.Unmarshal(b, &x)
	json.Unmarshal(sc, &y)
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	if !bytes.Equal(xb, yb) {
		t.Fatalf("structured content differs from the text")
	}
	return b
}

// failed checks an error result and returns its code.
func failed(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	b := resultText(t, res)
	if !res.IsError || res.StructuredContent != nil {
		t.Fatalf("want an error result without structured content, got isError %v: %s", res.IsError, b)
	}
	var e struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("error text %s", b)
	}
	return e.Error.Code
}

type projection struct {
	Revision   string
	Artifact   string
	HTTPStatus *int `json:"http_status"`
	Inventory  []struct {
		Kind  string
		Index int
		Rows  int
	}
	Extraction *struct {
		Rows []json.RawMessage
	}
	Omitted struct{ Inventory, Rows int }
}

func parse(t *testing.T, b []byte) projection {
	t.Helper()
	var p projection
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return p
}

func tableRows(n int) string {
	var sb strings.Builder
	sb.WriteString(`<table><tr><th>Product</th><th>Price</th></tr>`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, `<tr><td>Widget number %d with a long name</td><td>%d.50</td></tr>`, i, i)
	}
	sb.WriteString(`</table>`)
	return sb.String()
}

// site serves the test pages.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	form, err := os.ReadFile(filepath.Join("..", "testdata", "html", "live-filled-form.html"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	html := func(w http.ResponseWriter, status int, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		w.Write([]byte("<!DOCTYPE html><html><body>" + body + "</body></html>"))
	}
	mux.HandleFunc("/table", func(w http.ResponseWriter, r *http.Request) { html(w, 200, tableRows(30)) })
	mux.HandleFunc("/other", func(w http.ResponseWriter, r *http.Request) { html(w, 200, `<ul><li>a</li><li>b</li></ul>`) })
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { html(w, 404, tableRows(2)) })
	mux.HandleFunc("/alert", func(w http.ResponseWriter, r *http.Request) {
		html(w, 200, tableRows(2)+`<script>alert("hello")</script>`)
	})
	// The form's controls hold canaries, pre-filled and set by script after
	// load, as a person typing would leave them.
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(bytes.Replace(form, []byte("</body>"), []byte(`<script>addEventListener("load", () => {
  for (const e of document.querySelectorAll("input:not([type=submit]):not([type=reset]), textarea")) e.value = "CANARY-SCRIPTED-" + e.type;
  for (const e of document.querySelectorAll("[contenteditable]")) e.textContent = "CANARY-SCRIPTED-editable";
})</script></body>`), 1))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func extractReq(rev string, rows int) map[string]any {
	return map[string]any{
		"expected_revision": rev, "kind": "table", "index": 0, "row_limit": rows,
		"fields": []any{
			map[string]any{"name": "product", "column": 0, "type": "string"},
			map[string]any{"name": "price", "column": 1, "type": "number"},
		},
	}
}

// TestToolsEndToEnd drives every browser tool through a session: navigate,
// inventory, extract with the revision, revisions refused as stale,
// navigated and foreign, a 1,200-byte projection, a 404, the artifact, and
// replay of the artifact by a restarted server.
func TestToolsEndToEnd(t *testing.T) {
	web := site(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state)

	nav := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"})))
	if nav.HTTPStatus == nil || *nav.HTTPStatus != 200 || len(nav.Inventory) != 1 || nav.Inventory[0].Kind != "table" || nav.Inventory[0].Rows != 31 {
		t.Fatalf("navigate: %+v", nav)
	}
	if !strings.HasSuffix(nav.Revision, ".n1.o1") {
		t.Fatalf("first revision %s", nav.Revision)
	}
	ex := parse(t, ok(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(nav.Revision, 5)})))
	if ex.Extraction == nil || len(ex.Extraction.Rows) != 5 || !strings.HasSuffix(ex.Revision, ".n1.o2") {
		t.Fatalf("extract: %+v", ex)
	}
	// The first revision is stale now.
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(nav.Revision, 5)})); code != "stale_revision" {
		t.Fatalf("stale: %s", code)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq("r1.0123456789abcdef.n1.o1", 5)})); code != "foreign_revision" {
		t.Fatalf("foreign: %s", code)
	}
	// A 1,200-byte projection holds whole rows only, and counts the rest.
	small := ok(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(ex.Revision, 50), "model_bytes": 1200}))
	sp := parse(t, small)
	if len(small) > 1200 || sp.Extraction == nil || len(sp.Extraction.Rows) == 0 || sp.Omitted.Rows == 0 || len(sp.Extraction.Rows)+sp.Omitted.Rows != 31 {
		t.Fatalf("1200-byte projection (%d bytes): %s", len(small), small)
	}
	full := ok(t, s.call(t, "browser_artifact", map[string]any{"artifact": sp.Artifact}))
	if sha(full) != sp.Artifact || !bytes.Contains(full, []byte("Widget number 29")) {
		t.Fatalf("artifact does not hold the whole observation")
	}
	// Navigating makes the old document's revision a navigated one.
	other := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/other"})))
	if !strings.Contains(other.Revision, ".n2.") {
		t.Fatalf("second navigation revision %s", other.Revision)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(sp.Revision, 5)})); code != "navigated_revision" {
		t.Fatalf("navigated: %s", code)
	}
	// A 404 is reported, not hidden.
	nf := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/missing"})))
	if nf.HTTPStatus == nil || *nf.HTTPStatus != 404 {
		t.Fatalf("404: %+v", nf)
	}
	// Observing without a request is an ordinary observation.
	inv := parse(t, ok(t, s.call(t, "browser_observe", map[string]any{"wait": map[string]any{"settle_ms": 10}})))
	if len(inv.Inventory) != 1 || inv.Extraction != nil {
		t.Fatalf("observe: %+v", inv)
	}
	s.stop(t)

	// A restarted server returns the artifact byte for byte.
	s2 := start(t, state)
	again := ok(t, s2.call(t, "browser_artifact", map[string]any{"artifact": sp.Artifact}))
	if !bytes.Equal(again, full) {
		t.Fatal("the artifact changed across a restart")
	}
	if code := failed(t, s2.call(t, "browser_artifact", map[string]any{"artifact": "sha256:" + strings.Repeat("0", 64)})); code != "unknown_artifact" {
		t.Fatalf("unknown: %s", code)
	}
	// Files are the owner's only, and so are folders (the downloads').
	ents, _ := os.ReadDir(state)
	for _, e := range ents {
		fi, _ := e.Info()
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", e.Name(), fi.Mode().Perm(), want)
		}
	}
}

// TestSecretCanaryNeverShown: no answer and no stored artifact holds a
// value of an editable control.
func TestSecretCanaryNeverShown(t *testing.T) {
	web := site(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state)
	var answers [][]byte
	nav := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/form", "wait": map[string]any{"settle_ms": 200}})))
	answers = append(answers, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/form", "wait": map[string]any{"settle_ms": 200}})))
	rev := parse(t, answers[0]).Revision
	var fields []any
	for c := 0; c <= 4; c++ {
		fields = append(fields, map[string]any{"name": "c" + strconv.Itoa(c), "column": c, "type": "string"})
	}
	for _, kind := range []string{"form", "table"} {
		cols := fields
		if kind == "table" {
			cols = fields[:2]
		}
		a := ok(t, s.call(t, "browser_observe", map[string]any{"extract": map[string]any{"expected_revision": rev, "kind": kind, "index": 0, "fields": cols}}))
		answers = append(answers, a)
		rev = parse(t, a).Revision
		answers = append(answers, ok(t, s.call(t, "browser_artifact", map[string]any{"artifact": parse(t, a).Artifact})))
	}
	answers = append(answers, ok(t, s.call(t, "browser_artifact", map[string]any{"artifact": nav.Artifact})))
	for _, a := range answers {
		if bytes.Contains(a, []byte("CANARY-SECRET")) && !bytes.Contains(a, []byte("CANARY-SECRET-67")) || bytes.Contains(a, []byte("CANARY-SCRIPTED")) {
			t.Fatalf("a canary in an answer: %s", a)
		}
	}
	s.stop(t)
	ents, _ := os.ReadDir(state)
	if len(ents) == 0 {
		t.Fatal("nothing was stored")
	}
	for _, e := range ents {
		data, _ := os.ReadFile(filepath.Join(state, e.Name()))
		for _, c := range []string{"CANARY-SCRIPTED", "CANARY-SECRET-60", "CANARY-SECRET-65", "CANARY-SECRET-72", "CANARY-SECRET-76"} {
			if bytes.Contains(data, []byte(c)) {
				t.Fatalf("%s stored in %s", c, e.Name())
			}
		}
	}
}

// TestNavigationPolicy: with an allowed origin, another origin, a redirect
// to it and a navigation the page starts towards it are refused, and the
// refused server never sees the main-frame request. The server runs in this
// process: no answer tells of the page's own move, so the test waits for
// the tab's guard to count its refusal.
func TestNavigationPolicy(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	refused := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<ul><li>elsewhere</li></ul>`))
	}))
	defer refused.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/table", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(tableRows(2)))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, refused.URL+"/", http.StatusFound)
	})
	// /leave moves itself once /leave-go answers, which the test lets it
	// do after browser_navigate answered: a move on a timer raced the
	// navigation's own wait on a loaded machine.
	goLeave := make(chan struct{})
	var leaveOnce sync.Once
	letLeave := func() { leaveOnce.Do(func() { close(goLeave) }) }
	defer letLeave()
	mux.HandleFunc("/leave", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(tableRows(2) + `<script>fetch("/leave-go").then(() => { location.href = "` + refused.URL + `/" })</script>`))
	})
	mux.HandleFunc("/leave-go", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-goLeave:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", "attachment; filename=x.bin")
		w.Write([]byte("data"))
	})
	allowed := httptest.NewServer(mux)
	defer allowed.Close()

	s, srv := startInProcess(t, mcp.Config{StateDir: filepath.Join(t.TempDir(), "state"), AllowOrigins: []string{allowed.URL}})
	if code := failed(t, s.call(t, "browser_navigate", map[string]any{"url": refused.URL + "/"})); code != "navigation_refused" {
		t.Fatalf("other origin: %s", code)
	}
	first := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/table"})))
	res := s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/redirect"})
	if code := failed(t, res); code != "navigation_refused" {
		t.Fatalf("redirect: %s", code)
	}
	if msg := string(resultText(t, res)); strings.Contains(msg, "127.0.0.1") {
		t.Fatalf("the message names a URL: %s", msg)
	}
	// The page stayed where it was: its revision is still current.
	still := ok(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(first.Revision, 5)}))
	if p := parse(t, still); p.Extraction == nil || len(p.Extraction.Rows) != 3 {
		t.Fatalf("after the refused redirect: %s", still)
	}
	tab := mcp.SessionTab(srv)
	if tab == nil {
		t.Fatal("no tab")
	}
	before := tab.Refused()
	ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/leave"}))
	letLeave()
	waitUntil(t, time.Minute, "the guard to refuse the page's move", func() bool { return tab.Refused() > before })
	after := parse(t, ok(t, s.call(t, "browser_observe", map[string]any{})))
	if len(after.Inventory) != 1 || after.Inventory[0].Kind != "table" {
		t.Fatalf("the page left for a refused origin: %+v", after)
	}
	// A download is refused; the session goes on.
	failed(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/download"}))
	ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/table"}))
	mu.Lock()
	defer mu.Unlock()
	if hits != 0 {
		t.Fatalf("the refused origin was asked %d times", hits)
	}
}

// TestCancelNeverAnswers: cancelling a navigation to a server that accepts
// and never answers ends the call at once and publishes nothing; the
// session then works.
func TestCancelNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	web := site(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	first := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"})))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	t0 := time.Now()
	_, err = s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": "http://" + ln.Addr().String() + "/"}})
	cancel()
	if err == nil || time.Since(t0) > 10*time.Second {
		t.Fatalf("the call returned %v after %v", err, time.Since(t0))
	}
	// The next call waits for the cancelled one to release the lock, and the
	// revision of the first page was not replaced by anything published.
	next := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/other"})))
	if !strings.HasSuffix(next.Revision, ".o2") {
		t.Fatalf("after the cancelled call: %s (first %s)", next.Revision, first.Revision)
	}
	// A navigation whose wait times out before the commit is timeout.
	res := s.call(t, "browser_navigate", map[string]any{"url": "http://" + ln.Addr().String() + "/", "wait": map[string]any{"timeout_ms": 1000}})
	if code := failed(t, res); code != "timeout" {
		t.Fatalf("never committed: %s", code)
	}
}

// TestBrowserCrash: Chromium killed under a session fails the call in
// flight or the next one with capture_failed, makes the old revisions
// foreign, and the next navigation starts a new browser.
func TestBrowserCrash(t *testing.T) {
	web := site(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	first := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"})))
	pid := s.browserPID(t)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{})); code != "capture_failed" {
		t.Fatalf("after the kill: %s", code)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(first.Revision, 5)})); code != "foreign_revision" {
		t.Fatalf("old revision after the kill: %s", code)
	}
	again := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"})))
	if again.Revision == first.Revision || strings.Split(again.Revision, ".")[1] == strings.Split(first.Revision, ".")[1] {
		t.Fatalf("the new browser kept the old session part: %s %s", first.Revision, again.Revision)
	}
	if s.browserPID(t) == pid {
		t.Fatal("the same browser process")
	}
}

// TestAlertPage: a page that opens alert() on load is answered within the
// call's deadline, with its table.
func TestAlertPage(t *testing.T) {
	web := site(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	res := s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/alert", "wait": map[string]any{"timeout_ms": 5000}})
	p := parse(t, ok(t, res))
	if len(p.Inventory) != 1 {
		t.Fatalf("alert page: %+v", p)
	}
}

// TestShutdownOnSignal: SIGTERM and SIGINT end the server with its browser
// and profile gone, as closing its input does.
func TestShutdownOnSignal(t *testing.T) {
	web := site(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		s := start(t, filepath.Join(t.TempDir(), "state"))
		ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"}))
		s.browserPID(t) // a browser is running
		if err := s.cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		// The server has exited when its process is a zombie awaiting the
		// client's wait, or gone.
		deadline := time.Now().Add(30 * time.Second)
		for {
			stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(s.cmd.Process.Pid), "stat"))
			if err != nil || bytes.Contains(stat, []byte(") Z ")) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%v: the server did not exit", sig)
			}
			time.Sleep(20 * time.Millisecond)
		}
		s.stop(t)
	}
}
