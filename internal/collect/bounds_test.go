package collect

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// rowBoundPage is a collection whose row scan visits filler text nodes (one
// each, never entered) followed by one final row described by tail, whose
// own visit cost is tailCost. trailing adds one more text node after it.
func rowBoundPage(open, tail string, filler int, trailing bool) string {
	var sb strings.Builder
	sb.WriteString("body\n  " + open + "\n")
	for range filler {
		sb.WriteString("    \"x\"\n")
	}
	sb.WriteString(tail)
	if trailing {
		sb.WriteString("    \"after\"\n")
	}
	return sb.String()
}

func TestRowScanBound(t *testing.T) {
	const L = limits.RowScanNodes
	kinds := []struct {
		name     string
		kind     aria.Kind
		open     string
		tail     string
		tailCost int
		cells    []string
	}{
		{"native table row with text between and after its cells", aria.Table, "table", `    tr @row
      td @a
        "inside a cell: not visited"
      " "
      td @b
      # after the last cell
`, 5, []string{"a", "b"}},
		{"aria table row with a wrapper", aria.Table, "div role=table", `    div role=row @row
      div
        div role=cell @a
      div role=cell @b
`, 4, []string{"a", "b"}},
		{"list item", aria.List, "ul", `    li @row
      "item text: not visited"
`, 1, []string{"row"}},
		{"form control under a wrapper", aria.Form, "form", `    div
      input @row
`, 2, nil},
	}
	for _, k := range kinds {
		for _, c := range []struct {
			name     string
			total    int
			trailing bool
			seen     bool
			visited  int
			complete bool
		}{
			{"L-1 nodes", L - 1, false, true, L - 1, true},
			{"exactly L nodes", L, false, true, L, true},
			{"L+1 nodes: the row is cut", L + 1, false, false, L, false},
			{"row ends at L, one node after", L, true, true, L, false},
		} {
			t.Run(k.name+"/"+c.name, func(t *testing.T) {
				b := buildTree(t, rowBoundPage(k.open, k.tail, c.total-k.tailCost, c.trailing))
				col := Find(b.tree, k.kind, 0)
				if !col.Found {
					t.Fatalf("collection not found: %+v", col)
				}
				got := ScanRows(col)
				var want []rowD
				want = []rowD{}
				if c.seen {
					want = append(want, rowD{El: "row", Cells: k.cells})
				}
				if diff := cmp.Diff(want, rowDigests(b, got.Rows)); diff != "" {
					t.Errorf("rows (-want +got)\n%s", diff)
				}
				wantScan := limits.Scan{Limit: L, Visited: c.visited, Exhausted: !c.complete}
				if diff := cmp.Diff(wantScan, got.Scan); diff != "" || got.Complete != c.complete {
					t.Errorf("complete %v, want %v; scan (-want +got)\n%s", got.Complete, c.complete, diff)
				}
			})
		}
	}
}

// TestRowCutMidRow checks that a row whose cells were visited but whose
// last child node was not is not seen, and that earlier rows still are.
func TestRowCutMidRow(t *testing.T) {
	const L = limits.RowScanNodes
	// table: tbody(1), then (L-5)/... rows are built to end exactly so that
	// the final comment of the last row is node L+1.
	var sb strings.Builder
	sb.WriteString("table\n  tbody\n")
	visited := 1
	rows := 0
	for visited+3 <= L-4 {
		sb.WriteString("    tr\n      td\n      td\n")
		visited += 3
		rows++
	}
	for visited < L-4 {
		sb.WriteString("    \"pad\"\n")
		visited++
	}
	// The last row costs 5: tr, td, td, text, comment; the comment is node L+1.
	sb.WriteString("    tr @last\n      td\n      td\n      \" \"\n      # tail\n")
	b := buildTree(t, sb.String())
	got := ScanRows(Find(b.tree, aria.Table, 0))
	if len(got.Rows) != rows || got.Complete || got.Scan.Visited != L || !got.Scan.Exhausted {
		t.Fatalf("rows %d (want %d), complete %v, scan %+v", len(got.Rows), rows, got.Complete, got.Scan)
	}
	for _, r := range got.Rows {
		if b.name(r.Element) == "last" {
			t.Fatal("the cut row was reported")
		}
	}
}
