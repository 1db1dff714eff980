package limits

import (
	"testing"

	"pgregory.net/rapid"
)

func TestBudgetUnderAtOver(t *testing.T) {
	for _, limit := range []int{0, 1, CellNodes} {
		b := NewBudget(limit)
		for i := 0; i < limit; i++ {
			if !b.Spend() {
				t.Fatalf("limit %d: spend %d refused", limit, i)
			}
		}
		if !b.Spent() || b.Visited() != limit || b.Left() != 0 {
			t.Fatalf("limit %d: at the bound: spent=%v visited=%d", limit, b.Spent(), b.Visited())
		}
		if b.Spend() {
			t.Fatalf("limit %d: spend over the bound accepted", limit)
		}
		if b.Visited() != limit {
			t.Fatalf("limit %d: a refused spend counted", limit)
		}
		if b.Exhausted() {
			t.Fatal("exhausted without MarkExhausted")
		}
	}
}

func TestFitRecordsBounds(t *testing.T) {
	// Each record is 10 bytes on a 5-byte frame.
	size := func(k int) int { return 5 + 10*k }
	for _, c := range []struct {
		budget, want int
		fits         bool
	}{
		{4, 0, false}, {5, 0, true}, {14, 0, true}, {15, 1, true}, {16, 1, true},
		{54, 4, true}, {55, 5, true}, {56, 5, true}, {1000, 5, true},
	} {
		k, fits := FitRecords(5, c.budget, size)
		if k != c.want || fits != c.fits {
			t.Errorf("budget %d: got %d,%v want %d,%v", c.budget, k, fits, c.want, c.fits)
		}
	}
}

func TestFitRecordsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sizes := rapid.SliceOf(rapid.IntRange(0, 100)).Draw(t, "sizes")
		frame := rapid.IntRange(0, 50).Draw(t, "frame")
		budget := rapid.IntRange(0, 3000).Draw(t, "budget")
		size := func(k int) int {
			s := frame
			for _, x := range sizes[:k] {
				s += x
			}
			return s
		}
		k, fits := FitRecords(len(sizes), budget, size)
		// Reference: the largest k that fits, by linear search.
		want, wantFits := 0, false
		for i := 0; i <= len(sizes); i++ {
			if size(i) <= budget {
				want, wantFits = i, true
			}
		}
		if k != want || fits != wantFits {
			t.Fatalf("got %d,%v want %d,%v", k, fits, want, wantFits)
		}
	})
}
