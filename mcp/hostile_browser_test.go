//go:build browser

package mcp_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorderPage is a page that shows what it received: every key and text
// event, with the field's value, is written into its visible text as it
// happens ("events: none" until then), so an observation after an action
// shows whether any input reached the page, and a typed text that reached
// it would show in the answer.
func recorderPage(body string) string {
	return `<!DOCTYPE html><html><head><title>hostile</title></head><body>` + body + `
<p id="log">events: none</p>
<script>const seen = [];
for (const k of ["keydown", "beforeinput", "input"])
  addEventListener(k, e => { seen.push(k + " " + (e.target.id || "") + " " + (e.data ?? e.key ?? "") + " " + (e.target.value ?? ""));
    document.getElementById("log").textContent = "events: " + seen.join("; "); }, true);</script></body></html>`
}

// hostileSite serves the attack pages, and records every request another
// origin (a refused one) gets.
type hostileSite struct {
	web, other *httptest.Server
	mu         sync.Mutex
	otherSeen  []string
}

func newHostileSite(t *testing.T) *hostileSite {
	t.Helper()
	h := &hostileSite{}
	h.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.otherSeen = append(h.otherSeen, r.URL.RequestURI())
		h.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<p>elsewhere</p>`))
	}))
	pages := map[string]string{
		"/to-password": recorderPage(`<input id="f" aria-label="Name" onfocus="this.type = 'password'">`),
		"/to-code":     recorderPage(`<input id="f" aria-label="Name" onfocus="this.setAttribute('autocomplete', 'one-time-code')">`),
		"/to-pw-field": recorderPage(`<input id="f" aria-label="Name" onfocus="document.getElementById('pw').focus()"><input id="pw" type="password" aria-label="Password">`),
		"/slide": recorderPage(`<style>button { position: absolute; left: 0; width: 200px; height: 60px } #del { top: 300px }</style>
<button id="tgt" style="top: 0">Harmless</button>
<button id="del" onclick="document.getElementById('log').textContent = 'account deleted'">Delete account</button>
<script>for (const k of ["pointerover", "mouseover", "mousemove"]) document.getElementById("tgt").addEventListener(k, () => { const d = document.getElementById("del"); d.style.top = "0"; d.style.zIndex = 1; });</script>`),
		"/trap": recorderPage(`<button>Hello</button><script>addEventListener("beforeunload", e => { e.preventDefault(); e.returnValue = "Stay?"; })</script>`),
		"/next": recorderPage(`<p>next page</p>`),
		"/popup": recorderPage(`<a href="OTHER/?link" target="_blank">Elsewhere</a>
<form action="OTHER/" target="_blank"><input name="q" value="form"><button>Send elsewhere</button></form>`),
	}
	h.web = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.ReplaceAll(body, "OTHER", h.other.URL)))
	}))
	t.Cleanup(func() {
		h.web.Close()
		h.other.Close()
	})
	return h
}

// TestActHostilePages drives browser_act through the SDK's client over
// pages written to attack it, each of which used to win: a field that
// turns into a password field, or gives its focus to one, or becomes a
// one-time-code field as it is focused (each got the typed text, done); a
// button that slides "Delete account" under the pointer (clicked, done); a
// beforeunload handler (every later browser_navigate failed); a link and a
// form into new windows towards a refused origin (their requests were
// sent). The typed canary reaches no page, no answer, no stored file and
// not the log.
func TestActHostilePages(t *testing.T) {
	const canary = "CANARY-HOSTILE-6d0b"
	site := newHostileSite(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state, "--allow-origin", site.web.URL)
	var outs [][]byte
	keep := func(res *sdk.CallToolResult) *sdk.CallToolResult {
		outs = append(outs, resultText(t, res))
		return res
	}
	observe := func() view {
		return parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{}))))
	}

	for _, c := range []struct {
		path, code string
	}{
		{"/to-password", "human_only"},
		{"/to-code", "human_only"},
		{"/to-pw-field", "not_actionable"},
	} {
		v := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": site.web.URL + c.path}))))
		code, sent := actFailed(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "type", "ref": v.ref(t, "textbox", "Name"), "text": canary})))
		if code != c.code || sent {
			t.Errorf("%s: %s (sent %v), want %s with nothing sent", c.path, code, sent, c.code)
		}
		if o := observe(); !strings.Contains(o.Text, "events: none") {
			t.Errorf("%s: the page received input: %q", c.path, o.Text)
		}
	}

	v := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": site.web.URL + "/slide"}))))
	code, sent := actFailed(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Harmless")})))
	if code != "not_actionable" || !sent {
		t.Errorf("slide: %s (sent %v), want not_actionable, sent", code, sent)
	}
	if o := observe(); strings.Contains(o.Text, "deleted") {
		t.Errorf("the slid-in button was clicked: %q", o.Text)
	}

	v = parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": site.web.URL + "/trap"}))))
	a := parseView(t, ok(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Hello")}))))
	if a.Action == nil || a.Action.Outcome != "done" {
		t.Fatalf("the trap's button: %+v", a.Action)
	}
	for i := 0; i < 2; i++ {
		n := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": site.web.URL + "/next"}))))
		if !strings.Contains(n.Text, "next page") {
			t.Fatalf("navigation %d away from the trap shows %q", i, n.Text)
		}
		t0 := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": site.web.URL + "/trap"}))))
		parseView(t, ok(t, keep(s.act(t, map[string]any{"expected_revision": t0.Revision, "action": "click", "ref": t0.ref(t, "button", "Hello")}))))
	}

	v = parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": site.web.URL + "/popup"}))))
	for _, c := range []struct{ role, name string }{{"link", "Elsewhere"}, {"button", "Send elsewhere"}} {
		a := parseView(t, ok(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, c.role, c.name)}))))
		if a.Action == nil || a.Action.Outcome != "done" || a.Action.PopupsClosed != 1 {
			t.Fatalf("%s: %+v", c.name, a.Action)
		}
		v = a
	}
	site.mu.Lock()
	seen := append([]string(nil), site.otherSeen...)
	site.mu.Unlock()
	if len(seen) != 0 {
		t.Errorf("the refused origin was asked %v", seen)
	}

	s.stop(t)
	for i, out := range outs {
		if bytes.Contains(out, []byte(canary)) {
			t.Errorf("answer %d holds the typed text", i)
		}
	}
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(canary)) {
			t.Errorf("the store's %s holds the typed text", filepath.Base(p))
		}
		return nil
	})
	if bytes.Contains(s.stderr.Bytes(), []byte(canary)) {
		t.Error("the server's log holds the typed text")
	}
}
