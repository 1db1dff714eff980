package live

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// actOn acts on a target given as it is, not found by a reference: the
// checks of the element and of the input are tested with targets no page
// view would publish (a role that does not fit, a node that is gone). The
// action is checked before the revision, as each fake page has one.
func (s *Session) actOn(ctx context.Context, expected string, a Action, t *domsnap.ActionTarget, o ActOptions) (ActResult, error) {
	if err := a.check(t); err != nil {
		return ActResult{}, err
	}
	return s.act(ctx, expected, a, o, func(nav uint64) (*domsnap.ActionTarget, error) {
		return t, s.checkCurrent(expected, nav)
	})
}

// fakeActor is a tab that acts on nothing: it answers the checks with the
// facts it is given and counts what reached the page.
type fakeActor struct {
	nav      uint64
	facts    elementFacts
	resolveE error
	prep     prepared
	sendE    error
	eff      effects
	waitE    error
	popups   int64
	// opened lists the calls that reach the page in order: "watch" and
	// "send" are the ones a refused action must never make.
	calls []string
}

func (f *fakeActor) Navigations(context.Context) (uint64, error) { return f.nav, nil }

func (f *fakeActor) resolve(ctx context.Context, id int64, _ string, _ bool) (elemRef, elementFacts, error) {
	f.calls = append(f.calls, "resolve")
	return "el", f.facts, f.resolveE
}

func (f *fakeActor) prepare(ctx context.Context, a Action, el elemRef) (prepared, error) {
	f.calls = append(f.calls, "prepare")
	return f.prep, nil
}

func (f *fakeActor) watch(ctx context.Context) (effectWatch, error) {
	f.calls = append(f.calls, "watch")
	return fakeWatch{f}, nil
}

func (f *fakeActor) send(ctx context.Context, a Action, el elemRef, p prepared) error {
	f.calls = append(f.calls, "send")
	f.popups += 2
	return f.sendE
}

func (f *fakeActor) popupsClosed() int64 { return f.popups }
func (f *fakeActor) answerDialogs(Action) func() ([]Dialog, int) {
	return func() ([]Dialog, int) { return nil, 0 }
}
func (f *fakeActor) dialogsOutside() int64 { return 0 }
func (f *fakeActor) stopLoading(context.Context) error {
	f.calls = append(f.calls, "stop")
	return nil
}
func (f *fakeActor) releaseAct(ctx context.Context) { f.calls = append(f.calls, "release") }

type fakeWatch struct{ f *fakeActor }

func (w fakeWatch) wait(context.Context, ActOptions, time.Time, bool) (effects, error) {
	return w.f.eff, w.f.waitE
}
func (fakeWatch) close() {}

func (f *fakeActor) sent() bool {
	for _, c := range f.calls {
		if c == "send" || c == "watch" {
			return true
		}
	}
	return false
}

// button is the facts of a plain visible, enabled button.
var button = elementFacts{Connected: true, Tag: "button", Rendered: true, Box: true, Checked: "false"}

// actSession is a session over f with one published observation,
// returning its revision.
func actSession(t *testing.T, f *fakeActor) (*Session, string) {
	t.Helper()
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.seq, s.pubNav = 3, f.nav
	rev, err := domsnap.LiveRevision(s.id, f.nav, 3)
	if err != nil {
		t.Fatal(err)
	}
	return s, rev
}

func act(t *testing.T, f *fakeActor, a Action, tg *domsnap.ActionTarget) (ActResult, error, *Session, string) {
	t.Helper()
	s, rev := actSession(t, f)
	res, err := s.actOn(context.Background(), rev, a, tg, ActOptions{Deadline: time.Now().Add(time.Minute)})
	return res, err, s, rev
}

