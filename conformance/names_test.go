//go:build conformance

package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/snapshot"
	"golang.org/x/net/html"
)

// Why the label column (docs/reference.md#form-columns) may differ from the accessible name
// the WPT accname tests expect. The label column is narrower on purpose: it
// identifies a form control within bounds and without its value; it is not
// the full name computation.
const (
	whyHiddenLabel = "hidden-label: a referenced or native label that is invisible, or excluded itself or through an ancestor, " +
		"contributes nothing, so the next source is used (docs/reference.md#form-columns); accname reads hidden referenced content"
	whyEmbeddedControl = "embedded-control: a label wrapping a control never reads that control's value or selected option (docs/reference.md#cell-text and #form-columns: " +
		"editable controls are not entered; secret rule)"
	whyEmbeddedWidget = "embedded-widget: an ARIA widget inside a label is not an editable control, so its text is read like any " +
		"element's (docs/reference.md#cell-text); aria-valuenow, aria-valuetext and aria-selected are never consulted"
	whyCSSContent = "css-content: CSS generated content (::before, ::after, counters) is never text (docs/reference.md#the-tree)"
	whySpacing    = "spacing: only non-inline-level elements and <br> separate text (docs/reference.md#cell-text); inline-block is inline-level"
)

// labelDivergences lists every case where FormCell(target, 0) differs from
// expected_name, keyed by page and target index, with the case's name
// (checked, so an entry cannot drift onto another case) and its reason.
var labelDivergences = map[labelKey]labelDivergence{
	{"pages/comp_labelledby_hidden_nodes.html", 0}:  {"button with aria-labelledby using display:none hidden span (with nested span)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 1}:  {"button with aria-labelledby using display:none hidden span (with nested spans, depth 2)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 3}:  {"button with aria-labelledby using display:none hidden span (with nested sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 5}:  {"button with aria-labelledby using span with display:none (with nested display:inline sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 6}:  {"button with aria-labelledby using visibility:hidden span (with nested span)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 7}:  {"button with aria-labelledby using visibility:hidden span (with nested spans, depth 2)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 9}:  {"button with aria-labelledby using visibility:hidden hidden span (with nested sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 11}: {"button with aria-labelledby using span with visibility:hidden (with nested visibility:visible sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 12}: {"button with aria-labelledby using visibility:collapse span (with nested span)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 13}: {"button with aria-labelledby using visibility:collapse span (with nested spans, depth 2)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 15}: {"button with aria-labelledby using visibility:collapse span (with nested sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 17}: {"button with aria-labelledby using span with visibility:collapse (with nested visible sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 18}: {"button with aria-labelledby using aria-hidden span (with nested span)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 19}: {"button with aria-labelledby using aria-hidden span (with nested spans, depth 2)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 21}: {"button with aria-labelledby using aria-hidden hidden span (with nested sibling spans)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 22}: {"button with aria-labelledby using HTML5 hidden span (with nested span)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 23}: {"button with aria-labelledby using HTML5 hidden span (with nested spans, depth 2)", whyHiddenLabel},
	{"pages/comp_labelledby_hidden_nodes.html", 25}: {"button with aria-labelledby using HTML5 hidden span (with nested hidden sibling spans)", whyHiddenLabel},
	{"pages/comp_label.html", 109}:                  {"button's hidden referenced name (display:none) supercedes aria-label", whyHiddenLabel},
	{"pages/comp_label.html", 110}:                  {"button's hidden referenced name (visibility:hidden) supercedes aria-label", whyHiddenLabel},
	{"pages/comp_embedded_control.html", 0}:         {"checkbox label with embedded textfield", whyEmbeddedControl},
	{"pages/comp_embedded_control.html", 2}:         {"checkbox label with embedded select:not([size])", whyEmbeddedControl},
	{"pages/comp_embedded_control.html", 4}:         {"checkbox label with embedded select[size]", whyEmbeddedControl},
	{"pages/comp_embedded_control.html", 6}:         {"checkbox label with embedded combobox (input[type=text])", whyEmbeddedControl},
	{"pages/comp_embedded_control.html", 12}:        {"checkbox label with embedded listbox>option[aria-selected=true]", whyEmbeddedWidget},
	{"pages/comp_embedded_control.html", 14}:        {"checkbox label with embedded input[type=range]", whyEmbeddedControl},
	{"pages/comp_embedded_control.html", 16}:        {"checkbox label with embedded input[type=number]", whyEmbeddedControl},
	{"pages/comp_embedded_control.html", 18}:        {"checkbox label with embedded ARIA slider (aria-valuenow)", whyEmbeddedWidget},
	{"pages/comp_embedded_control.html", 20}:        {"checkbox label with embedded ARIA slider (aria-valuetext)", whyEmbeddedWidget},
	{"pages/comp_embedded_control.html", 22}:        {"checkbox label with embedded ARIA spinbutton (aria-valuenow)", whyEmbeddedWidget},
	{"pages/comp_embedded_control.html", 24}:        {"checkbox label with embedded ARIA spinbutton (aria-valuetext)", whyEmbeddedWidget},
	{"pages/comp_hidden_not_referenced.html", 1}:    {"button labelled by element that is aria-hidden=true", whyHiddenLabel},
	{"pages/comp_hidden_not_referenced.html", 2}:    {"button labelled by element with the hidden host language attribute", whyHiddenLabel},
	{"pages/comp_name_from_content.html", 9}:        {"button with alt counter on ::before", whyCSSContent},
	{"pages/comp_name_from_content.html", 12}:       {"button with multiple alt counters and counter increments", whyCSSContent},
	{"pages/comp_name_from_content.html", 15}:       {"button name from content with ::before", whyCSSContent},
	{"pages/comp_name_from_content.html", 18}:       {"button name from content with ::after", whyCSSContent},
	{"pages/comp_name_from_content.html", 21}:       {"button name from content with ::before and ::after", whyCSSContent},
	{"pages/comp_name_from_content.html", 24}:       {"button name from content no space joiners ::before and ::after", whyCSSContent},
	{"pages/comp_name_from_content.html", 27}:       {"button name from content with ::before and ::after in rtl", whyCSSContent},
	{"pages/comp_name_from_content.html", 30}:       {"button name from fallback content with ::before and ::after", whyCSSContent},
	{"pages/comp_name_from_content.html", 33}:       {"button name from fallback content mixing attr() and strings with ::before and ::after", whyCSSContent},
	{"pages/comp_name_from_content.html", 59}:       {"button name from content for each child (no space, display:inline-block)", whySpacing},
}

type labelKey struct {
	page  string
	index int
}

type labelDivergence struct {
	testname string
	why      string
}

// formRowRoles are the explicit roles that make an element a form row
// (docs/reference.md#rows).
var formRowRoles = []string{"button", "checkbox", "radio", "switch", "textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton"}

// isFormControl reports whether n would be a row of a form: an input other
// than type hidden, a select, a textarea, a button, or an element whose
// explicit role is a form-row role. Visibility is not asked: the suite's
// targets are measured whether or not a page hides them.
func isFormControl(n domtree.Node) bool {
	switch n.Name() {
	case "input":
		return !n.AttrEquals("type", "hidden")
	case "select", "textarea", "button":
		return true
	}
	return slices.Contains(formRowRoles, aria.ExplicitRole(n))
}

// wptNormalise compares names as WPT does: runs of ASCII whitespace become
// one space and the ends are trimmed; U+00A0 is kept.
func wptNormalise(s string) string {
	return strings.Join(domtree.Fields(s), " ")
}

func TestLabelNames(t *testing.T) {
	dir := filepath.Join(suiteDir(t), "wpt-accname")
	cases := readJSONL[nameCase](t, filepath.Join(dir, "name-cases.jsonl"))
	if len(cases) == 0 {
		t.Fatal("name-cases.jsonl holds no case")
	}
	trees := map[string]*domtree.Tree{}
	var measured, agree, chromiumAgree, chromiumExpected int
	seen := map[labelKey]bool{}
	byReason := map[string]int{}
	for _, c := range cases {
		tr, ok := trees[c.Page]
		if !ok {
			data, err := os.ReadFile(filepath.Join(dir, c.Page))
			if err != nil {
				t.Fatal(err)
			}
			tr, _, err = snapshot.ParseHTML(data, snapshot.HTMLOptions{})
			if err != nil {
				t.Fatalf("%s: %v", c.Page, err)
			}
			trees[c.Page] = tr
		}
		n := labelTarget(t, tr, c)
		if !isFormControl(n) {
			continue
		}
		measured++
		key := labelKey{c.Page, c.TargetIndex}
		want := wptNormalise(c.ExpectedName)
		sum := cells.FormCell(n, 0)
		got := wptNormalise(sum.Text)
		if wptNormalise(c.Chromium156Name) == got {
			chromiumAgree++
		}
		if wptNormalise(c.Chromium156Name) == want {
			chromiumExpected++
		}
		if strings.Contains(sum.Text, "CANARY-SECRET") {
			t.Errorf("%s %q: the label carries a planted value", c.Page, c.Testname)
		}
		if slices.Contains(c.Features, "embedded-control") {
			checkNoEmbeddedValue(t, filepath.Join(dir, c.Page), c, got)
		}
		div, listed := labelDivergences[key]
		if listed {
			seen[key] = true
			if div.testname != c.Testname {
				t.Errorf("%s[%d]: divergence entry names %q, the case is %q", c.Page, c.TargetIndex, div.testname, c.Testname)
			}
		}
		switch {
		case got == want && listed:
			t.Errorf("%s[%d] %q: listed as divergent (%s) but now agrees: %q; remove the entry", c.Page, c.TargetIndex, c.Testname, div.why, got)
		case got == want:
			agree++
		case !listed:
			t.Errorf("%s[%d] %q: label %q (truncated %v), want %q; features %v; Chromium %q. Unlisted divergence: a bug, or a missing table entry with its reason",
				c.Page, c.TargetIndex, c.Testname, got, sum.Truncated, want, c.Features, c.Chromium156Name)
		default:
			byReason[div.why]++
		}
	}
	for k, d := range labelDivergences {
		if !seen[k] {
			t.Errorf("divergence entry %s[%d] %q matches no measured form-control case", k.page, k.index, d.testname)
		}
	}
	if measured == 0 {
		t.Fatal("no case targets a form control: the suite or the control test changed")
	}
	reasons := make([]string, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	var b strings.Builder
	fmt.Fprintf(&b, "accname label column: %d of %d form-control cases (of %d in the suite) agree with expected_name; %d differ, each for a listed reason:",
		agree, measured, len(cases), measured-agree)
	for _, r := range reasons {
		fmt.Fprintf(&b, "\n  %3d  %s", byReason[r], r)
	}
	fmt.Fprintf(&b, "\nChromium 156's name equals the label column in %d of %d, and equals expected_name in %d of %d",
		chromiumAgree, measured, chromiumExpected, measured)
	t.Log(b.String())
}

// checkNoEmbeddedValue asserts the secret rule on the suite's own
// embedded-control pages: the label of a control never holds the value of a
// native editable control (input value, textarea text, option text of a
// select) that sits in the same <label>. The check reads the page with the
// HTML parser alone, since the tree never holds those values at all. Text of
// ARIA widgets (a span with role combobox or slider) is page text, not a
// value: docs/reference.md#cell-text names the editable controls, and they are native
// controls and contenteditable regions only.
func checkNoEmbeddedValue(t *testing.T, path string, c nameCase, label string) {
	t.Helper()
	values := embeddedValues(t, path, c)
	words := " " + label + " "
	for _, v := range values {
		if v = wptNormalise(v); v != "" && strings.Contains(words, " "+v+" ") {
			t.Errorf("%s[%d] %q: label %q holds the embedded value %q", c.Page, c.TargetIndex, c.Testname, label, v)
		}
	}
}

// embeddedValues returns the values of the native editable controls other
// than the target inside the target's nearest <label> ancestor.
func embeddedValues(t *testing.T, path string, c nameCase) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	class := strings.TrimPrefix(c.Target, ".")
	var target *html.Node
	i := 0
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && slices.Contains(domtree.Fields(attrOf(n, "class")), class) {
			if i == c.TargetIndex {
				target = n
				break
			}
			i++
		}
	}
	if target == nil {
		t.Fatalf("%s: target %s[%d] not found", c.Page, c.Target, c.TargetIndex)
	}
	var label *html.Node
	for p := target.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == "label" {
			label = p
			break
		}
	}
	if label == nil {
		return nil
	}
	var out []string
	for n := range label.Descendants() {
		if n == target || n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "input":
			if v, ok := attrOK(n, "value"); ok {
				out = append(out, v)
			}
		case "textarea", "option":
			out = append(out, textOf(n))
		}
	}
	return out
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func attrOf(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// labelTarget finds a case's target, the TargetIndex-th element with the
// class the ".class" target names, and checks that it is the case's element.
func labelTarget(t *testing.T, tr *domtree.Tree, c nameCase) domtree.Node {
	t.Helper()
	class, ok := strings.CutPrefix(c.Target, ".")
	if !ok || strings.ContainsAny(class, " .#[:") {
		t.Fatalf("%s: unsupported target selector %q", c.Page, c.Target)
	}
	i := 0
	for n := range tr.All() {
		if !n.IsElement() || !slices.Contains(domtree.Fields(n.AttrValue("class")), class) {
			continue
		}
		if i == c.TargetIndex {
			if got := n.AttrValue("data-testname"); got != "" && got != c.Testname {
				t.Fatalf("%s %s[%d]: found %q, want the case %q", c.Page, c.Target, c.TargetIndex, got, c.Testname)
			}
			return n
		}
		i++
	}
	t.Fatalf("%s: target %s[%d] out of range (%d found)", c.Page, c.Target, c.TargetIndex, i)
	return domtree.Node{}
}
