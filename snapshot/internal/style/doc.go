// Package style is the offline cascade of domsnap's HTML source: it computes,
// for every element of a parsed document, the two properties analysis needs,
// display and visibility (SPEC section 2.1), the way Chromium would compute
// them for the same bytes with scripts off and no network.
//
// The inputs are the user-agent defaults of the HTML Standard's rendering
// section (as Chromium applies them), the document's own <style> elements
// and the style attributes. Declarations are ordered by origin and
// importance, then inline-ness, specificity and source order; inherit,
// initial, unset, revert and revert-layer are honoured, and visibility
// inherits. Chromium's display adjustments are applied after the cascade:
// blockification of floats, absolutely positioned boxes, flex, grid and math
// items and the root, and display: contents on elements that cannot be
// contents.
//
// What is deliberately not applied, because offline analysis cannot know it,
// is listed as divergences in the repository documentation: rules inside
// @media, @supports, @layer and other at-rule blocks, nested style rules,
// external style sheets and @import, media queries on <style media>,
// declarations that use var(), and pseudo-classes that depend on state a page
// at rest does not have (:hover, :focus and the like never match).
//
// # Limits
//
// Hostile CSS must cost no more than linear time in its size times a fixed
// factor. The style sheet tokenizer and the rule reader run in one pass.
// Complex selectors are matched right to left with the classic "fails
// completely" short cut, so descendant and sibling combinators never
// backtrack exponentially; a selector may hold at most MaxCompounds compound
// selectors, and combinators nested inside functional pseudo-classes (which
// the compound matcher evaluates by itself) are limited to
// MaxNestedCombinators. Rules are indexed by the id, class or tag of their
// rightmost compound. Before any author rule is matched, the number of
// candidate (rule, element) pairs is counted; when it exceeds MatchBudget the
// author style sheets are not applied at all (style attributes still are)
// and Engine.SheetsDropped says so. All of this is deterministic.
//
// # Security
//
// Nothing here reads the network or the file system, runs script, or keeps
// any attribute value beyond the call.
//
// # Concurrency
//
// An Engine belongs to one parse on one goroutine. It mutates the parsed
// *html.Node tree only by adding the private state attributes described at
// StateAttr, which callers must drop when they copy attributes out.
package style
