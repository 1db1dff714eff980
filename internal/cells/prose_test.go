package cells_test

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// htmlByID parses a page with the offline cascade and returns the element
// with the id.
func htmlByID(t *testing.T, html, id string) domtree.Node {
	t.Helper()
	tr, _, err := snapshot.ParseHTML([]byte(html), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n, ok := tr.ElementByID(id)
	if !ok {
		t.Fatalf("no element with id %q", id)
	}
	return n
}

func TestContentName(t *testing.T) {
	for _, c := range []struct {
		html string
		want cells.Summary
	}{
		{`<a id=x href=1>Go <img alt=" home  page "> now</a>`, cells.Summary{Text: "Go home page now"}},
		{`<a id=x href=1><img alt=A style="visibility:hidden"><img alt=B hidden><img alt=C></a>`, cells.Summary{Text: "C"}},
		{`<div contenteditable><a id=x href=1>CANARY</a></div>`, cells.Summary{}},
		{`<a id=x href=1>a<input value=CANARY aria-label=q>b</a>`, cells.Summary{Text: "ab"}},
		{`<a id=x href=1><img alt="` + strings.Repeat("w", limits.CellUnits+1) + `"></a>`,
			cells.Summary{Text: strings.Repeat("w", limits.CellUnits), Truncated: true, Why: cells.TruncText}},
	} {
		if got := cells.ContentName(htmlByID(t, c.html, "x")); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.html, got, c.want)
		}
	}
}

func TestOptionText(t *testing.T) {
	for _, c := range []struct {
		html string
		want cells.Summary
	}{
		// A drop-down's options are excluded in the tree; their text is read.
		{`<select><option id=x> Small  size </option></select>`, cells.Summary{Text: "Small size"}},
		{`<select multiple><option id=x>a<b>ignored</b>c</option></select>`, cells.Summary{Text: "ac"}},
		{`<select><option id=x>` + strings.Repeat("o", limits.CellUnits+1) + `</option></select>`,
			cells.Summary{Text: strings.Repeat("o", limits.CellUnits), Truncated: true, Why: cells.TruncText}},
	} {
		if got := cells.OptionText(htmlByID(t, c.html, "x")); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.html, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	x := cells.NewText(4)
	x.Space()
	if !x.WriteString("  ab ") || !x.WriteString("c") || x.Full() || x.String() != "ab c" {
		t.Fatalf("%q full %v", x.String(), x.Full())
	}
	x.Space()
	if x.WriteString("d") || !x.Full() || x.String() != "ab c" {
		t.Fatalf("over the bound: %q full %v", x.String(), x.Full())
	}
}
