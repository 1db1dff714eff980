package aria

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// contextAncestors bounds the ancestor walks that decide a context role:
// no parsed HTML is deeper than limits.MaxHTMLDepth, so the bound never
// changes an offline answer, and on a deeper live capture it keeps one role
// lookup O(1) in the page size instead of O(depth). An ancestor beyond it is
// treated as absent.
const contextAncestors = limits.MaxHTMLDepth

// ancestor returns the nearest ancestor of n, within contextAncestors
// steps, for which stop returns true; the zero Node when there is none.
func ancestor(n domtree.Node, stop func(domtree.Node) bool) domtree.Node {
	p := n.Parent()
	for i := 0; i < contextAncestors && p.Valid(); i++ {
		if stop(p) {
			return p
		}
		p = p.Parent()
	}
	return domtree.Node{}
}

// ImplicitRole is n's HTML-AAM role in WAI-ARIA 1.2 names: "generic" for
// div, span and the other elements HTML-AAM maps to generic; "" for
// elements HTML-AAM gives no role (label, legend, svg, unknown elements) and
// for non-elements. Context decides a few roles, cheaply:
//
//   - a and area are links only with href (a without is generic);
//   - header and footer are banner and contentinfo unless inside article,
//     aside, main, nav or section, where they are generic;
//   - aside is complementary unless inside article, aside, nav or section
//     (nearer than any main or body), where it needs an accessible name;
//   - section is a region only with an accessible name;
//   - img with alt="" is presentation unless aria-label or aria-labelledby
//     names it;
//   - td, th, tr and the row groups follow their nearest table: cells of a
//     grid or treegrid are gridcells, the parts of a table whose explicit
//     role is none or presentation are none as well, and the parts of a
//     table whose explicit role is anything else are generic;
//   - th is a rowheader or columnheader by its scope, else a columnheader in
//     a thead, else a rowheader when its row has a td, else a columnheader;
//   - select is a listbox with multiple or a size above 1, else a combobox;
//   - li is a listitem wherever it stands.
//
// "An accessible name" here is decided without computing one: a non-blank
// aria-label, an aria-labelledby token naming an element of the tree, or a
// non-blank title (not for img).
func ImplicitRole(n domtree.Node) string {
	switch name := n.Name(); name {
	case "a":
		if n.HasAttr("href") {
			return "link"
		}
		return "generic"
	case "area":
		if n.HasAttr("href") {
			return "link"
		}
		return ""
	case "address", "details", "fieldset", "hgroup", "optgroup":
		return "group"
	case "article":
		return "article"
	case "aside":
		return asideRole(n)
	case "b", "bdi", "bdo", "body", "data", "div", "i", "pre", "q", "samp",
		"small", "span", "u":
		return "generic"
	case "blockquote":
		return "blockquote"
	case "button":
		return "button"
	case "caption":
		return "caption"
	case "code":
		return "code"
	case "datalist":
		return "listbox"
	case "dd":
		return "definition"
	case "del", "s":
		return "deletion"
	case "dfn", "dt":
		return "term"
	case "dialog":
		return "dialog"
	case "em":
		return "emphasis"
	case "figure":
		return "figure"
	case "footer":
		if scopedToSection(n) {
			return "generic"
		}
		return "contentinfo"
	case "form":
		return "form"
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return "heading"
	case "header":
		if scopedToSection(n) {
			return "generic"
		}
		return "banner"
	case "hr":
		return "separator"
	case "html":
		return "document"
	case "img":
		return imgRole(n)
	case "input":
		return InputRole(n)
	case "ins":
		return "insertion"
	case "li":
		return "listitem"
	case "main":
		return "main"
	case "math":
		return "math"
	case "menu", "ol", "ul":
		return "list"
	case "meter":
		return "meter"
	case "nav":
		return "navigation"
	case "option":
		return "option"
	case "output":
		return "status"
	case "p":
		return "paragraph"
	case "progress":
		return "progressbar"
	case "search":
		return "search"
	case "section":
		if hasName(n, true) {
			return "region"
		}
		return "generic"
	case "select":
		return selectRole(n)
	case "strong":
		return "strong"
	case "sub":
		return "subscript"
	case "sup":
		return "superscript"
	case "table":
		return "table"
	case "textarea":
		return "textbox"
	case "time":
		return "time"
	case "tbody", "thead", "tfoot":
		return tablePart(n, "rowgroup")
	case "tr":
		return tablePart(n, "row")
	case "td":
		switch r := tablePart(n, "cell"); r {
		case "cell":
			if t := nearestTable(n); t.Valid() {
				if e := ExplicitRole(t); e == "grid" || e == "treegrid" {
					return "gridcell"
				}
			}
			return r
		default:
			return r
		}
	case "th":
		if r := tablePart(n, "columnheader"); r != "columnheader" {
			return r
		}
		return headerRole(n)
	}
	return ""
}

