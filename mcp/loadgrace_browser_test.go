//go:build browser

package mcp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/testkit/silent"
)

// stalledSite serves /stalled, a page with a table whose image is on a
// server that accepts the connection and never answers (so the page's load
// event never comes, while its document is parsed at once), and /plain.
func stalledSite(t *testing.T) *httptest.Server {
	t.Helper()
	dead := silent.Start(t)
	mux := http.NewServeMux()
	page := func(extra string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!DOCTYPE html>" + tableRows(3) + extra))
		}
	}
	mux.HandleFunc("/stalled", page(`<img src="http://`+dead.Addr+`/stalled.png">`))
	mux.HandleFunc("/plain", page(""))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

type graceAnswer struct {
	projection
	LoadComplete *bool `json:"load_complete"`
}

// TestNavigateLoadGrace: browser_navigate without wait.until observes a
// page whose load event never comes soon after its document is parsed
// (at most 5 s after dom_ready) and answers load_complete false, where the
// stalled image would hold it for the whole 30 s default timeout; a page
// that loads answers without the key; an explicit until load waits out its
// timeout_ms and then answers load_complete false. The bounds are loose on
// purpose, for a loaded machine.
func TestNavigateLoadGrace(t *testing.T) {
	web := stalledSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	// The browser starts on the first navigation; its launch is not what
	// is measured.
	ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/plain"}))

	navigate := func(args map[string]any) (graceAnswer, time.Duration) {
		t.Helper()
		t0 := time.Now()
		b := ok(t, s.call(t, "browser_navigate", args))
		took := time.Since(t0)
		var a graceAnswer
		if err := json.Unmarshal(b, &a); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		return a, took
	}
	a, took := navigate(map[string]any{"url": web.URL + "/stalled"})
	if a.LoadComplete == nil || *a.LoadComplete || len(a.Inventory) != 1 || took > 15*time.Second {
		t.Fatalf("default wait on a stalled page after %v: load_complete %v, inventory %+v", took, a.LoadComplete, a.Inventory)
	}
	a, _ = navigate(map[string]any{"url": web.URL + "/plain"})
	if a.LoadComplete != nil {
		t.Fatalf("a page that loaded: load_complete %v", *a.LoadComplete)
	}
	const timeout = 8 * time.Second
	a, took = navigate(map[string]any{"url": web.URL + "/stalled", "wait": map[string]any{"until": "load", "timeout_ms": timeout.Milliseconds()}})
	if a.LoadComplete == nil || *a.LoadComplete || len(a.Inventory) != 1 || took < timeout {
		t.Fatalf("explicit load on a stalled page after %v: load_complete %v, inventory %+v", took, a.LoadComplete, a.Inventory)
	}
}
