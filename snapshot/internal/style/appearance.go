package style

import (
	"github.com/domsnap/domsnap/domtree"
	"golang.org/x/net/html"
)

// appearanceValues are the keywords Chromium accepts for appearance (and
// its alias -webkit-appearance) besides none: every one of them gives the
// element its native look, as auto does, for what display becomes. An
// unknown keyword makes the declaration invalid.
var appearanceValues = setOf("auto", "textfield", "menulist-button", "button", "checkbox", "radio",
	"listbox", "menulist", "meter", "progress-bar", "push-button", "searchfield", "slider-horizontal",
	"square-button", "textarea", "base-select")

// uaAppearance reports whether the user-agent style sheet gives n an
// appearance other than none: form controls Chromium draws itself, but
// not file and image inputs, which it builds from ordinary boxes.
func uaAppearance(n *html.Node) bool {
	if n.Namespace != "" {
		return false
	}
	switch n.Data {
	case "button", "select", "textarea", "meter", "progress":
		return true
	case "input":
		t, _ := attrValue(n, "type")
		t = domtree.ToLowerASCII(t)
		return t != "file" && t != "image"
	}
	return false
}

// nativeDisplay is what Chromium makes of display on an element whose
// computed appearance is not none: inline, inline-table and every internal
// table display become inline-block, table and list-item become block.
// Checked in Chromium 156 with getComputedStyle for every control, with
// appearance none, auto and the compatibility keywords.
func nativeDisplay(d Display) Display {
	switch {
	case d.IsPlainInline(), d.isTablePart(), d.outer == outerInline && d.inner == innerTable:
		return displayInlineBlock
	case d == displayTable, d.outer == outerBlock && d.inner == innerFlow && d.listItem:
		return DisplayBlock
	}
	return d
}
