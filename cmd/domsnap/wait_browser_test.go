//go:build browser

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scriptedPages serves pages whose scripts change them after the load
// event, and a slow resource, for the wait flags. A page asked for with
// ?hold passes it on to /slow, which then never answers while the browser
// waits: a snapshot that must not hold the late table cannot, however late
// a busy machine takes it.
func scriptedPages(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	const table = `<table><tr><td>late</td><td>row</td></tr></table>`
	// late: the script asks /slow (2.5s) for the table as it runs, which
	// does not hold the load event.
	mux.HandleFunc("/late", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><p>wait</p><script>fetch('/slow' + location.search).then(r => r.text()).then(t => document.body.insertAdjacentHTML('beforeend', t))</script>`))
	})
	// fetching: after load, a fetch of /slow (2.5s) adds the table.
	mux.HandleFunc("/fetching", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><p>wait</p><script>addEventListener('load', () => fetch('/slow' + location.search).then(r => r.text()).then(t => document.body.insertAdjacentHTML('beforeend', t)))</script>`))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("hold") {
			// Until the browser that asked is gone; the bound is for one
			// that never goes.
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Minute):
			}
			return
		}
		time.Sleep(2500 * time.Millisecond)
		w.Write([]byte(table))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>not</td><td>found</td></tr></table>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

type inventoryOut struct {
	Revision  string
	Inventory []struct {
		Kind  string
		Index int
	}
}

func liveInventory(t *testing.T, args ...string) (inventoryOut, result) {
	t.Helper()
	r := runLive(t, append([]string{"inventory", "--format", "json"}, args...)...)
	var o inventoryOut
	if r.code == exitOK {
		if err := json.Unmarshal([]byte(r.stdout), &o); err != nil {
			t.Fatalf("inventory output: %v: %q", err, r.stdout)
		}
	}
	return o, r
}

func hasTable(o inventoryOut) bool {
	for _, e := range o.Inventory {
		if e.Kind == "table" && e.Index == 0 {
			return true
		}
	}
	return false
}

// TestLiveReadsTakeOneSnapshot: every one-shot read publishes exactly one
// observation, so its revision's sequence is 1.
func TestLiveReadsTakeOneSnapshot(t *testing.T) {
	url := servePage(t, example)
	for _, args := range [][]string{
		append(append([]string{"extract"}, exampleArgs...), "--live", url),
		append(append([]string{"extract", "--observation"}, exampleArgs...), "--live", url),
		{"extract", "--observation", "--live", url},
		{"inventory", "--format", "json", "--live", url},
	} {
		r := runLive(t, args...)
		var got struct{ Revision string }
		if r.code != exitOK || json.Unmarshal([]byte(r.stdout), &got) != nil || !strings.HasSuffix(got.Revision, ".n1.o1") {
			t.Errorf("%v: exit %d, revision %q, stderr %q", args[:2], r.code, got.Revision, r.stderr)
		}
	}
}

// TestLiveWaitFor: a table the page's script asks for is not in a snapshot
// taken at the load event (the answer is held for it), and is with
// --wait-for table, or after --settle 4s, when it comes 2.5s after.
func TestLiveWaitFor(t *testing.T) {
	base := scriptedPages(t)
	o, r := liveInventory(t, "--live", base+"/late?hold")
	if r.code != exitOK || hasTable(o) {
		t.Fatalf("at load: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
	o, r = liveInventory(t, "--live", base+"/late", "--wait-for", "table")
	if r.code != exitOK || !hasTable(o) {
		t.Fatalf("--wait-for table: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
	o, r = liveInventory(t, "--live", base+"/late", "--settle", "4s")
	if r.code != exitOK || !hasTable(o) {
		t.Fatalf("--settle 4s: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "late.json")
	if r := runLive(t, "capture", base+"/late", "-o", out, "--wait-for", "table:0"); r.code != exitOK {
		t.Fatalf("capture --wait-for: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "inventory", "--format", "json", out); r.code != exitOK || !strings.Contains(r.stdout, `"kind":"table"`) {
		t.Fatalf("the capture taken with --wait-for misses the table: %q", r.stdout)
	}
}

// TestLiveNetworkIdle: a table fetched after the load event is there once
// the network has been idle for 500ms, and not at the load event nor at
// dom_ready (the fetch's answer is held for those).
func TestLiveNetworkIdle(t *testing.T) {
	base := scriptedPages(t)
	o, r := liveInventory(t, "--live", base+"/fetching?hold", "--wait-until", "load")
	if r.code != exitOK || hasTable(o) {
		t.Fatalf("at load: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
	o, r = liveInventory(t, "--live", base+"/fetching", "--wait-until", "network_idle")
	if r.code != exitOK || !hasTable(o) {
		t.Fatalf("network_idle: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
	o, r = liveInventory(t, "--live", base+"/fetching?hold", "--wait-until", "dom_ready")
	if r.code != exitOK || hasTable(o) {
		t.Fatalf("dom_ready: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
}

// TestLiveHTTPStatus: a 404 page is analysed with a warning on standard
// error; with --fail-http it is http_error, exit 1, and nothing is printed.
func TestLiveHTTPStatus(t *testing.T) {
	base := scriptedPages(t)
	o, r := liveInventory(t, "--live", base+"/missing")
	if r.code != exitOK || !hasTable(o) || !strings.Contains(r.stderr, "warning: HTTP 404\n") {
		t.Fatalf("404: exit %d, %+v, stderr %q", r.code, o, r.stderr)
	}
	r = runLive(t, "extract", "--fail-http", "--kind", "table", "--field", "a:0:string", "--live", base+"/missing")
	if r.code != exitFailure || r.stdout != "" || !strings.HasPrefix(r.stderr, "http_error: ") {
		t.Fatalf("--fail-http: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// A page that answered 200 has no warning.
	_, r = liveInventory(t, "--live", base+"/late")
	if strings.Contains(r.stderr, "warning") {
		t.Fatalf("200: stderr %q", r.stderr)
	}
}
