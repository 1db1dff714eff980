//go:build browser

package mcp_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/domsnap/domsnap/mcp"
)

// secretMark is in every page of the refused origin and of the pages an
// allowed page makes for itself; no answer may ever carry it. Those pages
// are lists, and the allowed origin's pages have none, so an inventory
// with a list shows a page outside the policy as well.
const secretMark = "secret-row-mark"

// policySites serves two origins: a refused one whose pages hold
// secretMark, and an allowed one whose pages try to reach it, or leave for
// other schemes, by every way the tests name. hits counts the requests the
// refused origin sees, toFile those for the allowed origin's redirect to
// file:.
func policySites(t *testing.T) (allowed, refused *httptest.Server, hits, toFile *atomic.Int64) {
	t.Helper()
	hits, toFile = new(atomic.Int64), new(atomic.Int64)
	refused = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!DOCTYPE html><ul><li>` + secretMark + ` one</li><li>` + secretMark + ` two</li></ul>`))
	}))
	t.Cleanup(refused.Close)
	html := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!DOCTYPE html><html><body>" + tableRows(2) + body + "</body></html>"))
	}
	// later runs script after the load event and a pause, so the navigation
	// it makes starts once the navigate call has answered (a second is
	// ample for that call's snapshot on a busy machine).
	later := func(script string) string {
		return `<script>addEventListener("load", () => setTimeout(() => { ` + script + ` }, 1000))</script>`
	}
	blob := `location.href = URL.createObjectURL(new Blob(["<ul><li>` + secretMark + ` a</li><li>` + secretMark + ` b</li></ul>"], {type: "text/html"}))`
	mux := http.NewServeMux()
	mux.HandleFunc("/table", func(w http.ResponseWriter, r *http.Request) { html(w, "") })
	for _, kind := range []string{"prefetch", "prerender"} {
		rules := `<script type="speculationrules">{"` + kind + `":[{"source":"list","urls":["` + refused.URL + `/secret"]}]}</script>`
		// The page leaves after a pause long enough for the speculation
		// to have loaded the refused page.
		mux.HandleFunc("/"+kind, func(w http.ResponseWriter, r *http.Request) {
			html(w, rules+`<script>addEventListener("load", () => setTimeout(() => { location.href = "`+refused.URL+`/secret" }, 1500))</script>`)
		})
	}
	mux.HandleFunc("/blob-later", func(w http.ResponseWriter, r *http.Request) { html(w, later(blob)) })
	mux.HandleFunc("/blob-now", func(w http.ResponseWriter, r *http.Request) { html(w, "<script>"+blob+"</script>") })
	mux.HandleFunc("/blank-later", func(w http.ResponseWriter, r *http.Request) { html(w, later(`location.href = "about:blank"`)) })
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		toFile.Add(1)
		http.Redirect(w, r, "file:///etc/hostname", http.StatusFound)
	})
	mux.HandleFunc("/leave-to-file", func(w http.ResponseWriter, r *http.Request) {
		html(w, later(`location.href = "/to-file"`))
	})
	allowed = httptest.NewServer(mux)
	t.Cleanup(allowed.Close)
	return allowed, refused, hits, toFile
}

// noSecret fails the test when an answer carries the refused content or
// lists its collection.
func noSecret(t *testing.T, what string, b []byte) {
	t.Helper()
	if strings.Contains(string(b), secretMark) || strings.Contains(string(b), `"kind":"list"`) {
		t.Fatalf("%s: the answer shows a page outside the policy: %s", what, b)
	}
}

// watchRefusal observes the page repeatedly for up to five seconds after a
// navigation the page itself starts towards a refused place, and fails
// unless one of those calls answers navigation_refused and none shows the
// refused page. It returns once the refusal was seen and a later
// observation succeeded, whose inventory it returns.
func watchRefusal(t *testing.T, s *server, what string) projection {
	t.Helper()
	refusedSeen := false
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		res := s.call(t, "browser_observe", map[string]any{})
		b := resultText(t, res)
		noSecret(t, what, b)
		if res.IsError {
			switch failed(t, res) {
			case "navigation_refused":
				refusedSeen = true
			case "navigated_during_capture", "capture_failed":
				// The tab moved while it was read (a snapshot whose
				// document goes away under it fails); the next call reads
				// again.
			default:
				t.Fatalf("%s: %s", what, b)
			}
			continue
		}
		if refusedSeen {
			return parse(t, ok(t, res))
		}
	}
	t.Fatalf("%s: no call answered navigation_refused", what)
	return projection{}
}

// TestSpeculationRulesRefused: a page of the allowed origin that asks the
// browser to prefetch or prerender a page of another origin, then moves its
// main frame there, never gets that page observed. Preloading is off, so
// the other origin is never asked at all, and the move is then an ordinary
// request the guard refuses: the page stays. (That a page served from a
// speculation is stopped where it commits, should one get through, the
// live package's TestGuardStopsCommitsOutside shows with preloading on.)
// The server runs in this process, so the test observes until the tab's
// guard has counted the move's refusal, however long the page takes.
func TestSpeculationRulesRefused(t *testing.T) {
	allowed, _, hits, _ := policySites(t)
	s, srv := startInProcess(t, mcp.Config{StateDir: filepath.Join(t.TempDir(), "state"), AllowOrigins: []string{allowed.URL}})
	for _, kind := range []string{"prefetch", "prerender"} {
		var before uint64
		if tab := mcp.SessionTab(srv); tab != nil {
			before = tab.Refused()
		}
		ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/" + kind}))
		tab := mcp.SessionTab(srv)
		if tab == nil {
			t.Fatal("no tab")
		}
		// The page leaves 1.5 s after its load event; every observation
		// until its move is refused shows the allowed page or fails.
		var last []byte
		for end := time.Now().Add(time.Minute); tab.Refused() == before; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: the page's move was never refused", kind)
			}
			res := s.call(t, "browser_observe", map[string]any{})
			last = resultText(t, res)
			noSecret(t, kind, last)
			if res.IsError {
				if code := failed(t, res); code != "navigation_refused" && code != "navigated_during_capture" {
					t.Fatalf("%s: %s", kind, last)
				}
			}
		}
		if p := parse(t, ok(t, s.call(t, "browser_observe", map[string]any{}))); len(p.Inventory) != 1 || p.Inventory[0].Kind != "table" {
			t.Fatalf("%s: the page did not stay: %+v", kind, p.Inventory)
		}
		if n := hits.Load(); n != 0 {
			t.Fatalf("%s: the other origin was asked %d times", kind, n)
		}
	}
}

// TestSchemeMovesRefused: a page that moves its own main frame to a blob:
// URL it made, or to about:blank, is refused like any navigation to another
// scheme, whether it moves while the navigate call waits or later.
func TestSchemeMovesRefused(t *testing.T) {
	allowed, _, _, _ := policySites(t)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--allow-origin", allowed.URL)
	res := s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/blob-now"})
	noSecret(t, "blob-now", resultText(t, res))
	if code := failed(t, res); code != "navigation_refused" {
		t.Fatalf("blob-now: %s", code)
	}
	for _, page := range []string{"/blob-later", "/blank-later"} {
		ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + page}))
		after := watchRefusal(t, s, page)
		if len(after.Inventory) != 0 {
			t.Fatalf("%s: after the refusal the tab shows %+v, want a blank page", page, after.Inventory)
		}
	}
	// The server's own blank tab is no refusal: a new session's first
	// navigation works.
	ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/table"}))
}

// TestRedirectToFileRefused: a redirect to file:, which Chromium refuses
// itself, answers navigation_refused like a redirect the policy refuses,
// and the page stays the one observed before, whether the agent or the
// page started the navigation.
func TestRedirectToFileRefused(t *testing.T) {
	allowed, _, _, toFile := policySites(t)
	for _, args := range [][]string{nil, {allowed.URL}} {
		// In this process, to wait on the tab's count of refused requests.
		s, srv := startInProcess(t, mcp.Config{StateDir: filepath.Join(t.TempDir(), "state"), AllowOrigins: args})
		// With nothing observed yet, the tab stays blank.
		if code := failed(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/to-file"})); code != "navigation_refused" {
			t.Fatalf("%v: a first navigation redirected to file: %s", args, code)
		}
		if blank := parse(t, ok(t, s.call(t, "browser_observe", map[string]any{}))); len(blank.Inventory) != 0 {
			t.Fatalf("%v: after a refused first navigation the tab shows %+v", args, blank.Inventory)
		}
		first := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/table"})))
		res := s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/to-file"})
		if code := failed(t, res); code != "navigation_refused" {
			t.Fatalf("%v: redirect to file: %s", args, code)
		}
		if msg := string(resultText(t, res)); strings.Contains(msg, "file:") || strings.Contains(msg, "127.0.0.1") {
			t.Fatalf("the message names a URL: %s", msg)
		}
		still := ok(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(first.Revision, 5)}))
		if p := parse(t, still); p.Extraction == nil || len(p.Extraction.Rows) != 3 {
			t.Fatalf("%v: after the refused redirect: %s", args, still)
		}
		// The page itself goes to the redirect: it stays where it was.
		tab := mcp.SessionTab(srv)
		if tab == nil {
			t.Fatalf("%v: no tab", args)
		}
		asked, refusals := toFile.Load(), tab.Refused()
		second := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": allowed.URL + "/leave-to-file"})))
		waitUntil(t, time.Minute, "the guard to refuse the redirect the page followed", func() bool { return tab.Refused() > refusals })
		if toFile.Load() == asked {
			t.Fatalf("%v: the page never went to the redirect", args)
		}
		again := ok(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(second.Revision, 5)}))
		if p := parse(t, again); p.Extraction == nil || len(p.Extraction.Rows) != 3 {
			t.Fatalf("%v: after the page's redirect to file: %s", args, again)
		}
		s.stop(t)
	}
}
