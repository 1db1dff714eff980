package collect

import (
	"fmt"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
)

// benchPage is a flat page of about size nodes: a ten-row table near the
// start, then paragraphs with text to the end.
func benchPage(tb testing.TB, size int) *domtree.Tree {
	b := domtree.NewBuilder(size)
	block := domtree.ElementInfo{Display: domtree.DisplayBlock}
	must := func(i int, err error) int {
		if err != nil {
			tb.Fatal(err)
		}
		return i
	}
	body := must(b.AddElement(0, "body", nil, block))
	table := must(b.AddElement(body, "table", nil, block))
	tbody := must(b.AddElement(table, "tbody", nil, block))
	for r := range 10 {
		tr := must(b.AddElement(tbody, "tr", nil, block))
		for c := range 3 {
			td := must(b.AddElement(tr, "td", nil, block))
			must(b.AddText(td, fmt.Sprint(r, c), 0))
		}
	}
	for b.Len() < size {
		p := must(b.AddElement(body, "p", nil, block))
		must(b.AddText(p, "filler", 0))
	}
	return b.Build()
}

// BenchmarkFindScanRows measures Find plus ScanRows with the collection near
// the start: the time must not grow with the page.
func BenchmarkFindScanRows(b *testing.B) {
	for _, size := range []int{1_000, 10_000, 100_000} {
		tr := benchPage(b, size)
		b.Run(fmt.Sprintf("nodes=%d", size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := Find(tr, aria.Table, 0)
				if r := ScanRows(c); len(r.Rows) != 10 {
					b.Fatalf("%d rows", len(r.Rows))
				}
			}
		})
	}
}

// BenchmarkInventory measures the inventory, whose one collection scan runs
// to its budget: it grows with the page up to that budget and no further.
func BenchmarkInventory(b *testing.B) {
	for _, size := range []int{1_000, 10_000, 100_000} {
		tr := benchPage(b, size)
		b.Run(fmt.Sprintf("nodes=%d", size), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if len(Inventory(tr)) != 1 {
					b.Fatal("want one entry")
				}
			}
		})
	}
}
