//go:build browser

package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/taskpages"
	"github.com/domsnap/domsnap/mcp"
)

// view is what the acting tests read of an answer.
type view struct {
	Revision   string
	Artifact   string
	HTTPStatus *int `json:"http_status"`
	Inventory  []struct {
		Kind  string
		Index int
		Rows  int
	}
	Controls []control
	Text     string
	Action   *struct {
		Action, Ref, Outcome string
		PopupsClosed         int `json:"popups_closed"`
	}
	Extraction *struct {
		Rows []struct {
			Cells []struct {
				Name  string
				Value any
			}
		}
	}
}

type control struct {
	Ref, Role, Name string
	Checked         any
	Disabled        bool
	Required        bool
	Options         []string
	In              *struct {
		Kind            string
		Index, Position int
	}
}

func parseView(t *testing.T, b []byte) view {
	t.Helper()
	var v view
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

// ref is the reference of the first control of that role and name.
func (v view) ref(t *testing.T, role, name string) string {
	t.Helper()
	for _, c := range v.Controls {
		if c.Role == role && c.Name == name {
			return c.Ref
		}
	}
	t.Fatalf("no %s %q among %+v", role, name, v.Controls)
	return ""
}

// actFailed checks a browser_act error and returns its code and whether it
// says the action was sent.
func actFailed(t *testing.T, res *sdk.CallToolResult) (string, bool) {
	t.Helper()
	b := resultText(t, res)
	if !res.IsError || res.StructuredContent != nil {
		t.Fatalf("want an error result, got %s", b)
	}
	var e struct {
		Error struct {
			Code, Message string
			ActionSent    *bool `json:"action_sent"`
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&e); err != nil || e.Error.Code == "" {
		t.Fatalf("error text %s", b)
	}
	if e.Error.ActionSent != nil && !*e.Error.ActionSent {
		t.Fatalf("action_sent present and false: %s", b)
	}
	return e.Error.Code, e.Error.ActionSent != nil
}

func (s *server) act(t *testing.T, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	return s.call(t, "browser_act", args)
}

func (s *server) acted(t *testing.T, args map[string]any) view {
	t.Helper()
	v := parseView(t, ok(t, s.act(t, args)))
	if v.Action == nil || v.Action.Action != args["action"] {
		t.Fatalf("the answer's action: %+v", v.Action)
	}
	return v
}

func (s *server) open(t *testing.T, url string) view {
	t.Helper()
	return parseView(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": url})))
}

// taskSite serves the task pages on loopback.
func taskSite(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(taskpages.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// firstCell extracts column 0 of the first rows of table 0 under rev.
func firstCells(t *testing.T, s *server, rev string, n int) []string {
	t.Helper()
	v := parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{"extract": map[string]any{
		"expected_revision": rev, "kind": "table", "index": 0, "row_limit": n,
		"fields": []any{map[string]any{"name": "name", "column": 0, "type": "string"}}}})))
	var out []string
	for _, r := range v.Extraction.Rows {
		for _, c := range r.Cells {
			if c.Name == "name" {
				s, _ := c.Value.(string)
				out = append(out, s)
			}
		}
	}
	return out
}

// TestActTasks: paginate with Next, search by typing and pressing Enter,
// filter with a select, a checkbox and a button, and open the Details link
// of a row found through the control's "in", all through the SDK's client.
func TestActTasks(t *testing.T) {
	web := taskSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--allow-origin", web.URL)

	// Pagination: Next navigates, and the new page's rows are read with the
	// new revision, while the old revision is navigated_revision.
	p1 := s.open(t, web.URL+"/items")
	if got := firstCells(t, s, p1.Revision, 2); len(got) != 2 || got[1] != "Widget 1" {
		t.Fatalf("page 1 rows %q", got)
	}
	p1 = parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{})))
	p2 := s.acted(t, map[string]any{"expected_revision": p1.Revision, "action": "click", "ref": p1.ref(t, "link", "Next")})
	if p2.Action.Outcome != "navigated" || p2.HTTPStatus == nil || *p2.HTTPStatus != 200 {
		t.Fatalf("next: %+v status %v", p2.Action, p2.HTTPStatus)
	}
	if got := firstCells(t, s, p2.Revision, 2); len(got) != 2 || got[1] != "Widget 16" {
		t.Fatalf("page 2 rows %q", got)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(p1.Revision, 2)})); code != "navigated_revision" {
		t.Fatalf("page 1's revision after Next: %s", code)
	}
	p2 = parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{})))
	p3 := s.acted(t, map[string]any{"expected_revision": p2.Revision, "action": "click", "ref": p2.ref(t, "link", "Next")})
	if got := firstCells(t, s, p3.Revision, 2); len(got) != 2 || got[1] != "Widget 31" {
		t.Fatalf("page 3 rows %q", got)
	}
	// back returns to page 2.
	p3 = parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{})))
	b := s.acted(t, map[string]any{"expected_revision": p3.Revision, "action": "back"})
	if b.Action.Outcome != "navigated" || !strings.Contains(b.Text, "Page 2 of 3") {
		t.Fatalf("back: %+v %q", b.Action, b.Text)
	}

	// The Details link of the 4th row, found through "in".
	p := s.open(t, web.URL+"/items")
	details := ""
	for _, c := range p.Controls {
		if c.Name == "Details" && c.In != nil && c.In.Kind == "table" && c.In.Index == 0 && c.In.Position == 4 {
			details = c.Ref
		}
	}
	if details == "" {
		t.Fatalf("no Details link in row 4: %+v", p.Controls)
	}
	d := s.acted(t, map[string]any{"expected_revision": p.Revision, "action": "click", "ref": details})
	if d.Action.Outcome != "navigated" || !strings.Contains(d.Text, "Widget 4 ") && !strings.HasPrefix(d.Text, "Widget 4") {
		t.Fatalf("details: %+v %q", d.Action, d.Text)
	}

	// Search: type, then press Enter in the field.
	sp := s.open(t, web.URL+"/search")
	box := sp.ref(t, "searchbox", "Search items")
	typed := s.acted(t, map[string]any{"expected_revision": sp.Revision, "action": "type", "ref": box, "text": "widget 4"})
	if typed.Action.Outcome != "done" {
		t.Fatalf("type: %+v", typed.Action)
	}
	res := s.acted(t, map[string]any{"expected_revision": typed.Revision, "action": "press", "ref": typed.ref(t, "searchbox", "Search items"), "key": "Enter"})
	if res.Action.Outcome != "navigated" || !strings.Contains(res.Text, "7 results") {
		t.Fatalf("search: %+v %q", res.Action, res.Text)
	}

	// Filter: select Blue, check In stock only, click Apply.
	fp := s.open(t, web.URL+"/filter")
	sel := fp.ref(t, "combobox", "Color")
	for _, c := range fp.Controls {
		if c.Ref == sel && strings.Join(c.Options, ",") != "Any,Red,Green,Blue" {
			t.Fatalf("options %q", c.Options)
		}
	}
	f1 := s.acted(t, map[string]any{"expected_revision": fp.Revision, "action": "select", "ref": sel, "option": "Blue"})
	f2 := s.acted(t, map[string]any{"expected_revision": f1.Revision, "action": "check", "ref": f1.ref(t, "checkbox", "In stock only")})
	if f2.Action.Outcome != "done" {
		t.Fatalf("check: %+v", f2.Action)
	}
	f3 := s.acted(t, map[string]any{"expected_revision": f2.Revision, "action": "click", "ref": f2.ref(t, "button", "Apply")})
	if f3.Action.Outcome != "navigated" {
		t.Fatalf("apply: %+v", f3.Action)
	}
	want := 0
	for i := 1; i <= taskpages.Items; i++ {
		if taskpages.Color(i) == "Blue" && taskpages.InStock(i) {
			want++
		}
	}
	rows := -1
	for _, e := range f3.Inventory {
		if e.Kind == "table" && e.Index == 0 {
			rows = e.Rows
		}
	}
	if rows != want+1 {
		t.Fatalf("filtered inventory %+v, want a table of %d rows and a header", f3.Inventory, want)
	}
	// The form shows what was applied.
	for _, c := range f3.Controls {
		if c.Role == "checkbox" && c.Checked != true {
			t.Fatalf("the checkbox after Apply: %+v", c)
		}
	}
}

