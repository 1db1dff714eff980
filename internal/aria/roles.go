package aria

import "github.com/domsnap/domsnap/domtree"

// maxRoleLen is the length of the longest WAI-ARIA 1.2 role name
// ("menuitemcheckbox"); a longer token cannot name a role, so it is skipped
// without being lower-cased.
const maxRoleLen = len("menuitemcheckbox")

// canonicalRole returns the WAI-ARIA 1.2 non-abstract role that tok names,
// compared ASCII case-insensitively, or "" when tok names none. Each case
// returns its own constant, so the lower-cased token never escapes and
// nothing is allocated.
func canonicalRole(tok string) string {
	if len(tok) == 0 || len(tok) > maxRoleLen {
		return ""
	}
	var buf [maxRoleLen]byte
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(tok)]) {
	case "alert":
		return "alert"
	case "alertdialog":
		return "alertdialog"
	case "application":
		return "application"
	case "article":
		return "article"
	case "banner":
		return "banner"
	case "blockquote":
		return "blockquote"
	case "button":
		return "button"
	case "caption":
		return "caption"
	case "cell":
		return "cell"
	case "checkbox":
		return "checkbox"
	case "code":
		return "code"
	case "columnheader":
		return "columnheader"
	case "combobox":
		return "combobox"
	case "complementary":
		return "complementary"
	case "contentinfo":
		return "contentinfo"
	case "definition":
		return "definition"
	case "deletion":
		return "deletion"
	case "dialog":
		return "dialog"
	case "directory":
		return "directory"
	case "document":
		return "document"
	case "emphasis":
		return "emphasis"
	case "feed":
		return "feed"
	case "figure":
		return "figure"
	case "form":
		return "form"
	case "generic":
		return "generic"
	case "grid":
		return "grid"
	case "gridcell":
		return "gridcell"
	case "group":
		return "group"
	case "heading":
		return "heading"
	case "img":
		return "img"
	case "insertion":
		return "insertion"
	case "link":
		return "link"
	case "list":
		return "list"
	case "listbox":
		return "listbox"
	case "listitem":
		return "listitem"
	case "log":
		return "log"
	case "main":
		return "main"
	case "marquee":
		return "marquee"
	case "math":
		return "math"
	case "menu":
		return "menu"
	case "menubar":
		return "menubar"
	case "menuitem":
		return "menuitem"
	case "menuitemcheckbox":
		return "menuitemcheckbox"
	case "menuitemradio":
		return "menuitemradio"
	case "meter":
		return "meter"
	case "navigation":
		return "navigation"
	case "none":
		return "none"
	case "note":
		return "note"
	case "option":
		return "option"
	case "paragraph":
		return "paragraph"
	case "presentation":
		return "presentation"
	case "progressbar":
		return "progressbar"
	case "radio":
		return "radio"
	case "radiogroup":
		return "radiogroup"
	case "region":
		return "region"
	case "row":
		return "row"
	case "rowgroup":
		return "rowgroup"
	case "rowheader":
		return "rowheader"
	case "scrollbar":
		return "scrollbar"
	case "search":
		return "search"
	case "searchbox":
		return "searchbox"
	case "separator":
		return "separator"
	case "slider":
		return "slider"
	case "spinbutton":
		return "spinbutton"
	case "status":
		return "status"
	case "strong":
		return "strong"
	case "subscript":
		return "subscript"
	case "superscript":
		return "superscript"
	case "switch":
		return "switch"
	case "tab":
		return "tab"
	case "table":
		return "table"
	case "tablist":
		return "tablist"
	case "tabpanel":
		return "tabpanel"
	case "term":
		return "term"
	case "textbox":
		return "textbox"
	case "time":
		return "time"
	case "timer":
		return "timer"
	case "toolbar":
		return "toolbar"
	case "tooltip":
		return "tooltip"
	case "tree":
		return "tree"
	case "treegrid":
		return "treegrid"
	case "treeitem":
		return "treeitem"
	}
	return ""
}

// ExplicitRole is the first token of n's role attribute, split on ASCII
// whitespace, that names a non-abstract WAI-ARIA 1.2 role, lower-cased; ""
// when no token does or n is not an element. Other whitespace (U+00A0,
// U+2800, zero-width space) is part of a token, so such a token is unknown.
func ExplicitRole(n domtree.Node) string {
	v, ok := n.Attr("role")
	if !ok || !n.IsElement() {
		return ""
	}
	for i := 0; i < len(v); {
		for i < len(v) && domtree.IsASCIISpace(v[i]) {
			i++
		}
		j := i
		for j < len(v) && !domtree.IsASCIISpace(v[j]) {
			j++
		}
		if r := canonicalRole(v[i:j]); r != "" {
			return r
		}
		i = j
	}
	return ""
}

// Role is n's explicit role if it has one, else its implicit role.
func Role(n domtree.Node) string {
	if r := ExplicitRole(n); r != "" {
		return r
	}
	return ImplicitRole(n)
}

// RoleLess reports whether n's role is generic, none or presentation, or
// whether it has no role at all (docs/reference.md#finding-the-collection). Row and item scans pass
// through role-less elements.
func RoleLess(n domtree.Node) bool {
	switch Role(n) {
	case "", "generic", "none", "presentation":
		return true
	}
	return false
}

// Collection reports whether n is a collection element (docs/reference.md#finding-the-collection) and
// of which kind and source. It ignores visibility: the scan checks that.
//
// A native <table>, <ul>, <ol>, <menu> or <form> is a native collection of
// its kind unless its explicit role names something else; an explicit role
// of its own kind keeps it native (<table role=grid> is a native table).
// Any other element whose explicit role is table, grid, treegrid, list or
// form is an ARIA collection of that kind; so is a native element whose
// explicit role names another kind (<ul role=table> is an ARIA table).
func Collection(n domtree.Node) (Kind, Source, bool) {
	if !n.IsElement() {
		return KindNone, Native, false
	}
	role := ExplicitRole(n)
	explicit := kindOfRole(role)
	if native := nativeKind(n.Name()); native != KindNone {
		if role == "" || explicit == native {
			return native, Native, true
		}
	}
	if explicit != KindNone {
		return explicit, ARIA, true
	}
	return KindNone, Native, false
}

func nativeKind(name string) Kind {
	switch name {
	case "table":
		return Table
	case "ul", "ol", "menu":
		return List
	case "form":
		return Form
	}
	return KindNone
}

func kindOfRole(role string) Kind {
	switch role {
	case "table", "grid", "treegrid":
		return Table
	case "list":
		return List
	case "form":
		return Form
	}
	return KindNone
}
