//go:build browser

package mcp_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// viewAnswer is what the view tests read of an answer, keeping which of
// the view's members it had.
type viewAnswer struct {
	Revision string
	Artifact string
	Controls *[]control
	Regions  *[]json.RawMessage
	Text     *string
	Changes  *struct {
		Since           string
		Controls        []control
		ControlsRemoved []int `json:"controls_removed"`
		Regions         []json.RawMessage
		RegionsRemoved  []int `json:"regions_removed"`
		Text            *string
	}
	ControlsOmitted *int `json:"controls_omitted"`
	Action          *struct{ Outcome string }
}

// callRaw calls a tool exactly with args, through the SDK's client, so
// that a call naming no view gets the tool's default.
func callRaw(t *testing.T, s *server, name string, args map[string]any) viewAnswer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b := ok(t, res)
	var a viewAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return a
}

// numberOf is the number n of a reference a<sequence>.<n>.
func numberOf(ref string) string {
	_, n, _ := strings.Cut(ref, ".")
	return n
}

// withSeq is reference ref's number under revision rev's sequence: how an
// agent names a control an answer of changes did not mention.
func withSeq(ref, rev string) string {
	return "a" + seqOf(rev) + "." + numberOf(ref)
}

func find(t *testing.T, cs []control, role, name string) control {
	t.Helper()
	for _, c := range cs {
		if c.Role == role && c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s %q among %+v", role, name, cs)
	return control{}
}

// TestViewChanges drives a back office's changelist on real Chromium
// through the SDK's client: browser_act and browser_observe answer, by
// default, with what changed since the latest answer that gave the page's
// view; an element keeps its number from one observation to the next, so
// the agent acts on a control the changes did not mention by its earlier
// number under the new sequence; view none gives no view and is not what
// later changes are told against; view full gives the whole view with the
// same numbers; the artifact of an answer of changes is the complete
// observation; and a navigation gives the new document's whole view.
func TestViewChanges(t *testing.T) {
	web := taskSite(t)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--allow-origin", web.URL)

	nav := callRaw(t, s, "browser_navigate", map[string]any{"url": web.URL + "/admin/items"})
	if nav.Controls == nil || nav.Changes != nil {
		t.Fatalf("the first answer of a page is not its full view: %+v", nav)
	}
	box1 := find(t, *nav.Controls, "checkbox", "Select Widget 1")
	box2 := find(t, *nav.Controls, "checkbox", "Select Widget 2")
	next := find(t, *nav.Controls, "link", "Next")

	// The default: changes. Only the checkbox changed.
	a1 := callRaw(t, s, "browser_act", map[string]any{"expected_revision": nav.Revision, "action": "check", "ref": box1.Ref})
	if a1.Controls != nil || a1.Text != nil || a1.Changes == nil || a1.ControlsOmitted == nil {
		t.Fatalf("act's default answer: %+v", a1)
	}
	c := a1.Changes
	if c.Since != nav.Revision || len(c.Controls) != 1 || len(c.ControlsRemoved) != 0 || len(c.Regions) != 0 || c.Text != nil {
		t.Fatalf("changes after a check: %+v", c)
	}
	if got := c.Controls[0]; got.Name != "Select Widget 1" || got.Checked != true || got.Ref != withSeq(box1.Ref, a1.Revision) {
		t.Fatalf("the checked box: %+v, was %s", got, box1.Ref)
	}

	// An unmentioned control is acted on by its number under the new
	// sequence; view none gives no page view at all.
	a2 := callRaw(t, s, "browser_act", map[string]any{"expected_revision": a1.Revision, "action": "check", "ref": withSeq(box2.Ref, a1.Revision), "view": "none"})
	if a2.Controls != nil || a2.Changes != nil || a2.Text != nil || a2.Regions != nil || a2.ControlsOmitted != nil || a2.Action.Outcome != "done" {
		t.Fatalf("view none: %+v", a2)
	}

	// Changes are told against the latest answer that gave the view (a1),
	// not the one that gave none: the second box's check is in them.
	o := callRaw(t, s, "browser_observe", map[string]any{"view": "changes"})
	if o.Changes == nil || o.Changes.Since != a1.Revision || len(o.Changes.Controls) != 1 ||
		o.Changes.Controls[0].Name != "Select Widget 2" || o.Changes.Controls[0].Ref != withSeq(box2.Ref, o.Revision) {
		t.Fatalf("changes since the last view given: %+v", o.Changes)
	}
	// The artifact is the complete observation, whatever the answer gave.
	art := parseView(t, ok(t, s.call(t, "browser_artifact", map[string]any{"artifact": o.Artifact})))
	if len(art.Controls) != len(*nav.Controls) || art.Revision != o.Revision {
		t.Fatalf("the artifact of an answer of changes: %d controls, want %d", len(art.Controls), len(*nav.Controls))
	}

	// The full view: every control, each with its number of the first
	// observation.
	full := callRaw(t, s, "browser_observe", map[string]any{"view": "full"})
	if full.Controls == nil || len(*full.Controls) != len(*nav.Controls) {
		t.Fatalf("view full: %+v", full)
	}
	for i, c := range *full.Controls {
		was := (*nav.Controls)[i]
		if c.Ref != withSeq(was.Ref, full.Revision) || c.Name != was.Name {
			t.Fatalf("control %d: %s %q, was %s %q", i, c.Ref, c.Name, was.Ref, was.Name)
		}
	}
	// Nothing changed since: empty changes, no text.
	same := callRaw(t, s, "browser_observe", map[string]any{})
	if same.Changes == nil || same.Changes.Since != full.Revision || len(same.Changes.Controls)+len(same.Changes.ControlsRemoved)+len(same.Changes.Regions)+len(same.Changes.RegionsRemoved) != 0 || same.Changes.Text != nil {
		t.Fatalf("nothing changed: %+v", same.Changes)
	}

	// A navigation: the new document's whole view, changes or not.
	p2 := callRaw(t, s, "browser_act", map[string]any{"expected_revision": same.Revision, "action": "click", "ref": withSeq(next.Ref, same.Revision), "view": "changes"})
	if p2.Action.Outcome != "navigated" || p2.Controls == nil || p2.Changes != nil || !strings.Contains(*p2.Text, "Page 2 of 3") {
		t.Fatalf("after Next: %+v", p2)
	}
	if n, _ := strconv.Atoi(numberOf(find(t, *p2.Controls, "link", "Previous").Ref)); n < 1 {
		t.Fatalf("the new document's numbers: %+v", p2.Controls)
	}
	// An expansion reads its region whole unless the call names a view.
	pages := ""
	for _, raw := range *p2.Regions {
		var r struct{ Ref, Role, Name string }
		json.Unmarshal(raw, &r)
		if r.Role == "navigation" && r.Name == "Pages" {
			pages = r.Ref
		}
	}
	ex := callRaw(t, s, "browser_observe", map[string]any{"expand": map[string]any{"expected_revision": p2.Revision, "region": pages}})
	if ex.Controls == nil || ex.Changes != nil || len(*ex.Controls) != 2 {
		t.Fatalf("an expansion's default view: %+v", ex)
	}

	// A page that draws new elements into itself: the button that appears
	// takes a number above every number the document used, the rows'
	// new text comes whole, and Next keeps its number.
	cat := callRaw(t, s, "browser_navigate", map[string]any{"url": web.URL + "/catalog"})
	top := 0
	for _, c := range *cat.Controls {
		n, _ := strconv.Atoi(numberOf(c.Ref))
		top = max(top, n)
	}
	nextBtn := find(t, *cat.Controls, "button", "Next")
	c2 := callRaw(t, s, "browser_act", map[string]any{"expected_revision": cat.Revision, "action": "click", "ref": nextBtn.Ref})
	if c2.Changes == nil || len(c2.Changes.Controls) != 1 || c2.Changes.Text == nil || !strings.Contains(*c2.Changes.Text, "Widget 16") {
		t.Fatalf("after the catalog's Next: %+v", c2)
	}
	prev := c2.Changes.Controls[0]
	if n, _ := strconv.Atoi(numberOf(prev.Ref)); prev.Name != "Previous" || n <= top {
		t.Fatalf("the button that appeared: %+v, numbers so far up to %d", prev, top)
	}
	c3 := callRaw(t, s, "browser_act", map[string]any{"expected_revision": c2.Revision, "action": "click", "ref": withSeq(nextBtn.Ref, c2.Revision)})
	if c3.Changes == nil || len(c3.Changes.ControlsRemoved) != 1 || c3.Changes.ControlsRemoved[0] != atoi(numberOf(nextBtn.Ref)) {
		t.Fatalf("on the last page Next is gone: %+v", c3.Changes)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