// widgets is a page of controls that refuse or resist being acted on.
const widgets = `<!DOCTYPE html><html><body><main>
<h1>Widgets</h1>
<div style="position:relative;width:200px;height:40px">
  <button style="position:absolute;left:0;top:0;width:200px;height:40px">Covered</button>
  <div style="position:absolute;left:0;top:0;width:200px;height:40px;background:#eee">cover</div>
</div>
<button disabled>Unavailable</button>
<label>Password <input type="password" name="pw"></label>
<label>Code <input type="text" name="otp" autocomplete="one-time-code"></label>
<label>Note <input type="text" name="note"></label>
<label>Locked <input type="text" name="locked" disabled></label>
<label><input type="checkbox" name="remember" checked> Remember me</label>
<button onclick="window.open('/widgets')">Open popup</button>
<button onclick="window.open('http://elsewhere.invalid/')">Open elsewhere</button>
<a href="OTHER/">Elsewhere</a>
<form method="post" action="/hang"><button>Send</button></form>
<button onclick="fetch('/slow')">Slow</button>
<button onclick="while (true) {}">Spin</button>
</main></body></html>`

// feed is a list that grows by ten items on every scroll.
const feed = `<!DOCTYPE html><html><body><ul id="feed"></ul><script>
const ul = document.getElementById("feed");
let n = 0;
function more() { for (let i = 0; i < 10; i++) { const li = document.createElement("li"); li.textContent = "Post " + (++n); li.style.height = "60px"; ul.appendChild(li); } }
more(); more(); more();
addEventListener("scroll", more);
</script></body></html>`