func TestActionCheck(t *testing.T) {
	tg := &domsnap.ActionTarget{BackendNodeID: 7, Role: "textbox"}
	under := strings.Repeat("a", limits.MaxTypeUnits-1)
	fileTg := &domsnap.ActionTarget{BackendNodeID: 8, Role: "button"}
	stage := func(context.Context) (string, error) { return "/f", nil }
	for _, c := range []struct {
		name string
		a    Action
		t    *domsnap.ActionTarget
		code errcode.Code
		path string
	}{
		{"unknown kind", Action{Kind: 99}, tg, errcode.InvalidRequest, "/action"},
		{"zero kind", Action{}, tg, errcode.InvalidRequest, "/action"},
		{"click without ref", Action{Kind: ActClick}, nil, errcode.InvalidRequest, "/ref"},
		{"type without ref", Action{Kind: ActType}, nil, errcode.InvalidRequest, "/ref"},
		{"back with ref", Action{Kind: ActBack}, tg, errcode.InvalidRequest, "/ref"},
		{"text on click", Action{Kind: ActClick, Text: "x"}, tg, errcode.InvalidRequest, "/text"},
		{"option on type", Action{Kind: ActType, Option: "x"}, tg, errcode.InvalidRequest, "/option"},
		{"key on scroll", Action{Kind: ActScroll, Key: "Enter"}, nil, errcode.InvalidRequest, "/key"},
		{"unknown key", Action{Kind: ActPress, Key: "F5"}, nil, errcode.InvalidRequest, "/key"},
		{"lower-case key", Action{Kind: ActPress, Key: "enter"}, nil, errcode.InvalidRequest, "/key"},
		{"press without key", Action{Kind: ActPress}, nil, errcode.InvalidRequest, "/key"},
		{"text not UTF-8", Action{Kind: ActType, Text: "a\xffb"}, tg, errcode.InvalidRequest, "/text"},
		{"text just under", Action{Kind: ActType, Text: under}, tg, "", ""},
		{"text at the bound", Action{Kind: ActType, Text: under + "a"}, tg, "", ""},
		{"text just over", Action{Kind: ActType, Text: under + "aa"}, tg, errcode.InvalidRequest, "/text"},
		// A surrogate pair counts two units: one pair past the last free
		// unit passes the bound.
		{"pair over the bound", Action{Kind: ActType, Text: under + "😀"}, tg, errcode.InvalidRequest, "/text"},
		{"empty text", Action{Kind: ActType}, tg, "", ""},
		{"secret target", Action{Kind: ActType, Text: "x"}, &domsnap.ActionTarget{Role: "textbox", HumanOnly: true}, errcode.HumanOnly, ""},
		{"press on focus", Action{Kind: ActPress, Key: "Space"}, nil, "", ""},
		{"scroll the page", Action{Kind: ActScroll}, nil, "", ""},
		{"back", Action{Kind: ActBack}, nil, "", ""},
		{"upload by file", Action{Kind: ActUpload, File: "/f"}, fileTg, "", ""},
		{"upload by stage", Action{Kind: ActUpload, Stage: stage}, fileTg, "", ""},
		{"upload without file", Action{Kind: ActUpload}, fileTg, errcode.InvalidRequest, "/path"},
		{"upload by both", Action{Kind: ActUpload, File: "/f", Stage: stage}, fileTg, errcode.InvalidRequest, "/path"},
		{"stage on click", Action{Kind: ActClick, Stage: stage}, fileTg, errcode.InvalidRequest, "/path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.a.check(c.t)
			if errcode.CodeOf(err) != c.code {
				t.Fatalf("got %v, want %q", err, c.code)
			}
			var e *errcode.Error
			if errors.As(err, &e) && e.Path != c.path {
				t.Fatalf("path %q, want %q", e.Path, c.path)
			}
		})
	}
}

func TestActionKindNames(t *testing.T) {
	for _, n := range []string{"click", "type", "select", "check", "uncheck", "press", "scroll", "back", "hover", "upload"} {
		k, ok := ParseActionKind(n)
		if !ok || k.String() != n {
			t.Errorf("%s: %v %v", n, k, ok)
		}
	}
	if _, ok := ParseActionKind("drag"); ok {
		t.Error("drag parsed")
	}
	want := "Enter Tab Escape Backspace Delete Space ArrowUp ArrowDown ArrowLeft ArrowRight PageUp PageDown Home End"
	if got := strings.Join(Keys(), " "); got != want {
		t.Errorf("keys %s", got)
	}
	enter, _ := keyByName("Enter")
	if enter.vk != 13 || enter.text != "\r" || enter.code != "Enter" {
		t.Errorf("Enter is %+v", enter)
	}
}

