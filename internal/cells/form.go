package cells

import "github.com/domsnap/domsnap/domtree"

// The fixed form columns (docs/reference.md#rows).
const (
	ColumnLabel    = 0
	ColumnRole     = 1
	ColumnDisabled = 2
	ColumnChecked  = 3
	ColumnRequired = 4
)

// FormCell is column column of the form row of control (docs/reference.md#form-columns):
// the label text; the role; "true" or "false" for disabled, checked and
// required. It is missing where the spec says so (a control with no ARIA
// role, checked of a control that has no checked state, a label with no
// source) and for any other column.
func FormCell(control domtree.Node, column int) Summary {
	if !control.IsElement() {
		return Summary{}
	}
	switch column {
	case ColumnLabel:
		return label(control)
	case ColumnRole:
		return Summary{Text: controlRole(control)}
	case ColumnDisabled:
		return boolSummary(disabled(control))
	case ColumnChecked:
		return checked(control)
	case ColumnRequired:
		return boolSummary(control.HasAttr("required") || control.AttrEquals("aria-required", "true"))
	}
	return Summary{}
}

func boolSummary(b bool) Summary {
	if b {
		return Summary{Text: "true"}
	}
	return Summary{Text: "false"}
}

// supportsDisabled reports whether the disabled attribute means anything on n.
func supportsDisabled(n domtree.Node) bool {
	switch n.Name() {
	case "button", "input", "select", "textarea", "fieldset", "optgroup", "option":
		return true
	}
	return false
}

// disabled is the disabled column: the control's own disabled attribute
// where it is supported, a disabled ancestor fieldset unless the control is
// inside that fieldset's first legend, or aria-disabled="true" on the
// control or an ancestor.
func disabled(n domtree.Node) bool {
	if (supportsDisabled(n) && n.HasAttr("disabled")) || n.AttrEquals("aria-disabled", "true") {
		return true
	}
	child := n
	for p := n.Parent(); p.Valid(); child, p = p, p.Parent() {
		if p.AttrEquals("aria-disabled", "true") {
			return true
		}
		if p.Is("fieldset") && p.HasAttr("disabled") && !firstLegend(child, p) {
			return true
		}
	}
	return false
}

// firstLegend reports whether child is the first legend element child of
// fieldset.
func firstLegend(child, fieldset domtree.Node) bool {
	if !child.Is("legend") || child.Parent() != fieldset {
		return false
	}
	for s := child.PrevSibling(); s.Valid(); s = s.PrevSibling() {
		if s.Is("legend") {
			return false
		}
	}
	return true
}

// checked is the checked column: a native checkbox or radio input reports
// its checked state and ignores aria-checked; an element whose role is
// checkbox, radio or switch reports aria-checked true, false or mixed, and
// false for anything else; other controls have no checked state.
func checked(n domtree.Node) Summary {
	switch inputType(n) {
	case "checkbox", "radio":
		return boolSummary(n.Checked())
	}
	switch controlRole(n) {
	case "checkbox", "radio", "switch":
		v := n.AttrValue("aria-checked")
		for _, s := range [...]string{"true", "false", "mixed"} {
			if domtree.EqualFold(v, s) {
				return Summary{Text: s}
			}
		}
		return Summary{Text: "false"}
	}
	return Summary{}
}