// widgetSite serves widgets and feed, a POST that never answers (/hang),
// and a request that waits until the test lets it go (/slow: each
// arrival is sent on arrived, and it answers once release is closed).
type widgetSite struct {
	*httptest.Server
	other   *httptest.Server
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
}

func newWidgetSite(t *testing.T) *widgetSite {
	t.Helper()
	w := &widgetSite{arrived: make(chan struct{}, 8), release: make(chan struct{})}
	quit := make(chan struct{})
	w.other = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		rw.Write([]byte(`<p>elsewhere</p>`))
	}))
	mux := http.NewServeMux()
	html := func(rw http.ResponseWriter, body string) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Write([]byte(body))
	}
	mux.HandleFunc("/widgets", func(rw http.ResponseWriter, r *http.Request) {
		html(rw, strings.Replace(widgets, "OTHER", w.other.URL, 1))
	})
	mux.HandleFunc("/feed", func(rw http.ResponseWriter, r *http.Request) { html(rw, feed) })
	mux.HandleFunc("/hang", func(rw http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	})
	mux.HandleFunc("/slow", func(rw http.ResponseWriter, r *http.Request) {
		w.arrived <- struct{}{}
		select {
		case <-w.release:
		case <-quit:
		case <-r.Context().Done():
		}
	})
	w.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(quit)
		w.Server.Close()
		w.other.Close()
	})
	return w
}

func (w *widgetSite) letGo() { w.once.Do(func() { close(w.release) }) }