func TestJudge(t *testing.T) {
	with := func(mod func(*elementFacts)) elementFacts {
		f := button
		mod(&f)
		return f
	}
	text := with(func(f *elementFacts) { f.Tag, f.Type, f.Text = "input", "text", true })
	sel := with(func(f *elementFacts) { f.Tag = "select" })
	box := with(func(f *elementFacts) { f.Tag, f.Type = "input", "checkbox" })
	for _, c := range []struct {
		name   string
		a      ActionKind
		role   string
		f      elementFacts
		code   errcode.Code
		reason string
	}{
		{"click a button", ActClick, "button", button, "", ""},
		{"detached first", ActClick, "button", with(func(f *elementFacts) { f.Connected, f.Rendered, f.Disabled = false, false, true }), errcode.NotActionable, ReasonDetached},
		{"not rendered", ActClick, "button", with(func(f *elementFacts) { f.Rendered = false }), errcode.NotActionable, ReasonHidden},
		{"no box", ActClick, "button", with(func(f *elementFacts) { f.Box = false }), errcode.NotActionable, ReasonHidden},
		{"hidden before disabled", ActClick, "button", with(func(f *elementFacts) { f.Box, f.Disabled = false, true }), errcode.NotActionable, ReasonHidden},
		{"disabled", ActClick, "button", with(func(f *elementFacts) { f.Disabled = true }), errcode.NotActionable, ReasonDisabled},
		{"disabled before wrong role", ActType, "button", with(func(f *elementFacts) { f.Disabled = true }), errcode.NotActionable, ReasonDisabled},
		{"type into text", ActType, "textbox", text, "", ""},
		{"type into read-only", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.ReadOnly = true }), errcode.NotActionable, ReasonDisabled},
		{"click read-only", ActClick, "textbox", with(func(f *elementFacts) { *f = text; f.ReadOnly = true }), "", ""},
		{"type into a button", ActType, "button", button, errcode.NotActionable, ReasonWrongRole},
		{"type into a select combobox", ActType, "combobox", sel, errcode.NotActionable, ReasonWrongRole},
		{"type into a text combobox", ActType, "combobox", text, "", ""},
		{"type into password", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.Type = "password" }), errcode.HumanOnly, ""},
		{"password even hidden", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.Type, f.Rendered = "password", false }), errcode.HumanOnly, ""},
		{"click a password field", ActClick, "textbox", with(func(f *elementFacts) { *f = text; f.Type = "password" }), "", ""},
		{"one-time code", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.Autocomplete = "one-time-code" }), errcode.HumanOnly, ""},
		{"current password, upper case", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.Autocomplete = " section-x CURRENT-PASSWORD " }), errcode.HumanOnly, ""},
		{"new password", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.Autocomplete = "new-password" }), errcode.HumanOnly, ""},
		{"username is fine", ActType, "textbox", with(func(f *elementFacts) { *f = text; f.Autocomplete = "username" }), "", ""},
		{"select a select", ActSelect, "combobox", sel, "", ""},
		{"select a listbox select", ActSelect, "listbox", sel, "", ""},
		{"select an aria listbox", ActSelect, "listbox", button, errcode.NotActionable, ReasonWrongRole},
		{"select a text field", ActSelect, "textbox", text, errcode.NotActionable, ReasonWrongRole},
		{"check a checkbox", ActCheck, "checkbox", box, "", ""},
		{"check a switch", ActCheck, "switch", button, "", ""},
		{"check a button", ActCheck, "button", button, errcode.NotActionable, ReasonWrongRole},
		{"uncheck a checked radio", ActUncheck, "radio", with(func(f *elementFacts) { f.Checked = "true" }), errcode.NotActionable, ReasonWrongRole},
		{"uncheck an unchecked radio", ActUncheck, "radio", button, "", ""},
		{"press anything", ActPress, "link", button, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := judge(Action{Kind: c.a}, &domsnap.ActionTarget{Role: c.role}, c.f)
			if errcode.CodeOf(err) != c.code || Reason(err) != c.reason {
				t.Fatalf("got %v, want %q %q", err, c.code, c.reason)
			}
		})
	}
}

