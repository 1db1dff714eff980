package cells

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
)

// editable reports whether n is an editable control whose content a walk
// must not enter (docs/reference.md#cell-text): an input, textarea or select, or an
// element whose contenteditable is "", "true" or "plaintext-only".
func editable(n domtree.Node) bool {
	switch n.Name() {
	case "input", "textarea", "select":
		return true
	}
	return n.EditingHost()
}

// optionLike reports whether n holds option text, which is never read
// through a reference (docs/reference.md#form-columns) even outside a select.
func optionLike(n domtree.Node) bool {
	switch n.Name() {
	case "option", "optgroup", "datalist":
		return true
	}
	return false
}

// nestedCollection reports whether a walk meets a collection it must not
// enter. An invisible element is not a collection (docs/reference.md#visibility).
func nestedCollection(n domtree.Node) bool {
	if n.Invisible() {
		return false
	}
	_, _, ok := aria.Collection(n)
	return ok
}

// formRowRole reports whether role is one of the explicit roles that make an
// element a form row (docs/reference.md#rows).
func formRowRole(role string) bool {
	switch role {
	case "button", "checkbox", "radio", "switch", "textbox", "searchbox",
		"combobox", "listbox", "slider", "spinbutton":
		return true
	}
	return false
}

// controlRole is the form role column (docs/reference.md#form-columns): the explicit role
// when it is a form-row role, else the HTML-AAM role of the table there, ""
// when the control has none.
func controlRole(n domtree.Node) string {
	if r := aria.ExplicitRole(n); formRowRole(r) {
		return r
	}
	switch n.Name() {
	case "input":
		return aria.InputRole(n)
	case "textarea":
		return "textbox"
	case "button":
		return "button"
	case "select":
		if n.HasAttr("multiple") {
			return "listbox"
		}
		if sizeAboveOne(n.AttrValue("size")) {
			return "listbox"
		}
		return "combobox"
	}
	return ""
}

// inputType is an input's type attribute lower-cased, "" for other elements.
func inputType(n domtree.Node) string {
	if !n.Is("input") {
		return ""
	}
	return domtree.ToLowerASCII(n.AttrValue("type"))
}

// sizeAboveOne reports whether a select's size attribute, read with the
// HTML rules for non-negative integers (leading ASCII whitespace, an
// optional "+", digits, anything after them ignored), is above 1. Only the
// comparison matters, so no number is built and nothing can overflow.
func sizeAboveOne(s string) bool {
	i := 0
	for i < len(s) && domtree.IsASCIISpace(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '+' {
		i++
	}
	for i < len(s) && s[i] == '0' {
		i++
	}
	digits := 0
	for j := i; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
		digits++
	}
	return digits > 1 || (digits == 1 && s[i] > '1')
}
