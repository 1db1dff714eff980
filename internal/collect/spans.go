package collect

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
)

// HTML's own caps on spans: a colspan above 1000 is 1000 and a rowspan above
// 65534 is 65534. Parsing saturates at the larger cap so huge digit strings
// cannot overflow.
const (
	maxColspan = 1000
	maxRowspan = 65534
)

// parseNonNegative applies the HTML rules for parsing non-negative integers:
// leading ASCII whitespace, an optional sign, then at least one digit; what
// follows the digits is ignored ("2;" is 2). A negative value fails, except
// that "-0" is 0. The value saturates at maxRowspan.
func parseNonNegative(s string) (int, bool) {
	v, ok := aria.ParseInteger(s)
	if !ok || v < 0 {
		return 0, false
	}
	return min(v, maxRowspan), true
}

// colspan is a cell's colspan as HTML reads it: absent, unparsable or zero is 1.
func colspan(n domtree.Node) int {
	v, ok := n.Attr("colspan")
	if !ok {
		return 1
	}
	c, ok := parseNonNegative(v)
	if !ok || c == 0 {
		return 1
	}
	return min(c, maxColspan)
}

// rowspan is a cell's rowspan as HTML reads it: absent or unparsable is 1;
// 0 means the cell spans to the end of its row group.
func rowspan(n domtree.Node) int {
	v, ok := n.Attr("rowspan")
	if !ok {
		return 1
	}
	r, ok := parseNonNegative(v)
	if !ok {
		return 1
	}
	return r
}

// ariaSpan reads aria-colspan or aria-rowspan strictly (docs/reference.md#corner-cases):
// optional ASCII whitespace, then ASCII digits and nothing else. It returns 0
// for an absent or unparsable value, which callers ignore like 0 and 1.
func ariaSpan(n domtree.Node, attr string) int {
	s, ok := n.Attr(attr)
	if !ok {
		return 0
	}
	i := 0
	for i < len(s) && domtree.IsASCIISpace(s[i]) {
		i++
	}
	if i == len(s) {
		return 0
	}
	v := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0
		}
		if v <= maxRowspan {
			v = v*10 + int(c-'0')
		}
	}
	return min(v, maxRowspan)
}

// isNativeCell reports whether n is a td or th, the only elements whose
// colspan and rowspan attributes mean anything.
func isNativeCell(n domtree.Node) bool { return n.Is("td") || n.Is("th") }

// spanGroup follows the row spans of one row group: a thead, tbody or tfoot,
// the table itself for loose rows, or for ARIA tables a rowgroup or the table.
type spanGroup struct {
	// rows is the number of rows of the group met so far.
	rows int
	// coverEnd is the last row index (within the group) that a rowspan from
	// an earlier row reaches; -1 when none does.
	coverEnd int
	// toEnd is set by rowspan="0": every later row of the group is covered.
	toEnd bool
}

func newSpanGroup() spanGroup { return spanGroup{coverEnd: -1} }

// row takes the next row of the group, with its visible cells in order, and
// reports whether its structure is unsupported. ariaRows says whether
// aria-rowspan also covers later rows, which it does in ARIA tables only: in a
// native table the layout follows rowspan, and aria-rowspan merely marks its
// own row as untrustworthy.
func (g *spanGroup) row(cells []domtree.Node, ariaRows bool) bool {
	k := g.rows
	g.rows++
	marked := g.toEnd || k <= g.coverEnd
	for _, c := range cells {
		if isNativeCell(c) {
			if colspan(c) != 1 {
				marked = true
			}
			switch r := rowspan(c); {
			case r == 0:
				marked, g.toEnd = true, true
			case r != 1:
				marked = true
				g.coverEnd = max(g.coverEnd, k+r-1)
			}
		}
		if ariaSpan(c, "aria-colspan") >= 2 {
			marked = true
		}
		if r := ariaSpan(c, "aria-rowspan"); r >= 2 {
			marked = true
			if ariaRows {
				g.coverEnd = max(g.coverEnd, k+r-1)
			}
		}
	}
	return marked
}