// TestActRefusedSendsNothing: every refusal, at every step before the
// input, leaves the page untouched (no watch, no send) and the revision
// current.
func TestActRefusedSendsNothing(t *testing.T) {
	tg := &domsnap.ActionTarget{BackendNodeID: 5, Role: "button"}
	for _, c := range []struct {
		name   string
		f      fakeActor
		a      Action
		t      *domsnap.ActionTarget
		code   errcode.Code
		reason string
	}{
		{"detached", fakeActor{resolveE: notActionable(ReasonDetached, "x")}, Action{Kind: ActClick}, tg, errcode.NotActionable, ReasonDetached},
		{"disabled", fakeActor{facts: elementFacts{Connected: true, Rendered: true, Box: true, Disabled: true}}, Action{Kind: ActClick}, tg, errcode.NotActionable, ReasonDisabled},
		{"obscured", fakeActor{facts: button}, Action{Kind: ActClick}, tg, errcode.NotActionable, ReasonObscured},
		{"no box once scrolled", fakeActor{facts: button, prep: prepared{NoBox: true}}, Action{Kind: ActCheck}, &domsnap.ActionTarget{Role: "checkbox"}, errcode.NotActionable, ReasonHidden},
		{"option not listed", fakeActor{facts: elementFacts{Connected: true, Rendered: true, Box: true, Tag: "select"}}, Action{Kind: ActSelect, Option: "b"}, &domsnap.ActionTarget{Role: "combobox", Options: []string{"a"}}, errcode.NotActionable, ReasonNoSuchOption},
		{"option not in the page", fakeActor{facts: elementFacts{Connected: true, Rendered: true, Box: true, Tag: "select"}, prep: prepared{Option: -1}}, Action{Kind: ActSelect, Option: "a"}, &domsnap.ActionTarget{Role: "combobox", Options: []string{"a"}}, errcode.NotActionable, ReasonNoSuchOption},
		{"option disabled", fakeActor{facts: elementFacts{Connected: true, Rendered: true, Box: true, Tag: "select"}, prep: prepared{Option: 2, OptionDisabled: true}}, Action{Kind: ActSelect, Option: "a"}, &domsnap.ActionTarget{Role: "combobox"}, errcode.NotActionable, ReasonDisabled},
		{"no history", fakeActor{}, Action{Kind: ActBack}, nil, errcode.NotActionable, ReasonNoHistory},
		{"password", fakeActor{facts: elementFacts{Connected: true, Rendered: true, Box: true, Tag: "input", Type: "password", Text: true}}, Action{Kind: ActType, Text: "pw"}, &domsnap.ActionTarget{Role: "textbox"}, errcode.HumanOnly, ""},
		{"malformed", fakeActor{}, Action{Kind: ActType}, nil, errcode.InvalidRequest, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.f
			_, err, s, rev := act(t, &f, c.a, c.t)
			if errcode.CodeOf(err) != c.code || Reason(err) != c.reason {
				t.Fatalf("got %v, want %q %q", err, c.code, c.reason)
			}
			if f.sent() || ActionSent(err) {
				t.Fatalf("a refused action reached the page: %v", f.calls)
			}
			if cur, ok, _ := s.Revision(context.Background()); !ok || cur != rev {
				t.Fatalf("revision %s current=%v after a refusal", cur, ok)
			}
		})
	}
}

func TestActUnchanged(t *testing.T) {
	for _, c := range []struct {
		a       ActionKind
		checked string
		want    Outcome
	}{
		{ActCheck, "true", OutcomeUnchanged},
		{ActUncheck, "false", OutcomeUnchanged},
		{ActCheck, "false", OutcomeDone},
		{ActUncheck, "true", OutcomeDone},
		{ActCheck, "mixed", OutcomeDone},
		{ActUncheck, "mixed", OutcomeDone},
	} {
		f := &fakeActor{facts: button, prep: prepared{Hits: true}}
		f.facts.Checked = c.checked
		res, err, s, _ := act(t, f, Action{Kind: c.a}, &domsnap.ActionTarget{Role: "checkbox"})
		if err != nil || res.Outcome != c.want {
			t.Fatalf("%v on %s: %+v %v", c.a, c.checked, res, err)
		}
		_, current, _ := s.Revision(context.Background())
		if (c.want == OutcomeUnchanged) != !f.sent() || current != !f.sent() {
			t.Fatalf("%v on %s: calls %v, revision current %v", c.a, c.checked, f.calls, current)
		}
	}
}

