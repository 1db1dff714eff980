//go:build browser

package mcp_test

import (
	"bytes"
	"context"
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

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// proc is one process, told from a later one that reuses its id by the
// time it started.
type proc struct {
	pid   int
	start string // field 22 of its /proc stat, in clock ticks since boot
}

// stat reads the fields of a /proc stat file after the command name, the
// state first; nil when the process is gone.
func stat(file string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	// The name is in parentheses and may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// alive reports whether p is still running: its id is held by a process
// that started when p did, and that is no zombie (a renderer's parent
// reaps it, but not necessarily at once).
func (p proc) alive() bool {
	f := stat(filepath.Join("/proc", strconv.Itoa(p.pid), "stat"))
	return len(f) > 19 && f[0] != "Z" && f[0] != "X" && f[19] == p.start
}

// workerThread is the name Chromium gives the thread of a page's dedicated
// worker, cut to the 15 bytes Linux keeps. A dedicated worker runs in the
// renderer of the page that started it, so a renderer with such a thread
// hosts a page that started a worker, whatever the machine is doing.
const workerThread = "DedicatedWorker"

// withWorker lists the renderer processes of the browser pid that hold a
// dedicated worker's thread.
func withWorker(t *testing.T, pid int) []proc {
	t.Helper()
	fam, err := leftover.Family(pid)
	if err != nil {
		t.Fatal(err)
	}
	var out []proc
	for _, p := range fam {
		dir := filepath.Join("/proc", strconv.Itoa(p))
		cmd, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		f := stat(filepath.Join(dir, "stat"))
		if !bytes.Contains(cmd, []byte("--type=renderer")) || len(f) <= 19 {
			continue
		}
		comms, _ := filepath.Glob(filepath.Join(dir, "task", "*", "comm"))
		for _, c := range comms {
			if name, _ := os.ReadFile(c); string(bytes.TrimSpace(name)) == workerThread {
				out = append(out, proc{p, f[19]})
				break
			}
		}
	}
	return out
}

// loopSite serves a page whose script never yields, in a renderer the test
// can name: the page starts a dedicated worker, whose thread marks its
// renderer, and then waits, while it is parsed, for a script that loops
// forever. That script is served only once the worker has asked for
// /started, so the loop begins only after the mark is there; and as it
// runs while the page is parsed, neither the document's DOMContentLoaded
// nor its load event ever comes, so no wait of the server's can end before
// the loop holds the renderer. started is closed when the worker asked.
func loopSite(t *testing.T) (srv *httptest.Server, started <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{})
	var once sync.Once
	js := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(body))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html><body>` + tableRows(2) +
			`<script>self.worker = new Worker("/worker.js")</script><script src="/loop.js"></script></body></html>`))
	})
	mux.HandleFunc("/worker.js", func(w http.ResponseWriter, r *http.Request) { js(w, `fetch("/started")`) })
	mux.HandleFunc("/started", func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(ch) })
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/loop.js", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-ch:
			js(w, `for (;;) {}`)
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
			http.Error(w, "the worker never started", http.StatusGatewayTimeout)
		}
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, ch
}

// TestEndlessLoopReplacesTab: a page whose script loops forever makes the
// call on it fail with timeout, and the session then closes that tab and
// its renderer, so the next browser_navigate of the same session answers,
// in a new tab whose revisions are new: the old ones are foreign, as after
// a crash. The looping page's renderer is the one that holds its worker's
// thread, seen while the call waits.
func TestEndlessLoopReplacesTab(t *testing.T) {
	web := site(t)
	loop, started := loopSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	first := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"})))
	browser := s.browserPID(t)
	if got := withWorker(t, browser); len(got) != 0 {
		t.Fatalf("renderers with a worker before the looping page: %v", got)
	}

	type result struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate",
			Arguments: map[string]any{"url": loop.URL + "/", "wait": map[string]any{"timeout_ms": 2000}}})
		done <- result{res, err}
	}()
	// The renderer is looked for until the call answers: the session
	// closes the tab only once the call's wait of 2 s and the 10 s its
	// snapshot may take past it are over, and its check that the page no
	// longer answers took 2 s more, about 14 s after the loop began.
	t0 := time.Now()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var stuck []proc
	var r result
wait:
	for {
		if len(stuck) == 0 {
			stuck = withWorker(t, browser)
		}
		select {
		case r = <-done:
			break wait
		case <-tick.C:
		}
	}
	t.Logf("the call on the looping page answered after %v", time.Since(t0))
	if r.err != nil {
		t.Fatal(r.err)
	}
	select {
	case <-started:
	default:
		t.Fatal("the looping page's worker never started, so the page never looped")
	}
	if len(stuck) != 1 {
		t.Fatalf("renderers seen with the looping page's worker before the call answered: %v, want one", stuck)
	}
	if code := failed(t, r.res); code != "timeout" {
		t.Fatalf("the call on the looping page: %s", code)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(first.Revision, 5)})); code != "foreign_revision" {
		t.Fatalf("a revision of the closed tab: %s", code)
	}

	// A navigation that met the stuck tab would wait out the server's 30 s
	// deadline there; this one must answer first.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	t0 = time.Now()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": web.URL + "/table"}})
	took := time.Since(t0)
	if err != nil {
		t.Fatalf("the navigation after the loop: %v after %v", err, took)
	}
	again := parse(t, ok(t, res))
	t.Logf("the navigation after the loop took %v", took)
	if strings.Split(again.Revision, ".")[1] == strings.Split(first.Revision, ".")[1] {
		t.Fatalf("the new tab kept the old session part: %s %s", first.Revision, again.Revision)
	}
	if s.browserPID(t) != browser {
		t.Fatal("the browser was replaced, not the tab")
	}
	deadline := time.Now().Add(10 * time.Second)
	for stuck[0].alive() {
		if time.Now().After(deadline) {
			t.Fatalf("the looping page's renderer %d is still alive", stuck[0].pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
