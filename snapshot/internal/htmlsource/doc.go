// Package htmlsource is the offline HTML source: from an HTML file's bytes
// to a [domtree.Tree] with each element's display and visibility. [Parse]
// decodes the bytes ([CheckCharset] and the prescan of [PrescanBytes]),
// tokenizes them once to bound the node count before any tree exists (the
// prepass, which also makes the few edits the parser needs, see edit.go),
// parses them with golang.org/x/net/html, works out element state (checked,
// disabled, read-write, placeholder shown, direction, ...) for the
// selectors, and styles and builds the tree with the offline cascade
// (snapshot/internal/style).
//
// Package snapshot is its public face (ParseHTML, HTMLOptions, HTMLInfo,
// and Load for HTML) and documents the behaviour; errors name package
// snapshot.
//
// # Limits
//
// More tokens than the node bound are refused before parsing, and a parsed
// tree of more nodes before it is styled; both with
// readbound.TooManyNodes. Matching work is bounded by the cascade's budget.
//
// # Concurrency
//
// Parse is a pure function of its arguments; the tree it returns is
// immutable.
package htmlsource
