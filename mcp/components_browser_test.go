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

// TestShoelaceSignUp: a sign-up form built of Shoelace's web components,
// served from the library's own npm build, is filled and submitted through
// the tool server as an agent would: each sl-input's field, drawn inside
// the component's shadow root with its label, is a named textbox of the
// page view; the checkbox's slotted label names it; the button submits.
// What was typed into the nickname field (a canary the page never shows)
// is in no answer, no artifact and not in the server's log.
func TestShoelaceSignUp(t *testing.T) {
	const canary = "CANARY-SHADOW-3f9a1c"
	base := realapps.LibraryPages(t)
	state := filepath.Join(t.TempDir(), "state")
	s := start(t, state, "--allow-origin", base)
	var outs [][]byte
	keep := func(res *sdk.CallToolResult) *sdk.CallToolResult {
		outs = append(outs, resultText(t, res))
		return res
	}
	v := parseView(t, ok(t, keep(s.call(t, "browser_navigate", map[string]any{
		"url": base + "/shoelace.html", "wait": map[string]any{"until": "network_idle"}}))))
	// The components are defined by a module the page loads: look again,
	// as an agent would, until the button is drawn.
	for try := 0; try < 20 && !hasControl(v, "button", "Sign up"); try++ {
		v = parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{"wait": map[string]any{"settle_ms": 250}}))))
	}
	acts := []struct {
		role, name, action, text string
	}{
		{"textbox", "Name", "type", "Ada Lovelace"},
		{"textbox", "Email", "type", "ada@example.test"},
		{"textbox", "Nickname", "type", canary},
		{"checkbox", "I agree to the terms", "check", ""},
		{"button", "Sign up", "click", ""},
	}
	for _, a := range acts {
		args := map[string]any{"expected_revision": v.Revision, "action": a.action, "ref": v.ref(t, a.role, a.name)}
		if a.text != "" {
			args["text"] = a.text
		}
		v = parseView(t, ok(t, keep(s.act(t, args))))
		if v.Action == nil || v.Action.Outcome != "done" {
			t.Fatalf("%s %s %q: %+v", a.action, a.role, a.name, v.Action)
		}
	}
	want := "Welcome, Ada Lovelace (ada@example.test); terms accepted; a nickname of " + strconv.Itoa(len(canary)) + " characters."
	if !strings.Contains(v.Text, want) {
		v = parseView(t, ok(t, keep(s.call(t, "browser_observe", map[string]any{}))))
	}
	if !strings.Contains(v.Text, want) {
		t.Errorf("after submitting, the page says %q; want it to hold %q", v.Text, want)
	}
	for _, c := range v.Controls {
		if c.Role == "checkbox" && c.Name == "I agree to the terms" && c.Checked != true {
			t.Errorf("the checkbox reads checked %v after check", c.Checked)
		}
	}
	keep(s.call(t, "browser_artifact", map[string]any{"artifact": v.Artifact}))
	s.stop(t)
	nowhere(t, canary, outs, state, s.stderr.Bytes(), 1)
}

func hasControl(v view, role, name string) bool {
	for _, c := range v.Controls {
		if c.Role == role && c.Name == name {
			return true
		}
	}
	return false
}
