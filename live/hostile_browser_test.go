//go:build browser

package live

import (
	"errors"
	domsnap "github.com/domsnap/domsnap"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/input"
	"github.com/mafredri/cdp/protocol/runtime"

	"github.com/domsnap/domsnap/errcode"
)

// hostileCanary is the text the hostile-page tests type: it must never reach
// a field the action did not target.
const hostileCanary = "CANARY-hostile-4e1d"

// canaryTrap is the page's own recorder of every key and text event, in
// its main world and registered first, so it sees an event before any
// other listener can stop it: window.got lists them.
const canaryTrap = `<script>window.got = [];
for (const k of ["keydown", "keypress", "beforeinput", "textInput", "input"])
  addEventListener(k, e => got.push(k + ":" + (e.target.id || e.target.nodeName) + ":" + (e.data ?? e.key ?? "")), true);</script>`

// canarySeen reports whether the canary reached the page: in an event its
// recorder saw, or in the value of any field.
func (a *actTab) canarySeen() bool {
	a.t.Helper()
	var got []string
	a.eval(`got.concat([...document.querySelectorAll("input, textarea")].map(i => i.value))`, &got)
	for _, g := range got {
		if strings.Contains(g, hostileCanary) {
			return true
		}
	}
	return false
}

// keyEvents is what the page's recorder saw.
func (a *actTab) keyEvents() []string {
	a.t.Helper()
	var got []string
	a.eval(`got`, &got)
	return got
}

