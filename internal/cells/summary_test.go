package cells

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

// visit runs one summary walk and also returns the nodes it visited.
func visit(tr spec, t *testing.T) (Summary, int) {
	t.Helper()
	w := newWalker()
	w.walk(first(build(t, tr)))
	return w.summary(), w.budget.Visited()
}

func TestSummarizeRules(t *testing.T) {
	for _, c := range []struct {
		name string
		cell spec
		want string
	}{
		{"plain", E("td", "Hello"), "Hello"},
		{"collapse and trim", E("td", " \t a \n\r\f b  "), "a b"},
		{"nbsp kept at the ends", E("td", "\u00a0a\u00a0 "), "\u00a0a\u00a0"},
		{"nbsp is not collapsed", E("td", "a\u00a0\u00a0b"), "a\u00a0\u00a0b"},
		{"other unicode spaces are text", E("td", "a\u2003 \u0085b"), "a\u2003 \u0085b"},
		{"inline elements join", E("td", "a", E("b", "b"), E("span", E("i", "c")), "d"), "abcd"},
		{"block elements separate", E("td", "a", E("div", "b"), "c"), "a b c"},
		{"block inside inline separates", E("td", E("span", "a", E("div", "b"), "c")), "a b c"},
		{"inline-block counts as inline", E("td", "a", E("div", Inline, "b"), "c"), "abc"},
		{"empty block still separates", E("td", "a", E("div"), "b"), "a b"},
		{"br separates", E("td", "a", E("br"), "b"), "a b"},
		{"invisible br does not", E("td", "a", E("br", Hid), "b"), "ab"},
		{"excluded br does not", E("td", "a", E("br", A{"aria-hidden", "true"}), "b"), "ab"},
		{"display none adds nothing, not even a space", E("td", "a", E("div", DisplayNone, "x"), "b"), "ab"},
		{"aria-hidden any case", E("td", "a", E("span", A{"aria-hidden", "TrUe"}, "x"), "b"), "ab"},
		{"aria-hidden false is read", E("td", "a", E("span", A{"aria-hidden", "false"}, "x"), "b"), "axb"},
		{"script, style, template, noscript", E("td", "a", E("script", "s"), E("style", "s"),
			E("template", "s"), E("noscript", "s"), "b"), "ab"},
		{"invisible text is skipped", E("td", "a", E("span", Hid, "x"), "b"), "ab"},
		{"visible inside invisible is read", E("td", E("div", Hid, "x", E("span", Vis, "y"), "z")), "y"},
		{"invisible block still separates", E("td", "a", E("div", Hid, "x"), "b"), "a b"},
		{"nested table is not entered but separates", E("td", "a", E("table", E("tr", E("td", "x"))), "b"), "a b"},
		{"nested list is not entered", E("td", "a", E("ul", E("li", "x")), "b"), "a b"},
		{"nested form is not entered", E("td", "a", E("form", E("span", "x")), "b"), "a b"},
		{"inline ARIA collection is not entered, no space", E("td", "a", E("span", A{"role", "list"}, "x"), "b"), "ab"},
		{"ARIA grid is not entered", E("td", "a", E("div", A{"role", "foo GRID"}, "x"), "b"), "a b"},
		{"presentational table is entered", E("td", "a", E("table", A{"role", "presentation"}, E("tr", E("td", "x"))), "b"), "a x b"},
		{"invisible nested table is entered", E("td", E("table", Hid, E("tr", E("td", Vis, "x")))), "x"},
		{"start collection is entered", E("ul", E("li", "x"), E("li", "y")), "x y"},
		{"select with options is not entered", E("td", "a", E("select", E("option", "x")), "b"), "ab"},
		{"textarea is not entered", E("td", "a", E("textarea", "x"), "b"), "ab"},
		{"contenteditable empty", E("td", "a", E("span", A{"contenteditable", ""}, "x"), "b"), "ab"},
		{"contenteditable TRUE", E("td", "a", E("span", A{"contenteditable", "TRUE"}, "x"), "b"), "ab"},
		{"contenteditable plaintext-only", E("td", "a", E("span", A{"contenteditable", "Plaintext-Only"}, "x"), "b"), "ab"},
		{"contenteditable false is read", E("td", "a", E("span", A{"contenteditable", "false"}, "x"), "b"), "axb"},
		{"contenteditable unknown is read", E("td", "a", E("span", A{"contenteditable", "yes"}, "x"), "b"), "axb"},
		{"block editable separates", E("td", "a", E("div", A{"contenteditable", "true"}, "x"), "b"), "a b"},
		{"comments add nothing", E("td", "a", C("x"), "b"), "ab"},
		{"closed details shows its first summary", E("td", E("details", E("summary", "s"), "x", E("p", "y"), E("summary", "z"))), "s"},
		{"open details shows all", E("td", E("details", A{"open", ""}, E("summary", "s"), "x")), "s x"},
		{"excluded start adds nothing", E("td", DisplayNone, "x"), ""},
		{"editable start is not entered", E("div", A{"contenteditable", "true"}, "x"), ""},
		{"invisible start, visible child", E("td", Hid, "x", E("b", Vis, "y")), "y"},
		{"whitespace only is missing", E("td", " \n ", E("div", " ")), ""},
		{"invalid utf-8 becomes U+FFFD", E("td", "a\xffb\xed\xa0\x80"), "a\ufffdb\ufffd\ufffd\ufffd"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Summarize(first(build(t, c.cell)))
			if diff := cmp.Diff(Summary{Text: c.want}, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestSummarizeOddStarts(t *testing.T) {
	tr := build(t, E("p", "x"))
	if got := Summarize(tr.Root().FirstChild().FirstChild()); got != (Summary{Text: "x"}) {
		t.Errorf("text node start: %+v", got)
	}
	var zero Summary
	if got := Summarize(first(nil)); got != zero {
		t.Errorf("zero node: %+v", got)
	}
	if got := Summarize(tr.Root()); got != (Summary{Text: "x"}) {
		t.Errorf("document start: %+v", got)
	}
}

// texts returns n text nodes "a".
func texts(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = "a"
	}
	return out
}

func TestSummarizeNodeBound(t *testing.T) {
	for _, c := range []struct {
		name    string
		total   int // nodes in the cell, the cell included
		want    Summary
		visited int
	}{
		{"just under", limits.CellNodes - 1, Summary{Text: strings.Repeat("a", limits.CellNodes-2)}, limits.CellNodes - 1},
		{"at", limits.CellNodes, Summary{Text: strings.Repeat("a", limits.CellNodes-1)}, limits.CellNodes},
		{"just over", limits.CellNodes + 1, Summary{Text: strings.Repeat("a", limits.CellNodes-1), Truncated: true, Why: TruncNodes}, limits.CellNodes},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, visited := visit(E("td", texts(c.total-1)...), t)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if visited != c.visited {
				t.Errorf("visited %d, want %d", visited, c.visited)
			}
		})
	}
	// A skipped subtree is not "left unvisited": only the walk's next node counts.
	t.Run("at, then an excluded subtree", func(t *testing.T) {
		kids := texts(limits.CellNodes - 2)
		kids = append(kids, E("div", append([]any{DisplayNone}, texts(50)...)...))
		got, visited := visit(E("td", kids...), t)
		if diff := cmp.Diff(Summary{Text: strings.Repeat("a", limits.CellNodes-2)}, got); diff != "" || visited != limits.CellNodes {
			t.Errorf("visited %d (-want +got)\n%s", visited, diff)
		}
	})
	t.Run("not-entered controls and collections cost one", func(t *testing.T) {
		kids := texts(limits.CellNodes - 3)
		kids = append(kids, E("select", texts(50)...), E("ul", E("li", "x")))
		got, visited := visit(E("td", kids...), t)
		if diff := cmp.Diff(Summary{Text: strings.Repeat("a", limits.CellNodes-3)}, got); diff != "" || visited != limits.CellNodes {
			t.Errorf("visited %d (-want +got)\n%s", visited, diff)
		}
	})
}

func TestSummarizeUnitBound(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	const pair = "\U0001F600" // two UTF-16 units
	full := a(limits.CellUnits)
	for _, c := range []struct {
		name string
		cell spec
		want Summary
	}{
		{"just under", E("td", a(limits.CellUnits-1)), Summary{Text: a(limits.CellUnits - 1)}},
		{"at", E("td", full), Summary{Text: full}},
		{"just over", E("td", a(limits.CellUnits+1)), Summary{Text: full, Truncated: true, Why: TruncText}},
		{"pair ends at the bound", E("td", a(limits.CellUnits-2)+pair), Summary{Text: a(limits.CellUnits-2) + pair}},
		{"pair straddles the bound", E("td", a(limits.CellUnits-1)+pair), Summary{Text: a(limits.CellUnits - 1), Truncated: true, Why: TruncText}},
		{"pair just over the bound", E("td", full+pair), Summary{Text: full, Truncated: true, Why: TruncText}},
		{"pair after a pending space", E("td", a(limits.CellUnits-2)+" "+pair), Summary{Text: a(limits.CellUnits - 2), Truncated: true, Why: TruncText}},
		{"space at the bound then text", E("td", a(limits.CellUnits-1)+" b"), Summary{Text: a(limits.CellUnits - 1), Truncated: true, Why: TruncText}},
		{"at, then whitespace only", E("td", full+"  ", E("div", " "), E("br"), "\n"), Summary{Text: full}},
		{"at, then text in a later node", E("td", full, E("span", "b")), Summary{Text: full, Truncated: true, Why: TruncText}},
		{"at, then nbsp", E("td", full, "\u00a0"), Summary{Text: full, Truncated: true, Why: TruncText}},
		{"at, then only invisible text", E("td", full, E("span", Hid, "hidden")), Summary{Text: full}},
		{"at, then only excluded text", E("td", full, E("span", DisplayNone, "gone")), Summary{Text: full}},
		{"at, then only a control", E("td", full, E("select", E("option", "x"))), Summary{Text: full}},
		{"over counted after collapsing", E("td", " "+a(100)+"   \n  "+a(limits.CellUnits-101)+"  "), Summary{Text: a(100) + " " + a(limits.CellUnits-101)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Summarize(first(build(t, c.cell)))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// When the text is full, the walk looks on for non-whitespace text only as
// far as the node budget reaches: beyond it nothing is known.
func TestSummarizeTextFullThenNodes(t *testing.T) {
	full := strings.Repeat("a", limits.CellUnits)
	spaces := func(n int) []any {
		out := []any{full}
		for range n {
			out = append(out, " ")
		}
		return out
	}
	for _, c := range []struct {
		name string
		cell spec
		want Summary
	}{
		// td + full text + 254 spaces = 256 nodes: the walk ends inside the budget.
		{"whitespace to the end, within budget", E("td", spaces(limits.CellNodes-2)...), Summary{Text: full}},
		// One more whitespace node is never reached: unknown, so nodes.
		{"whitespace past the budget", E("td", spaces(limits.CellNodes-1)...), Summary{Text: full, Truncated: true, Why: TruncNodes}},
		// Text inside the budget is found first: text.
		{"text inside the budget", E("td", append(spaces(limits.CellNodes-3), "b", " ")...), Summary{Text: full, Truncated: true, Why: TruncText}},
		// Text just past the budget is not seen: nodes.
		{"text just past the budget", E("td", append(spaces(limits.CellNodes-2), "b")...), Summary{Text: full, Truncated: true, Why: TruncNodes}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Summarize(first(build(t, c.cell)))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestTruncationString(t *testing.T) {
	want := map[Truncation]string{None: "", TruncText: "text", TruncNodes: "nodes", TruncLabels: "labels", 99: "invalid"}
	for tr, s := range want {
		if tr.String() != s {
			t.Errorf("%d: %q, want %q", tr, tr.String(), s)
		}
	}
	if !(Summary{}).Missing() || (Summary{Truncated: true, Why: TruncNodes}).Missing() || (Summary{Text: "x"}).Missing() {
		t.Error("Missing wrong")
	}
}

func TestTruncationText(t *testing.T) {
	for _, tr := range []Truncation{None, TruncText, TruncNodes, TruncLabels} {
		b, err := tr.MarshalText()
		if err != nil || string(b) != tr.String() {
			t.Fatalf("%d: %q %v", tr, b, err)
		}
		var back Truncation = 99
		if err := back.UnmarshalText(b); err != nil || back != tr {
			t.Fatalf("%q read back as %d, %v", b, back, err)
		}
	}
	if _, err := Truncation(4).MarshalText(); err == nil {
		t.Error("an unnamed truncation marshalled")
	}
	var tr Truncation
	if err := tr.UnmarshalText([]byte("Text")); err == nil {
		t.Error("names are exact")
	}
}
