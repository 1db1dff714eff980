package aria

import (
	"strings"

	"github.com/domsnap/domsnap/domtree"
)

// maxRoleLen is the length of the longest WAI-ARIA 1.2 role name
// ("menuitemcheckbox"); a longer token cannot name a role, so it is skipped
// without being lower-cased.
const maxRoleLen = len("menuitemcheckbox")

// roles maps each non-abstract WAI-ARIA 1.2 role name to itself, so that a
// lookup by a lower-cased token returns the table's own string.
var roles = func() map[string]string {
	m := map[string]string{}
	for _, r := range strings.Fields(`alert alertdialog application article banner
		blockquote button caption cell checkbox code columnheader combobox complementary
		contentinfo definition deletion dialog directory document emphasis feed figure form
		generic grid gridcell group heading img insertion link list listbox listitem log main
		marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none
		note option paragraph presentation progressbar radio radiogroup region row rowgroup
		rowheader scrollbar search searchbox separator slider spinbutton status strong
		subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar
		tooltip tree treegrid treeitem`) {
		m[r] = r
	}
	return m
}()

// canonicalRole returns the WAI-ARIA 1.2 non-abstract role that tok names,
// compared ASCII case-insensitively, or "" when tok names none. The token
// is lower-cased into a buffer on the stack, and a map index by a converted
// byte slice does not allocate, so the lookup allocates nothing; the role
// returned is the table's string, never the token.
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
	return roles[string(buf[:len(tok)])]
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