// InputRole is the role of an <input> by its type (docs/reference.md#form-columns, column
// 1): the text-like types, and an unknown or absent type, are textbox;
// types with no WAI-ARIA role (color, date, datetime-local, month, time,
// week, file) and hidden give "". It ignores any explicit role and gives ""
// for any element that is not an input.
func InputRole(n domtree.Node) string {
	if !n.Is("input") {
		return ""
	}
	switch domtree.ToLowerASCII(n.AttrValue("type")) {
	case "search":
		return "searchbox"
	case "number":
		return "spinbutton"
	case "range":
		return "slider"
	case "checkbox":
		return "checkbox"
	case "radio":
		return "radio"
	case "button", "submit", "reset", "image":
		return "button"
	case "color", "date", "datetime-local", "month", "time", "week", "file", "hidden":
		return ""
	}
	return "textbox"
}

func selectRole(n domtree.Node) string {
	if n.HasAttr("multiple") {
		return "listbox"
	}
	if size, ok := ParseNonNegative(n.AttrValue("size")); ok && size > 1 {
		return "listbox"
	}
	return "combobox"
}

// ParseNonNegative reads s with the HTML rules for parsing non-negative
// integers: optional ASCII whitespace, an optional "+", then at least one
// ASCII digit; whatever follows the digits is ignored ("2;" is 2). Values
// too large for an int saturate instead of wrapping.
func ParseNonNegative(s string) (int, bool) {
	i := 0
	for i < len(s) && domtree.IsASCIISpace(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '+' {
		i++
	}
	start := i
	const maxInt = int(^uint(0) >> 1)
	v := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		d := int(s[i] - '0')
		if v > (maxInt-d)/10 {
			v = maxInt
			continue
		}
		v = v*10 + d
	}
	return v, i > start
}

// ParseInteger reads s with the HTML rules for parsing integers: optional
// ASCII whitespace, an optional "-" or "+", then at least one ASCII digit;
// whatever follows the digits is ignored. Values too large for an int, in
// either direction, saturate instead of wrapping.
func ParseInteger(s string) (int, bool) {
	i := 0
	for i < len(s) && domtree.IsASCIISpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) || s[i] < '0' || s[i] > '9' {
		return 0, false
	}
	v, _ := ParseNonNegative(s[i:])
	if neg {
		return -v, true
	}
	return v, true
}

func imgRole(n domtree.Node) string {
	alt, ok := n.Attr("alt")
	if ok && alt == "" && !hasName(n, false) {
		return "presentation"
	}
	return "img"
}

// hasName reports whether n has an accessible name from its own attributes,
// without computing it: a non-blank aria-label, an aria-labelledby token
// that names an element of the tree, or (withTitle) a non-blank title.
func hasName(n domtree.Node, withTitle bool) bool {
	if !blank(n.AttrValue("aria-label")) {
		return true
	}
	if withTitle && !blank(n.AttrValue("title")) {
		return true
	}
	if v, ok := n.Attr("aria-labelledby"); ok {
		for _, id := range domtree.Fields(v) {
			if _, found := n.ElementByID(id); found {
				return true
			}
		}
	}
	return false
}

func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		if !domtree.IsASCIISpace(s[i]) {
			return false
		}
	}
	return true
}

// scopedToSection reports whether a header or footer lies inside sectioning
// content or main, which makes it generic rather than a landmark.
func scopedToSection(n domtree.Node) bool {
	return ancestor(n, func(p domtree.Node) bool {
		switch p.Name() {
		case "article", "aside", "main", "nav", "section":
			return true
		}
		return false
	}).Valid()
}

// asideRole: an aside whose nearest sectioning ancestor is article, aside,
// nav or section is complementary only when named; under main, body or
// nothing it is complementary.
func asideRole(n domtree.Node) string {
	p := ancestor(n, func(p domtree.Node) bool {
		switch p.Name() {
		case "main", "body", "article", "aside", "nav", "section":
			return true
		}
		return false
	})
	switch p.Name() {
	case "article", "aside", "nav", "section":
		if !hasName(n, true) {
			return "generic"
		}
	}
	return "complementary"
}

// nearestTable is the closest <table> ancestor of n, or the zero Node.
func nearestTable(n domtree.Node) domtree.Node {
	return ancestor(n, func(p domtree.Node) bool { return p.Is("table") })
}

// tablePart gives a table part its role as its nearest table decides: own
// when the table is a table (natively or by a table, grid or treegrid
// role) or when there is no table at all; "none" when the table is
// presentational, since a presentational table's parts are presentational
// too; "generic" when the table's explicit role makes it something else.
func tablePart(n domtree.Node, own string) string {
	t := nearestTable(n)
	if !t.Valid() {
		return own
	}
	switch ExplicitRole(t) {
	case "", "table", "grid", "treegrid":
		return own
	case "none", "presentation":
		return "none"
	}
	return "generic"
}

// headerRole decides a th's role: scope first, then its row's context.
func headerRole(th domtree.Node) string {
	switch domtree.ToLowerASCII(th.AttrValue("scope")) {
	case "row", "rowgroup":
		return "rowheader"
	case "col", "colgroup":
		return "columnheader"
	}
	row := th.Parent()
	if !row.Is("tr") {
		return "columnheader"
	}
	if row.Parent().Is("thead") {
		return "columnheader"
	}
	for c := range row.ChildElements() {
		if c.Is("td") {
			return "rowheader"
		}
	}
	return "columnheader"
}
