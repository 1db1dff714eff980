package style

import (
	"github.com/domsnap/domsnap/domtree"
	"strings"

	"golang.org/x/net/html"
)

// The user-agent defaults for display, as the HTML Standard's rendering
// section gives them and as Chromium 156 computes them where the two differ
// (checked against the browser; the differences are noted inline). Only HTML
// elements get the HTML defaults; SVG and MathML elements have their own.

var uaBlock = setOf("address", "article", "aside", "blockquote", "body", "center", "dd", "details",
	"dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset",
	"h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "listing", "main",
	"menu", "nav", "ol", "optgroup", "option", "p", "plaintext", "pre", "search", "section", "summary",
	"ul", "xmp", "dialog")

// uaNone are never rendered. Chromium renders source and track as inline
// boxes of no size, so they are not here.
var uaNone = setOf("area", "base", "basefont", "datalist", "head", "link", "meta", "noembed",
	"noframes", "param", "rp", "script", "style", "template", "title")

var uaInlineBlock = setOf("button", "input", "marquee", "meter", "progress", "select", "textarea")

var uaInternal = setOf("caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th")

// svgRendered are the SVG elements Chromium gives a layout object (besides
// the filter primitives, fe*, in a filter). A gradient's stop is not one in
// Chromium 156: the gradient reads its stops from the DOM.
var svgRendered = setOf("a", "circle", "clippath", "defs", "ellipse", "filter", "foreignobject", "g",
	"image", "line", "lineargradient", "marker", "mask", "path", "pattern", "polygon", "polyline",
	"radialgradient", "rect", "svg", "switch", "symbol", "text", "textpath", "tspan", "use")

// unusualContents are the elements for which display: contents behaves as
// display: none (CSS Display 3, section 2.8, and Chromium).
var unusualContents = setOf("br", "wbr", "meter", "progress", "canvas", "embed", "object", "audio",
	"iframe", "img", "video", "frame", "frameset", "input", "textarea", "select")

// svgContentsOK are the SVG elements for which display: contents is honoured.
var svgContentsOK = setOf("g", "use", "tspan", "textpath", "a")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// uaDisplay is the user-agent cascaded display of n, and whether that
// declaration is !important. ok is false when the user agent declares none
// (the initial value, inline, then applies).
func uaDisplay(n *html.Node) (d Display, important, ok bool) {
	switch n.Namespace {
	case "svg":
		switch name := domtree.ToLowerASCII(n.Data); {
		case name == "text" || name == "foreignobject":
			return DisplayBlock, false, true
		case name == "tspan" || name == "textpath":
			for a := n.Parent; a != nil && a.Type == html.ElementNode && a.Namespace == "svg"; a = a.Parent {
				if domtree.ToLowerASCII(a.Data) == "text" {
					return Display{}, false, false
				}
			}
			return DisplayNone, false, true // text content outside <text> has no box
		case strings.HasPrefix(name, "fe"):
			// Filter primitives render as children of a filter only.
			if p := n.Parent; p != nil && p.Type == html.ElementNode && p.Namespace == "svg" && domtree.ToLowerASCII(p.Data) == "filter" {
				return Display{}, false, false
			}
			return DisplayNone, false, true
		case !svgRendered[name]:
			// Unknown SVG elements, and the known ones that never render
			// (desc, title, metadata, animations...), get no box.
			return DisplayNone, false, true
		}
		return Display{}, false, false
	case "math":
		// Chromium: math is display: math; every other MathML element is
		// block math.
		switch name := domtree.ToLowerASCII(n.Data); {
		case name == "annotation" || name == "annotation-xml":
			return DisplayNone, false, true
		case n.Parent != nil && n.Parent.Namespace == "math" && domtree.ToLowerASCII(n.Parent.Data) == "semantics" && prevElementSibling(n) != nil:
			return DisplayNone, false, true // semantics renders its first child only
		case name == "math" && attrEqualFold(n, "display", "block"):
			return displayBlockMath, false, true
		case name == "math":
			return displayMath, false, true
		}
		return displayBlockMath, false, true
	case "":
	default:
		return Display{}, false, false
	}
	name := n.Data
	// !important rules first: author CSS cannot show these.
	switch {
	case name == "input" && attrEqualFold(n, "type", "hidden"):
		return DisplayNone, true, true
	case name == "audio" && !hasAttr(n, "controls"):
		return DisplayNone, true, true
	}
	// [hidden] outranks the element defaults. The specification hides
	// hidden=until-found with content-visibility; docs/reference.md#visibility makes it
	// display: none here. Chromium leaves embed and marquee shown.
	if hasAttr(n, "hidden") && name != "embed" && name != "marquee" {
		return DisplayNone, false, true
	}
	switch {
	case name == "dialog" && !hasAttr(n, "open"):
		return DisplayNone, false, true
	case hasAttr(n, "popover") && !(name == "dialog" && hasAttr(n, "open")):
		// A popover is closed until script or a user opens it.
		return DisplayNone, false, true
	case uaNone[name]:
		return DisplayNone, false, true
	case name == "li":
		return displayListItem, false, true
	case name == "summary" && isFirstSummary(n):
		return displayListItem, false, true
	case uaBlock[name]:
		return DisplayBlock, false, true
	case name == "table":
		return displayTable, false, true
	case name == "td" || name == "th":
		return Display{outer: outerInternal, inner: innerCell}, false, true
	case uaInternal[name]:
		return displayInternal, false, true
	case uaInlineBlock[name]:
		return displayInlineBlock, false, true
	case name == "ruby":
		return displayRuby, false, true
	case name == "rt" && n.Parent != nil && n.Parent.Type == html.ElementNode && n.Parent.Data == "ruby" && n.Parent.Namespace == "":
		return Display{outer: outerInternal, inner: innerRubyPart}, false, true
	case name == "slot":
		return DisplayContents, false, true
	}
	return Display{}, false, false
}

// isFirstSummary reports whether n is the first summary child of a details
// element (details > summary:first-of-type).
func isFirstSummary(n *html.Node) bool {
	p := n.Parent
	if p == nil || p.Type != html.ElementNode || p.Data != "details" || p.Namespace != "" {
		return false
	}
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "summary" && c.Namespace == "" {
			return c == n
		}
	}
	return false
}

// contentsIsNone reports whether display: contents on n behaves as none.
func contentsIsNone(n *html.Node) bool {
	switch n.Namespace {
	case "":
		return unusualContents[n.Data]
	case "svg":
		return !svgContentsOK[domtree.ToLowerASCII(n.Data)]
	}
	return true
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

func attrValue(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func attrEqualFold(n *html.Node, key, lowerValue string) bool {
	v, ok := attrValue(n, key)
	return ok && domtree.ToLowerASCII(v) == lowerValue
}

func prevElementSibling(n *html.Node) *html.Node {
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode {
			return s
		}
	}
	return nil
}

// uaPosition is the user-agent position of n: a dialog is absolutely
// positioned and a popover fixed, which blockifies them whatever display
// author CSS gives them.
func uaPosition(n *html.Node) position {
	if n.Namespace != "" {
		return posStatic
	}
	if n.Data == "dialog" || hasAttr(n, "popover") {
		return posOut
	}
	return posStatic
}
