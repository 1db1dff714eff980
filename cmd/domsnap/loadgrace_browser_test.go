//go:build browser

package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/testkit/silent"
)

// stalledURL serves a page with a table whose image is on a server that
// accepts the connection and never answers: its document is parsed at
// once, its load event never comes. asked is when the page was last asked
// for, which is after the browser started.
func stalledURL(t *testing.T) (url string, asked func() time.Time) {
	t.Helper()
	dead := silent.Start(t)
	var mu sync.Mutex
	var at time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		at = time.Now()
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>a</td><td>b</td></tr></table><img src="http://` + dead.Addr + `/stalled.png">`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return at
	}
}

// TestLiveLoadGrace: `inventory --live` without --wait-until reads a page
// whose load event never comes soon after dom_ready (at most 5 s), where
// the stalled image would hold it for the whole 30 s default timeout, and
// says load_complete false on standard error; with --wait-until load it
// waits for the load event until --timeout ends the command with timeout.
// (A page that loads prints no warning: TestLiveHTTPStatus.) The bound on
// the default wait is loose on purpose, for a loaded machine, and counts
// from when the page was asked for: the browser's start, which a busy
// machine slows most, is not what it is about.
func TestLiveLoadGrace(t *testing.T) {
	url, asked := stalledURL(t)
	o, r := liveInventory(t, "--live", url)
	if took := time.Since(asked()); r.code != exitOK || !hasTable(o) || !strings.Contains(r.stderr, "warning: load_complete false") || took > 20*time.Second {
		t.Fatalf("default wait, %v after the page was asked for: exit %d, %+v, stderr %q", took, r.code, o, r.stderr)
	}
	const timeout = 8 * time.Second
	t0 := time.Now()
	_, r = liveInventory(t, "--live", url, "--wait-until", "load", "--timeout", timeout.String())
	// The error is the last line; the warning that the load event had not
	// come may precede it when the wait ended just before the deadline.
	if took := time.Since(t0); r.code != exitFailure || !strings.HasPrefix(lastLine(r.stderr), "timeout: ") || took < timeout {
		t.Fatalf("--wait-until load after %v: exit %d, stderr %q", took, r.code, r.stderr)
	}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
