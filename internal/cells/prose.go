package cells

import (
	"github.com/domsnap/domsnap/domtree"
)

// Text is normalised text under a bound of its own, for a caller that joins
// text by the cell-text rules (docs/reference.md#cell-text) over a longer
// walk than one cell: runs of ASCII whitespace become one space, none at
// either end, at most the bound in UTF-16 units, never half a surrogate
// pair, valid UTF-8.
type Text struct{ t textBuf }

// NewText returns an empty Text that retains at most units UTF-16 units
// (at least 1).
func NewText(units int) *Text { return &Text{t: textBuf{limit: max(units, 1)}} }

// Space records a separator: written only when a later character follows.
func (x *Text) Space() { x.t.space() }

// WriteString streams s in. It reports false at the first non-whitespace
// character that does not fit; the rest of s is not read, and Full reports
// true from then on.
func (x *Text) WriteString(s string) bool { return x.t.writeString(s) }

// Full reports whether a non-whitespace character was refused: more text
// remained than the bound holds.
func (x *Text) Full() bool { return x.t.over }

// String is the retained text.
func (x *Text) String() string { return string(x.t.b) }

// ContentName is the name a control other than a form control takes from its
// content (docs/reference.md#the-page-view): Summarize's text of el's
// subtree, on one fresh CellNodes budget, in which a visible <img> also
// contributes its alt attribute where it stands. Like Summarize it reads
// nothing inside an editable control and is missing when el lies inside one.
func ContentName(el domtree.Node) Summary {
	if insideEditable(el) {
		return Summary{}
	}
	w := newWalker()
	w.alt = true
	w.walk(el)
	return w.summary()
}

// OptionText is the text of one <option> (docs/reference.md#the-page-view):
// its text children joined and bounded as a summary's text, on one fresh
// CellNodes budget for the children visited. An option renders its text
// only (a browser gives its element children no box), and a drop-down
// select draws its options without boxes, so the tree marks them excluded;
// their text is read all the same, since the choices are what the page
// offers, not a value anyone typed. Which option is selected is never read,
// and the tree does not record it.
func OptionText(opt domtree.Node) Summary {
	w := newWalker()
	for c := opt.FirstChild(); c.Valid(); c = c.NextSibling() {
		if !w.budget.Spend() {
			w.stop(TruncNodes)
			break
		}
		if c.Kind() == domtree.Text && !w.text.writeString(c.Data()) {
			w.stop(TruncText)
			break
		}
	}
	return w.summary()
}