// TestActRefusals: every check before sending, each refusal sending
// nothing and leaving the revision current; then the outcomes that are not
// a plain done.
func TestActRefusals(t *testing.T) {
	web := newWidgetSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--allow-origin", web.URL)
	v := s.open(t, web.URL+"/widgets")
	rev := v.Revision
	seq := strings.TrimPrefix(rev[strings.LastIndex(rev, ".o"):], ".o")
	for _, c := range []struct {
		name string
		args map[string]any
		code string
	}{
		{"obscured", map[string]any{"action": "click", "ref": v.ref(t, "button", "Covered")}, "not_actionable"},
		{"disabled", map[string]any{"action": "click", "ref": v.ref(t, "button", "Unavailable")}, "not_actionable"},
		{"disabled field", map[string]any{"action": "type", "ref": v.ref(t, "textbox", "Locked"), "text": "x"}, "not_actionable"},
		{"password", map[string]any{"action": "type", "ref": v.ref(t, "textbox", "Password"), "text": "hunter2"}, "human_only"},
		{"one-time code", map[string]any{"action": "type", "ref": v.ref(t, "textbox", "Code"), "text": "123456"}, "human_only"},
		{"wrong role", map[string]any{"action": "select", "ref": v.ref(t, "textbox", "Note"), "option": "x"}, "not_actionable"},
		{"evidence reference", map[string]any{"action": "click", "ref": "e" + seq + ".1"}, "invalid_reference"},
		{"region reference", map[string]any{"action": "click", "ref": "g" + seq + ".1"}, "invalid_reference"},
		{"malformed reference", map[string]any{"action": "click", "ref": "button"}, "invalid_reference"},
		{"unpublished reference", map[string]any{"action": "click", "ref": "a" + seq + ".200"}, "unknown_reference"},
		{"older sequence's reference", map[string]any{"action": "click", "ref": "a999.1"}, "unknown_reference"},
	} {
		c.args["expected_revision"] = rev
		code, sent := actFailed(t, s.act(t, c.args))
		if code != c.code || sent {
			t.Errorf("%s: %s, action_sent %v; want %s, not sent", c.name, code, sent, c.code)
		}
	}
	// A revision error outranks a reference error.
	if code, _ := actFailed(t, s.act(t, map[string]any{"expected_revision": "r1.0123456789abcdef.n1.o1", "action": "click", "ref": "e1.1"})); code != "foreign_revision" {
		t.Fatalf("a foreign revision with a bad reference: %s", code)
	}
	// Nothing was sent: the revision is still current.
	if got := parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": rev, "region": "g" + seq + ".1"}}))); got.Revision == "" {
		t.Fatal("no revision")
	}
	v = parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{})))

	// check on a checked box sends nothing.
	u := s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "check", "ref": v.ref(t, "checkbox", "Remember me")})
	if u.Action.Outcome != "unchanged" {
		t.Fatalf("check on a checked box: %+v", u.Action)
	}
	// A window the page opens to an allowed address becomes the current
	// page; closing it returns to the first.
	pop := s.acted(t, map[string]any{"expected_revision": u.Revision, "action": "click", "ref": u.ref(t, "button", "Open popup"), "view": "full"})
	if pop.Action.Outcome != "opened" || pop.Action.PopupsClosed != 0 {
		t.Fatalf("popup: %+v", pop.Action)
	}
	back := s.acted(t, map[string]any{"expected_revision": pop.Revision, "action": "close_page", "view": "full"})
	// One to an address out of the allowed origins is closed and counted.
	pop = s.acted(t, map[string]any{"expected_revision": back.Revision, "action": "click", "ref": back.ref(t, "button", "Open elsewhere"), "view": "full"})
	if pop.Action.Outcome != "done" || pop.Action.PopupsClosed != 1 {
		t.Fatalf("popup elsewhere: %+v", pop.Action)
	}
	// The reference of an older observation is stale.
	if code, sent := actFailed(t, s.act(t, map[string]any{"expected_revision": back.Revision, "action": "click", "ref": back.ref(t, "button", "Slow")})); code != "stale_revision" || sent {
		t.Fatalf("an older observation's reference: %s sent %v", code, sent)
	}
	// A link out of the allowed origins is stopped: navigation_refused,
	// with the action sent; the previous revision is no longer current.
	out, sent := actFailed(t, s.act(t, map[string]any{"expected_revision": pop.Revision, "action": "click", "ref": pop.ref(t, "link", "Elsewhere")}))
	if out != "navigation_refused" || !sent {
		t.Fatalf("a link outside the allowed origins: %s sent %v", out, sent)
	}
	if code, _ := actFailed(t, s.act(t, map[string]any{"expected_revision": pop.Revision, "action": "scroll"})); code != "stale_revision" {
		t.Fatalf("the revision before a refused navigation: %s", code)
	}
	// A POST that never answers is uncertain within the deadline.
	v = s.open(t, web.URL+"/widgets")
	t0 := time.Now()
	un := s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Send"), "wait": map[string]any{"timeout_ms": 3000}})
	if un.Action.Outcome != "uncertain" {
		t.Fatalf("a POST that never answers: %+v", un.Action)
	}
	t.Logf("the POST that never answers was uncertain after %v", time.Since(t0))

	// An endless feed grows on scroll.
	f := s.open(t, web.URL+"/feed")
	if len(f.Inventory) == 0 || f.Inventory[0].Kind != "list" {
		t.Fatalf("feed inventory %+v", f.Inventory)
	}
	before := f.Inventory[0].Rows
	sc := s.acted(t, map[string]any{"expected_revision": f.Revision, "action": "scroll"})
	if sc.Action.Outcome != "done" || len(sc.Inventory) == 0 || sc.Inventory[0].Rows <= before {
		t.Fatalf("scroll: %+v, rows %d then %+v", sc.Action, before, sc.Inventory)
	}
}

