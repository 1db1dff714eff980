package collect

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// Find looks for the visible collection of kind whose count among visible
// collections of that kind, in tree order, equals index (docs/reference.md#finding-the-collection).
//
// The scan starts at the document node, which is the first node visited. Each
// visited node costs 1 of limits.CollectionScanNodes whatever its kind;
// excluded elements cost 1 and are not entered. The scan stops on the
// requested collection's element, when the budget is spent, or at the
// document's end. A kind or index that can never match simply scans the
// document and reports Absent (or ScanLimit); validating requests is the
// caller's business.
func Find(t *domtree.Tree, kind aria.Kind, index int) Collection {
	return find(t, kind, index, limits.CollectionScanNodes)
}

// find is Find with the budget as a parameter, so tests can compare it with an
// unbounded reference and probe small budgets.
func find(t *domtree.Tree, kind aria.Kind, index, limit int) Collection {
	c := Collection{Kind: kind, Index: index}
	b := limits.NewBudget(limit)
	root := t.Root()
	count := 0
	n := root
	for n.Valid() {
		if !b.Spend() {
			b.MarkExhausted()
			break
		}
		enter := !n.Excluded()
		if enter && n.IsElement() && n.Visible() {
			if k, src, ok := aria.Collection(n); ok && k == kind {
				if count == index {
					c.Found, c.Element, c.Source = true, n, src
					c.Scan = b.Report()
					return c
				}
				count++
			}
		}
		n = n.Next(root, enter)
	}
	c.Scan = b.Report()
	if c.Scan.Exhausted {
		c.Reason = ScanLimit
	} else {
		c.Reason = Absent
	}
	return c
}

// Inventory lists, in tree order, the first limits.MaxInventoryPerKind
// visible collections of each kind (docs/reference.md#the-observation), each with the number of
// rows its own row scan saw.
//
// The entries come from one collection scan of limits.CollectionScanNodes
// that runs to its budget or the document's end; it may stop earlier once
// every kind is full, which changes nothing in the output.
func Inventory(t *domtree.Tree) []Entry {
	return inventory(t, limits.CollectionScanNodes, limits.RowScanNodes)
}

// kindSlots is the number of kinds an inventory tracks.
const kindSlots = 3

// slot maps a kind to its counter in an inventory, -1 for no kind. It does not
// lean on the numeric values of aria.Kind.
func slot(k aria.Kind) int {
	switch k {
	case aria.Table:
		return 0
	case aria.List:
		return 1
	case aria.Form:
		return 2
	}
	return -1
}

func inventory(t *domtree.Tree, scanLimit, rowLimit int) []Entry {
	var out []Entry
	var counts [kindSlots]int
	full := 0
	b := limits.NewBudget(scanLimit)
	root := t.Root()
	n := root
	for n.Valid() && full < kindSlots {
		if !b.Spend() {
			break
		}
		enter := !n.Excluded()
		if enter && n.IsElement() && n.Visible() {
			k, src, ok := aria.Collection(n)
			if s := slot(k); ok && s >= 0 && counts[s] < limits.MaxInventoryPerKind {
				c := Collection{Found: true, Kind: k, Index: counts[s], Element: n, Source: src}
				rows := scanRows(c, rowLimit)
				elems := make([]domtree.Node, len(rows.Rows))
				for i, r := range rows.Rows {
					elems[i] = r.Element
				}
				out = append(out, Entry{Kind: k, Index: counts[s], Source: src, Element: n,
					Rows: len(rows.Rows), RowsComplete: rows.Complete, RowElements: elems,
					DeclaredRows: rows.DeclaredRows, DeclaredColumns: rows.DeclaredColumns})
				counts[s]++
				if counts[s] == limits.MaxInventoryPerKind {
					full++
				}
			}
		}
		n = n.Next(root, enter)
	}
	return out
}
