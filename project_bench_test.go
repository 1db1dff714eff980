package domsnap

import (
	"testing"

	"github.com/domsnap/domsnap/limits"
)

// BenchmarkObserveBig observes the worst-case page of the projection tests:
// 48 named collections and a 60-row table read with the largest row limit.
func BenchmarkObserveBig(b *testing.B) {
	tree := obsParse(b, bigPage(limits.MaxRowLimit+10))
	req := bigRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Observe(tree, fileRev, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectBig projects that observation at the default budget,
// which drops entries and rows.
func BenchmarkProjectBig(b *testing.B) {
	o := observeBig(b, fileRev)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Project(o, limits.ModelBytes); err != nil {
			b.Fatal(err)
		}
	}
}
