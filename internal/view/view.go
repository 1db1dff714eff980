package view

import (
	"slices"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/limits"
)

// Row is one row an inventory collection's row scan saw: a control inside
// Element is "in" it (docs/reference.md#the-page-view).
type Row struct {
	Element  domtree.Node
	Kind     aria.Kind
	Index    int
	Position int
}

// RowsOf lists the rows of every inventory entry, for Scan.
func RowsOf(entries []collect.Entry) []Row {
	var out []Row
	for _, e := range entries {
		for k, el := range e.RowElements {
			out = append(out, Row{Element: el, Kind: e.Kind, Index: e.Index, Position: k})
		}
	}
	return out
}

// Control is one control of the page view.
type Control struct {
	Element domtree.Node
	Role    string
	// Name is the control's bounded name; Name.Truncated says a bound cut it.
	Name cells.Summary
	// Disabled and Required follow the form columns' rules.
	Disabled, Required bool
	// Checked is "true", "false" or "mixed" for the roles that have a
	// checked state, "" for the others.
	Checked string
	// Expanded is "true" or "false" from aria-expanded, "" when it says
	// neither.
	Expanded string
	// Selected is aria-selected="true" on a tab.
	Selected bool
	// Sort is a sortable header's aria-sort: "ascending", "descending",
	// "other" or "none"; "" for every other control.
	Sort string
	// Select is true for a <select>, whose Options and OptionsOmitted apply.
	Select bool
	// Files is true for an <input type=file>: a button that chooses files,
	// which an upload action fills.
	Files bool
	// Options holds the texts of the select's first limits.MaxOptions
	// shown options in tree order (see options), never which is selected.
	Options []string
	// OptionsOmitted counts its further shown options.
	OptionsOmitted int
	// In is the innermost inventory row the control lies in, when HasIn.
	In    Row
	HasIn bool
	// Secret is true for a field a person signs in with: an
	// <input type=password>, or one whose autocomplete names
	// current-password, new-password or one-time-code.
	Secret bool
}

// Region is one landmark or heading of the page view.
type Region struct {
	Element domtree.Node
	Role    string
	// Name is bounded like a cell summary; a cut name keeps its prefix.
	Name string
	// Level is a heading's level, 0 for the other roles.
	Level int
}

// View is what one view scan gathered.
type View struct {
	Scan            limits.Scan
	Controls        []Control
	ControlsOmitted int
	Regions         []Region
	RegionsOmitted  int
	Text            string
	TextTruncated   bool
}

// Scan runs the view scan over the main document from the document node,
// with limits.ViewScanNodes nodes. rows are the inventory's rows (RowsOf),
// in any order.
//
// The scan walks the composed tree (domtree.Tree.Composed): the page as it
// is rendered, shadow trees included; rows are light tree elements and are
// found there.
func Scan(t *domtree.Tree, rows []Row) View {
	c := t.Composed()
	return scan(c.Root(), composedRows(t, rows), limits.ViewScanNodes)
}

// ScanFrom is the view scan of start's subtree alone, start included, on a
// fresh limits.ViewScanNodes budget: an expansion. start is a node of the
// composed tree of light, the tree the rows are of.
func ScanFrom(light *domtree.Tree, start domtree.Node, rows []Row) View {
	return scan(start, composedRows(light, rows), limits.ViewScanNodes)
}

// composedRows are rows with their elements in light's composed tree; a
// row the composed tree leaves out is dropped, as nothing can lie in it.
func composedRows(light *domtree.Tree, rows []Row) []Row {
	if light == nil || light.Composed() == light {
		return rows
	}
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		if e := light.InComposed(r.Element); e.Valid() {
			r.Element = e
			out = append(out, r)
		}
	}
	return out
}

// scanner is the state of one view scan.
type scanner struct {
	v    View
	text *cells.Text
	// blocks holds every entered element that is not inline-level and
	// still contains the walk: leaving it adds its trailing space. Every
	// entry was paid for by the budget.
	//
	// Whether the walk has left an element is asked with Contains about the
	// node the walk reached, never with the element's subtree size: on a
	// partial tree (a bounded live capture) an element still open at the
	// horizon has no known size, and asking for it would send the capture
	// back for the whole page, though the walk ends long before.
	blocks []domtree.Node
	// edit is the outermost editable element entered, while the walk is
	// inside it: its text is a value and is never read.
	edit domtree.Node
	// menu is the outermost menu container (menuRole) entered, while the
	// walk is inside it: its list items may be submenu labels.
	menu domtree.Node
	// rows is sorted by tree order, next the first not yet reached, and open
	// the stack of rows containing the walk, innermost last.
	rows []Row
	next int
	open []Row
}

func scan(start domtree.Node, rows []Row, limit int) View {
	s := &scanner{text: cells.NewText(limits.ProseUnits)}
	s.v.Controls = []Control{}
	s.v.Regions = []Region{}
	s.rows = slices.Clone(rows)
	slices.SortStableFunc(s.rows, func(a, b Row) int {
		if a.Element.Index() != b.Element.Index() {
			return a.Element.Index() - b.Element.Index()
		}
		// The same index is the same element.
		return 0
	})
	b := limits.NewBudget(limit)
	n := start
	for n.Valid() {
		if !b.Spend() {
			b.MarkExhausted()
			break
		}
		s.visit(n)
		enter := !n.Excluded()
		n = n.Next(start, enter)
	}
	s.v.Scan = b.Report()
	s.v.Text = s.text.String()
	s.v.TextTruncated = s.text.Full() || s.v.Scan.Exhausted
	return s.v
}