// seqOf is the observation sequence of a revision.
func seqOf(rev string) string { return rev[strings.LastIndex(rev, ".o")+2:] }

// TestActLockAndCancel: a browser_observe sent while an action waits for
// the page waits for the session lock and observes after it; a cancelled
// action publishes nothing and leaves the previous revision invalid. The
// first part runs the server in this process, so that the test lets the
// action go only once the observation is seen blocked on the lock.
func TestActLockAndCancel(t *testing.T) {
	web := newWidgetSite(t)
	s, _ := startInProcess(t, mcp.Config{StateDir: filepath.Join(t.TempDir(), "state")})
	v := s.open(t, web.URL+"/widgets")
	type result struct {
		res *sdk.CallToolResult
		err error
	}
	actDone := make(chan result, 1)
	go func() {
		res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browser_act",
			Arguments: map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Slow")}})
		actDone <- result{res, err}
	}()
	<-web.arrived // the action was sent and waits for the page's request
	obsDone := make(chan result, 1)
	go func() {
		res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browser_observe", Arguments: map[string]any{}})
		obsDone <- result{res, err}
	}()
	// The request ends only once the observation waits for the lock: an
	// observation answered before then did not wait.
	for end := time.Now().Add(time.Minute); !blockedIn("github.com/domsnap/domsnap/mcp.(*session).acquire"); time.Sleep(10 * time.Millisecond) {
		select {
		case o := <-obsDone:
			t.Fatalf("the observation answered while the action held the session (error %v)", o.err)
		default:
		}
		if time.Now().After(end) {
			t.Fatal("the observation never waited for the session's lock")
		}
	}
	web.letGo()
	a, o := <-actDone, <-obsDone
	if a.err != nil || o.err != nil {
		t.Fatal(a.err, o.err)
	}
	av, ov := parseView(t, ok(t, a.res)), parseView(t, ok(t, o.res))
	if seqOf(av.Revision) != "2" || seqOf(ov.Revision) != "3" {
		t.Fatalf("the action published %s and the observation %s: the observation did not wait", av.Revision, ov.Revision)
	}

	// Cancelled while it waits for the page: nothing is published, and
	// the revision it started from is stale.
	web2 := newWidgetSite(t)
	s2 := start(t, filepath.Join(t.TempDir(), "state"))
	v = s2.open(t, web2.URL+"/widgets")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-web2.arrived
		cancel()
	}()
	_, err := s2.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_act",
		Arguments: map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Slow"), "wait": map[string]any{"until": "network_idle", "timeout_ms": 60000}}})
	cancel()
	if err == nil {
		t.Fatal("the cancelled call answered")
	}
	web2.letGo()
	if code := failed(t, s2.call(t, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": v.Revision, "region": "g" + seqOf(v.Revision) + ".1"}})); code != "stale_revision" {
		t.Fatalf("the revision before the cancelled action: %s", code)
	}
	next := parseView(t, ok(t, s2.call(t, "browser_observe", map[string]any{})))
	if seqOf(next.Revision) != "2" {
		t.Fatalf("after the cancelled action: %s (before %s)", next.Revision, v.Revision)
	}
}