// TestActAfterSending: what the page did after the input decides the
// outcome; an error after the input carries action_sent, and the last
// observation is no longer current either way.
func TestActAfterSending(t *testing.T) {
	tg := &domsnap.ActionTarget{Role: "button"}
	hits := prepared{Hits: true}
	for _, c := range []struct {
		name    string
		f       fakeActor
		outcome Outcome
		code    errcode.Code
		// pending: a navigation is left for Session.Act to stop.
		pending bool
	}{
		{"done", fakeActor{}, OutcomeDone, "", false},
		{"navigated", fakeActor{eff: effects{Started: true, Committed: true, Status: 201, Loaded: true}}, OutcomeNavigated, "", false},
		{"navigation never committed", fakeActor{eff: effects{Started: true}}, OutcomeUncertain, "", true},
		{"busy", fakeActor{eff: effects{Busy: true}}, OutcomeUncertain, "", false},
		{"navigation asked, not begun", fakeActor{eff: effects{Asked: true}}, OutcomeUncertain, "", true},
		{"refused", fakeActor{eff: effects{Started: true, Refused: true}}, "", errcode.NavigationRefused, false},
		{"send failed", fakeActor{sendE: errcode.New(errcode.Timeout, pkg, "", "deadline passed")}, "", errcode.Timeout, false},
		{"wait cancelled", fakeActor{waitE: errcode.New(errcode.Cancelled, pkg, "", "context done")}, "", errcode.Cancelled, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.f
			f.facts, f.prep = button, hits
			res, err, s, rev := act(t, &f, Action{Kind: ActClick}, tg)
			if errcode.CodeOf(err) != c.code || res.Outcome != c.outcome {
				t.Fatalf("got %+v %v", res, err)
			}
			if (err != nil) != ActionSent(err) {
				t.Fatalf("an error after sending lacks action_sent: %v", err)
			}
			if res.Pending != c.pending {
				t.Fatalf("pending %v", res.Pending)
			}
			if c.outcome == OutcomeNavigated && (res.HTTPStatus != 201 || !res.LoadComplete) {
				t.Fatalf("navigated: %+v", res)
			}
			if c.code != errcode.Timeout && res.PopupsClosed != 2 {
				t.Fatalf("popups %d, want 2", res.PopupsClosed)
			}
			if _, ok, _ := s.Revision(context.Background()); ok {
				t.Fatal("the revision is current after input was sent")
			}
			_, err = s.actOn(context.Background(), rev, Action{Kind: ActClick}, tg, ActOptions{})
			if errcode.CodeOf(err) != errcode.StaleRevision {
				t.Fatalf("acting again on the old revision: %v", err)
			}
		})
	}
}

func TestActRevisionChecked(t *testing.T) {
	f := &fakeActor{facts: button, prep: prepared{Hits: true}}
	s, rev := actSession(t, f)
	other, _ := domsnap.LiveRevision("0123456789abcdef", 0, 3)
	older, _ := domsnap.LiveRevision(s.id, 0, 2)
	for _, c := range []struct {
		rev  string
		code errcode.Code
	}{
		{"", errcode.ForeignRevision},
		{"r1.junk", errcode.ForeignRevision},
		{other, errcode.ForeignRevision},
		{older, errcode.StaleRevision},
	} {
		_, err := s.actOn(context.Background(), c.rev, Action{Kind: ActClick}, &domsnap.ActionTarget{Role: "button"}, ActOptions{})
		if errcode.CodeOf(err) != c.code || len(f.calls) != 0 {
			t.Fatalf("%q: %v, calls %v", c.rev, err, f.calls)
		}
	}
	f.nav = 1
	_, err := s.actOn(context.Background(), rev, Action{Kind: ActClick}, &domsnap.ActionTarget{Role: "button"}, ActOptions{})
	if errcode.CodeOf(err) != errcode.NavigatedRevision || len(f.calls) != 0 {
		t.Fatalf("after a navigation: %v, calls %v", err, f.calls)
	}
}

