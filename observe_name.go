package domsnap

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/limits"
)

// collectionName is an inventory entry's name (docs/reference.md#the-observation): the first
// non-empty of the texts named by aria-labelledby, the aria-label, and, for
// a native <table>, its first <caption> child. It is "" when all are empty.
//
// The reference leaves the bounds to us; they follow the label rules of
// docs/reference.md#form-columns so that a name costs no more than one label
// cell:
//
//   - aria-labelledby is read exactly as label source 1 of a form's label
//     cell (cells.LabelledBy): the first limits.MaxIDChars UTF-16 units, a
//     cut token dropped, unknown IDs skipped, each element once, at most
//     limits.MaxLabels elements, hidden and editable references contributing
//     nothing, and one limits.CellNodes budget for the texts and the
//     ancestor checks together, as a cell summary
//     (docs/reference.md#cell-text) has one budget.
//   - The caption is looked for among the table's first limits.CellNodes
//     child nodes and summarised with one CellNodes budget.
//   - Attribute texts are normalised like a summary: runs of ASCII
//     whitespace become one space, none at either end.
//   - The joined name keeps at most limits.CellUnits UTF-16 units, never
//     half a surrogate pair, a space left at the bound trimmed.
//
// A name cut by a bound keeps its retained prefix: the inventory has no key
// to say so, and a prefix still tells a reader which collection is meant.
// Work per name is at most three CellNodes budgets, whatever the page.
func collectionName(el domtree.Node) string {
	if s, _ := cells.LabelledBy(el); s.Text != "" {
		return s.Text
	}
	if s, _ := cells.AttributeText(el, "aria-label"); s.Text != "" {
		return s.Text
	}
	if el.Is("table") {
		c := el.FirstChild()
		for i := 0; c.Valid() && i < limits.CellNodes; i++ {
			if c.Is("caption") {
				return cells.Summarize(c).Text
			}
			c = c.NextSibling()
		}
	}
	return ""
}