// visit handles one node the walk reached.
func (s *scanner) visit(n domtree.Node) {
	for len(s.blocks) > 0 && !s.blocks[len(s.blocks)-1].Contains(n) {
		s.blocks = s.blocks[:len(s.blocks)-1]
		s.text.Space()
	}
	if s.edit.Valid() && !s.edit.Contains(n) {
		s.edit = domtree.Node{}
	}
	if s.menu.Valid() && !s.menu.Contains(n) {
		s.menu = domtree.Node{}
	}
	s.track(n)
	switch n.Kind() {
	case domtree.Text:
		if !s.edit.Valid() && n.Visible() && !s.text.Full() {
			s.text.WriteString(n.Data())
		}
		return
	case domtree.Element:
	default:
		return
	}
	if n.Excluded() {
		return // costs 1, adds nothing, not entered
	}
	if n.Display() != domtree.DisplayInline {
		s.text.Space()
		s.blocks = append(s.blocks, n)
	} else if n.Is("br") && !n.Invisible() {
		s.text.Space()
	}
	if editable(n) && !s.edit.Valid() {
		s.edit = n
	}
	if !n.Visible() {
		return
	}
	// An element's role can depend on its ancestors, so it is computed
	// once here for both questions.
	role := aria.Role(n)
	if menuRole(role) && !s.menu.Valid() {
		s.menu = n
	}
	if c := controlRole(n, role); c != "" {
		s.control(n, c)
	} else if popupTrigger(n) {
		s.control(n, "button")
	} else if s.menu.Valid() {
		if list, ok := submenu(n); ok {
			if c := s.control(n, "button"); c != nil {
				c.Name = labelName(n, list)
			}
		}
	}
	if regionRole(role) {
		s.region(n, role)
	}
}

// track keeps open the stack of inventory rows that contain n.
func (s *scanner) track(n domtree.Node) {
	for len(s.open) > 0 && !s.open[len(s.open)-1].Element.Contains(n) {
		s.open = s.open[:len(s.open)-1]
	}
	for s.next < len(s.rows) && s.rows[s.next].Element.Index() <= n.Index() {
		r := s.rows[s.next]
		if r.Element.Contains(n) {
			s.open = append(s.open, r)
		}
		s.next++
	}
}

// innermost is the row a control the walk is at lies in: the innermost
// open row of a table or list, else the innermost open row of a form. A
// form's row is the control itself, so it would always be the innermost;
// but a checkbox in a table that lies inside a form (a changelist whose
// rows are ticked for an action) is found by its table row, which is what a
// person names it by, and only a control in no table or list row names its
// form.
func (s *scanner) innermost() (Row, bool) {
	for i := len(s.open) - 1; i >= 0; i-- {
		if s.open[i].Kind != aria.Form {
			return s.open[i], true
		}
	}
	if len(s.open) > 0 {
		return s.open[len(s.open)-1], true
	}
	return Row{}, false
}

// control records a control and returns it, or counts it once
// MaxControls are listed and returns nil.
func (s *scanner) control(n domtree.Node, role string) *Control {
	if len(s.v.Controls) == limits.MaxControls {
		s.v.ControlsOmitted++
		return nil
	}
	c := Control{Element: n, Role: role}
	if collect.IsControl(n) {
		c.Name = cells.FormCell(n, cells.ColumnLabel)
	} else {
		c.Name = contentControlName(n)
	}
	c.Disabled = cells.FormCell(n, cells.ColumnDisabled).Text == "true"
	c.Required = cells.FormCell(n, cells.ColumnRequired).Text == "true"
	switch role {
	case "checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio":
		// The checked column gives a native checkbox's or radio's own
		// state whatever its role (<input type=checkbox
		// role=menuitemcheckbox> is checked as it is drawn, as in
		// Chromium), and aria-checked for the form-row roles.
		c.Checked = cells.FormCell(n, cells.ColumnChecked).Text
		if c.Checked == "" {
			// An element whose role came from elsewhere than the form
			// columns (an implicit one, a menu item's) still has a state:
			// aria-checked.
			c.Checked = ariaChecked(n)
		}
	}
	switch v := n.AttrValue("aria-expanded"); {
	case domtree.EqualFold(v, "true"):
		c.Expanded = "true"
	case domtree.EqualFold(v, "false"):
		c.Expanded = "false"
	}
	c.Selected = role == "tab" && domtree.EqualFold(n.AttrValue("aria-selected"), "true")
	if isHeaderRole(role) {
		c.Sort = sortState(n)
	}
	c.Secret = secretField(n)
	c.In, c.HasIn = s.innermost()

	c.Files = fileInput(n)
	if n.Is("select") {
		c.Select = true
		c.Options, c.OptionsOmitted = options(n)
	}
	s.v.Controls = append(s.v.Controls, c)
	return &s.v.Controls[len(s.v.Controls)-1]
}

// region records a region, or counts it once MaxRegions are listed. A
// region or form without a name is no region at all, so its name is read
// even past the bound.
func (s *scanner) region(n domtree.Node, role string) {
	r := Region{Element: n, Role: role}
	switch role {
	case "heading":
		r.Level = headingLevel(n)
		if len(s.v.Regions) < limits.MaxRegions {
			r.Name = regionName(n, true)
		}
	case "region", "form":
		r.Name = regionName(n, false)
		if r.Name == "" {
			return
		}
	default:
		if len(s.v.Regions) < limits.MaxRegions {
			r.Name = regionName(n, false)
		}
	}
	if len(s.v.Regions) == limits.MaxRegions {
		s.v.RegionsOmitted++
		return
	}
	s.v.Regions = append(s.v.Regions, r)
}
