package snapshot

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
	// Each string is classified once: 0 not yet, 1 yes, 2 no.
	var isDisplay, isVis []uint8
	classify := func(cache *[]uint8, i int32, test func(string) bool) bool {
		if i < 0 {
			return false
		}
		if *cache == nil {
			*cache = make([]uint8, rc.strs.len())
		}
		c := &(*cache)[i]
		if *c == 0 {
			*c = 2
			if test(rc.strs.get(i)) {
				*c = 1
			}
		}
		return *c == 1
	}
	for j, node := range d.layoutNode {
		if t := d.nodeType[node]; t != nodeElement && t != nodeText {
			continue
		}
		styles := d.styles[d.styleStart[j]:d.styleStart[j+1]]
		path := "/documents/0/layout/styles/" + strconv.Itoa(j)
		switch {
		case len(styles) < need:
			return malformed(path, "the layout object has "+strconv.Itoa(len(styles))+" computed styles, want display and visibility"+styleAdvice(sc))
		case !classify(&isDisplay, styles[sc.display], isDisplayValue):
			return malformed(path+"/"+strconv.Itoa(sc.display), "not a CSS display value, so the capture's computed styles are not the ones expected"+styleAdvice(sc))
		case !classify(&isVis, styles[sc.visibility], isVisibilityValue):
			return malformed(path+"/"+strconv.Itoa(sc.visibility), "not a CSS visibility value, so the capture's computed styles are not the ones expected"+styleAdvice(sc))
		}
	}
	return nil
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
