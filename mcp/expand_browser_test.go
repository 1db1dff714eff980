//go:build browser

package mcp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBrowserObserveExpand reads one region of a live page alone: the
// region of the latest observation anchors a fresh view scan of its
// subtree, found again in the new capture by the browser's node id; other
// references and older revisions are refused.
func TestBrowserObserveExpand(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html><body><nav aria-label="Top"><a href="/a">Alpha</a><a href="/b">Beta</a></nav>` +
			`<main><h1>Title</h1><section aria-label="Side"><h2>Inner</h2><button>Press</button></section></main></body></html>`))
	})
	web := httptest.NewServer(mux)
	t.Cleanup(web.Close)
	s := start(t, t.TempDir())

	type view struct {
		Revision string
		ViewScan struct {
			Visited int
			Region  string
		} `json:"view_scan"`
		Controls []struct{ Ref, Role, Name string }
		Regions  []struct{ Ref, Role, Name string }
	}
	var nav view
	json.Unmarshal(ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/"})), &nav)
	side := ""
	for _, r := range nav.Regions {
		if r.Name == "Side" {
			side = r.Ref
		}
	}
	if side == "" || len(nav.Controls) != 3 {
		t.Fatalf("navigate: %+v", nav)
	}
	for _, c := range []struct {
		region, want string
	}{{"e1.1", "invalid_reference"}, {nav.Controls[0].Ref, "invalid_reference"}, {"g1.60", "unknown_reference"}} {
		if code := failed(t, s.call(t, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": nav.Revision, "region": c.region}})); code != c.want {
			t.Errorf("%s: %s, want %s", c.region, code, c.want)
		}
	}
	var part view
	json.Unmarshal(ok(t, s.call(t, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": nav.Revision, "region": side}})), &part)
	if part.ViewScan.Region != side || part.ViewScan.Visited >= nav.ViewScan.Visited || len(part.Controls) != 1 ||
		part.Controls[0].Name != "Press" || len(part.Regions) != 2 || part.Regions[1].Name != "Inner" {
		t.Fatalf("expanded: %+v", part)
	}
	if !strings.HasSuffix(part.Revision, ".o2") {
		t.Errorf("the expansion published %s", part.Revision)
	}
	// The navigation's observation is no longer the latest.
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": nav.Revision, "region": side}})); code != "stale_revision" {
		t.Errorf("an older revision: %s, want stale_revision", code)
	}
	// The expansion's own regions anchor the next one.
	var again view
	json.Unmarshal(ok(t, s.call(t, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": part.Revision, "region": part.Regions[1].Ref}})), &again)
	if len(again.Regions) != 1 || again.Regions[0].Name != "Inner" || len(again.Controls) != 0 {
		t.Errorf("expanding the expansion: %+v", again)
	}
}
