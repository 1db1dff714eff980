package view

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/limits"
)

// options lists a select's shown options: the texts of the first
// limits.MaxOptions in tree order, and how many more there are.
//
// They are enumerated as a row scan enumerates rows: a walk under the
// select of at most limits.RowScanNodes nodes, each costing 1, that enters
// only optgroups; options past the walk's budget are unknown and not
// counted. Each listed text is an option's summary on its own
// limits.CellNodes budget.
//
// A drop-down select (no multiple, size at most 1) draws its options itself:
// they have no boxes, so the tree marks them excluded, live and offline
// alike. Its options are shown unless the hidden attribute or
// aria-hidden="true" hides them or their optgroup; author CSS cannot be told
// apart from the drop-down's own rule there. The options of a list box have
// boxes and are shown when they are visible.
func options(sel domtree.Node) ([]string, int) {
	out := []string{}
	omitted := 0
	dropDown := !sel.HasAttr("multiple") && selectSize(sel) <= 1
	b := limits.NewBudget(limits.RowScanNodes)
	n := sel.FirstChild()
	for n.Valid() {
		if !b.Spend() {
			break
		}
		enter := false
		if n.IsElement() && shown(n, dropDown) {
			switch n.Name() {
			case "optgroup":
				enter = true
			case "option":
				if len(out) < limits.MaxOptions {
					out = append(out, cells.OptionText(n).Text)
				} else {
					omitted++
				}
			}
		}
		n = n.Next(sel, enter)
	}
	return out, omitted
}

// shown reports whether an option or optgroup of a select is shown.
func shown(n domtree.Node, dropDown bool) bool {
	if !dropDown {
		return n.Visible()
	}
	return !n.HasAttr("hidden") && !n.AttrEquals("aria-hidden", "true")
}

// selectSize is a select's size attribute, 0 when it has none.
func selectSize(sel domtree.Node) int {
	v, _ := aria.ParseNonNegative(sel.AttrValue("size"))
	return v
}
