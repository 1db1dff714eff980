package collect

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// Unknown is the declared count of a table that says it has more rows (or
// columns) than its document holds without saying how many: ARIA's
// aria-rowcount="-1".
const Unknown = -1

// declared is the count a table declares with the attribute name
// (aria-rowcount or aria-colcount), read with the HTML rules for parsing
// integers: a count of 1 or more, at most limits.MaxSafeInteger (a larger one
// is held at that bound, still more than any document holds); Unknown for
// -1; 0 when the table declares nothing usable (no attribute, a value that
// does not parse, 0, or below -1), which ARIA gives no meaning.
func declared(table domtree.Node, name string) int {
	v, ok := aria.ParseInteger(table.AttrValue(name))
	switch {
	case !ok:
		return 0
	case v == Unknown:
		return Unknown
	case v < 1:
		return 0
	case v > limits.MaxSafeInteger:
		return limits.MaxSafeInteger
	}
	return v
}

// short reports whether a declared count says the table has more than
// held: Unknown always does, 0 (nothing declared) never.
func short(declared, held int) bool {
	return declared == Unknown || declared > held
}
