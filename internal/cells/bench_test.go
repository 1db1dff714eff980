package cells

import (
	"fmt"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// bigCell builds a td holding n spans, each with one text node: a word
// (the text bound stops the walk) or a space (the node bound does).
func bigCell(b tb, n int, words bool) domtree.Node {
	kids := make([]any, 0, n)
	for i := range n {
		text := " "
		if words {
			text = fmt.Sprintf("w%d ", i)
		}
		kids = append(kids, E("span", text))
	}
	return first(build(b, E("td", kids...)))
}

// BenchmarkSummarize shows the cost is flat in the cell's size: the walk
// stops at CellUnits or CellNodes whatever lies beyond.
func BenchmarkSummarize(b *testing.B) {
	for _, words := range []bool{true, false} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			cell := bigCell(b, n, words)
			want := map[bool]Truncation{true: TruncText, false: TruncNodes}[words]
			b.Run(fmt.Sprintf("bound=%s/nodes=%d", want, 2*n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if s := Summarize(cell); s.Why != want {
						b.Fatalf("truncated by %q, want %q", s.Why, want)
					}
				}
			})
		}
	}
	for _, size := range []int{1 << 10, 1 << 16, 1 << 22} {
		cell := first(build(b, E("td", strings.Repeat("word ", size/5))))
		b.Run(fmt.Sprintf("textbytes=%d", size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Summarize(cell)
			}
		})
	}
}

// BenchmarkFormLabel resolves a label from many label for elements.
func BenchmarkFormLabel(b *testing.B) {
	for _, n := range []int{10, 1_000, 100_000} {
		kids := make([]any, 0, n+1)
		for i := range n {
			kids = append(kids, E("label", A{"for", "c"}, fmt.Sprintf("L%d", i)))
		}
		kids = append(kids, E("input", A{"id", "c"}))
		tr := build(b, E("body", kids...))
		c := byID(b, tr, "c")
		b.Run(fmt.Sprintf("labels=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FormCell(c, ColumnLabel)
			}
		})
	}
}

// TestSummarizeCostFlat checks the bound the benchmark shows, in a number
// that does not depend on the machine: the walk visits CellNodes nodes and
// allocates the same whatever the cell's size.
func TestSummarizeCostFlat(t *testing.T) {
	var allocs []float64
	for _, n := range []int{1_000, 100_000} {
		cell := bigCell(t, n, false)
		w := newWalker()
		w.walk(cell)
		if w.budget.Visited() != limits.CellNodes || w.summary().Why != TruncNodes {
			t.Fatalf("%d spans: visited %d, %+v", n, w.budget.Visited(), w.summary())
		}
		allocs = append(allocs, testing.AllocsPerRun(20, func() { Summarize(cell) }))
	}
	if allocs[0] != allocs[1] || allocs[0] > 8 {
		t.Errorf("allocations per summary %v, want equal and few", allocs)
	}
}
