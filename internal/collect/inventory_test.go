package collect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

type entryD struct {
	Kind     string
	Index    int
	Source   string
	Element  string
	Rows     int
	Complete bool
}

func entryDigests(b built, es []Entry) []entryD {
	out := []entryD{}
	for _, e := range es {
		out = append(out, entryD{e.Kind.String(), e.Index, e.Source.String(), b.name(e.Element), e.Rows, e.RowsComplete})
	}
	return out
}

func TestInventory(t *testing.T) {
	b := buildTree(t, `
body
  form @f0
    ul @l0
      li
      li
    input
  table !hidden
    tr
      td
  div role=grid @t0
    div role=row
      div role=cell
        ol @l1
          li
  div aria-hidden=true
    ul
  table role=presentation
    tr
      td
        table @t1
  div role=form @f1
`)
	want := []entryD{
		{"form", 0, "native", "f0", 1, true},
		{"list", 0, "native", "l0", 2, true},
		{"table", 0, "aria", "t0", 1, true},
		{"list", 1, "native", "l1", 1, true},
		{"table", 1, "native", "t1", 0, true},
		{"form", 1, "aria", "f1", 0, true},
	}
	if diff := cmp.Diff(want, entryDigests(b, Inventory(b.tree))); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}

func TestInventoryPerKindBound(t *testing.T) {
	const M = limits.MaxInventoryPerKind
	for _, n := range []int{M - 1, M, M + 1} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var sb strings.Builder
			sb.WriteString("body\n")
			for i := range n {
				fmt.Fprintf(&sb, "  ul @l%d\n    li\n  table @t%d\n", i, i)
			}
			sb.WriteString("  form @f\n")
			b := buildTree(t, sb.String())
			var want []entryD
			for i := range min(n, M) {
				want = append(want, entryD{"list", i, "native", fmt.Sprintf("l%d", i), 1, true},
					entryD{"table", i, "native", fmt.Sprintf("t%d", i), 0, true})
			}
			// A kind that is full does not stop the others being listed.
			want = append(want, entryD{"form", 0, "native", "f", 0, true})
			if diff := cmp.Diff(want, entryDigests(b, Inventory(b.tree))); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestInventoryScanBound(t *testing.T) {
	const L = limits.CollectionScanNodes
	for _, c := range []struct {
		pos    int
		listed bool
	}{{L - 1, true}, {L, true}, {L + 1, false}} {
		t.Run(fmt.Sprint(c.pos), func(t *testing.T) {
			tr := flatPage(t, c.pos, true)
			got := Inventory(tr)
			if c.listed != (len(got) == 1) {
				t.Fatalf("table as node %d: %d entries", c.pos, len(got))
			}
			if c.listed && (got[0].Element.Index() != c.pos-1 || got[0].Kind != aria.Table) {
				t.Fatalf("entry %+v", got[0])
			}
		})
	}
}

func TestInventoryIncompleteRows(t *testing.T) {
	const L = limits.RowScanNodes
	var sb strings.Builder
	sb.WriteString("body\n  ul @l\n")
	for range L + 1 {
		sb.WriteString("    li\n")
	}
	b := buildTree(t, sb.String())
	want := []entryD{{"list", 0, "native", "l", L, false}}
	if diff := cmp.Diff(want, entryDigests(b, Inventory(b.tree))); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}
