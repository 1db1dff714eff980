package view

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/limits"
)

// controlRole is n's role when it makes n a control of the page view, ""
// otherwise; role is aria.Role(n). A form control (docs/reference.md#rows)
// keeps an explicit role that is a control role (<button role=link> is a
// link, <button role=tab> a tab, as Chromium has them) and otherwise takes
// the form role column's role, so <button role=heading> stays a button and
// <input type=date> is none; any other element has its role by
// docs/reference.md#finding-the-collection, so a[href] and area[href] are
// links and role="presentation" is honoured.
func controlRole(n domtree.Node, role string) string {
	if collect.IsControl(n) && !isControlRole(aria.ExplicitRole(n)) {
		role = cells.FormCell(n, cells.ColumnRole).Text
		if role == "" && fileInput(n) {
			// A file input has no role of its own in the form columns;
			// to a person it is a button that chooses files.
			role = "button"
		}
	}
	if isControlRole(role) {
		return role
	}
	if role == "option" && !inSelect(n) {
		// A custom list box (a component library's drop-down draws its
		// choices as role=option elements) is chosen from by clicking an
		// option; a <select>'s own options are listed with the select.
		return role
	}
	if isHeaderRole(role) && sortable(n) {
		// A header that says how its table is sorted is how a person
		// sorts it: clicking "Price" orders the rows by price.
		return role
	}
	return ""
}

// fileInput reports whether n is an <input type=file> (the type read
// ASCII case-insensitively).
func fileInput(n domtree.Node) bool {
	return n.Is("input") && domtree.EqualFold(n.AttrValue("type"), "file")
}

// isHeaderRole reports whether an element of this role is a table header
// cell, which aria-sort makes a control.
func isHeaderRole(role string) bool {
	return role == "columnheader" || role == "rowheader"
}

// sortable reports whether a header cell says it sorts its table: it has
// an aria-sort attribute that is not empty. Any value counts, none too (a
// sortable column not sorted now); an empty value is as if absent, as ARIA
// has it.
func sortable(n domtree.Node) bool {
	v := n.AttrValue("aria-sort")
	for i := 0; i < len(v); i++ {
		if !domtree.IsASCIISpace(v[i]) {
			return true
		}
	}
	return false
}

// sortState is a sortable header's aria-sort: ascending, descending or
// other as it says (ASCII case-insensitively, as every ARIA state here),
// else none, the attribute's default.
func sortState(n domtree.Node) string {
	v := n.AttrValue("aria-sort")
	for _, s := range [...]string{"ascending", "descending", "other"} {
		if domtree.EqualFold(v, s) {
			return s
		}
	}
	return "none"
}

// isControlRole reports whether an element of this role is a control of the
// page view.
func isControlRole(role string) bool {
	switch role {
	case "button", "checkbox", "combobox", "link", "listbox", "menuitem",
		"menuitemcheckbox", "menuitemradio", "radio", "searchbox", "slider",
		"spinbutton", "switch", "tab", "textbox":
		return true
	}
	return false
}

// regionRole reports whether an element of this role may be a region: a
// landmark, a heading, or a region or form, which count only with a name.
// The HTML-AAM scoping of header, footer, aside and section is aria.Role's.
func regionRole(role string) bool {
	switch role {
	case "banner", "navigation", "main", "complementary", "contentinfo",
		"search", "heading", "region", "form":
		return true
	}
	return false
}

// editable reports whether n holds a value: text under it is never read.
func editable(n domtree.Node) bool {
	switch n.Name() {
	case "input", "textarea", "select":
		return true
	}
	return n.EditingHost()
}

// ariaChecked is aria-checked read as the checked column reads it: true,
// false or mixed, and false for anything else.
func ariaChecked(n domtree.Node) string {
	v := n.AttrValue("aria-checked")
	for _, s := range [...]string{"true", "false", "mixed"} {
		if domtree.EqualFold(v, s) {
			return s
		}
	}
	return "false"
}

// secretField reports whether n is a field only a person may type into
// (docs/reference.md#the-page-view): a password input, or one whose autocomplete
// names a password or a one-time code.
func secretField(n domtree.Node) bool {
	if n.Is("input") && domtree.EqualFold(n.AttrValue("type"), "password") {
		return true
	}
	for _, tok := range domtree.Fields(n.AttrValue("autocomplete")) {
		switch {
		case domtree.EqualFold(tok, "current-password"),
			domtree.EqualFold(tok, "new-password"),
			domtree.EqualFold(tok, "one-time-code"):
			return true
		}
	}
	return false
}

// headingLevel is h1 to h6's own level, else a whole aria-level of at least
// 1 (read as HTML reads a non-negative integer, and no larger than
// limits.MaxSafeInteger so JSON carries it exactly), else 2.
func headingLevel(n domtree.Node) int {
	switch n.Name() {
	case "h1":
		return 1
	case "h2":
		return 2
	case "h3":
		return 3
	case "h4":
		return 4
	case "h5":
		return 5
	case "h6":
		return 6
	}
	if v, ok := aria.ParseNonNegative(n.AttrValue("aria-level")); ok && v >= 1 && v <= limits.MaxSafeInteger {
		return v
	}
	return 2
}

// regionName is a region's name: the text aria-labelledby names, else
// aria-label, else for a heading its own text. A name cut by a bound keeps
// its prefix, as an inventory name does.
func regionName(n domtree.Node, heading bool) string {
	if s, ok := cells.LabelledBy(n); ok {
		return s.Text
	}
	if s, ok := cells.AttributeText(n, "aria-label"); ok {
		return s.Text
	}
	if heading {
		return cells.Summarize(n).Text
	}
	return ""
}

// contentControlName names a control that is not a form control: the text
// aria-labelledby names, else aria-label, else its content with images'
// alt, else title. A source cut by a bound ends the fall-through there, as
// in a label cell.
func contentControlName(n domtree.Node) cells.Summary {
	if s, ok := cells.LabelledBy(n); ok {
		return s
	}
	if s, ok := cells.AttributeText(n, "aria-label"); ok {
		return s
	}
	if s := cells.ContentName(n); !s.Missing() {
		return s
	}
	if s, ok := cells.AttributeText(n, "title"); ok {
		return s
	}
	return cells.Summary{}
}

// inSelect reports whether n is an option of a <select> or <datalist>:
// its parent, or its optgroup's parent, is one.
func inSelect(n domtree.Node) bool {
	p := n.Parent()
	if p.Is("optgroup") {
		p = p.Parent()
	}
	return p.Is("select") || p.Is("datalist")
}