// TestActSpinningPageReplacesTab: a click whose handler never returns
// ends in timeout by the call's deadline, with the action sent; the tab is
// replaced, so the next navigation works.
func TestActSpinningPageReplacesTab(t *testing.T) {
	web := newWidgetSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	v := s.open(t, web.URL+"/widgets")
	code, sent := actFailed(t, s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Spin"), "wait": map[string]any{"timeout_ms": 2000}}))
	if code != "timeout" || !sent {
		t.Fatalf("a click that never returns: %s sent %v", code, sent)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(v.Revision, 2)})); code != "foreign_revision" {
		t.Fatalf("a revision of the replaced tab: %s", code)
	}
	again := s.open(t, web.URL+"/widgets")
	if strings.Split(again.Revision, ".")[1] == strings.Split(v.Revision, ".")[1] {
		t.Fatalf("the tab was not replaced: %s %s", v.Revision, again.Revision)
	}
}

// TestActCanaryNeverShown: text typed into a field appears in no answer,
// no error, no file of the artifact store and not in the server's log,
// whether it was typed, refused as human_only or refused on a disabled
// field.
func TestActCanaryNeverShown(t *testing.T) {
	const canary = "CANARY-TYPED-5b1e77"
	web := newWidgetSite(t)
	tasks := taskSite(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state)
	var outs [][]byte
	keep := func(res *sdk.CallToolResult) *sdk.CallToolResult {
		outs = append(outs, resultText(t, res))
		return res
	}
	v := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/widgets"}))))
	typed := parseView(t, ok(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "type", "ref": v.ref(t, "textbox", "Note"), "text": canary}))))
	for _, name := range []string{"Password", "Code", "Locked"} {
		res := keep(s.act(t, map[string]any{"expected_revision": typed.Revision, "action": "type", "ref": typed.ref(t, "textbox", name), "text": canary}))
		if !res.IsError {
			t.Fatalf("typing into %s answered", name)
		}
	}
	keep(s.act(t, map[string]any{"expected_revision": typed.Revision, "action": "type", "ref": "e1.1", "text": canary}))
	keep(s.act(t, map[string]any{"expected_revision": "r1.junk", "action": "type", "ref": "a1.1", "text": canary}))
	keep(s.act(t, map[string]any{"expected_revision": typed.Revision, "action": "click", "ref": "a1.1", "text": canary}))
	obs := parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{}))))
	// The search submits what was typed in its URL; no answer shows it.
	sp := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{"url": tasks.URL + "/search"}))))
	st := parseView(t, ok(t, keep(s.act(t, map[string]any{"expected_revision": sp.Revision, "action": "type", "ref": sp.ref(t, "searchbox", "Search items"), "text": canary}))))
	keep(s.act(t, map[string]any{"expected_revision": st.Revision, "action": "press", "key": "Enter"}))
	for _, a := range []string{v.Artifact, typed.Artifact, obs.Artifact, st.Artifact} {
		keep(s.call(t, "browser_artifact", map[string]any{"artifact": a}))
	}
	s.stop(t)
	nowhere(t, canary, outs, state, s.stderr.Bytes(), 4)
}

// nowhere checks that secret is in no answer of outs, in no file under
// the artifact store state (which must hold at least files files) and not
// in the server's log.
func nowhere(t *testing.T, secret string, outs [][]byte, state string, log []byte, files int) {
	t.Helper()
	for i, out := range outs {
		if bytes.Contains(out, []byte(secret)) {
			t.Errorf("answer %d holds the secret", i)
		}
	}
	n := 0
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the store's %s holds the secret", filepath.Base(p))
		}
		return nil
	})
	if n < files {
		t.Fatalf("the store holds %d files", n)
	}
	if bytes.Contains(log, []byte(secret)) {
		t.Error("the server's log holds the secret")
	}
}

// TestReadOnlyFlag: `domsnap mcp --read-only` lists no browser_act and
// refuses a call to it as an unknown tool; browsing still works.
func TestReadOnlyFlag(t *testing.T) {
	web := taskSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--read-only")
	list, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "browser_act" {
			t.Fatal("a read-only server lists browser_act")
		}
	}
	v := s.open(t, web.URL+"/items")
	_, err = s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browser_act",
		Arguments: map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "link", "Next")}})
	if err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("browser_act on a read-only server: %v", err)
	}
	if got := parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{}))); got.Revision == v.Revision {
		t.Fatal("no new observation")
	}
}