// TestActTypingChecksAtInput: a field the page changes, or leaves, while it
// is being focused gets no text and no key: the check runs again in the
// page after the focus and the selection, and the action is refused with
// nothing sent. Each page types into a field that looked harmless when it
// was checked (all of them took the text before).
func TestActTypingChecksAtInput(t *testing.T) {
	pages := map[string]string{
		"/to-password": `<input id="f" onfocus="this.type = 'password'">`,
		"/to-code":     `<input id="f" onfocus="this.setAttribute('autocomplete', 'one-time-code')">`,
		"/to-pw-field": `<input id="f" onfocus="document.getElementById('pw').focus()"><input id="pw" type="password">`,
		"/to-other":    `<input id="f" onfocus="document.getElementById('o').focus()"><input id="o">`,
		"/on-select":   `<input id="f" value="old" onselect="this.type = 'password'">`,
		"/later":       `<input id="f" onfocus="setTimeout(() => this.type = 'password', 0)">`,
		"/focused-pw":  `<input id="f"><input id="pw" type="password">`,
		"/plain":       `<input id="f" value="old">`,
	}
	for k, v := range pages {
		pages[k] = `<!DOCTYPE html><title>t</title>` + v + canaryTrap
	}
	site := newActSite(t, pages)
	b := actBrowser(t)
	for _, c := range []struct {
		path   string
		act    Action
		sel    string
		code   errcode.Code
		reason string
	}{
		{"/to-password", Action{Kind: ActType, Text: hostileCanary}, "#f", errcode.HumanOnly, ""},
		{"/to-password", Action{Kind: ActType}, "#f", errcode.HumanOnly, ""},
		{"/to-code", Action{Kind: ActType, Text: hostileCanary}, "#f", errcode.HumanOnly, ""},
		{"/to-pw-field", Action{Kind: ActType, Text: hostileCanary}, "#f", errcode.NotActionable, ReasonObscured},
		{"/to-other", Action{Kind: ActType, Text: hostileCanary}, "#f", errcode.NotActionable, ReasonObscured},
		{"/on-select", Action{Kind: ActType, Text: hostileCanary}, "#f", errcode.HumanOnly, ""},
		{"/later", Action{Kind: ActType, Text: hostileCanary}, "#f", errcode.HumanOnly, ""},
		{"/to-password", Action{Kind: ActPress, Key: "Space"}, "#f", errcode.HumanOnly, ""},
		{"/to-pw-field", Action{Kind: ActPress, Key: "Enter"}, "#f", errcode.NotActionable, ReasonObscured},
		// A key without an element goes to the focused one: never to a
		// password field the page focused.
		{"/focused-pw", Action{Kind: ActPress, Key: "Space"}, "", errcode.HumanOnly, ""},
	} {
		t.Run(c.path+"/"+c.act.Kind.String(), func(t *testing.T) {
			a := openActTab(t, b, site.url(c.path))
			var tg *domsnap.ActionTarget
			if c.sel != "" {
				tg = a.target(c.sel, "textbox")
			} else {
				a.eval(`document.getElementById("pw").focus(), true`, new(any))
			}
			rev := a.rev()
			_, err := a.s.actOn(a.ctx, rev, c.act, tg, ActOptions{Deadline: time.Now().Add(10 * time.Second)})
			wantRefusal(t, err, c.code, c.reason)
			if strings.Contains(err.Error(), hostileCanary) {
				t.Fatal("the typed text is in the error")
			}
			if ev := a.keyEvents(); len(ev) != 0 || a.canarySeen() {
				t.Fatalf("the page received %v", ev)
			}
			if cur, ok, _ := a.s.Revision(a.ctx); !ok || cur != rev {
				t.Fatalf("revision %s current=%v after a refusal, was %s", cur, ok, rev)
			}
		})
	}
	// A field that stays as it was takes the text.
	a := openActTab(t, b, site.url("/plain"))
	res, err := a.act(Action{Kind: ActType, Text: hostileCanary}, a.target("#f", "textbox"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	var v string
	a.eval(`document.getElementById("f").value`, &v)
	if v != hostileCanary {
		t.Fatal("the plain field does not hold the text")
	}
}

// TestActInputGuard: the page changes the field between the last check
// and the input's arrival (as a timer could). The guard armed by the
// check cancels the text or key as it arrives, and the action is reported
// as sent and not done; a page that stops the event before the guard sees
// it is reported from the check after the input.
func TestActInputGuard(t *testing.T) {
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>g</title><form onsubmit="window.submitted = true; return false"><input id="f"><input id="o"></form>` + canaryTrap,
		"/stops": `<!DOCTYPE html><title>s</title><input id="f"><input id="o">` + canaryTrap +
			`<script>addEventListener("beforeinput", e => e.stopImmediatePropagation(), true)</script>`,
		// The page's first listener moves the focus to a password field
		// as the text comes, hides the event from the listeners after it,
		// and moves the focus back once the text is in.
		"/moves": `<!DOCTYPE html><title>m</title><input id="f"><input id="pw" type="password">` + canaryTrap +
			`<script>addEventListener("beforeinput", e => { document.getElementById("pw").focus(); e.stopImmediatePropagation(); }, true);
addEventListener("input", () => document.getElementById("f").focus(), true)</script>`,
		"/advance": `<!DOCTYPE html><title>a</title><input id="f" oninput="document.getElementById('n').focus()"><input id="n">` + canaryTrap,
		// The page's first listener turns the field itself into a password
		// field as the text comes.
		"/turns": `<!DOCTYPE html><title>t</title><input id="f"><input id="o">` + canaryTrap +
			`<script>addEventListener("beforeinput", e => { e.target.type = "password"; e.stopImmediatePropagation(); }, true)</script>`,
	})
	b := actBrowser(t)
	for _, c := range []struct {
		name, path, change string
		kind               string
		code               errcode.Code
		reason             string
		// lands: the text still reaches the page (the guard could not see
		// it), which the action reports.
		lands bool
	}{
		// The guard's listeners come first in every document, so a page
		// stopping the event cannot keep it from the guard: a focus moved
		// before it is cancelled there (the text landed in the other
		// field before). A page whose own listener moves the focus, or
		// turns the field, as the event passes has the text put where it
		// chose, which the guard hears and reports (it answered done).
		{"page stops the event, focus moved", "/stops", `document.getElementById("o").focus()`, guardText, errcode.NotActionable, ReasonObscured, false},
		{"page moves the focus as the text comes", "/moves", `0`, guardText, errcode.HumanOnly, "", true},
		{"page turns the field as the text comes", "/turns", `0`, guardText, errcode.HumanOnly, "", true},
		// A field that moves the focus on once its text is in (as card
		// number fields do) took the text itself: nothing to report.
		{"field moves the focus on after its text", "/advance", `0`, guardText, "", "", true},
		{"turned password", "/", `document.getElementById("f").type = "password"`, guardText, errcode.HumanOnly, "", false},
		{"turned one-time code", "/", `document.getElementById("f").autocomplete = "one-time-code"`, guardText, errcode.HumanOnly, "", false},
		{"focus moved", "/", `document.getElementById("o").focus()`, guardText, errcode.NotActionable, ReasonObscured, false},
		{"key after turned password", "/", `document.getElementById("f").type = "password"`, guardKey, errcode.HumanOnly, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := openActTab(t, b, site.url(c.path))
			defer a.p.releaseAct(a.ctx)
			el, _, err := a.p.resolve(a.ctx, a.node("#f"), "", false)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.p.focus(a.ctx, el); err != nil {
				t.Fatal(err)
			}
			if err := a.p.arm(a.ctx, el, c.kind, c.kind == guardText); err != nil {
				t.Fatalf("arm: %v", err)
			}
			a.eval(c.change+`, true`, new(any))
			if c.kind == guardText {
				if err := a.p.client.Input.InsertText(a.ctx, input.NewInsertTextArgs(hostileCanary)); err != nil {
					t.Fatal(err)
				}
			} else {
				k, _ := keyByName("Enter")
				if err := a.p.key(a.ctx, k); err != nil {
					t.Fatal(err)
				}
			}
			err = a.p.disarm(a.ctx, el, c.kind)
			if errcode.CodeOf(err) != c.code || Reason(err) != c.reason {
				t.Fatalf("got %v, want %s %s", err, c.code, c.reason)
			}
			var values []string
			a.eval(`[...document.querySelectorAll("input")].map(i => i.value)`, &values)
			landed := strings.Contains(strings.Join(values, " "), hostileCanary)
			if landed != c.lands {
				t.Fatalf("the text landed: %v, want %v (values %q)", landed, c.lands, values)
			}
			var submitted bool
			a.eval(`!!window.submitted`, &submitted)
			if submitted {
				t.Fatal("the key reached the field and submitted its form")
			}
		})
	}
}

// slider is a page with a harmless button at the top left and a "Delete
// account" button further down that slideIn moves under it, above it.
// Every pointer and mouse event the delete button gets is listed in
// window.del, every click of the harmless one counted in window.clicked.
const slider = `<!DOCTYPE html><title>s</title><style>
button { position: absolute; left: 0; width: 200px; height: 60px }
#tgt { top: 0 } #del { top: 300px }</style>
<button id="tgt" onclick="window.clicked = (window.clicked || 0) + 1">Harmless</button><button id="del">Delete account</button>
<script>window.del = [];
for (const k of ["pointerdown", "mousedown", "pointerup", "mouseup", "click"])
  document.getElementById("del").addEventListener(k, () => del.push(k));
function slideIn() { const d = document.getElementById("del"); d.style.top = "0px"; d.style.zIndex = 1; }</script>`

// TestActClickChecksAtPress: a page that slides another button under the
// pointer as the click comes never gets that button pressed, released or
// clicked. No mouse move precedes the press, so a page answering moves
// has nothing to answer; one that answers the press's boundary events or
// the press itself gets no release, and the action is reported, not done.
func TestActClickChecksAtPress(t *testing.T) {
	site := newActSite(t, map[string]string{
		"/on-move": slider + `<script>tgt.addEventListener("mousemove", slideIn)</script>`,
		"/on-over": slider + `<script>for (const k of ["pointerover", "pointerenter", "mouseover", "mouseenter"]) tgt.addEventListener(k, slideIn)</script>`,
		"/on-down": slider + `<script>tgt.addEventListener("pointerdown", slideIn)</script>`,
		"/plain":   slider,
	})
	b := actBrowser(t)
	for _, c := range []struct {
		path string
		// clicked: the harmless button was clicked and the action done;
		// else it was reported obscured with the action sent.
		clicked bool
	}{
		{"/on-move", true},
		{"/on-over", false},
		{"/on-down", false},
		{"/plain", true},
	} {
		t.Run(c.path, func(t *testing.T) {
			a := openActTab(t, b, site.url(c.path))
			res, err := a.act(Action{Kind: ActClick}, a.target("#tgt", "button"), 10*time.Second)
			if c.clicked {
				wantOutcome(t, res, err, OutcomeDone)
			} else if Reason(err) != ReasonObscured || !ActionSent(err) {
				t.Fatalf("got %+v %v (sent %v), want obscured, sent", res, err, ActionSent(err))
			}
			var del []string
			a.eval(`del`, &del)
			var clicked int
			a.eval(`window.clicked || 0`, &clicked)
			if len(del) != 0 || clicked != map[bool]int{true: 1}[c.clicked] {
				t.Fatalf("the delete button got %v; the harmless one %d clicks", del, clicked)
			}
		})
	}
	// Another element over the point just before the press: nothing is
	// sent at all.
	a := openActTab(t, b, site.url("/plain"))
	defer a.p.releaseAct(a.ctx)
	el, _, err := a.p.resolve(a.ctx, a.node("#tgt"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := a.p.prepare(a.ctx, Action{Kind: ActClick}, el)
	if err != nil || !pr.Hits {
		t.Fatalf("prepare: %+v %v", pr, err)
	}
	a.eval(`slideIn(), true`, new(any))
	err = a.p.send(a.ctx, Action{Kind: ActClick}, el, pr)
	var u *unsent
	if !errors.As(err, &u) || Reason(err) != ReasonObscured {
		t.Fatalf("a click at a point another element took: %v", err)
	}
	var del []string
	a.eval(`del`, &del)
	if len(del) != 0 {
		t.Fatalf("the delete button got %v", del)
	}
}

// TestActClickGuardsRelease: an element the page slides under the
// pointer after the last hit test, just before the release (a timer can
// fire in that gap), gets neither the release nor a click: a guard in the
// action's own world stops them before they reach it, and the action is
// reported obscured with the input sent, never done (the release used to
// land on it, and the click answered done).
func TestActClickGuardsRelease(t *testing.T) {
	site := newActSite(t, map[string]string{"/plain": slider})
	a := openActTab(t, actBrowser(t), site.url("/plain"))
	beforeRelease = func() { a.eval(`slideIn(), true`, new(any)) }
	defer func() { beforeRelease = nil }()
	res, err := a.act(Action{Kind: ActClick}, a.target("#tgt", "button"), 10*time.Second)
	beforeRelease = nil
	if Reason(err) != ReasonObscured || !ActionSent(err) {
		t.Fatalf("got %+v %v (sent %v), want obscured, sent", res, err, ActionSent(err))
	}
	var del []string
	a.eval(`del`, &del)
	var clicked int
	a.eval(`window.clicked || 0`, &clicked)
	if len(del) != 0 || clicked != 0 {
		t.Fatalf("the delete button got %v; the harmless one %d clicks", del, clicked)
	}
	// The guard is gone with the action: the page's own clicks go on.
	a.eval(`document.getElementById("del").click(), true`, new(any))
	res, err = a.act(Action{Kind: ActClick}, a.target("#del", "button"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	a.eval(`del`, &del)
	if strings.Join(del, " ") != "click pointerdown mousedown pointerup mouseup click" {
		t.Fatalf("the delete button, clicked by the page and then by an action, got %v", del)
	}
}

// labelCover is a page whose checkbox sits in its label under what the
// page puts in place of %s, laid over the whole label, transparent: every pointer and mouse event
// that cover gets is listed in window.del. The drawn variant is a
// component's checkbox: the native input hidden under a box drawn in the
// label, which is where a person clicks.
const labelCover = `<!DOCTYPE html><title>l</title><style>
label { position: relative; display: inline-block; width: 240px; height: 40px }
#cover { position: absolute; inset: 0; opacity: 0; z-index: 1 }
#box { position: absolute; left: 0; top: 0; width: 40px; height: 40px; z-index: 1; background: #ccc }</style>
<label><input type="checkbox" id="tgt"> Subscribe %s</label>
<script>window.del = [];
const c = document.getElementById("cover");
if (c) for (const k of ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]) c.addEventListener(k, () => del.push(k));</script>`

// TestActLabelCoverObscures: a point on the control's own label counts as
// a hit on the control (a drawn checkbox is clicked there), but not a
// point on interactive content the page laid inside the label: a browser
// does not pass that click to the control, so the cover would take it.
// The action is refused with nothing sent (every cover took the check
// and answered done when any point inside the label counted).
func TestActLabelCoverObscures(t *testing.T) {
	covers := map[string]string{
		"/button":     `<button id="cover">Delete account</button>`,
		"/ariahidden": `<button id="cover" aria-hidden="true" tabindex="-1">Delete account</button>`,
		"/link":       `<a id="cover" href="#deleted">Delete account</a>`,
		"/rolebutton": `<div id="cover" role="button">Delete account</div>`,
		"/onclick":    `<span id="cover" onclick="">Delete account</span>`,
		"/field":      `<input id="cover" aria-label="Delete">`,
		"/drawn":      `<span id="box"></span>`,
		"/plaintext":  `<span id="cover"> and more</span>`,
	}
	pages := map[string]string{}
	for path, c := range covers {
		pages[path] = strings.Replace(labelCover, "%s", c, 1)
	}
	site := newActSite(t, pages)
	b := actBrowser(t)
	for path := range covers {
		t.Run(path, func(t *testing.T) {
			a := openActTab(t, b, site.url(path))
			res, err := a.act(Action{Kind: ActCheck}, a.target("#tgt", "checkbox"), 10*time.Second)
			var checked bool
			a.eval(`document.getElementById("tgt").checked`, &checked)
			var del []string
			a.eval(`del`, &del)
			switch path {
			case "/drawn", "/plaintext":
				// Nothing interactive over the point: the label passes
				// the click to the checkbox (plaintext covers it with a
				// plain span of the label's own words).
				wantOutcome(t, res, err, OutcomeDone)
				if !checked {
					t.Fatal("the check through the label left the box unchecked")
				}
				if path == "/plaintext" && len(del) == 0 {
					t.Fatal("the click did not go through the label's words")
				}
			default:
				if Reason(err) != ReasonObscured || ActionSent(err) {
					t.Fatalf("got %+v %v (sent %v), want obscured, nothing sent", res, err, ActionSent(err))
				}
				if checked || len(del) != 0 {
					t.Fatalf("the cover got %v; checked %v", del, checked)
				}
			}
		})
	}
}

// TestGotoPastBeforeunload: a page whose beforeunload handler asks to stay
// cannot keep the tab: once a click gave it the user activation the
// browser asks for before showing that dialog, Goto still leaves it, as a
// person who confirms "Leave" (the trap used to fail every later
// navigation with net::ERR_ABORTED). An action's own navigation is still
// answered as before: the dialog is dismissed (and reported as the
// action's) and the page stays.
func TestGotoPastBeforeunload(t *testing.T) {
	site := newActSite(t, map[string]string{
		"/trap": `<!DOCTYPE html><title>t</title><button id="b">Hello</button><a id="out" href="/next">Next</a>
<script>addEventListener("beforeunload", e => { e.preventDefault(); e.returnValue = "Stay?"; })</script>`,
		"/next": `<!DOCTYPE html><title>n</title><p>next</p>`,
	})
	b := actBrowser(t)
	a := openActTab(t, b, site.url("/trap"))
	res, err := a.act(Action{Kind: ActClick}, a.target("#b", "button"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	res, err = a.act(Action{Kind: ActClick}, a.target("#out", "link"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	if a.location() != "/trap" || len(res.Dialogs) != 1 || res.Dialogs[0].Type != "beforeunload" {
		t.Fatalf("the link's navigation: at %s, dialogs %+v", a.location(), res.Dialogs)
	}
	for i := 0; i < 2; i++ {
		nav, err := a.p.Goto(a.ctx, site.url("/next?"+string(rune('a'+i))), UntilLoad, time.Now().Add(20*time.Second))
		if err != nil || nav.ErrorText != "" || nav.Status != 200 {
			t.Fatalf("navigation %d: %+v %v", i, nav, err)
		}
		if want := "/next?" + string(rune('a'+i)); a.location() != want {
			t.Fatalf("at %s, want %s", a.location(), want)
		}
		if _, err := a.p.Goto(a.ctx, site.url("/trap"), UntilLoad, time.Now().Add(20*time.Second)); err != nil {
			t.Fatal(err)
		}
		res, err := a.act(Action{Kind: ActClick}, a.target("#b", "button"), 10*time.Second)
		wantOutcome(t, res, err, OutcomeDone)
	}
}

// TestGotoRetriesWhenPageAborts: a page that navigates itself, with the
// user activation of the click just before, as Goto leaves it cancels
// Goto's navigation (net::ERR_ABORTED, the page gone where it wanted):
// Goto tries once more and gets where it was sent. A navigation aborted
// after its response came (a 204) is not asked for again.
func TestGotoRetriesWhenPageAborts(t *testing.T) {
	nextAsked := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		n := asked[r.URL.Path]
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/p":
			w.Write([]byte(`<!DOCTYPE html><title>p</title><button id="b">Hello</button>
<script>addEventListener("beforeunload", () => setTimeout(() => location.href = "/next", 50), {once: true})</script>`))
		case "/next":
			once.Do(func() { close(nextAsked) })
			w.Write([]byte(`<!DOCTYPE html><title>n</title><p>next</p>`))
		case "/slow":
			// The first request is answered once the page has gone its
			// own way, so Goto's navigation is still under way when it
			// does.
			if n == 1 {
				select {
				case <-nextAsked:
				case <-time.After(10 * time.Second):
				}
			}
			w.Write([]byte(`<!DOCTYPE html><title>s</title><p>slow</p>`))
		case "/nocontent":
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	t.Cleanup(srv.Close)
	b := actBrowser(t)
	a := openActTab(t, b, srv.URL+"/p")
	res, err := a.act(Action{Kind: ActClick}, a.target("#b", "button"), 10*time.Second)
	wantOutcome(t, res, err, OutcomeDone)
	nav, err := a.p.Goto(a.ctx, srv.URL+"/slow", UntilLoad, time.Now().Add(20*time.Second))
	if err != nil || nav.ErrorText != "" || nav.Status != 200 || a.location() != "/slow" {
		t.Fatalf("%+v %v at %s", nav, err, a.location())
	}
	mu.Lock()
	n := asked["/slow"]
	mu.Unlock()
	if n != 2 {
		t.Fatalf("/slow asked %d times, want 2 (the page's move, then once more)", n)
	}
	nav, err = a.p.Goto(a.ctx, srv.URL+"/nocontent", UntilLoad, time.Now().Add(20*time.Second))
	if err != nil || nav.ErrorText != "net::ERR_ABORTED" {
		t.Fatalf("204: %+v %v", nav, err)
	}
	mu.Lock()
	n = asked["/nocontent"]
	mu.Unlock()
	if n != 1 {
		t.Fatalf("a 204 was asked for %d times", n)
	}
}

// TestActPopupsSendNothing: a window the page opens is closed before it
// sends a request: to an origin the policy refuses (whose server would
// get the profile's cookies) and to the page's own alike, however it was
// opened, a blank window the page's script opens and at once points
// elsewhere (its location set, or a form written into it and submitted)
// included. Each used to send its first request, and was closed after.
func TestActPopupsSendNothing(t *testing.T) {
	other := newActSite(t, map[string]string{"/": `<p>o</p>`})
	out := other.url("/")
	site := newActSite(t, map[string]string{
		"/": `<!DOCTYPE html><title>p</title>
<a id="link" target="_blank" href="` + out + `?link">Link</a>
<a id="own" target="_blank" href="/mine?link">Own</a>
<button id="open" onclick="window.open('` + out + `?open')">Open</button>
<button id="noopener" onclick="window.open('` + out + `?noopener', '_blank', 'noopener')">No opener</button>
<button id="script" onclick="const w = window.open(); w.location = '` + out + `?script'">Script</button>
<button id="written" onclick="const w = window.open(); w.document.write('<form action=` + out + `><input name=written></form>'); w.document.forms[0].submit()">Written</button>
<button id="hop" onclick="window.open('/redirect?to=` + out + `%3Fhop')">Redirect</button>
<form target="_blank" action="` + out + `"><input name="form" value="x"><button id="form">Form</button></form>`,
		"/mine": `<p>mine</p>`,
	})
	b := actBrowser(t)
	a := openActTab(t, b, "")
	allowed := site.srv.URL
	if err := a.p.Guard(a.ctx, func(u string) bool { return strings.HasPrefix(u, allowed+"/") }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.p.Goto(a.ctx, site.url("/"), UntilLoad, time.Now().Add(20*time.Second)); err != nil {
		t.Fatal(err)
	}
	tabs := pageTargets(t, a, -1)
	for _, sel := range []string{"#link", "#own", "#open", "#noopener", "#hop", "#form", "#script", "#written"} {
		res, err := a.act(Action{Kind: ActClick}, a.target(sel, "button"), 10*time.Second)
		wantOutcome(t, res, err, OutcomeDone)
		if res.PopupsClosed != 1 {
			t.Errorf("%s: %d windows closed, want 1", sel, res.PopupsClosed)
		}
	}
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the refused origin was asked %v", got)
	}
	for _, r := range site.requests() {
		// The browser asks for the tab's icon itself.
		if r != "GET /" && r != "GET /favicon.ico" {
			t.Errorf("a window asked the page's own origin %s", r)
		}
	}
	if n := pageTargets(t, a, tabs); n != tabs {
		t.Fatalf("%d tabs open, want %d", n, tabs)
	}
	// The tabs the package opens itself still load.
	c := openActTab(t, b, site.url("/mine"))
	if c.location() != "/mine" {
		t.Fatalf("a new tab is at %s", c.location())
	}
}

// TestPopupDocumentsHeldBrowserWide: the browser-wide hold alone, without
// the paused attachment to new windows, fails the first request of a blank
// window the page's script opens and points elsewhere in the same task,
// the race the attachment can lose; the tab's own documents and those of
// its frames (of its own site and of another) go on.
func TestPopupDocumentsHeldBrowserWide(t *testing.T) {
	other := newActSite(t, map[string]string{"/": `<p>o</p>`})
	// Another site (localhost, not 127.0.0.1) gets a renderer of its own:
	// its frame becomes a target of its own once it commits.
	third := newActSite(t, map[string]string{"/": `<p>third</p>`})
	thirdURL := strings.Replace(third.url("/"), "127.0.0.1", "localhost", 1)
	site := newActSite(t, map[string]string{
		"/":      `<!DOCTYPE html><title>p</title><iframe src="/frame"></iframe><iframe src="` + thirdURL + `"></iframe>`,
		"/frame": `<p>frame</p>`,
		"/next":  `<p>next</p>`,
	})
	b := actBrowser(t)
	a := openActTab(t, b, "")
	if err := b.holdPopupDocuments(a.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.p.Goto(a.ctx, site.url("/"), UntilLoad, time.Now().Add(20*time.Second)); err != nil {
		t.Fatal(err)
	}
	if !site.asked("GET /frame") || !third.asked("GET /") {
		t.Fatalf("the tab's frames were not loaded: %v, %v", site.requests(), third.requests())
	}
	res, err := a.p.client.Runtime.Evaluate(a.ctx, runtime.NewEvaluateArgs(
		`const w = window.open(); w.location = "`+other.url("/")+`?script"; true`).SetUserGesture(true))
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("opening the window: %v %+v", err, res)
	}
	deadline := time.Now().Add(20 * time.Second)
	for b.popups.documentsFailed.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := b.popups.documentsFailed.Load(); n != 1 {
		t.Fatalf("%d documents of windows failed, want 1", n)
	}
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the window asked %v", got)
	}
	if _, err := a.p.Goto(a.ctx, site.url("/next"), UntilLoad, time.Now().Add(20*time.Second)); err != nil || a.location() != "/next" {
		t.Fatalf("the tab's own navigation: %v at %s", err, a.location())
	}
}
