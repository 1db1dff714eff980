package collect

import (
	"cmp"
	"slices"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// ScanRows enumerates the rows of a found collection (docs/reference.md#rows and #corner-cases)
// within limits.RowScanNodes nodes, starting under the collection element.
//
// A row is seen only when its element and every node the scan visits inside
// it (for a table row, all of its child nodes: cells and the text or comment
// nodes between them) were visited within the budget. Seen rows are returned
// in output order; a row cut by the budget is left out and Complete is false.
//
// For a collection that was not found there is nothing to scan: no rows, a
// scan of 0 nodes, and Complete true when the collection is Absent, false
// when the collection scan ran out of budget (docs/reference.md#corner-cases).
func ScanRows(c Collection) Rows {
	return scanRows(c, limits.RowScanNodes)
}

func scanRows(c Collection, limit int) Rows {
	if !c.Found || !c.Element.IsElement() {
		return Rows{Complete: c.Reason == Absent, Scan: limits.Scan{Limit: limit}}
	}
	s := rowScanner{el: c.Element, b: limits.NewBudget(limit)}
	switch c.Kind {
	case aria.Table:
		if c.Source == aria.Native && c.Element.Is("table") {
			s.nativeTable()
		} else {
			s.ariaTable()
			byRowIndex(s.body)
		}
	case aria.List:
		s.list()
	case aria.Form:
		s.form()
	}
	out := Rows{Scan: s.b.Report(), Columns: s.columns}
	out.Rows = make([]Row, 0, len(s.head)+len(s.body)+len(s.foot))
	out.Rows = append(out.Rows, s.head...)
	out.Rows = append(out.Rows, s.body...)
	out.Rows = append(out.Rows, s.foot...)
	out.Complete = !out.Scan.Exhausted
	if c.Kind == aria.Table {
		// What the document holds is what the scan saw: a table that
		// declares more rows or columns is not complete, whatever the scan
		// read, since the rest lies nowhere a scan could reach. A count no
		// larger than what was seen says nothing new and is not kept, as
		// Chromium exposes none then either.
		if d := declared(c.Element, "aria-rowcount"); short(d, len(out.Rows)) {
			out.DeclaredRows, out.Complete = d, false
		}
		if d := declared(c.Element, "aria-colcount"); short(d, out.Columns) {
			out.DeclaredColumns, out.Complete = d, false
		}
	}
	return out
}

// rowScanner is the state of one row scan. Rows are collected into three
// places so that a native table's header and footer rows can be moved to the
// rendered positions; the other kinds only use body.
type rowScanner struct {
	el               domtree.Node
	b                limits.Budget
	head, body, foot []Row
	// columns is the most cells a seen table row has, counted before an
	// unsupported span empties the row.
	columns int
}

// spend takes one node from the budget, marking the scan exhausted when none
// is left. The caller calls it only for a node that exists, so a failed spend
// always means nodes remained unvisited.
func (s *rowScanner) spend() bool {
	if s.b.Spend() {
		return true
	}
	s.b.MarkExhausted()
	return false
}

// place says where a native table row goes in the output.
type place uint8

const (
	placeBody place = iota
	placeHead
	placeFoot
)

// openRow is a row whose element was visited but whose content is still being
// walked; it becomes a seen row only when the walk leaves its subtree.
type openRow struct {
	el     domtree.Node
	cells  []domtree.Node
	header bool // every cell so far is a header cell
	place  place
	group  *spanGroup
}

func (s *rowScanner) close(r *openRow, ariaRows bool) {
	s.columns = max(s.columns, len(r.cells))
	row := Row{Element: r.el, Cells: r.cells}
	row.Header = r.place == placeHead || (len(r.cells) > 0 && r.header)
	if r.group.row(r.cells, ariaRows) {
		row.Structure, row.Cells = UnsupportedSpan, nil
	}
	switch r.place {
	case placeHead:
		s.head = append(s.head, row)
	case placeFoot:
		s.foot = append(s.foot, row)
	default:
		s.body = append(s.body, row)
	}
}

// nativeTable scans a <table>: every child of the table is visited; only
// thead, tbody and tfoot children (invisible ones too) and visible tr
// children are entered; inside a section only visible tr children are
// entered; inside a row every child is visited and the visible td and th
// children are the cells. Nothing else is entered.
func (s *rowScanner) nativeTable() {
	table := s.el
	loose := newSpanGroup()
	var section spanGroup
	sectionPlace := placeBody
	headMet, footMet := false, false
	var cur *openRow
	n := table.FirstChild()
	for n.Valid() {
		if cur != nil && !cur.el.Contains(n) {
			s.close(cur, false)
			cur = nil
		}
		if !s.spend() {
			return
		}
		enter := false
		if n.IsElement() && !n.Excluded() {
			switch p := n.Parent(); {
			case p == table:
				switch n.Name() {
				case "thead", "tbody", "tfoot":
					enter = true
					section, sectionPlace = newSpanGroup(), placeBody
					// Only the first thead (tfoot) that is neither excluded
					// nor invisible moves; any other one is a body.
					if n.Visible() && n.Is("thead") && !headMet {
						headMet, sectionPlace = true, placeHead
					} else if n.Visible() && n.Is("tfoot") && !footMet {
						footMet, sectionPlace = true, placeFoot
					}
				case "tr":
					if n.Visible() {
						enter = true
						cur = &openRow{el: n, header: true, place: placeBody, group: &loose}
					}
				}
			case cur != nil && p == cur.el:
				if isNativeCell(n) && n.Visible() {
					cur.cells = append(cur.cells, n)
					cur.header = cur.header && n.Is("th")
				}
			default: // a child of a section
				if n.Is("tr") && n.Visible() {
					enter = true
					cur = &openRow{el: n, header: true, place: sectionPlace, group: &section}
				}
			}
		}
		n = n.Next(table, enter)
	}
	if cur != nil {
		s.close(cur, false)
	}
}

// isCellRole reports whether an ARIA table cell has this role.
func isCellRole(role string) bool {
	switch role {
	case "cell", "gridcell", "columnheader", "rowheader":
		return true
	}
	return false
}

// roleLess is aria.RoleLess for a role already computed: an element's
// implicit role can depend on its ancestors, so it is computed once per node.
func roleLess(role string) bool {
	switch role {
	case "", "generic", "none", "presentation":
		return true
	}
	return false
}

// isCollection reports whether n is a collection element of any kind. The
// table and list scans enter only role-less elements and rowgroups, which are
// never collections, so this guard costs nothing in output; it documents that
// a nested collection's content is never this collection's rows.
func isCollection(n domtree.Node) bool {
	_, _, ok := aria.Collection(n)
	return ok
}

// groupFrame is a rowgroup the ARIA table walk is inside.
type groupFrame struct {
	el    domtree.Node
	group *spanGroup
}

// ariaTable scans a table by roles: rows are role row elements reached through
// role-less and rowgroup elements; cells are cell, gridcell, columnheader and
// rowheader elements reached from the row through role-less elements. Nested
// collections, excluded elements and invisible rows and cells are not entered;
// invisible role-less elements and rowgroups are.
func (s *rowScanner) ariaTable() {
	table := s.el
	// groups is the path of rowgroups around the walk, the table at the bottom.
	// It only grows by entering a rowgroup, so its depth is bounded by the
	// budget, and each frame is pushed and popped once.
	groups := []groupFrame{{el: table, group: new(spanGroup)}}
	*groups[0].group = newSpanGroup()
	var cur *openRow
	n := table.FirstChild()
	for n.Valid() {
		if cur != nil && !cur.el.Contains(n) {
			s.close(cur, true)
			cur = nil
		}
		for len(groups) > 1 && !groups[len(groups)-1].el.Contains(n) {
			groups = groups[:len(groups)-1]
		}
		if !s.spend() {
			return
		}
		enter := false
		if n.IsElement() && !n.Excluded() && !isCollection(n) {
			role := aria.Role(n)
			switch {
			case cur != nil:
				if isCellRole(role) {
					if n.Visible() {
						cur.cells = append(cur.cells, n)
						cur.header = cur.header && (role == "columnheader" || role == "rowheader")
					}
				} else if roleLess(role) {
					enter = true
				}
			case role == "row":
				if n.Visible() {
					enter = true
					cur = &openRow{el: n, header: true, place: placeBody, group: groups[len(groups)-1].group}
				}
			case role == "rowgroup":
				enter = true
				g := newSpanGroup()
				groups = append(groups, groupFrame{el: n, group: &g})
			case roleLess(role):
				enter = true
			}
		}
		n = n.Next(table, enter)
	}
	if cur != nil {
		s.close(cur, true)
	}
}

// byRowIndex puts an ARIA table's rows in the order a person sees them:
// by aria-rowindex, the position the page says each row has. A grid a
// script draws (AG Grid) keeps its row elements where they were made and
// moves them on screen after a sort; only aria-rowindex says where each now
// stands. A native table is drawn in its rows' order, which the tree
// already gives, so only ARIA tables are reordered.
//
// The key is the row's own: its aria-rowindex when that is a whole number of
// 1 or more, else 0, then tree order. Rows without an index (a header row
// the page left unnumbered) so keep their order and come first, and a table
// without any keeps tree order. Being each row's own, the order of any two
// rows does not depend on which others were seen: a scan cut by its budget
// lists the rows it saw in the order the whole scan gives them.
func byRowIndex(rows []Row) {
	type keyed struct {
		key int
		row Row
	}
	var ks []keyed
	for i, r := range rows {
		v, ok := aria.ParseNonNegative(r.Element.AttrValue("aria-rowindex"))
		if !ok || v < 1 {
			v = 0
		}
		if v != 0 && ks == nil {
			// The first row with an index: only now is there anything to
			// order, so a table without indices allocates nothing.
			ks = make([]keyed, i, len(rows))
			for j := range i {
				ks[j].row = rows[j]
			}
		}
		if ks != nil {
			ks = append(ks, keyed{v, r})
		}
	}
	if ks == nil {
		return
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
	for i := range ks {
		rows[i] = ks[i].row
	}
}

// list scans a list: items are the visible listitem elements reached through
// role-less elements. Items and nested collections are not entered, so items
// of nested lists are never reached.
func (s *rowScanner) list() {
	list := s.el
	n := list.FirstChild()
	for n.Valid() {
		if !s.spend() {
			return
		}
		enter := false
		if n.IsElement() && !n.Excluded() && !isCollection(n) {
			switch role := aria.Role(n); {
			case role == "listitem":
				if n.Visible() {
					s.body = append(s.body, Row{Element: n, Cells: []domtree.Node{n}})
				}
			case roleLess(role):
				enter = true
			}
		}
		n = n.Next(list, enter)
	}
}

// IsControl reports whether n is a form control in the sense of docs/reference.md#rows: input, select, textarea, button, or an element whose explicit
// role is one of the form-row roles. Visibility is the caller's business.
func IsControl(n domtree.Node) bool {
	if !n.IsElement() {
		return false
	}
	switch n.Name() {
	case "input", "select", "textarea", "button":
		return true
	}
	switch aria.ExplicitRole(n) {
	case "button", "checkbox", "radio", "switch", "textbox", "searchbox",
		"combobox", "listbox", "slider", "spinbutton":
		return true
	}
	return false
}

// form scans a form: it enters everything except excluded elements, controls
// and visible nested forms, so layout tables and lists inside a form are
// searched. An invisible nested form is not a collection (docs/reference.md#visibility):
// it is entered like any invisible wrapper.
// The visible controls are the rows.
func (s *rowScanner) form() {
	form := s.el
	n := form.FirstChild()
	for n.Valid() {
		if !s.spend() {
			return
		}
		enter := false
		if n.IsElement() && !n.Excluded() {
			switch {
			case IsControl(n):
				if n.Visible() {
					s.body = append(s.body, Row{Element: n})
				}
			case isForm(n) && n.Visible():
			default:
				enter = true
			}
		}
		n = n.Next(form, enter)
	}
}

func isForm(n domtree.Node) bool {
	k, _, ok := aria.Collection(n)
	return ok && k == aria.Form
}
