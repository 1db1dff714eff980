//go:build browser

package hosted_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// findHAProxy is the haproxy binary; the test fails, never skips, without
// it: `make install-browser` installs it.
func findHAProxy(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("haproxy"); err == nil {
		return p
	}
	if fi, err := os.Stat("/usr/sbin/haproxy"); err == nil && !fi.IsDir() {
		return "/usr/sbin/haproxy"
	}
	t.Fatal("haproxy is missing: install it with `make install-browser`")
	return ""
}

// buildDomsnap builds the command into a folder of the test's.
func buildDomsnap(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "domsnap")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/domsnap").CombinedOutput()
	if err != nil {
		t.Fatalf("building domsnap: %v: %s", err, out)
	}
	return bin
}

// freePort is a loopback port nothing listens on a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// lockedLog collects the script's standard error.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// deployment is start.sh running: its hosts and its proxy.
type deployment struct {
	cmd    *exec.Cmd
	marker string // the script's TMPDIR: in every process it starts
	token  string
	hosts  []proc // by host number, from 1
	proxy  proc
	log    *lockedLog
	exited chan struct{}
	err    error
}

type proc struct{ pid, port int }

func (d *deployment) url() string { return "http://127.0.0.1:" + strconv.Itoa(d.proxy.port) + "/mcp" }

// start runs start.sh with HOSTS hosts and reads what it prints.
func start(t *testing.T, hosts int) *deployment {
	t.Helper()
	haproxy := findHAProxy(t)
	bin := buildDomsnap(t)
	// A short marker: Chromium's singleton socket goes below it.
	marker, err := os.MkdirTemp("/tmp", "h")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(marker) })
	var raw [24]byte
	rand.Read(raw[:])
	d := &deployment{marker: marker, token: hex.EncodeToString(raw[:]), log: &lockedLog{}, exited: make(chan struct{})}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(d.token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("start.sh")
	if err != nil {
		t.Fatal(err)
	}
	// Started as nohup starts it, with SIGHUP ignored, which a shell
	// cannot trap: the script must undo that for its reload to work
	// (TestHostedAcrossHosts sends one), however the tests themselves
	// were started.
	nohup, err := exec.LookPath("nohup")
	if err != nil {
		t.Fatalf("nohup: %v", err)
	}
	d.cmd = exec.Command(nohup, "/bin/sh", script)
	d.cmd.Env = append(os.Environ(), "HOSTS="+strconv.Itoa(hosts), "PORT="+strconv.Itoa(freePort(t)),
		"TOKEN_FILE="+tokenFile, "STATE_DIR="+filepath.Join(t.TempDir(), "state"), "DOMSNAP="+bin,
		"HAPROXY="+haproxy, "MAX_SESSIONS=8", "TMPDIR="+marker,
		// Every request in the log, so a failure says how the proxy ended
		// the exchange.
		"LOG_REQUESTS=1")
	d.cmd.Stderr = d.log
	out, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, hosts+1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		d.err = d.cmd.Wait()
		close(d.exited)
	}()
	t.Cleanup(func() { d.stop(t) })
	timeout := time.After(90 * time.Second)
	for len(d.hosts) < hosts || d.proxy.pid == 0 {
		select {
		case l, ok := <-lines:
			if !ok {
				<-d.exited
				t.Fatalf("the script exited: %v: %s", d.err, d.log.String())
			}
			f := strings.Fields(l)
			var p proc
			var perr error
			if len(f) >= 3 {
				p.pid, perr = strconv.Atoi(f[len(f)-2])
				if perr == nil {
					p.port, perr = strconv.Atoi(f[len(f)-1])
				}
			}
			switch {
			case perr == nil && len(f) == 4 && f[0] == "host" && f[1] == strconv.Itoa(len(d.hosts)+1):
				d.hosts = append(d.hosts, p)
			case perr == nil && len(f) == 3 && f[0] == "proxy" && len(d.hosts) == hosts:
				d.proxy = p
			default:
				t.Fatalf("the script printed %q", l)
			}
		case <-timeout:
			t.Fatalf("the script did not print its hosts and proxy: %s", d.log.String())
		}
	}
	return d
}

