package capture

import (
	"strconv"

	"github.com/domsnap/domsnap/domtree"
)

// checkStyles refuses a capture whose computed styles are not display and
// visibility in the columns sc names. A bare capture does not say which
// styles it asked for, so a capture taken with the two swapped, or with none,
// would otherwise be read as if right: hidden text read, tables split. Every
// element and text layout object must carry both columns, the display column
// a display value and the visibility column a visibility value. The
// document's own layout object carries no styles in Chromium's captures and
// is not checked. Values are never quoted: with the wrong columns, a style
// index may name any string of the capture, a form value among them.
func checkStyles(rc *rawCapture, sc styleCols) error {
	d := &rc.doc
	need := max(sc.display, sc.visibility) + 1
	// Each string is classified once, both ways; a page has few distinct
	// style values.
	kinds := make([]styleKind, rc.strs.len())
	kind := func(i int32) styleKind {
		if i < 0 {
			return kindChecked
		}
		k := kinds[i]
		if k == 0 {
			k = classifyStyle(rc.strs.get(i))
			kinds[i] = k
		}
		return k
	}
	for j, node := range d.layoutNode {
		if t := d.nodeType[node]; t != nodeElement && t != nodeText {
			continue
		}
		styles := d.styles[d.styleStart[j]:d.styleStart[j+1]]
		if len(styles) < need {
			return Malformed("/documents/0/layout/styles/"+strconv.Itoa(j), "the layout object has "+strconv.Itoa(len(styles))+" computed styles, want display and visibility"+styleAdvice(sc))
		}
		if kind(styles[sc.display])&kindDisplay == 0 {
			return Malformed("/documents/0/layout/styles/"+strconv.Itoa(j)+"/"+strconv.Itoa(sc.display), "not a CSS display value, so the capture's computed styles are not the ones expected"+styleAdvice(sc))
		}
		if kind(styles[sc.visibility])&kindVisibility == 0 {
			return Malformed("/documents/0/layout/styles/"+strconv.Itoa(j)+"/"+strconv.Itoa(sc.visibility), "not a CSS visibility value, so the capture's computed styles are not the ones expected"+styleAdvice(sc))
		}
	}
	return nil
}

// styleKind says what a style string can be: bits for a display value and
// a visibility value, and kindChecked so that a string that is neither is
// classified only once.
type styleKind uint8

const (
	kindChecked styleKind = 1 << iota
	kindDisplay
	kindVisibility
)

func classifyStyle(v string) styleKind {
	k := kindChecked
	if isDisplayValue(v) {
		k |= kindDisplay
	}
	if isVisibilityValue(v) {
		k |= kindVisibility
	}
	return k
}

// styleAdvice says which styles were expected where and how to say
// otherwise.
func styleAdvice(sc styleCols) string {
	return ": expected display as style " + strconv.Itoa(sc.display) + " and visibility as style " + strconv.Itoa(sc.visibility) +
		`; capture with computedStyles ["display","visibility"], or name the capture's styles in order (--computed-styles, LoadOptions.ComputedStyles)`
}

// displayKeywords are the keywords a computed display value is made of in
// Chromium: the single legacy and internal keywords, and the outer, inner
// and list-item keywords of the multi-keyword syntax. A value must consist
// of one to three of them. Inner and outer keywords are not paired up here:
// the check is there to tell a display column from any other, not to parse.
var displayKeywords = map[string]bool{
	"none": true, "contents": true, "block": true, "inline": true, "run-in": true,
	"flow": true, "flow-root": true, "table": true, "flex": true, "grid": true,
	"ruby": true, "math": true, "list-item": true,
	"inline-block": true, "inline-table": true, "inline-flex": true, "inline-grid": true,
	"table-row-group": true, "table-header-group": true, "table-footer-group": true,
	"table-row": true, "table-cell": true, "table-column-group": true, "table-column": true,
	"table-caption": true, "ruby-base": true, "ruby-text": true, "ruby-base-container": true,
	"ruby-text-container": true,
	"-webkit-box":         true, "-webkit-inline-box": true, "-webkit-flex": true, "-webkit-inline-flex": true,
	"masonry": true, "inline-masonry": true, "grid-lanes": true, "inline-grid-lanes": true,
}

func isDisplayValue(v string) bool {
	f := domtree.Fields(domtree.ToLowerASCII(v))
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	for _, k := range f {
		if !displayKeywords[k] {
			return false
		}
	}
	return true
}

func isVisibilityValue(v string) bool {
	return domtree.EqualFold(v, "visible") || domtree.EqualFold(v, "hidden") || domtree.EqualFold(v, "collapse")
}
