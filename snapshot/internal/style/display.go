package style

import "github.com/domsnap/domsnap/domtree"

// outer is the outer display type of a computed display.
type outer uint8

const (
	outerInline outer = iota // the initial value of display is inline
	outerBlock
	// outerInternal is a table or ruby part (table-row, table-cell,
	// ruby-text, ...): neither inline- nor block-level, never inline-level.
	outerInternal
	outerContents
	outerNone
)

// inner is the inner display type.
type inner uint8

const (
	innerFlow inner = iota
	innerFlowRoot
	innerTable
	innerFlex
	innerGrid
	innerRuby
	innerMath
	// innerWebkitBox is the legacy -webkit-box, a flex container in Chromium.
	innerWebkitBox
	// innerPart is the content of an internal table or ruby box.
	innerPart
	// innerCell is the content of a table cell, the one internal table box
	// that size containment applies to.
	innerCell
	// innerRubyPart is the content of an internal ruby box.
	innerRubyPart
)

// Display is a computed display value, reduced to what the cascade needs:
// its outer and inner types and whether it generates a list item.
type Display struct {
	outer    outer
	inner    inner
	listItem bool
}

// Common displays.
var (
	DisplayInline      = Display{outer: outerInline}
	DisplayBlock       = Display{outer: outerBlock}
	DisplayNone        = Display{outer: outerNone}
	DisplayContents    = Display{outer: outerContents}
	displayInlineBlock = Display{outer: outerInline, inner: innerFlowRoot}
	displayListItem    = Display{outer: outerBlock, listItem: true}
	displayTable       = Display{outer: outerBlock, inner: innerTable}
	displayInternal    = Display{outer: outerInternal, inner: innerPart}
	displayRuby        = Display{outer: outerInline, inner: innerRuby}
	displayMath        = Display{outer: outerInline, inner: innerMath}
	displayBlockMath   = Display{outer: outerBlock, inner: innerMath}
)

// Class is the domtree display class of d: none, inline-level (outer display
// inline, docs/reference.md#corner-cases), or everything else.
func (d Display) Class() domtree.Display {
	switch d.outer {
	case outerNone:
		return domtree.DisplayNone
	case outerInline:
		return domtree.DisplayInline
	}
	return domtree.DisplayBlock
}

// IsNone reports whether d is display: none.
func (d Display) IsNone() bool { return d.outer == outerNone }

// IsPlainInline reports whether d is display: inline: an inline box whose
// content lies in its parent's line boxes, not a container of its own.
func (d Display) IsPlainInline() bool {
	return d.outer == outerInline && d.inner == innerFlow && !d.listItem
}

// Containable reports whether size containment, and so content-visibility,
// can apply to a box of display d: not to display none or contents, tables,
// internal table boxes other than cells, internal ruby boxes, or plain
// inline boxes.
func (d Display) Containable() bool {
	switch d.outer {
	case outerNone, outerContents:
		return false
	case outerInternal:
		return d.inner == innerCell
	}
	return d.inner != innerTable && !d.IsPlainInline()
}

// IsContents reports whether d is display: contents.
func (d Display) IsContents() bool { return d.outer == outerContents }

// String renders d as Chromium serialises the computed value, for tests and
// messages.
func (d Display) String() string {
	switch d.outer {
	case outerNone:
		return "none"
	case outerContents:
		return "contents"
	case outerInternal:
		return "internal"
	}
	in := map[inner]string{innerFlow: "flow", innerFlowRoot: "flow-root", innerTable: "table",
		innerFlex: "flex", innerGrid: "grid", innerRuby: "ruby", innerMath: "math",
		innerWebkitBox: "-webkit-box", innerPart: "internal", innerCell: "internal", innerRubyPart: "internal"}[d.inner]
	out := "block"
	if d.outer == outerInline {
		out = "inline"
	}
	s := out + " " + in
	if d.listItem {
		s += " list-item"
	}
	return s
}

// isTablePart reports whether d is an internal table display.
func (d Display) isTablePart() bool {
	return d.outer == outerInternal && d.inner != innerRubyPart
}

// blockify is CSS Display 3's blockification: an inline-level display becomes
// its block-level equivalent, an internal table or ruby display becomes block.
// none and contents are unchanged.
func (d Display) blockify() Display {
	switch d.outer {
	case outerInline:
		d.outer = outerBlock
	case outerInternal:
		return DisplayBlock
	}
	return d
}