// TestActAdapterWithoutInput: a driver that cannot act answers
// unsupported_adapter.
func TestActAdapterWithoutInput(t *testing.T) {
	s, err := NewSession(&fakeTab{}, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.actOn(context.Background(), "", Action{Kind: ActBack}, nil, ActOptions{})
	if errcode.CodeOf(err) != errcode.UnsupportedAdapter {
		t.Fatal(err)
	}
}

// TestActTextNeverInErrors plants a canary in the typed text and reads
// every error and result of the paths a type action can take.
func TestActTextNeverInErrors(t *testing.T) {
	const canary = "CANARY-5e0c"
	text := &elementFacts{Connected: true, Rendered: true, Box: true, Tag: "input", Type: "text", Text: true}
	for _, f := range []fakeActor{
		{facts: *text},
		{facts: *text, sendE: errcode.New(errcode.CaptureFailed, pkg, "", "Input.insertText failed")},
		{facts: elementFacts{Connected: true, Rendered: true, Box: true, Tag: "input", Type: "password", Text: true}},
		{facts: button},
		{resolveE: notActionable(ReasonDetached, "gone")},
	} {
		for _, txt := range []string{canary, canary + "\xff", strings.Repeat(canary, limits.MaxTypeUnits)} {
			f := f
			res, err, _, _ := act(t, &f, Action{Kind: ActType, Text: txt}, &domsnap.ActionTarget{Role: "textbox"})
			out := string(res.Outcome)
			if err != nil {
				out += err.Error()
			}
			if strings.Contains(out, "CANARY") {
				t.Fatalf("the typed text leaked: %.100s", out)
			}
		}
	}
}

func TestQuadGeometry(t *testing.T) {
	rect := []float64{10, 20, 20, 20, 20, 40, 10, 40}
	if a := quadArea(rect); a != 200 {
		t.Errorf("area %v, want 200", a)
	}
	if a := quadArea([]float64{5, 5, 5, 5, 5, 5, 5, 5}); a != 0 {
		t.Errorf("a point has area %v", a)
	}
	for _, c := range [][3]float64{{-3, 800, 0}, {400, 800, 400}, {800, 800, 799}, {1e9, 800, 799}} {
		if got := clamp(c[0], c[1]); got != c[2] {
			t.Errorf("clamp(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
}

// viewPage is the offline page whose observation stands for the latest one
// the fake sessions published: a button, a text field, a password field.
const viewPage = `<!DOCTYPE html><html><body><button>Go</button>` +
	`<input type="text" aria-label="Name"><input type="password" aria-label="PIN"></body></html>`

// publishView makes an observation of viewPage the latest one s published,
// under s's current revision, as Observe would have, and returns it with
// the action references of its controls by name.
func publishView(t *testing.T, s *Session) (*domsnap.Observation, map[string]string) {
	t.Helper()
	in, err := snapshot.Load([]byte(viewPage), snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := domsnap.LiveRevision(s.id, s.pubNav, s.seq)
	if err != nil {
		t.Fatal(err)
	}
	o, err := domsnap.Observe(in.Tree, rev, nil)
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]string{}
	for _, c := range o.Controls {
		refs[c.Name] = c.Ref
	}
	if len(refs) != 3 {
		t.Fatalf("controls %+v", o.Controls)
	}
	s.last = o
	return o, refs
}

// TestActByReference: Act finds its element by the reference the latest
// observation published, after the revision check and before anything is
// sent; a reference it did not publish, or one named while the latest
// publication has no page view, sends nothing and leaves the revision
// current.
func TestActByReference(t *testing.T) {
	f := &fakeActor{facts: button, prep: prepared{Hits: true}}
	s, rev := actSession(t, f)
	_, refs := publishView(t, s)
	older, _ := domsnap.LiveRevision(s.id, 0, 2)
	ctx := context.Background()
	for _, c := range []struct {
		name, rev, ref string
		a              Action
		code           errcode.Code
	}{
		{"not a reference", rev, "x", Action{Kind: ActClick}, errcode.InvalidReference},
		{"a region's place", rev, "g3.1", Action{Kind: ActClick}, errcode.InvalidReference},
		{"another observation's", rev, "a2.1", Action{Kind: ActClick}, errcode.UnknownReference},
		{"past the controls", rev, "a3.9", Action{Kind: ActClick}, errcode.UnknownReference},
		{"revision before reference", older, "x", Action{Kind: ActClick}, errcode.StaleRevision},
		{"no reference for a click", rev, "", Action{Kind: ActClick}, errcode.InvalidRequest},
		{"a reference for back", rev, refs["Go"], Action{Kind: ActBack}, errcode.InvalidRequest},
		{"typing into the password field", rev, refs["PIN"], Action{Kind: ActType, Text: "x"}, errcode.HumanOnly},
	} {
		_, err := s.Act(ctx, c.rev, c.ref, c.a, ActOptions{})
		if errcode.CodeOf(err) != c.code || len(f.calls) != 0 || ActionSent(err) {
			t.Fatalf("%s: %v, calls %v", c.name, err, f.calls)
		}
		if _, ok, _ := s.Revision(ctx); !ok {
			t.Fatalf("%s: the revision is no longer current", c.name)
		}
	}
	// The button's reference reaches the element: the checks pass, the
	// click is sent, and the observation after it is asked of a driver that
	// takes none, which the error says, with action_sent.
	_, err := s.Act(ctx, rev, refs["Go"], Action{Kind: ActClick}, ActOptions{})
	if errcode.CodeOf(err) != errcode.UnsupportedAdapter || !ActionSent(err) || !f.sent() {
		t.Fatalf("click by reference: %v, calls %v", err, f.calls)
	}
	// A latest publication without a page view names no element.
	f2 := &fakeActor{facts: button, prep: prepared{Hits: true}}
	s2, rev2 := actSession(t, f2)
	if _, err := s2.Act(ctx, rev2, refs["Go"], Action{Kind: ActClick}, ActOptions{}); errcode.CodeOf(err) != errcode.ForeignRevision || len(f2.calls) != 0 {
		t.Fatalf("no page view: %v, calls %v", err, f2.calls)
	}
	// Acting without a reference needs no page view.
	if _, err := s2.Act(ctx, rev2, "", Action{Kind: ActScroll}, ActOptions{}); !ActionSent(err) {
		t.Fatalf("scroll: %v, calls %v", err, f2.calls)
	}
}

// TestActCancelledBeforeSending: an action cancelled before its input went
// out sends nothing, yet leaves the previous observation no longer
// current, as a cancelled observation does.
func TestActCancelledBeforeSending(t *testing.T) {
	f := &fakeActor{facts: button, prep: prepared{Hits: true}, resolveE: errcode.New(errcode.Cancelled, pkg, "", "context done")}
	s, rev := actSession(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.actOn(ctx, rev, Action{Kind: ActClick}, &domsnap.ActionTarget{Role: "button"}, ActOptions{Deadline: time.Now().Add(time.Minute)})
	if errcode.CodeOf(err) != errcode.Cancelled || ActionSent(err) || f.sent() {
		t.Fatalf("got %v, calls %v", err, f.calls)
	}
	if _, ok, _ := s.Revision(context.Background()); ok {
		t.Fatal("the revision is still current after a cancelled action")
	}
}

// TestActRefusedAtInput: a check send makes at the last moment, before
// any input went out, refuses the action as sending nothing: no
// action_sent, and the revision stays current.
func TestActRefusedAtInput(t *testing.T) {
	text := elementFacts{Connected: true, Rendered: true, Box: true, Tag: "input", Type: "text", Text: true}
	for _, c := range []struct {
		name   string
		err    error
		code   errcode.Code
		reason string
	}{
		{"turned secret", &unsent{humanOnly()}, errcode.HumanOnly, ""},
		{"focus moved", &unsent{notActionable(ReasonObscured, "x")}, errcode.NotActionable, ReasonObscured},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeActor{facts: text, sendE: c.err}
			_, err, s, rev := act(t, f, Action{Kind: ActType, Text: "x"}, &domsnap.ActionTarget{Role: "textbox"})
			if errcode.CodeOf(err) != c.code || Reason(err) != c.reason || ActionSent(err) {
				t.Fatalf("got %v (sent %v), want %q %q not sent", err, ActionSent(err), c.code, c.reason)
			}
			if cur, ok, _ := s.Revision(context.Background()); !ok || cur != rev {
				t.Fatalf("revision %s current=%v after a refusal", cur, ok)
			}
		})
	}
}