// stop sends SIGTERM to the script unless it has exited, waits for it, and
// checks that nothing it started is left: no process, no folder.
func (d *deployment) stop(t *testing.T) {
	t.Helper()
	select {
	case <-d.exited:
		return
	default:
	}
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.exited:
	case <-time.After(60 * time.Second):
		d.cmd.Process.Kill()
		<-d.exited
		t.Errorf("the script did not stop within 60s of SIGTERM: %s", d.log.String())
	}
	if d.err != nil {
		t.Errorf("the script exited with %v: %s", d.err, d.log.String())
	}
	left, err := leftover.WaitGone(d.marker, 15*time.Second)
	if err != nil || len(left) > 0 {
		t.Errorf("left running: %v %v", left, err)
		for _, l := range left {
			syscall.Kill(l.PID, syscall.SIGKILL)
		}
	}
	for _, p := range append([]proc{d.proxy}, d.hosts...) {
		if alive(p.pid) {
			t.Errorf("process %d still runs", p.pid)
		}
	}
	if ents, _ := os.ReadDir(d.marker); len(ents) > 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("left in the temporary folder: %v", names)
	}
	if strings.Contains(d.log.String(), d.token) {
		t.Error("the token is in the log")
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(s[i+1:], " Z")
}

type tokenTransport struct {
	token string
	base  http.RoundTripper
}

func (tt tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tt.token)
	return tt.base.RoundTrip(r)
}

// connect opens a session at url with the SDK's own client.
func connect(t *testing.T, url, token string) (*sdk.ClientSession, error) {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "hosted-example-test", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: tokenTransport{token, tr}}}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// rawPing sends a ping in session id to url, and returns the status and
// the body.
func rawPing(t *testing.T, url, token, id string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":99,"method":"ping"}`))
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
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	return res.StatusCode, string(body)
}

