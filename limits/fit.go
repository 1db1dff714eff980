package limits

// FitRecords finds how many leading records of n fit in a byte budget.
// size(k) must return the exact encoded size of the whole output when only the
// first k records are kept; it must not decrease as k grows. FitRecords
// returns the largest k in [0, n] with size(k) <= budget, and fits=false when
// not even k=0 fits. Records are never clipped: they are kept or dropped whole.
//
// The search is binary, so a caller that re-encodes for each probe pays
// O(log n) encodings rather than n.
func FitRecords(n, budget int, size func(k int) int) (k int, fits bool) {
	if size(n) <= budget {
		return n, true
	}
	if size(0) > budget {
		return 0, false
	}
	lo, hi := 0, n // size(lo) fits, size(hi) does not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if size(mid) <= budget {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, true
}
