//go:build browser

package mcp_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/realapps"
)

// step is one browser_act an agent takes on a control it found in the page
// view by role and name.
type step struct {
	role, name, action, text string
}

// componentForm is a form of web components on one of realapps' library
// pages, filled and submitted through the tool server.
type componentForm struct {
	page   string // the page's path under the library pages' base URL
	ready  step   // a control the page view holds once the components are drawn
	steps  []step
	want   string // what the page says after the last step
	canary string // typed by one step; the page shows only its length
}

// run drives `domsnap mcp` through f's steps, each found by role and name in
// the latest page view, and checks that every step is done, that the page
// then says f.want, that each checked checkbox reads checked, and that the
// canary is in no answer, no artifact and not in the server's log. It
// returns the last page view.
func (f componentForm) run(t *testing.T) view {
	t.Helper()
	base := realapps.LibraryPages(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state, "--allow-origin", base)
	var outs [][]byte
	keep := func(res *sdk.CallToolResult) *sdk.CallToolResult {
		outs = append(outs, resultText(t, res))
		return res
	}
	v := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{
		"url": base + f.page, "wait": map[string]any{"until": "network_idle"}}))))
	// The components are defined by modules the page loads: look again,
	// as an agent would, until they are drawn.
	for try := 0; try < 20 && !hasControl(v, f.ready.role, f.ready.name); try++ {
		v = parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{"wait": map[string]any{"settle_ms": 250}}))))
	}
	for _, a := range f.steps {
		args := map[string]any{"expected_revision": v.Revision, "action": a.action, "ref": v.ref(t, a.role, a.name)}
		if a.text != "" {
			args["text"] = a.text
		}
		v = parseView(t, ok(t, keep(s.act(t, args))))
		if v.Action == nil || v.Action.Outcome != "done" {
			t.Fatalf("%s %s %q: %+v", a.action, a.role, a.name, v.Action)
		}
	}
	if !strings.Contains(v.Text, f.want) {
		v = parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{}))))
	}
	if !strings.Contains(v.Text, f.want) {
		t.Errorf("after the last step, the page says %q; want it to hold %q", v.Text, f.want)
	}
	for _, a := range f.steps {
		if a.action != "check" {
			continue
		}
		for _, c := range v.Controls {
			if c.Role == a.role && c.Name == a.name && c.Checked != true {
				t.Errorf("the %s %q reads checked %v after check", a.role, a.name, c.Checked)
			}
		}
	}
	keep(s.call(t, "browser_artifact", map[string]any{"artifact": v.Artifact}))
	s.stop(t)
	nowhere(t, f.canary, outs, state, s.stderr.Bytes(), 1)
	return v
}

// TestShoelaceSignUp: a sign-up form built of Shoelace's web components,
// served from the library's own npm build, is filled and submitted through
// the tool server as an agent would: each sl-input's field, drawn inside
// the component's shadow root with its label, is a named textbox of the
// page view; the checkbox's slotted label names it; the button submits.
// What was typed into the nickname field (a canary the page never shows)
// is in no answer, no artifact and not in the server's log.
func TestShoelaceSignUp(t *testing.T) {
	const canary = "CANARY-SHADOW-3f9a1c"
	componentForm{
		page:  "/shoelace.html",
		ready: step{role: "button", name: "Sign up"},
		steps: []step{
			{"textbox", "Name", "type", "Ada Lovelace"},
			{"textbox", "Email", "type", "ada@example.test"},
			{"textbox", "Nickname", "type", canary},
			{"checkbox", "I agree to the terms", "check", ""},
			{"button", "Sign up", "click", ""},
		},
		want:   "Welcome, Ada Lovelace (ada@example.test); terms accepted; a nickname of " + strconv.Itoa(len(canary)) + " characters.",
		canary: canary,
	}.run(t)
}

// TestMaterialWebSignUp: the same task on a form of Material Web's
// components (@material/web as npm ships it, lit underneath), which are
// form-associated custom elements: each text field draws its input and its
// label inside its shadow root, the checkbox is named by a light <label>
// wrapping it, and the filled button submits the form it sits in. The
// invite code typed in (a canary) is in no answer, artifact or log, and the
// two fields the page marks required read required.
func TestMaterialWebSignUp(t *testing.T) {
	const canary = "CANARY-MATERIAL-81d2e7"
	v := componentForm{
		page:  "/material.html",
		ready: step{role: "button", name: "Create account"},
		steps: []step{
			{"textbox", "Full name", "type", "Grace Hopper"},
			{"textbox", "Email", "type", "grace@example.test"},
			{"textbox", "Invite code", "type", canary},
			{"checkbox", "Send me product news", "check", ""},
			{"button", "Create account", "click", ""},
		},
		want:   "Account for Grace Hopper <grace@example.test>; news wanted; an invite code of " + strconv.Itoa(len(canary)) + " characters.",
		canary: canary,
	}.run(t)
	// The text fields pass their host's required on to the input they
	// draw, so the view reads it there.
	for _, name := range []string{"Full name", "Email", "Invite code"} {
		for _, c := range v.Controls {
			if c.Role == "textbox" && c.Name == name && c.Required != (name != "Invite code") {
				t.Errorf("the textbox %q reads required %v", name, c.Required)
			}
		}
	}
}

// TestLitComponent: a plain LitElement written in the page, its two inputs
// and its button in its shadow root, is used through the tool server: the
// input labelled by a <label for> of the same shadow tree and the one named
// by aria-label are textboxes of those names, and the button's click
// reaches the component. The voucher typed in (a canary) is in no answer,
// artifact or log.
func TestLitComponent(t *testing.T) {
	const canary = "CANARY-LIT-5c0b94"
	componentForm{
		page:  "/lit.html",
		ready: step{role: "button", name: "Join the list"},
		steps: []step{
			{"textbox", "Your name", "type", "Katherine Johnson"},
			{"textbox", "Voucher", "type", canary},
			{"button", "Join the list", "click", ""},
		},
		want:   "Katherine Johnson is on the list, with a voucher of " + strconv.Itoa(len(canary)) + " characters.",
		canary: canary,
	}.run(t)
}

func hasControl(v view, role, name string) bool {
	for _, c := range v.Controls {
		if c.Role == role && c.Name == name {
			return true
		}
	}
	return false
}
