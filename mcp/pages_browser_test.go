//go:build browser

package mcp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// pagesAnswer is what an answer says of the session's pages.
type pagesAnswer struct {
	Action json.RawMessage
	Pages  json.RawMessage
}

func pagesOf(t *testing.T, b []byte) pagesAnswer {
	t.Helper()
	var a pagesAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return a
}

// TestActPages: through the SDK's client, a target=_blank link to an
// allowed URL opens a page that becomes current (outcome opened, the
// answer listing both pages), the opener's revisions are then
// navigated_revision, switch_page and close_page move between them with
// the answers' exact shapes, the only page cannot be closed, and a link
// into a refused origin opens nothing, sends nothing there, and is counted.
func TestActPages(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	refused := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.String())
		mu.Unlock()
		w.Write([]byte("<p>refused origin</p>"))
	}))
	t.Cleanup(refused.Close)
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`<!DOCTYPE html><title>results</title><main><h1>Results</h1>
<p><a target="_blank" href="/details?id=7">Widget details</a></p>
<p><a target="_blank" href="` + refused.URL + `/?leak">Partner offer</a></p></main>`))
		case "/details":
			w.Write([]byte(`<!DOCTYPE html><title>details</title><main><h1>Widget 7</h1><p>In stock</p></main>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(web.Close)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--allow-origin", web.URL)
	origin := web.URL

	home := s.open(t, web.URL+"/")
	link := home.ref(t, "link", "Widget details")
	b := ok(t, s.act(t, map[string]any{"expected_revision": home.Revision, "action": "click", "ref": link, "view": "full"}))
	got := pagesOf(t, b)
	if want := `{"action":"click","ref":"` + link + `","outcome":"opened"}`; string(got.Action) != want {
		t.Fatalf("click answered %s, want %s", got.Action, want)
	}
	if want := `[{"index":0,"origin":"` + origin + `"},{"index":1,"origin":"` + origin + `","current":true}]`; string(got.Pages) != want {
		t.Fatalf("pages %s, want %s", got.Pages, want)
	}
	details := parseView(t, b)
	if !strings.Contains(details.Text, "Widget 7") {
		t.Fatalf("the opened page is not current: %q", details.Text)
	}
	// A change of page is a navigation for the opener's revisions.
	if code := failed(t, s.act(t, map[string]any{"expected_revision": home.Revision, "action": "click", "ref": link})); code != "navigated_revision" {
		t.Fatalf("the opener's revision: %s, want navigated_revision", code)
	}
	// An observation lists the pages too.
	obs := ok(t, s.call(t, "browser_observe", map[string]any{"view": "none"}))
	if p := pagesOf(t, obs).Pages; !strings.Contains(string(p), `"index":1,"origin":"`+origin+`","current":true`) {
		t.Fatalf("observation's pages %s", p)
	}

	// Back to the first page.
	b = ok(t, s.act(t, map[string]any{"expected_revision": parseView(t, obs).Revision, "action": "switch_page", "page": 0, "view": "full"}))
	got = pagesOf(t, b)
	if want := `{"action":"switch_page","outcome":"done"}`; string(got.Action) != want {
		t.Fatalf("switch_page answered %s, want %s", got.Action, want)
	}
	if want := `[{"index":0,"origin":"` + origin + `","current":true},{"index":1,"origin":"` + origin + `"}]`; string(got.Pages) != want {
		t.Fatalf("pages %s, want %s", got.Pages, want)
	}
	home = parseView(t, b)
	if !strings.Contains(home.Text, "Results") {
		t.Fatalf("switch_page shows %q", home.Text)
	}
	if code := failed(t, s.act(t, map[string]any{"expected_revision": home.Revision, "action": "switch_page", "page": 2})); code != "invalid_request" {
		t.Fatalf("a page the session has not: %s", code)
	}

	// A window into a refused origin: nothing opened, nothing sent there.
	offer := s.acted(t, map[string]any{"expected_revision": home.Revision, "action": "click", "ref": home.ref(t, "link", "Partner offer"), "view": "full"})
	if offer.Action.Outcome != "done" || offer.Action.PopupsClosed != 1 {
		t.Fatalf("refused window: %+v", offer.Action)
	}
	mu.Lock()
	leaked := append([]string(nil), asked...)
	mu.Unlock()
	if len(leaked) != 0 {
		t.Fatalf("the refused origin was asked %v", leaked)
	}

	// Closing the details page leaves one page: no pages member.
	b = ok(t, s.act(t, map[string]any{"expected_revision": offer.Revision, "action": "switch_page", "page": 1}))
	b = ok(t, s.act(t, map[string]any{"expected_revision": parseView(t, b).Revision, "action": "close_page", "view": "full"}))
	got = pagesOf(t, b)
	if want := `{"action":"close_page","outcome":"done"}`; string(got.Action) != want || got.Pages != nil {
		t.Fatalf("close_page answered %s with pages %s", got.Action, got.Pages)
	}
	last := parseView(t, b)
	if !strings.Contains(last.Text, "Results") {
		t.Fatalf("after close_page: %q", last.Text)
	}
	if code := failed(t, s.act(t, map[string]any{"expected_revision": last.Revision, "action": "close_page"})); code != "invalid_request" {
		t.Fatalf("closing the only page: %s", code)
	}
}