// blockifiesChildren reports whether d's box makes its in-flow children
// block-level: flex, grid and math containers, as Chromium does. The
// legacy -webkit-box lays its children out as flex items, but Chromium
// leaves their computed display alone (an inline child stays inline), and
// computed display is what a capture reports.
func (d Display) blockifiesChildren() bool {
	if d.outer == outerNone || d.outer == outerContents || d.outer == outerInternal {
		return false
	}
	switch d.inner {
	case innerFlex, innerGrid, innerMath:
		return true
	}
	return false
}

// inlinify is CSS Ruby's inlinification of the in-flow children of a ruby
// container: a block-level display becomes its inline-level equivalent.
func (d Display) inlinify() Display {
	if d.outer == outerBlock {
		d.outer = outerInline
	}
	return d
}

// inlinifiesChildren reports whether d is a ruby container, whose in-flow
// children are inlinified.
func (d Display) inlinifiesChildren() bool {
	return d.inner == innerRuby && (d.outer == outerInline || d.outer == outerBlock)
}

// singleDisplays are the one-keyword display values Chromium accepts.
var singleDisplays = map[string]Display{
	"inline":              DisplayInline,
	"block":               DisplayBlock,
	"list-item":           displayListItem,
	"inline-block":        displayInlineBlock,
	"flow-root":           {outer: outerBlock, inner: innerFlowRoot},
	"table":               displayTable,
	"inline-table":        {outer: outerInline, inner: innerTable},
	"table-row-group":     displayInternal,
	"table-header-group":  displayInternal,
	"table-footer-group":  displayInternal,
	"table-row":           displayInternal,
	"table-column-group":  displayInternal,
	"table-column":        displayInternal,
	"table-cell":          {outer: outerInternal, inner: innerCell},
	"table-caption":       displayInternal,
	"flex":                {outer: outerBlock, inner: innerFlex},
	"inline-flex":         {outer: outerInline, inner: innerFlex},
	"grid":                {outer: outerBlock, inner: innerGrid},
	"inline-grid":         {outer: outerInline, inner: innerGrid},
	"ruby":                displayRuby,
	"ruby-text":           {outer: outerInternal, inner: innerRubyPart},
	"math":                displayMath,
	"contents":            DisplayContents,
	"none":                DisplayNone,
	"-webkit-box":         {outer: outerBlock, inner: innerWebkitBox},
	"-webkit-inline-box":  {outer: outerInline, inner: innerWebkitBox},
	"-webkit-flex":        {outer: outerBlock, inner: innerFlex},
	"-webkit-inline-flex": {outer: outerInline, inner: innerFlex},
}

// parseDisplay parses the keywords of a display declaration (already lower
// case, CSS-wide keywords handled by the caller). Multi-keyword values follow
// CSS Display 3: an outer type and an inner type in any order, or a list
// item with an optional outer type and flow or flow-root.
func parseDisplay(words []string) (Display, bool) {
	if len(words) == 1 {
		if d, ok := singleDisplays[words[0]]; ok {
			return d, true
		}
	}
	if len(words) == 0 || len(words) > 3 {
		return Display{}, false
	}
	var d Display
	var haveOuter, haveInner bool
	for _, w := range words {
		switch w {
		case "block", "inline":
			if haveOuter {
				return Display{}, false
			}
			haveOuter = true
			if w == "inline" {
				d.outer = outerInline
			} else {
				d.outer = outerBlock
			}
		case "flow", "flow-root", "table", "flex", "grid", "ruby", "math":
			if haveInner {
				return Display{}, false
			}
			haveInner = true
			d.inner = map[string]inner{"flow": innerFlow, "flow-root": innerFlowRoot, "table": innerTable,
				"flex": innerFlex, "grid": innerGrid, "ruby": innerRuby, "math": innerMath}[w]
		case "list-item":
			if d.listItem {
				return Display{}, false
			}
			d.listItem = true
		default:
			return Display{}, false
		}
	}
	if !haveOuter {
		// An inner type alone gets its default outer type: block, except
		// ruby and math, which are inline.
		d.outer = outerBlock
		if d.inner == innerRuby || d.inner == innerMath {
			d.outer = outerInline
		}
	}
	if d.listItem && d.inner != innerFlow && d.inner != innerFlowRoot {
		return Display{}, false
	}
	return d, true
}
