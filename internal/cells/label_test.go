package cells

import (
	"fmt"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

// labelOf builds a body holding kids and returns the label column of the
// element with id "c".
func labelOf(t *testing.T, kids ...any) Summary {
	t.Helper()
	tr := build(t, E("body", kids...))
	c := byID(t, tr, "c")
	for n := range tr.All() {
		if n.HasAttr("data-target") {
			c = n // the control is not the first element with its id
		}
	}
	return FormCell(c, ColumnLabel)
}

func ok(s string) Summary { return Summary{Text: s} }

func TestLabelSources(t *testing.T) {
	in := func(attrs ...any) spec { return E("input", append([]any{A{"id", "c"}}, attrs...)...) }
	span := func(id string, args ...any) spec { return E("span", append([]any{A{"id", id}}, args...)...) }
	for _, c := range []struct {
		name string
		kids []any
		want Summary
	}{
		// 1. aria-labelledby
		{"labelledby one", []any{span("a", "Name"), in(A{"aria-labelledby", "a"})}, ok("Name")},
		{"labelledby in ID order", []any{span("a", "A"), span("b", "B"), in(A{"aria-labelledby", " b\ta "})}, ok("B A")},
		{"labelledby unknown IDs skipped", []any{span("a", "A"), in(A{"aria-labelledby", "x a y"})}, ok("A")},
		{"labelledby duplicate contributes once", []any{span("a", "A"), span("b", "B"), in(A{"aria-labelledby", "a b a"})}, ok("A B")},
		{"labelledby empty ones not joined", []any{span("a"), span("b", "B"), span("d", " "), in(A{"aria-labelledby", "a b d"})}, ok("B")},
		{"labelledby IDs are case-sensitive", []any{span("a", "A"), in(A{"aria-labelledby", "A"}, A{"title", "T"})}, ok("T")},
		{"labelledby aria-label wins", []any{span("a", A{"aria-label", " Lab  el "}, "text"), in(A{"aria-labelledby", "a"})}, ok("Lab el")},
		{"labelledby blank aria-label ignored", []any{span("a", A{"aria-label", " \n"}, "text"), in(A{"aria-labelledby", "a"})}, ok("text")},
		{"labelledby block content separates", []any{E("div", A{"id", "a"}, E("p", "x"), E("p", "y")), in(A{"aria-labelledby", "a"})}, ok("x y")},
		{"labelledby display none", []any{span("a", DisplayNone, "A"), in(A{"aria-labelledby", "a"}, A{"aria-label", "L"})}, ok("L")},
		{"labelledby invisible", []any{span("a", Hid, "A", E("b", Vis, "v")), in(A{"aria-labelledby", "a"}, A{"aria-label", "L"})}, ok("L")},
		{"labelledby under aria-hidden", []any{E("div", A{"aria-hidden", "true"}, span("a", "A")), in(A{"aria-labelledby", "a"}, A{"aria-label", "L"})}, ok("L")},
		{"labelledby under closed details", []any{E("details", E("summary", "s"), span("a", "A")), in(A{"aria-labelledby", "a"}, A{"aria-label", "L"})}, ok("L")},
		{"labelledby self, an input", []any{in(A{"aria-labelledby", "c"}, A{"aria-label", "L"})}, ok("L")},
		{"labelledby a button reads its text", []any{E("button", A{"id", "b"}, "Go"), in(A{"aria-labelledby", "b"})}, ok("Go")},
		{"labelledby the hidden part skipped", []any{E("div", A{"id", "a"}, "x", E("span", DisplayNone, "gone"), "y"), in(A{"aria-labelledby", "a"})}, ok("xy")},
		{"labelledby nested table not entered", []any{E("div", A{"id", "a"}, "x", E("table", E("tr", E("td", "t"))), "y"), in(A{"aria-labelledby", "a"})}, ok("x y")},
		{"labelledby all empty falls through", []any{span("a"), in(A{"aria-labelledby", "a zz"}, A{"aria-label", "L"})}, ok("L")},
		// 2. aria-label
		{"aria-label normalised", []any{in(A{"aria-label", "  My \t label\n"})}, ok("My label")},
		{"aria-label nbsp kept", []any{in(A{"aria-label", "\u00a0x\u00a0"})}, ok("\u00a0x\u00a0")},
		{"aria-label blank falls through", []any{in(A{"aria-label", " "}, A{"title", "T"})}, ok("T")},
		// 3. native labels
		{"label for", []any{E("label", A{"for", "c"}, "Name"), in()}, ok("Name")},
		{"labels for in tree order", []any{E("label", A{"for", "c"}, "First"), in(), E("label", A{"for", "c"}, "Second")}, ok("First Second")},
		{"wrapping label", []any{E("label", "Name ", in(), " here")}, ok("Name here")},
		{"wrapping label with for naming it", []any{E("label", A{"for", "c"}, "Name", in())}, ok("Name")},
		{"wrapping label with for naming another", []any{E("label", A{"for", "other"}, "Other", in(A{"title", "T"})), E("input", A{"id", "other"})}, ok("T")},
		{"wrapping label with empty for", []any{E("label", A{"for", ""}, "Other", in(A{"title", "T"}))}, ok("T")},
		{"label for then wrapping", []any{E("label", A{"for", "c"}, "For"), E("label", "Wrap", in())}, ok("For Wrap")},
		{"nearest ancestor label names another: outer not used", []any{E("label", "Outer", E("label", A{"for", "o"}, "Inner", in(A{"title", "T"}))), E("input", A{"id", "o"})}, ok("T")},
		{"labelledby inside a standalone option", []any{E("datalist", E("option", span("a", "opt"))), in(A{"aria-labelledby", "a"}, A{"title", "T"})}, ok("T")},
		{"labelledby a standalone option", []any{E("option", A{"id", "a"}, "opt"), in(A{"aria-labelledby", "a"}, A{"title", "T"})}, ok("T")},
		{"only the nearest ancestor label", []any{E("label", "Outer", E("label", "Inner", in()))}, ok("Inner")},
		{"label for a duplicate id names the first", []any{E("div", A{"id", "c"}, A{"title", "first"}), E("label", A{"for", "c"}, "L"), E("input", A{"id", "c"}, A{"data-target", ""}, A{"title", "T"})}, ok("T")},
		{"hidden label falls through", []any{E("label", A{"for", "c"}, DisplayNone, "L"), in(A{"title", "T"})}, ok("T")},
		{"invisible label falls through", []any{E("label", A{"for", "c"}, Hid, "L"), in(A{"title", "T"})}, ok("T")},
		{"label with aria-label", []any{E("label", A{"for", "c"}, A{"aria-label", "AL"}, "L"), in()}, ok("AL")},
		{"label wrapping a button reads the button", []any{E("label", "Press ", E("button", A{"id", "c"}, "Go"))}, ok("Press Go")},
		{"labelledby beats aria-label and labels", []any{span("a", "A"), E("label", "L", in(A{"aria-labelledby", "a"}, A{"aria-label", "AL"}))}, ok("A")},
		{"aria-label beats labels", []any{E("label", "L", in(A{"aria-label", "AL"}))}, ok("AL")},
		// An image in a label element or a referenced element gives its alt.
		{"wrapping label holding only an image", []any{E("label", E("img", A{"alt", " Search "}), in())}, ok("Search")},
		{"label for: text and an image's alt in place", []any{E("label", A{"for", "c"}, "Find ", E("img", A{"alt", "now"}), " here"), in()}, ok("Find now here")},
		{"labelledby reads an image's alt", []any{span("a", E("img", A{"alt", "Zoom"})), in(A{"aria-labelledby", "a"})}, ok("Zoom")},
		{"a hidden image in a label gives nothing", []any{E("label", A{"for", "c"}, E("img", DisplayNone, A{"alt", "gone"}), E("img", Hid, A{"alt", "unseen"})), in(A{"title", "T"})}, ok("T")},
		{"an empty alt in a label gives nothing", []any{E("label", E("img", A{"alt", ""}), in(A{"title", "T"}))}, ok("T")},
		{"a label's aria-label beats its image", []any{E("label", A{"for", "c"}, A{"aria-label", "AL"}, E("img", A{"alt", "I"})), in()}, ok("AL")},
		{"an image label never reads the wrapped input's value", []any{E("label", E("img", A{"alt", "Search"}), in(A{"value", "CANARY-typed"}))}, ok("Search")},
		// 4. buttons
		{"button content", []any{E("button", A{"id", "c"}, " Go ", E("b", "now"))}, ok("Go now")},
		{"role button content", []any{E("div", A{"id", "c"}, A{"role", "button"}, "Click")}, ok("Click")},
		{"button with another role has no content source", []any{E("button", A{"id", "c"}, A{"role", "checkbox"}, "x", A{"title", "T"})}, ok("T")},
		{"submit value", []any{in(A{"type", "SUBMIT"}, A{"value", " Send "})}, ok("Send")},
		{"reset value", []any{in(A{"type", "reset"}, A{"value", "Clear"})}, ok("Clear")},
		{"button value", []any{in(A{"type", "button"}, A{"value", "B"})}, ok("B")},
		{"image alt", []any{in(A{"type", "image"}, A{"alt", "Search"})}, ok("Search")},
		{"submit without value: no invented default", []any{in(A{"type", "submit"})}, Summary{}},
		{"submit blank value falls through", []any{in(A{"type", "submit"}, A{"value", " "}, A{"title", "T"})}, ok("T")},
		{"text input value is never a source", []any{in(A{"type", "text"}, A{"value", "typed"})}, Summary{}},
		{"empty button falls through", []any{E("button", A{"id", "c"}, A{"title", "T"})}, ok("T")},
		{"button content reads an image's alt in place", []any{E("button", A{"id", "c"}, E("img", A{"alt", "X"}), "Go")}, ok("XGo")},
		{"a button holding only an image is named by its alt", []any{E("button", A{"id", "c"}, E("img", A{"alt", "Delete"}))}, ok("Delete")},
		{"a hidden image gives a button nothing", []any{E("button", A{"id", "c"}, A{"title", "T"}, E("img", DisplayNone, A{"alt", "gone"}))}, ok("T")},
		{"button content after an empty label reads its image's alt", []any{E("label", A{"for", "c"}, E("img", A{"alt", ""})), E("button", A{"id", "c"}, E("img", A{"alt", "X"}), "Go")}, ok("XGo")},
		{"button inside contenteditable: content not read", []any{E("div", A{"contenteditable", "true"}, E("button", A{"id", "c"}, "typed"))}, Summary{}},
		// 5, 6.
		{"title", []any{in(A{"title", " T "}, A{"placeholder", "P"})}, ok("T")},
		{"placeholder", []any{in(A{"title", ""}, A{"placeholder", "P"})}, ok("P")},
		{"nothing is missing", []any{in()}, Summary{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, labelOf(t, c.kids...)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// labelSpans returns n spans with ids l0.. and texts L0.., and the
// aria-labelledby value naming them.
func labelSpans(n int) ([]any, string) {
	var kids []any
	var ids []string
	for i := range n {
		id := fmt.Sprintf("l%d", i)
		kids = append(kids, E("span", A{"id", id}, fmt.Sprintf("L%d", i)))
		ids = append(ids, id)
	}
	return kids, strings.Join(ids, " ")
}

func joinedL(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf("L%d", i))
	}
	return strings.Join(parts, " ")
}

func TestMaxLabels(t *testing.T) {
	input := func(attrs ...any) spec { return E("input", append([]any{A{"id", "c"}}, attrs...)...) }
	t.Run("labelledby", func(t *testing.T) {
		for _, c := range []struct {
			n     int
			extra string
			want  Summary
		}{
			{limits.MaxLabels - 1, "", ok(joinedL(limits.MaxLabels - 1))},
			{limits.MaxLabels, "", ok(joinedL(limits.MaxLabels))},
			{limits.MaxLabels + 1, "", Summary{Text: joinedL(limits.MaxLabels), Truncated: true, Why: TruncLabels}},
			{limits.MaxLabels, " nosuch", ok(joinedL(limits.MaxLabels))}, // unknown IDs are not counted
			{limits.MaxLabels, " l0", ok(joinedL(limits.MaxLabels))},     // nor are repeats
		} {
			kids, ids := labelSpans(c.n)
			kids = append(kids, input(A{"aria-labelledby", ids + c.extra}))
			if diff := cmp.Diff(c.want, labelOf(t, kids...)); diff != "" {
				t.Errorf("%d labels%s (-want +got)\n%s", c.n, c.extra, diff)
			}
		}
	})
	t.Run("hidden labels count too", func(t *testing.T) {
		for _, n := range []int{limits.MaxLabels, limits.MaxLabels + 1} {
			var kids []any
			var ids []string
			for i := range n {
				kids = append(kids, E("span", A{"id", fmt.Sprint("h", i)}, DisplayNone, "x"))
				ids = append(ids, fmt.Sprint("h", i))
			}
			kids = append(kids, input(A{"aria-labelledby", strings.Join(ids, " ")}, A{"title", "T"}))
			want := ok("T")
			if n > limits.MaxLabels {
				want = Summary{Truncated: true, Why: TruncLabels} // the source was cut: no fall-through
			}
			if diff := cmp.Diff(want, labelOf(t, kids...)); diff != "" {
				t.Errorf("%d hidden (-want +got)\n%s", n, diff)
			}
		}
	})
	t.Run("across sources", func(t *testing.T) {
		for _, native := range []int{0, 1, 2} {
			// MaxLabels-1 hidden referenced labels, then native label elements.
			var kids []any
			var ids []string
			for i := range limits.MaxLabels - 1 {
				kids = append(kids, E("span", A{"id", fmt.Sprint("h", i)}, Hid, "x"))
				ids = append(ids, fmt.Sprint("h", i))
			}
			for i := range native {
				kids = append(kids, E("label", A{"for", "c"}, fmt.Sprint("N", i)))
			}
			kids = append(kids, input(A{"aria-labelledby", strings.Join(ids, " ")}, A{"title", "T"}))
			want := map[int]Summary{0: ok("T"), 1: ok("N0"), 2: {Text: "N0", Truncated: true, Why: TruncLabels}}[native]
			if diff := cmp.Diff(want, labelOf(t, kids...)); diff != "" {
				t.Errorf("%d native (-want +got)\n%s", native, diff)
			}
		}
	})
	t.Run("an element named by both sources counts once", func(t *testing.T) {
		var kids []any
		var ids []string
		for i := range limits.MaxLabels - 1 {
			kids = append(kids, E("span", A{"id", fmt.Sprint("h", i)}, Hid, "x"))
			ids = append(ids, fmt.Sprint("h", i))
		}
		ref := A{"aria-labelledby", strings.Join(ids, " ") + " lab"}
		// lab is the 8th element; a different wrapping label would be the 9th: cut.
		cut := append(kids[:len(kids):len(kids)], E("label", A{"id", "lab"}, A{"for", "c"}, Hid, "x"), E("label", "Wrap", input(ref, A{"title", "T"})))
		if diff := cmp.Diff(Summary{Truncated: true, Why: TruncLabels}, labelOf(t, cut...)); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
		// lab is named by aria-labelledby, by for and as the ancestor: one element.
		once := append(kids[:len(kids):len(kids)], E("label", A{"id", "lab"}, A{"for", "c"}, Hid, "x", input(ref, A{"title", "T"})))
		if diff := cmp.Diff(ok("T"), labelOf(t, once...)); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
	})
}

func TestIDChars(t *testing.T) {
	input := func(v string) spec { return E("input", A{"id", "c"}, A{"aria-labelledby", v}, A{"title", "T"}) }
	pad := func(n int) string { return strings.Repeat(" ", n) }
	a := E("span", A{"id", "a"}, "A")
	long := E("span", A{"id", "bb"}, "B")
	pairID := E("span", A{"id", "p\U0001F600"}, "P")
	for _, c := range []struct {
		name string
		v    string
		want Summary
	}{
		// "a" and "bb" at the end of the read part.
		{"just under", pad(limits.MaxIDChars-5) + "a bb", ok("A B")},
		{"at", pad(limits.MaxIDChars-4) + "a bb", ok("A B")},
		{"over, last token cut", pad(limits.MaxIDChars-3) + "a bb", Summary{Text: "A", Truncated: true, Why: TruncLabels}},
		{"over, whitespace only beyond", pad(limits.MaxIDChars-4) + "a bb ", ok("A B")},
		{"over, token beyond the bound", pad(limits.MaxIDChars-4) + "a bb x", Summary{Text: "A B", Truncated: true, Why: TruncLabels}},
		{"over, nothing resolved: label empty and truncated", pad(limits.MaxIDChars) + "a", Summary{Truncated: true, Why: TruncLabels}},
		{"pair at the bound", pad(limits.MaxIDChars-3) + "p\U0001F600", ok("P")},
		{"pair straddling the bound", pad(limits.MaxIDChars-2) + "p\U0001F600", Summary{Truncated: true, Why: TruncLabels}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, labelOf(t, a, long, pairID, input(c.v))); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if got, clipped := clipIDs(strings.Repeat("x", limits.MaxIDChars+1)); got != "" || !clipped {
		t.Errorf("one long token: %q %v", got, clipped)
	}
}

// nest wraps inner in depth divs.
func nest(depth int, inner spec) spec {
	for range depth {
		inner = E("div", inner)
	}
	return inner
}

func TestLabelAncestorCheck(t *testing.T) {
	// A referenced label whose ancestors (parent up to the document) number
	// d costs d; it contributes through aria-label, so nothing else is spent.
	for _, c := range []struct {
		name      string
		ancestors int
		want      Summary
	}{
		{"just under", limits.CellNodes - 1, ok("L")},
		{"at", limits.CellNodes, ok("L")},
		{"over", limits.CellNodes + 1, Summary{Truncated: true, Why: TruncNodes}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// document > d-1 divs > span: the span has d ancestors.
			lab := nest(c.ancestors-1, E("span", A{"id", "a"}, A{"aria-label", "L"}))
			tr := build(t, lab, E("input", A{"id", "c"}, A{"aria-labelledby", "a"}, A{"title", "T"}))
			if diff := cmp.Diff(c.want, FormCell(byID(t, tr, "c"), ColumnLabel)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	t.Run("check then text walk share one budget", func(t *testing.T) {
		// 250 ancestors, then the label walk: span + 5 texts = 6 nodes, exactly 256.
		lab := nest(249, E("span", A{"id", "a"}, "1", "2", "3", "4", "5"))
		tr := build(t, lab, E("input", A{"id", "c"}, A{"aria-labelledby", "a"}))
		if diff := cmp.Diff(ok("12345"), FormCell(byID(t, tr, "c"), ColumnLabel)); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
		lab = nest(249, E("span", A{"id", "a"}, "1", "2", "3", "4", "5", "6"))
		tr = build(t, lab, E("input", A{"id", "c"}, A{"aria-labelledby", "a"}))
		if diff := cmp.Diff(Summary{Text: "12345", Truncated: true, Why: TruncNodes}, FormCell(byID(t, tr, "c"), ColumnLabel)); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
	})
	t.Run("hidden labels pay the check too", func(t *testing.T) {
		// Two labels, 200 ancestors each: the second check runs out.
		tr := build(t, nest(199, E("span", A{"id", "a"}, DisplayNone, "x")), nest(199, E("span", A{"id", "b"}, "B")),
			E("input", A{"id", "c"}, A{"aria-labelledby", "a b"}, A{"title", "T"}))
		if diff := cmp.Diff(Summary{Truncated: true, Why: TruncNodes}, FormCell(byID(t, tr, "c"), ColumnLabel)); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
	})
	t.Run("native label check", func(t *testing.T) {
		tr := build(t, nest(limits.CellNodes, E("label", A{"for", "c"}, "L")), E("input", A{"id", "c"}, A{"title", "T"}))
		if diff := cmp.Diff(Summary{Truncated: true, Why: TruncNodes}, FormCell(byID(t, tr, "c"), ColumnLabel)); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
	})
}

func TestJoinedLabelBound(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	in := E("input", A{"id", "c"}, A{"aria-labelledby", "x y"})
	for _, c := range []struct {
		name string
		x, y string
		want Summary
	}{
		{"just under", a(100), a(limits.CellUnits - 102), ok(a(100) + " " + a(limits.CellUnits-102))},
		{"at", a(100), a(limits.CellUnits - 101), ok(a(100) + " " + a(limits.CellUnits-101))},
		{"over", a(100), a(limits.CellUnits - 100), Summary{Text: a(100) + " " + a(limits.CellUnits-101), Truncated: true, Why: TruncText}},
		{"joining space at the bound is trimmed", a(limits.CellUnits - 1), "b", Summary{Text: a(limits.CellUnits - 1), Truncated: true, Why: TruncText}},
		{"first fills it, second empty", a(limits.CellUnits), " ", ok(a(limits.CellUnits))},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := labelOf(t, E("span", A{"id", "x"}, c.x), E("span", A{"id", "y"}, c.y), in)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	t.Run("text cut before the ID list is: text comes first", func(t *testing.T) {
		got := labelOf(t, E("span", A{"id", "x"}, a(limits.CellUnits+1)),
			E("input", A{"id", "c"}, A{"aria-labelledby", "x" + strings.Repeat(" ", limits.MaxIDChars) + "y"}))
		if diff := cmp.Diff(Summary{Text: a(limits.CellUnits), Truncated: true, Why: TruncText}, got); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
	})
}

func TestAttributeSourceBound(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, attr := range []string{"aria-label", "title", "placeholder"} {
		for _, c := range []struct {
			n    int
			want Summary
		}{
			{limits.CellUnits - 1, ok(a(limits.CellUnits - 1))},
			{limits.CellUnits, ok(a(limits.CellUnits))},
			{limits.CellUnits + 1, Summary{Text: a(limits.CellUnits), Truncated: true, Why: TruncText}},
		} {
			got := labelOf(t, E("input", A{"id", "c"}, A{attr, "  " + a(c.n) + "  "}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%s %d (-want +got)\n%s", attr, c.n, diff)
			}
		}
	}
	got := labelOf(t, E("input", A{"id", "c"}, A{"type", "submit"}, A{"value", a(limits.CellUnits + 1)}))
	if diff := cmp.Diff(Summary{Text: a(limits.CellUnits), Truncated: true, Why: TruncText}, got); diff != "" {
		t.Errorf("value (-want +got)\n%s", diff)
	}
}

func TestLabelledBy(t *testing.T) {
	tr := build(t, E("body",
		E("span", A{"id", "a"}, " A "), E("span", A{"id", "h"}, DisplayNone, "H"),
		E("table", A{"id", "t1"}, A{"aria-labelledby", "nosuch a h a"}),
		E("table", A{"id", "t2"}, A{"aria-labelledby", "h"}),
		E("table", A{"id", "t3"}),
		E("table", A{"id", "t4"}, A{"aria-labelledby", strings.Repeat(" ", limits.MaxIDChars) + "a"}),
	))
	for _, c := range []struct {
		id   string
		want Summary
		ok   bool
	}{
		{"t1", ok("A"), true},
		{"t2", Summary{}, false},
		{"t3", Summary{}, false},
		{"t4", Summary{Truncated: true, Why: TruncLabels}, true},
	} {
		got, gotOK := LabelledBy(byID(t, tr, c.id))
		if diff := cmp.Diff(c.want, got); diff != "" || gotOK != c.ok {
			t.Errorf("%s: ok %v (-want +got)\n%s", c.id, gotOK, diff)
		}
	}
}
