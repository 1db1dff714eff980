package snapshot

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/htmlsource"
)

// The offline HTML source is snapshot/internal/htmlsource; this file is its
// public face, which keeps the names callers have always used.

// HTMLOptions says how to read an HTML file.
type HTMLOptions struct {
	// Charset, when not empty, is an encoding label (any label of the WHATWG
	// Encoding Standard, such as "latin1" or "shift_jis") used instead of the
	// <meta> prescan and the UTF-8 check. A byte-order mark still wins, as it
	// does over an HTTP charset in a browser. An unknown label is
	// invalid_request.
	Charset string
}

// HTMLInfo is what ParseHTML found out about the file besides its tree.
type HTMLInfo struct {
	// Charset is the canonical name of the encoding used ("utf-8",
	// "windows-1252", "shift_jis", ...).
	Charset string
	// StyleSheets is the number of <style> elements whose rules were read.
	StyleSheets int
	// StyleSheetsDropped is true when the document's style sheets would have
	// cost more selector matching than the offline cascade allows, and were
	// not applied (style attributes still were). Displays and visibilities
	// may then differ from a browser's.
	StyleSheetsDropped bool
	// StyleMatchSteps is the selector matching work the style sheets cost,
	// in the offline cascade's steps; it never exceeds that cascade's
	// budget (style.MatchSteps, 2^25), and reaching the budget is what
	// drops the sheets.
	StyleMatchSteps int
}

// ParseHTML parses an HTML file into a tree (docs/reference.md#the-tree and #visibility): it
// decodes the bytes, parses them as a browser with scripting on would, and
// computes each element's display and visibility with the offline cascade.
// Template contents and declarative shadow roots are not nodes of the tree;
// their elements carry domtree.TemplateContents and domtree.ShadowHost. A
// document with declarative shadow roots also gets the tree's composed twin
// (domtree.Tree.Composed), which the page view reads.
// HTML nested deeper than the parser accepts is unsupported_input.
//
// The tree is golang.org/x/net/html's, which follows the HTML Standard's
// tree construction; on some broken markup it differs from Chromium's (for
// one, a <th> start tag inside <table><caption><article> is dropped where
// Chromium closes the caption and opens a row), and it sorts the attributes
// of formatting elements (a, b, i, em, ...) by name where Chromium keeps
// source order. Elements a browser would not render although their display
// is not none (the options of a drop-down select, the content of a closed
// details, the fallback content of canvas, video, audio, meter and
// progress, an embed with nothing to embed, unknown SVG elements, ...) get
// display none, as a live capture, which has no layout object for them,
// would show. Of open details sharing a name, all but the first lose their
// open attribute, as the parser's insertions make them do in a browser.
//
// A document with more start tags, text runs and comments than
// limits.MaxTreeNodes is refused before it is parsed, and one whose parsed
// tree holds more nodes than that before it is styled and built; both are
// unsupported_input ("too_large").
func ParseHTML(data []byte, opts HTMLOptions) (*domtree.Tree, HTMLInfo, error) {
	return parseHTML(data, opts, limits.MaxTreeNodes)
}

// parseHTML is ParseHTML with the node bound as a parameter, for Load's
// bounds and their tests.
func parseHTML(data []byte, opts HTMLOptions, maxNodes int) (*domtree.Tree, HTMLInfo, error) {
	t, in, _, err := htmlsource.Parse(data, opts.Charset, maxNodes)
	info := HTMLInfo{
		Charset:            in.Charset,
		StyleSheets:        in.StyleSheets,
		StyleSheetsDropped: in.StyleSheetsDropped,
		StyleMatchSteps:    in.StyleMatchSteps,
	}
	return t, info, err
}

// CheckCharset reports whether label names an encoding ParseHTML and Load
// accept: "" (sniff) and every label of the Encoding Standard pass; anything
// else is invalid_request.
func CheckCharset(label string) error { return htmlsource.CheckCharset(label) }