// site serves /t?s=S, a table of three rows naming S.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := r.URL.Query().Get("s")
		var b strings.Builder
		b.WriteString(`<!doctype html><table><tr><th>Tag</th><th>N</th></tr>`)
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&b, `<tr><td>s%si%d</td><td>%d</td></tr>`, s, i, i)
		}
		b.WriteString(`</table>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, b.String())
	}))
	t.Cleanup(srv.Close)
	return srv
}

// round navigates session cs to the page naming s and extracts its
// table, checking every row; it returns the error of the first call that
// failed.
func round(cs *sdk.ClientSession, web string, s string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": web + "/t?s=" + s}})
	if err != nil {
		return err
	}
	var nav struct{ Revision string }
	if err := answer(res, &nav); err != nil {
		return fmt.Errorf("navigate: %w", err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_observe", Arguments: map[string]any{"extract": map[string]any{
		"expected_revision": nav.Revision, "kind": "table", "index": 0,
		"fields": []any{map[string]any{"name": "tag", "column": 0, "type": "string"}, map[string]any{"name": "n", "column": 1, "type": "integer"}}}}})
	if err != nil {
		return err
	}
	var ex struct {
		Extraction struct {
			Rows []struct {
				Header bool
				Cells  []struct{ Value any }
			}
		}
	}
	if err := answer(res, &ex); err != nil {
		return fmt.Errorf("extract: %w", err)
	}
	i := 0
	for _, row := range ex.Extraction.Rows {
		if row.Header {
			continue
		}
		if len(row.Cells) != 2 || row.Cells[0].Value != fmt.Sprintf("s%si%d", s, i) || row.Cells[1].Value != float64(i) {
			return fmt.Errorf("session %s row %d: %v", s, i, row.Cells)
		}
		i++
	}
	if i != 3 {
		return fmt.Errorf("session %s: %d rows", s, i)
	}
	return nil
}

// sessionMissing reports whether err is the SDK client's word for a 404
// to its session: ErrSessionMissing, or, when the 404 came to the stream
// the client keeps open beside its calls, the connection it closed for
// that reason (whose error quotes ErrSessionMissing without wrapping it).
func sessionMissing(err error) bool {
	return err != nil && (errors.Is(err, sdk.ErrSessionMissing) || strings.Contains(err.Error(), ": "+sdk.ErrSessionMissing.Error()))
}

func answer(res *sdk.CallToolResult, into any) error {
	if len(res.Content) != 1 {
		return fmt.Errorf("%d content items", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return fmt.Errorf("content %T", res.Content[0])
	}
	if res.IsError {
		return fmt.Errorf("tool error %s", tc.Text)
	}
	return json.Unmarshal([]byte(tc.Text), into)
}

// TestHostedAcrossHosts runs examples/hosted/start.sh with two hosts and
// opens eight sessions through its HAProxy with the SDK's own client,
// each navigating and extracting on its own host. Then one host is killed
// (SIGKILL): exactly its sessions fail, each request of theirs answered 404
// "session not found" at the HTTP level (the SDK's ErrSessionMissing), the
// other host's sessions go on, and a new session works at once. SIGHUP
// reaches the host left, which reads its token again and goes on. After
// SIGTERM nothing the script started is left: no process, no folder.
func TestHostedAcrossHosts(t *testing.T) {
	const sessions = 8
	web := site(t)
	d := start(t, 2)
	clients := make([]*sdk.ClientSession, sessions)
	for i := range clients {
		cs, err := connect(t, d.url(), d.token)
		if err != nil {
			t.Fatalf("session %d: %v: %s", i, err, d.log.String())
		}
		clients[i] = cs
	}
	// Which host holds each session: the one that knows its id.
	on := make([]int, sessions)
	count := map[int]int{}
	for i, cs := range clients {
		for h, p := range d.hosts {
			st, _ := rawPing(t, "http://127.0.0.1:"+strconv.Itoa(p.port)+"/mcp", d.token, cs.ID())
			if st == http.StatusOK {
				if on[i] != 0 {
					t.Fatalf("session %d is known to two hosts", i)
				}
				on[i] = h + 1
			}
		}
		if on[i] == 0 {
			t.Fatalf("session %d is on no host", i)
		}
		count[on[i]]++
	}
	t.Logf("sessions per host: %v", count)
	if count[1] == 0 || count[2] == 0 {
		t.Fatalf("the proxy put every session on one host: %v", count)
	}
	var wg sync.WaitGroup
	errs := make([]error, sessions)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = round(clients[i], web.URL, strconv.Itoa(i))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("session %d on host %d: %v", i, on[i], err)
		}
	}

	// Host 1 stops without a word.
	killed := d.hosts[0]
	if err := syscall.Kill(killed.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for alive(killed.pid) {
		if time.Now().After(deadline) {
			t.Fatal("the killed host still runs")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A new session opens at once, on the host left.
	fresh, err := connect(t, d.url(), d.token)
	if err != nil {
		t.Fatalf("a new session after the kill: %v: %s", err, d.log.String())
	}
	if err := round(fresh, web.URL, "new"); err != nil {
		t.Fatalf("the new session: %v", err)
	}
	for i, cs := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = round(cs, web.URL, strconv.Itoa(i))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case on[i] == 2 && err != nil:
			t.Errorf("session %d on the host left failed: %v", i, err)
		case on[i] == 1 && !sessionMissing(err):
			t.Errorf("session %d on the killed host: %v, want the SDK's ErrSessionMissing (404)", i, err)
		}
		if on[i] == 1 {
			st, body := rawPing(t, d.url(), d.token, clients[i].ID())
			if st != http.StatusNotFound || body != "session not found\n" {
				t.Errorf("session %d of the killed host through the proxy: %d %q", i, st, body)
			}
		}
	}
	if !strings.Contains(d.log.String(), fmt.Sprintf("host 1 (pid %d) has exited", killed.pid)) {
		t.Errorf("the script did not report the lost host: %s", d.log.String())
	}

	// SIGHUP goes on to the host left, which reads its token again.
	if err := d.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(30 * time.Second)
	for !strings.Contains(d.log.String(), "host 2: domsnap mcp: ") || !strings.Contains(d.log.String(), "token read again") {
		if time.Now().After(deadline) {
			t.Fatalf("the host left did not read its token again: %s", d.log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i, cs := range clients {
		if on[i] == 2 {
			if err := round(cs, web.URL, strconv.Itoa(i)); err != nil {
				t.Fatalf("session %d after SIGHUP: %v", i, err)
			}
		}
	}
	if st, _ := rawPing(t, d.url(), d.token, fresh.ID()); st != http.StatusOK {
		t.Fatalf("the new session after SIGHUP: %d", st)
	}
	d.stop(t)
}
