package view

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/limits"
)

// Menus a person opens by pointing at them (docs/reference.md#the-page-view).
// A trigger that says it opens something is a control whatever its role;
// a menu that CSS alone opens on :hover says nothing, so its plain label
// is found by its shape instead.

// popupTrigger reports whether n says it opens or shows something: an
// aria-haspopup that is present, not empty and not "false", or an
// aria-expanded of "true" or "false" (ASCII case-insensitively, as every
// ARIA state here). Such an element is a button to a person, whatever
// role it has.
func popupTrigger(n domtree.Node) bool {
	if v, ok := n.Attr("aria-haspopup"); ok && !blank(v) && !domtree.EqualFold(v, "false") {
		return true
	}
	v := n.AttrValue("aria-expanded")
	return domtree.EqualFold(v, "true") || domtree.EqualFold(v, "false")
}

// blank reports whether v holds only ASCII whitespace.
func blank(v string) bool {
	for i := 0; i < len(v); i++ {
		if !domtree.IsASCIISpace(v[i]) {
			return false
		}
	}
	return true
}

// menuRole reports whether an element of this role holds a site's menus:
// a navigation landmark, a menu bar or a menu.
func menuRole(role string) bool {
	return role == "navigation" || role == "menubar" || role == "menu"
}

// maxLabelChildren bounds the children of a list item read to find its
// submenu: a label and its list come first, and a hostile item with
// thousands of children costs no more than this.
const maxLabelChildren = 16

// submenu is the nested list (ul, ol or menu) that makes n, a list item
// inside a menu container, the plain label of a submenu: the first such
// child among its first maxLabelChildren, with no control before it (a
// label that is a link or a button is that control already, and pointing
// at it opens the submenu just the same). The list's visibility is not
// asked: it is hidden until the pointer comes, by a style sheet a saved
// page may not carry, and the label is the same control either way.
func submenu(n domtree.Node) (domtree.Node, bool) {
	if !n.Is("li") {
		return domtree.Node{}, false
	}
	k := 0
	for c := range n.Children() {
		if k++; k > maxLabelChildren {
			break
		}
		if !c.IsElement() {
			continue
		}
		switch {
		case c.Is("ul"), c.Is("ol"), c.Is("menu"):
			return c, true
		case controlRole(c, aria.Role(c)) != "" || popupTrigger(c):
			return domtree.Node{}, false
		}
	}
	return domtree.Node{}, false
}

// labelName is a submenu label's name: the text of n's children before
// list, by the cell-text rules, never the submenu's own items.
func labelName(n, list domtree.Node) cells.Summary {
	t := cells.NewText(limits.CellUnits)
	for c := range n.Children() {
		if c == list {
			break
		}
		switch {
		case c.Kind() == domtree.Text && c.Visible():
			t.WriteString(c.Data())
		case c.IsElement():
			t.Space()
			t.WriteString(cells.Summarize(c).Text)
			t.Space()
		}
	}
	s := cells.Summary{Text: t.String(), Truncated: t.Full()}
	if s.Truncated {
		s.Why = cells.TruncText
	}
	return s
}
