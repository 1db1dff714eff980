//go:build browser

package live

import (
	"context"
	"encoding/json"
	domsnap "github.com/domsnap/domsnap"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// actSite serves pages whose scripts run, by path, and records the query
// of every request, so a test can see what a form sent. A path that
// starts with /hang never answers until the test ends; an empty page is
// answered 204 No Content, and /redirect?to=URL redirects to URL.
type actSite struct {
	srv   *httptest.Server
	mu    sync.Mutex
	seen  []string
	pages map[string]string
}

func newActSite(t *testing.T, pages map[string]string) *actSite {
	t.Helper()
	s := &actSite{pages: pages}
	done := make(chan struct{})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+r.URL.RequestURI())
		s.mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/hang") {
			select {
			case <-done:
			case <-r.Context().Done():
			}
			return
		}
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/late") {
			// Answered after lateAnswer: the page that asked stays the
			// tab's document until then.
			select {
			case <-time.After(lateAnswer):
			case <-done:
				return
			case <-r.Context().Done():
				return
			}
		}
		body, ok := s.pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if body == "" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if r.URL.Path == "/file" {
			w.Header().Set("Content-Disposition", "attachment; filename=f.bin")
		}
		if strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[") {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(func() {
		close(done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
	return s
}

func (s *actSite) url(path string) string { return s.srv.URL + path }

// requests lists what the site was asked for, "GET /path?query".
func (s *actSite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func (s *actSite) asked(req string) bool {
	for _, r := range s.requests() {
		if r == req {
			return true
		}
	}
	return false
}

// actBrowser launches a browser in a folder of its own for one test, and
// fails the test when any of its processes outlives it (marked).
func actBrowser(t *testing.T) *Browser {
	t.Helper()
	b, err := Launch(context.Background(), Options{TempDir: marked(t)})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// actTab is a session on one tab of b, opened on url, with a call deadline.
type actTab struct {
	t   *testing.T
	ctx context.Context
	p   *Page
	s   *Session
}

func openActTab(t *testing.T, b *Browser, url string) *actTab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if url != "" {
		if _, err := p.Goto(ctx, url, UntilLoad, time.Now().Add(20*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewSession(p, SessionOptions{Browser: b.Version()})
	if err != nil {
		t.Fatal(err)
	}
	return &actTab{t: t, ctx: ctx, p: p, s: s}
}

// rev takes an observation and returns its revision.
func (a *actTab) rev() string {
	a.t.Helper()
	snap, err := a.s.Capture(a.ctx, ReadOptions{})
	if err != nil {
		a.t.Fatal(err)
	}
	return snap.Revision
}

// node finds the backend node id of the element selector names, as the
// page view will hand it over: DOM.getDocument, querySelector,
// describeNode.
func (a *actTab) node(selector string) int64 {
	a.t.Helper()
	c := a.p.Client()
	doc, err := c.DOM.GetDocument(a.ctx, dom.NewGetDocumentArgs().SetDepth(0))
	if err != nil {
		a.t.Fatal(err)
	}
	q, err := c.DOM.QuerySelector(a.ctx, dom.NewQuerySelectorArgs(doc.Root.NodeID, selector))
	if err != nil || q.NodeID == 0 {
		a.t.Fatalf("no element %s: %v", selector, err)
	}
	d, err := c.DOM.DescribeNode(a.ctx, dom.NewDescribeNodeArgs().SetNodeID(q.NodeID))
	if err != nil {
		a.t.Fatal(err)
	}
	return int64(d.Node.BackendNodeID)
}

func (a *actTab) target(selector, role string) *domsnap.ActionTarget {
	return &domsnap.ActionTarget{BackendNodeID: a.node(selector), Role: role}
}

// act acts with a fresh revision and a deadline d from now.
func (a *actTab) act(act Action, t *domsnap.ActionTarget, d time.Duration) (ActResult, error) {
	a.t.Helper()
	res, err, _ := a.timedAct(act, t, d)
	return res, err
}

// timedAct is act that also says how long the action took, its
// observation before it not included.
func (a *actTab) timedAct(act Action, t *domsnap.ActionTarget, d time.Duration) (ActResult, error, time.Duration) {
	a.t.Helper()
	rev := a.rev()
	start := time.Now()
	res, err := a.s.actOn(a.ctx, rev, act, t, ActOptions{Deadline: start.Add(d)})
	return res, err, time.Since(start)
}

// eval reads a JSON value from the page into out.
func (a *actTab) eval(expr string, out any) {
	a.t.Helper()
	raw, err := a.p.Evaluate(a.ctx, expr)
	if err != nil {
		a.t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		a.t.Fatalf("%s: %v", expr, err)
	}
}

func (a *actTab) location() string {
	var s string
	a.eval("location.pathname + location.search", &s)
	return s
}

func wantOutcome(t *testing.T, res ActResult, err error, want Outcome) {
	t.Helper()
	if err != nil {
		t.Fatalf("want %s, got error %v", want, err)
	}
	if res.Outcome != want {
		t.Fatalf("outcome %s, want %s (%+v)", res.Outcome, want, res)
	}
}

func wantRefusal(t *testing.T, err error, code errcode.Code, reason string) {
	t.Helper()
	if errcode.CodeOf(err) != code || Reason(err) != reason {
		t.Fatalf("got %v, want %s %s", err, code, reason)
	}
	if ActionSent(err) {
		t.Fatalf("a refusal says the action was sent: %v", err)
	}
}

// recorder is a script that logs the input events a page receives into
// window.events, so a test can check that none arrived.
const recorder = `<script>window.events = [];
for (const k of ["focus", "blur", "keydown", "keyup", "input", "change", "mousedown", "mouseup", "click", "beforeinput"])
  document.addEventListener(k, e => events.push(k + ":" + (e.target.id || e.target.nodeName)), true);</script>`

func TestActPaginationAndBack(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/list":  `<!DOCTYPE html><title>1</title><ul><li>a</li><li>b</li></ul><nav><a id="next" href="/list2">Next</a></nav>`,
		"/list2": `<!DOCTYPE html><title>2</title><ul><li>c</li><li>d</li></ul><nav><a id="prev" href="/list">Previous</a></nav>`,
	})
	a := openActTab(t, b, site.url("/list"))
	before := a.rev()
	res, err := a.s.actOn(a.ctx, before, Action{Kind: ActClick}, a.target("#next", "link"), ActOptions{Deadline: time.Now().Add(20 * time.Second)})
	wantOutcome(t, res, err, OutcomeNavigated)
	if res.HTTPStatus != 200 || !res.LoadComplete || a.location() != "/list2" {
		t.Fatalf("after Next: %+v at %s", res, a.location())
	}
	// The observation before the click is of the old document now.
	if _, ok, _ := a.s.Revision(a.ctx); ok {
		t.Fatal("the revision before the navigation is still current")
	}
	_, err = a.s.actOn(a.ctx, before, Action{Kind: ActClick}, a.target("#prev", "link"), ActOptions{})
	if errcode.CodeOf(err) != errcode.NavigatedRevision {
		t.Fatalf("acting on the old revision: %v", err)
	}
	res, err = a.act(Action{Kind: ActBack}, nil, 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if a.location() != "/list" {
		t.Fatalf("back went to %s", a.location())
	}

	// A tab with no earlier page has nothing to go back to.
	blank := openActTab(t, b, "")
	_, err = blank.act(Action{Kind: ActBack}, nil, 5*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonNoHistory)
}

func TestActSearchForm(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/":        `<!DOCTYPE html><title>s</title><form action="/results"><input id="q" name="q" type="search" value="old"><button>Search</button></form>` + recorder,
		"/results": `<!DOCTYPE html><title>r</title><p>results</p>`,
	})
	a := openActTab(t, b, site.url("/"))
	res, err := a.act(Action{Kind: ActType, Text: "blue shoes"}, a.target("#q", "searchbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	var v string
	a.eval(`document.getElementById("q").value`, &v)
	if v != "blue shoes" {
		t.Fatalf("the field holds %q", v)
	}
	res, err = a.act(Action{Kind: ActPress, Key: "Enter"}, a.target("#q", "searchbox"), 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if !site.asked("GET /results?q=blue+shoes") {
		t.Fatalf("the form sent %v", site.requests())
	}
}

func TestActTypeEmptyClears(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>t</title><textarea id="t">some text</textarea><div id="ed" contenteditable="true" role="textbox">x y</div>`,
	})
	a := openActTab(t, b, site.url("/"))
	res, err := a.act(Action{Kind: ActType, Text: ""}, a.target("#t", "textbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	res, err = a.act(Action{Kind: ActType, Text: "é ☃ 😀"}, a.target("#ed", "textbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	var got []string
	a.eval(`[document.getElementById("t").value, document.getElementById("ed").textContent]`, &got)
	if got[0] != "" || got[1] != "é ☃ 😀" {
		t.Fatalf("fields hold %q", got)
	}
}

func TestActFilterForm(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>f</title><form action="/filtered">
<select id="cat" name="cat"><option>All</option><option>  Books
 and more</option><option disabled>Gone</option><option hidden>Secret</option></select>
<label><input type="checkbox" id="stock" name="stock" value="1"> In stock</label>
<label><input type="checkbox" id="sale" name="sale" value="1" checked> On sale</label>
<button id="apply">Apply</button></form>` + recorder,
		"/filtered": `<!DOCTYPE html><title>r</title><p>filtered</p>`,
	})
	a := openActTab(t, b, site.url("/"))
	cat := a.target("#cat", "combobox")
	cat.Options = []string{"All", "Books and more", "Gone"}
	res, err := a.act(Action{Kind: ActSelect, Option: "Books and more"}, cat, 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	var events []string
	a.eval(`events`, &events)
	if !containsAll(events, "input:cat", "change:cat") {
		t.Fatalf("select fired %v", events)
	}
	_, err = a.act(Action{Kind: ActSelect, Option: "Nope"}, cat, 10*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonNoSuchOption)
	cat.Options = nil
	_, err = a.act(Action{Kind: ActSelect, Option: "Secret"}, cat, 10*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonNoSuchOption)
	_, err = a.act(Action{Kind: ActSelect, Option: "Gone"}, cat, 10*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonDisabled)

	res, err = a.act(Action{Kind: ActCheck}, a.target("#stock", "checkbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	// Checking a box that is already checked sends nothing at all.
	a.eval(`events = []`, new(any))
	res, err = a.act(Action{Kind: ActCheck}, a.target("#sale", "checkbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeUnchanged)
	a.eval(`events`, &events)
	if len(events) != 0 {
		t.Fatalf("an unchanged check sent %v", events)
	}
	res, err = a.act(Action{Kind: ActClick}, a.target("#apply", "button"), 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if !site.asked("GET /filtered?cat=Books+and+more&stock=1&sale=1") {
		t.Fatalf("the form sent %v", site.requests())
	}
}

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		if !contains(list, w) {
			return false
		}
	}
	return true
}

func TestActTableRowLink(t *testing.T) {
	b := actBrowser(t)
	rows := ""
	for _, n := range []string{"1", "2", "3", "4"} {
		rows += `<tr><td>item ` + n + `</td><td><a id="d` + n + `" href="/item/` + n + `">Details</a></td></tr>`
	}
	site := newActSite(t, map[string]string{
		"/":       `<!DOCTYPE html><title>t</title><div style="height:1500px">tall</div><table><tr><th>name</th><th></th></tr>` + rows + `</table>`,
		"/item/3": `<!DOCTYPE html><title>3</title><p>three</p>`,
	})
	a := openActTab(t, b, site.url("/"))
	res, err := a.act(Action{Kind: ActClick}, a.target("#d3", "link"), 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if a.location() != "/item/3" {
		t.Fatalf("went to %s", a.location())
	}
}

func TestActRefusals(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>r</title>
<div style="position:relative"><button id="covered">Buy</button><div style="position:absolute;inset:0;background:white"></div></div>
<button id="off" disabled>Off</button>
<fieldset disabled><input id="infield"></fieldset>
<a id="aria" href="/x" aria-disabled="true">Soon</a>
<button id="none" style="display:none">None</button>
<button id="invisible" style="visibility:hidden">Invisible</button>
<button id="zero" style="width:0;height:0;padding:0;border:0;overflow:hidden">Zero</button>
<button id="gone">Gone</button>
<input id="ro" readonly>
<input id="text">
<input type="radio" id="radio" name="r" checked>
` + recorder,
	})
	a := openActTab(t, b, site.url("/"))
	for _, c := range []struct {
		name   string
		act    Action
		sel    string
		role   string
		reason string
	}{
		{"obscured", Action{Kind: ActClick}, "#covered", "button", ReasonObscured},
		{"disabled", Action{Kind: ActClick}, "#off", "button", ReasonDisabled},
		{"disabled fieldset", Action{Kind: ActType, Text: "x"}, "#infield", "textbox", ReasonDisabled},
		{"aria-disabled", Action{Kind: ActClick}, "#aria", "link", ReasonDisabled},
		{"readonly", Action{Kind: ActType, Text: "x"}, "#ro", "textbox", ReasonDisabled},
		{"display none", Action{Kind: ActClick}, "#none", "button", ReasonHidden},
		{"visibility hidden", Action{Kind: ActClick}, "#invisible", "button", ReasonHidden},
		{"zero box", Action{Kind: ActClick}, "#zero", "button", ReasonHidden},
		{"type into a button", Action{Kind: ActType, Text: "x"}, "#off", "button", ReasonDisabled},
		{"type into a link", Action{Kind: ActType, Text: "x"}, "#gone", "button", ReasonWrongRole},
		{"select on a text field", Action{Kind: ActSelect, Option: "a"}, "#text", "textbox", ReasonWrongRole},
		{"check a button", Action{Kind: ActCheck}, "#gone", "button", ReasonWrongRole},
		{"uncheck a radio", Action{Kind: ActUncheck}, "#radio", "radio", ReasonWrongRole},
		{"press on a hidden element", Action{Kind: ActPress, Key: "Enter"}, "#none", "button", ReasonHidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			a.t = t
			a.eval(`events = []`, new(any))
			rev := a.rev()
			_, err := a.s.actOn(a.ctx, rev, c.act, a.target(c.sel, c.role), ActOptions{Deadline: time.Now().Add(10 * time.Second)})
			wantRefusal(t, err, errcode.NotActionable, c.reason)
			var events []string
			a.eval(`events`, &events)
			if len(events) != 0 {
				t.Fatalf("a refused action sent %v", events)
			}
			// The revision stays current after a refusal.
			if cur, ok, _ := a.s.Revision(a.ctx); !ok || cur != rev {
				t.Fatalf("revision %s current=%v after a refusal, was %s", cur, ok, rev)
			}
		})
	}
	a.t = t
	// Detached: the element left the document, or its document went.
	gone := a.target("#gone", "button")
	a.eval(`document.getElementById("gone").remove(), true`, new(any))
	_, err := a.act(Action{Kind: ActClick}, gone, 10*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonDetached)
	old := a.target("#text", "textbox")
	if _, err := a.p.Goto(a.ctx, site.url("/"), UntilLoad, time.Now().Add(20*time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = a.act(Action{Kind: ActType, Text: "x"}, old, 10*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonDetached)
	_, err = a.act(Action{Kind: ActClick}, &domsnap.ActionTarget{BackendNodeID: 1 << 40, Role: "button"}, 10*time.Second)
	wantRefusal(t, err, errcode.NotActionable, ReasonDetached)
}

// TestActHumanOnly: typing into a password or one-time-code field is
// refused and the page sees no event at all: not a focus, not a key.
func TestActHumanOnly(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>login</title>
<input id="user" autocomplete="username"><input id="pw" type="password">
<input id="otp" autocomplete="one-time-code"><input id="newpw" autocomplete="section-a New-Password">` + recorder,
	})
	a := openActTab(t, b, site.url("/"))
	const canary = "canary-7f3a-hunter2"
	for _, sel := range []string{"#pw", "#otp", "#newpw"} {
		_, err := a.act(Action{Kind: ActType, Text: canary}, a.target(sel, "textbox"), 10*time.Second)
		wantRefusal(t, err, errcode.HumanOnly, "")
		if strings.Contains(err.Error(), canary) {
			t.Fatal("the typed text is in the error")
		}
	}
	// A field the observation marked secret is refused before the page is
	// even looked at.
	tg := a.target("#user", "textbox")
	tg.HumanOnly = true
	_, err := a.act(Action{Kind: ActType, Text: canary}, tg, 10*time.Second)
	wantRefusal(t, err, errcode.HumanOnly, "")
	var events []string
	a.eval(`events`, &events)
	if len(events) != 0 {
		t.Fatalf("a human-only field received %v", events)
	}
	var values []string
	a.eval(`[...document.querySelectorAll("input")].map(i => i.value)`, &values)
	for _, v := range values {
		if v != "" {
			t.Fatal("a field was filled")
		}
	}
}

func TestActPopups(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/":   `<!DOCTYPE html><title>p</title><button id="open" onclick="window.open('/p2')">Open</button><a id="blank" href="/p2" target="_blank">New tab</a>`,
		"/p2": `<!DOCTYPE html><title>p2</title><p>popup</p>`,
	})
	a := openActTab(t, b, site.url("/"))
	tabs := pageTargets(t, a, -1)
	for _, sel := range []string{"#open", "#blank"} {
		res, err := a.act(Action{Kind: ActClick}, a.target(sel, "button"), 10*time.Second)
		wantOutcome(t, res, err, OutcomeDone)
		if res.PopupsClosed != 1 {
			t.Fatalf("%s: %d popups closed, want 1", sel, res.PopupsClosed)
		}
	}
	if n := pageTargets(t, a, tabs); n != tabs {
		t.Fatalf("%d tabs open, want %d", n, tabs)
	}
}

// pageTargets counts the browser's page targets, waiting up to a few
// seconds for the count to be want (-1: read it once).
func pageTargets(t *testing.T, a *actTab, want int) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, err := a.p.b.client.Target.GetTargets(a.ctx, target.NewGetTargetsArgs())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, i := range r.TargetInfos {
			if i.Type == "page" {
				n++
			}
		}
		if want < 0 || n == want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestActEndlessScroll(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>feed</title><div id="feed"></div><script>
let n = 0; const feed = document.getElementById("feed");
function more(k) { for (let i = 0; i < k; i++) { const p = document.createElement("p"); p.style.height = "100px"; p.textContent = "item " + (++n); feed.append(p); } }
more(20);
let loading = false;
addEventListener("scroll", () => {
  if (loading || innerHeight + scrollY < document.body.scrollHeight - 200) return;
  loading = true;
  fetch("/more").then(r => r.json()).then(j => { more(j.count); loading = false; });
});
</script>`,
		"/more": `{"count": 20}`,
	})
	a := openActTab(t, b, site.url("/"))
	var y float64
	for i := 0; i < 3; i++ {
		res, err := a.act(Action{Kind: ActScroll}, nil, 10*time.Second)
		wantOutcome(t, res, err, OutcomeDone)
	}
	a.eval(`scrollY`, &y)
	if y < 1600 {
		t.Fatalf("scrolled to %v after three viewport heights", y)
	}
	var items int
	a.eval(`document.querySelectorAll("#feed p").length`, &items)
	if items <= 20 || !site.asked("GET /more") {
		t.Fatalf("the feed has %d items; requests %v", items, site.requests())
	}
	// Scrolling an element's own box.
	res, err := a.act(Action{Kind: ActScroll}, a.target("#feed", "region"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
}

// TestActUnansweredPost: a form POST whose server never answers leaves a
// navigation that never commits: the action ends at its deadline as
// uncertain; a fetch that never answers keeps the page busy past the
// default settle cap: uncertain too, well before the deadline.
func TestActUnansweredPost(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>post</title><form method="post" action="/hang"><input name="a" value="1"><button id="send">Send</button></form>
<button id="bg" onclick="fetch('/hang-fetch', {method: 'POST', body: 'x'})">Background</button>`,
	})
	a := openActTab(t, b, site.url("/"))
	const deadline = 3 * time.Second
	res, err, took := a.timedAct(Action{Kind: ActClick}, a.target("#bg", "button"), 20*time.Second)
	wantOutcome(t, res, err, OutcomeUncertain)
	if took > ActSettleCap+5*time.Second {
		t.Errorf("a busy page held the action %v", took)
	}
	// An explicit network_idle waits for the quiet up to the deadline.
	bg := a.target("#bg", "button")
	rev := a.rev()
	start := time.Now()
	res, err = a.s.actOn(a.ctx, rev, Action{Kind: ActClick}, bg,
		ActOptions{Until: UntilNetworkIdle, UntilSet: true, Deadline: start.Add(deadline)})
	took = time.Since(start)
	wantOutcome(t, res, err, OutcomeUncertain)
	if took < deadline-time.Second || took > deadline+5*time.Second {
		t.Errorf("network_idle took %v for a %v deadline", took, deadline)
	}
	res, err, took = a.timedAct(Action{Kind: ActClick}, a.target("#send", "button"), deadline)
	wantOutcome(t, res, err, OutcomeUncertain)
	if took > deadline+5*time.Second {
		t.Errorf("took %v for a %v deadline", took, deadline)
	}
	if !site.asked("POST /hang") {
		t.Fatalf("the form was not sent: %v", site.requests())
	}
}

// TestActNavigationRefused: a click that leads outside the allowed origin
// is stopped, answers navigation_refused with action_sent, and the page
// stays where it was.
func TestActNavigationRefused(t *testing.T) {
	b := actBrowser(t)
	other := newActSite(t, map[string]string{"/": `<!DOCTYPE html><title>o</title><p>elsewhere</p>`})
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>h</title><a id="out" href="` + other.url("/") + `">Out</a><a id="js" href="#" onclick="location = '` + other.url("/") + `'; return false">Script</a>
<a id="hop" href="/redirect?to=` + other.url("/") + `">Redirect</a>`,
	})
	a := openActTab(t, b, "")
	allowed := site.srv.URL
	if err := a.p.Guard(a.ctx, func(u string) bool { return strings.HasPrefix(u, allowed+"/") }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.p.Goto(a.ctx, site.url("/"), UntilLoad, time.Now().Add(20*time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{"#out", "#js", "#hop"} {
		_, err := a.act(Action{Kind: ActClick}, a.target(sel, "link"), 10*time.Second)
		if errcode.CodeOf(err) != errcode.NavigationRefused || !ActionSent(err) {
			t.Fatalf("%s: %v (sent %v)", sel, err, ActionSent(err))
		}
		if a.location() != "/" {
			t.Fatalf("%s: the page went to %s", sel, a.location())
		}
		if _, ok, _ := a.s.Revision(a.ctx); ok {
			t.Fatal("the revision stayed current after input was sent")
		}
	}
	if len(other.requests()) != 0 {
		t.Fatalf("the refused origin was asked %v", other.requests())
	}
}

// TestActHostilePages: pages that fight the action still let it end by its
// deadline, and nothing of the browser outlives the test.
func TestActHostilePages(t *testing.T) {
	site := newActSite(t, map[string]string{
		"/vanish": `<!DOCTYPE html><title>v</title><button id="b" onmouseover="this.remove()">Catch me</button>` + recorder,
		"/prevent": `<!DOCTYPE html><title>p</title><a id="l" href="/elsewhere">Go</a><script>
for (const k of ["mousedown", "mouseup", "click", "pointerdown", "pointerup", "keydown", "submit"])
  addEventListener(k, e => { e.preventDefault(); e.stopImmediatePropagation(); }, true);</script>`,
		"/flood":  `<!DOCTYPE html><title>f</title><button id="b" onclick="for (let i = 0; i < 1000; i++) window.open('/p2')">Flood</button>`,
		"/p2":     `<!DOCTYPE html><title>p2</title>`,
		"/loop":   `<!DOCTYPE html><title>l</title><button id="b" onclick="for (;;) {}">Hang</button>`,
		"/dialog": `<!DOCTYPE html><title>d</title><button id="b" onclick="if (confirm('Sure?')) location = '/p2'">Delete</button>`,
		"/busy":   `<!DOCTYPE html><title>b</title><button id="b">Busy</button>`,
	})
	b, err := Launch(context.Background(), Options{TempDir: marked(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const deadline = 4 * time.Second
	// slack is how long past its deadline an action may end on a loaded
	// machine.
	const slack = 2 * time.Second
	runWithin := func(path string, act Action, deadline time.Duration) (ActResult, error, time.Duration) {
		a := openActTab(t, b, site.url(path))
		tg := a.target("#"+map[bool]string{true: "l", false: "b"}[path == "/prevent"], "button")
		rev := a.rev()
		start := time.Now()
		res, err := a.s.actOn(a.ctx, rev, act, tg, ActOptions{Deadline: time.Now().Add(deadline)})
		took := time.Since(start)
		if took > deadline+slack {
			t.Errorf("%s: took %v for a %v deadline", path, took, deadline)
		}
		return res, err, took
	}
	run := func(path string, act Action) (ActResult, error, time.Duration) {
		return runWithin(path, act, deadline)
	}

	// The button goes as the press moves the pointer onto it (the press
	// lands on what is left there): no release follows, and the action
	// says so.
	_, err, _ = run("/vanish", Action{Kind: ActClick})
	if Reason(err) != ReasonDetached || !ActionSent(err) {
		t.Errorf("vanish: %v (sent %v)", err, ActionSent(err))
	}

	res, err, _ := run("/prevent", Action{Kind: ActClick})
	wantOutcome(t, res, err, OutcomeDone)

	// A confirm() the click opens is dismissed, as Cancel: the page stays.
	res, err, _ = run("/dialog", Action{Kind: ActClick})
	wantOutcome(t, res, err, OutcomeDone)

	// The flood's handler calls window.open a thousand times, which a
	// loaded machine's renderer may take seconds over before the mouse
	// release is answered: its deadline is longer, its bound as strict.
	res, err, took := runWithin("/flood", Action{Kind: ActClick}, 15*time.Second)
	if err != nil || res.PopupsClosed < 1 {
		t.Errorf("flood: %+v %v", res, err)
	}
	t.Logf("flood: %d popups closed in %v", res.PopupsClosed, took)
	// Every window the flood opened is gone: the browser's first tab, the
	// four tabs of the runs so far and the one counting them are left.
	if n := pageTargets(t, openActTab(t, b, ""), 1+4+1); n != 1+4+1 {
		t.Errorf("%d tabs open after the flood, want 6", n)
	}

	// A click whose handler never returns: the call ends with timeout and
	// action_sent; a renderer busy before the action: timeout, nothing sent.
	_, err, took = run("/loop", Action{Kind: ActClick})
	if errcode.CodeOf(err) != errcode.Timeout || !ActionSent(err) {
		t.Errorf("endless onclick: %v (sent %v)", err, ActionSent(err))
	}
	t.Logf("endless onclick ended after %v", took)
	// The busy renderer is in a browser of its own: a tab of the same
	// site in b may share the renderer the endless onclick holds.
	a := openActTab(t, actBrowser(t), site.url("/busy"))
	tg := a.target("#b", "button")
	rev := a.rev()
	a.eval(`setTimeout(() => { for (;;) {} }, 0), true`, new(any))
	_, err = a.s.actOn(a.ctx, rev, Action{Kind: ActClick}, tg, ActOptions{Deadline: time.Now().Add(deadline)})
	if errcode.CodeOf(err) != errcode.Timeout || ActionSent(err) {
		t.Errorf("busy renderer: %v (sent %v)", err, ActionSent(err))
	}
	start := time.Now()
	if err := b.Close(); err != nil {
		t.Error(err)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("closing took %v", took)
	}
}

// TestActTypedTextCanary: the text of a type action appears in no error
// and no result, whatever becomes of the action.
func TestActTypedTextCanary(t *testing.T) {
	const canary = "CANARY-93b1-do-not-leak"
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>c</title><input id="ok"><input id="pw" type="password"><input id="off" disabled>
<input id="gone"><input id="none" style="display:none"><button id="btn">b</button>
<input id="hang" oninput="for (;;) {}">`,
	})
	b, err := Launch(context.Background(), Options{TempDir: marked(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	a := openActTab(t, b, site.url("/"))
	var outputs []string
	record := func(res ActResult, err error) {
		outputs = append(outputs, fmtResult(res))
		if err != nil {
			outputs = append(outputs, err.Error())
		}
	}
	long := strings.Repeat(canary, limits.MaxTypeUnits/len(canary)+1)
	gone := a.target("#gone", "textbox")
	a.eval(`document.getElementById("gone").remove(), true`, new(any))
	for _, c := range []struct {
		text string
		tg   *domsnap.ActionTarget
	}{
		{canary, a.target("#ok", "textbox")},
		{canary, a.target("#pw", "textbox")},
		{canary, a.target("#off", "textbox")},
		{canary, gone},
		{canary, a.target("#none", "textbox")},
		{canary, a.target("#btn", "button")},
		{long, a.target("#ok", "textbox")},
		{canary + "\xff", a.target("#ok", "textbox")},
		{canary, a.target("#hang", "textbox")},
	} {
		record(a.s.actOn(a.ctx, a.rev(), Action{Kind: ActType, Text: c.text}, c.tg, ActOptions{Deadline: time.Now().Add(4 * time.Second)}))
	}
	if len(outputs) < 9 {
		t.Fatalf("only %d outputs", len(outputs))
	}
	for _, o := range outputs {
		if strings.Contains(o, "CANARY") {
			t.Fatalf("the typed text leaked: %.200s", o)
		}
	}
	t.Logf("%d outputs searched", len(outputs))
}

func fmtResult(r ActResult) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// TestActNavigationKinds: what counts as a main-frame navigation, and how
// long each kind of reaction holds the action.
func TestActNavigationKinds(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>k</title><p id="top">top</p><div style="height:2000px"></div>
<a id="frag" href="#bottom">Down</a><button id="push" onclick="history.pushState({}, '', '/pushed')">Push</button>
<button id="later" onclick="fetch('/hang-while'); setTimeout(() => location.href = '/next', 300)">Later</button>
<a id="stall" href="/stall">Stalled image</a><a id="empty" href="/nocontent">No content</a>
<a id="mail" href="mailto:someone@example.com">Mail</a><a id="file" href="/file">Download</a>
<input id="a"><input id="b"><input type="checkbox" id="c"><p id="bottom">bottom</p>`,
		"/next":      `<!DOCTYPE html><title>n</title><p>next</p>`,
		"/stall":     `<!DOCTYPE html><title>s</title><p>stalled</p><img src="/hang.png">`,
		"/nocontent": "",
		"/file":      "binary",
	})
	a := openActTab(t, b, site.url("/"))
	timed := func(act Action, sel, role string, d time.Duration) (ActResult, error, time.Duration) {
		var tg *domsnap.ActionTarget
		if sel != "" {
			tg = a.target(sel, role)
		}
		return a.timedAct(act, tg, d)
	}
	nav := func() uint64 {
		n, err := a.p.Navigations(a.ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	n0 := nav()
	for _, sel := range []string{"#frag", "#push"} {
		res, err, took := timed(Action{Kind: ActClick}, sel, "link", 20*time.Second)
		wantOutcome(t, res, err, OutcomeDone)
		if took > ActSettleCap+2*time.Second || nav() != n0 {
			t.Fatalf("%s: took %v, navigations %d -> %d", sel, took, n0, nav())
		}
	}
	// The request the click keeps in flight holds the wait open up to the
	// settle cap, so the navigation 300 ms later is noticed however slowly
	// a busy machine runs the page's timer (the quiet period alone leaves
	// it 200 ms).
	res, err, _ := timed(Action{Kind: ActClick}, "#later", "button", 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if a.location() != "/next" || nav() != n0+1 {
		t.Fatalf("a navigation started 300 ms after the click: at %s", a.location())
	}

	// Press Tab on the focused element moves the focus.
	a = openActTab(t, b, site.url("/"))
	res, err = a.act(Action{Kind: ActPress, Key: "Tab"}, a.target("#a", "textbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	var focused string
	a.eval(`document.activeElement.id`, &focused)
	if focused != "b" {
		t.Fatalf("Tab left the focus on %q", focused)
	}
	res, err = a.act(Action{Kind: ActPress, Key: "Space"}, a.target("#c", "checkbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	var checked bool
	a.eval(`document.getElementById("c").checked`, &checked)
	if !checked {
		t.Fatal("Space did not toggle the checkbox")
	}

	// A document whose load event never comes is observed DOMReadyGrace
	// after its DOMContentLoaded by default, and at once when dom_ready
	// is asked for.
	res, err, took := timed(Action{Kind: ActClick}, "#stall", "link", 30*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if res.LoadComplete || took > DOMReadyGrace+4*time.Second {
		t.Fatalf("stalled load: %+v after %v", res, took)
	}
	t.Logf("stalled load observed after %v", took)
	res, err = a.act(Action{Kind: ActBack}, nil, 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	stall := a.target("#stall", "link")
	rev := a.rev()
	start := time.Now()
	res, err = a.s.actOn(a.ctx, rev, Action{Kind: ActClick}, stall,
		ActOptions{Until: UntilDOMReady, UntilSet: true, Deadline: start.Add(30 * time.Second)})
	wantOutcome(t, res, err, OutcomeNavigated)
	if took := time.Since(start); res.LoadComplete || took > 4*time.Second {
		t.Fatalf("dom_ready wait: %+v after %v", res, took)
	}

	// A response without content, a download and a mailto: link leave
	// the page where it was; only the download's response was handed to
	// the browser's downloads (which this context refuses).
	a = openActTab(t, b, site.url("/"))
	for _, sel := range []string{"#empty", "#file", "#mail"} {
		res, err, took = timed(Action{Kind: ActClick}, sel, "link", 20*time.Second)
		t.Logf("%s: %+v %v after %v", sel, res, err, took)
		wantOutcome(t, res, err, OutcomeDone)
		if took > ActSettleCap+2*time.Second || a.location() != "/" {
			t.Fatalf("%s held the action %v and went to %s", sel, took, a.location())
		}
		if want := map[string]int{"#file": 1}[sel]; res.HandedOff != want {
			t.Errorf("%s: %d navigations handed off to downloads, want %d", sel, res.HandedOff, want)
		}
	}
}

// TestActBackAfterSlowLeave: a step back is a navigation the page never
// asks for, and a page whose beforeunload handler keeps its renderer busy
// holds the document request back past the quiet period (as a busy machine
// does). The answer still waits for the earlier page, not `done` on the
// page being left; a step back onto an entry of the same document ends as
// soon as it shows.
func TestActBackAfterSlowLeave(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>f</title><p>first</p><a id="next" href="/slow">Next</a>`,
		"/slow": `<!DOCTYPE html><title>s</title><p>slow to leave</p>
<button id="push" onclick="history.pushState({}, '', '/slow#pushed')">Push</button>
<script>addEventListener("beforeunload", () => { const t = Date.now(); while (Date.now() - t < 1500) {} })</script>`,
	})
	a := openActTab(t, b, site.url("/"))
	res, err := a.act(Action{Kind: ActClick}, a.target("#next", "link"), 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	res, err = a.act(Action{Kind: ActClick}, a.target("#push", "button"), 20*time.Second)
	wantOutcome(t, res, err, OutcomeDone)

	// Back onto the entry pushState left: the same document.
	res, err, took := a.timedAct(Action{Kind: ActBack}, nil, 20*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	if a.location() != "/slow" || took > ActSettleCap+2*time.Second {
		t.Fatalf("back within the document: at %s after %v", a.location(), took)
	}
	// Back onto the first page, past the slow beforeunload.
	res, err = a.act(Action{Kind: ActBack}, nil, 20*time.Second)
	wantOutcome(t, res, err, OutcomeNavigated)
	if a.location() != "/" {
		t.Fatalf("back went to %s", a.location())
	}
}

// lateAnswer is how long an act site keeps a request for a /late page.
const lateAnswer = 6 * time.Second

// TestActClickSeesSubmission: the click's guard tells a form submission
// that navigates the tab (which a busy renderer may ask the browser for
// only after the wait's quiet period) from one a listener cancelled, one
// aimed at another window or frame, and a dialog form's, which navigate
// nothing here. The forms that navigate the tab submit to a page answered
// late, so the page that submitted is still there when the guard is read,
// however busy the machine (a submission answered at once may have
// replaced the page before the guard was read, and the wait then sees the
// navigation itself).
func TestActClickSeesSubmission(t *testing.T) {
	b := actBrowser(t)
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>forms</title><iframe name="f" src="about:blank"></iframe>
<form action="/next" onsubmit="return false"><button id="cancel">Cancelled</button></form>
<form action="/next" target="_blank"><button id="blank">Blank</button></form>
<form action="/next" target="f"><button id="frame">Frame</button></form>
<form method="dialog"><button id="dialog">Dialog</button></form>
<form action="/late-next" target="_blank"><button id="override" formtarget="_self">Here after all</button></form>
<form action="/late-next"><button id="plain">Plain</button></form>`,
		"/next":      `<!DOCTYPE html><title>n</title><p>next</p>`,
		"/late-next": `<!DOCTYPE html><title>n</title><p>next</p>`,
	})
	for _, c := range []struct {
		id        string
		submitted bool
	}{{"cancel", false}, {"blank", false}, {"frame", false}, {"dialog", false}, {"override", true}, {"plain", true}} {
		a := openActTab(t, b, site.url("/"))
		res, err := a.act(Action{Kind: ActClick}, a.target("#"+c.id, "button"), 20*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		// A page that stays must always let its guard be read. One whose
		// navigation began before the guard was read may leave it
		// unreadable (the document is leaving); the navigation itself
		// is then what the outcome says.
		guard := a.p.act.guard.Load()
		switch got := a.p.act.submitted.Load(); {
		case guard == nil:
			t.Errorf("%s: the click left no report of its guard (outcome %s)", c.id, res.Outcome)
		case guard.Unread != nil && (!c.submitted || Reason(guard.Unread) != ReasonDetached):
			t.Errorf("%s: the guard could not be read: %v (outcome %s)", c.id, guard.Unread, res.Outcome)
		case guard.Unread == nil && got != c.submitted:
			t.Errorf("%s: submitted %v, want %v (outcome %s; the guard said %+v)", c.id, got, c.submitted, res.Outcome, guard)
		case guard.Unread != nil:
			t.Logf("%s: the navigation began before the guard was read: %v", c.id, guard.Unread)
		}
		if want := map[bool]Outcome{false: OutcomeDone, true: OutcomeNavigated}[c.submitted]; res.Outcome != want {
			t.Errorf("%s: outcome %s, want %s", c.id, res.Outcome, want)
		}
	}
}
