// Package style is the offline cascade of domsnap's HTML source: it computes,
// for every element of a parsed document, the two properties analysis needs,
// display and visibility (docs/reference.md#visibility), the way Chromium would compute
// them for the same bytes with scripts off and no network.
//
// The inputs are the user-agent defaults of the HTML Standard's rendering
// section (as Chromium applies them), the document's own <style> elements
// and the style attributes. Declarations are ordered by origin and
// importance, then inline-ness, cascade layer, specificity and source order;
// inherit,
// initial, unset, revert and revert-layer are honoured, and visibility
// inherits. Chromium's display adjustments are applied after the cascade:
// blockification of floats, absolutely positioned boxes, flex, grid and math
// items and the root, and display: contents on elements that cannot be
// contents.
//
// Both sides of a parity check see one reference screen (package media):
// @media blocks and <style media> sheets apply when their query list
// matches it. @supports blocks apply when their condition holds as Chromium
// 156 decides it from data: a declaration by whether the property is in
// the generated table of names Chromium knows (properties_gen.go, made by
// internal/gencssprops from MDN's compatibility data) and, for display and
// visibility, whether the value is valid; selector() by this package's
// selector parser. @layer blocks and statements order rules in cascade
// layers by first declaration across all sheets of the document; rules
// outside every layer beat layered ones, and the reverse for !important.
// Conditional groups nested in style rules apply to the enclosing
// selectors. var() in display and visibility is substituted from custom
// properties, which cascade like other properties and inherit; a value
// invalid after substitution (an undefined property without fallback, a
// cycle) makes the declaration behave as unset.
//
// Style rules nested in style rules (CSS Nesting) are applied, resolved to
// flat selectors: "&" stands for each enclosing selector in turn, and a
// nested selector without it is relative to them. Declarations that follow
// a nested rule cascade after it and everything it nests, as a nested
// declarations rule for the enclosing selectors.
//
// Identifiers are read with their escapes resolved, so "dis\70 lay: n\6f ne"
// is display: none. The align attribute of img, object, embed, iframe, an
// image input and table is a presentational hint for float (left or right),
// of author origin and before every author rule. A
// <meta http-equiv=default-style> names the preferred style sheet set when
// no titled sheet has named one before it.
//
// Selectors are matched with github.com/andybalholm/cascadia, one compound
// selector at a time; this package chains the compounds itself. Selector
// features the library lacks are rewritten before it sees them: :is() and
// :where() as :not(:not()) (a top-level :where() then has its weight taken
// off), :has(> x) as :haschild(x), :any-link as :link, :scope as :root, the
// pseudo-classes of user action and script-only state as a pseudo-class that
// never matches, and :checked, :defined, :open, :required, :optional,
// :empty, :read-write, :read-only, :placeholder-shown, :indeterminate and
// :dir() as tests of the element states the caller computes (State, in
// Options.States), each one step, which the selector library only parses
// and weighs. Attribute values HTML compares case-insensitively (type,
// rel, ...) get the i flag. A top-level :nth-child(An+B of S) or
// :nth-last-child(An+B of S) becomes S for the library, and this package
// checks the position among the siblings that match S while matching; it
// weighs what S does and one pseudo-class more.
//
// The library parses each compound and says what it weighs; matching is
// done here, on a small tree read from the same text (see compound.go), so
// that every test is charged to the budget below. Class and id selectors
// look the name up in the element's class list, split once per element
// (kept in a set when long), instead of scanning the attribute for every
// rule; attribute selectors and the pseudo-classes without a selector
// argument are still the library's, one at a time.
//
// Selectors that Chromium rejects drop their whole rule, as an invalid
// selector does: the library's own extensions (:contains(), :containsOwn(),
// :matches() and :matchesOwn() with regular expressions, :haschild(),
// :input, and the attribute operators != and #=), a :has() anywhere inside
// another :has(), and a pseudo-element inside a :has(). Applying them would
// hide what a browser shows.
//
// # Divergences
//
// These differ from a live Chromium capture of the same bytes, on purpose or
// by necessity; most come with a small page that shows them.
//
//   - hidden=until-found is display: none (docs/reference.md#visibility); Chromium
//     renders the element and hides its content with content-visibility.
//     <div hidden=until-found>x</div>
//   - Rules inside @scope, @container and @starting-style blocks are not
//     applied, also when nested in a style rule.
//     <style>@scope (body){p{display:none}}</style><p>x</p>
//   - In @supports, the value of a declaration is checked only for display
//     and visibility (any value of another known property counts as
//     supported), font-tech() and font-format() are false, and a selector
//     this package drops (:valid, say) is unsupported, where Chromium
//     supports it. A property Chromium knows that the compatibility data
//     does not list is unknown here.
//   - Media features whose value depends on fonts (lengths in ex, ch, cap,
//     ic, lh and their root forms) are unknown: neither they nor their
//     negation match.
//   - revert-layer acts as revert; @property registrations are not read, so
//     every custom property inherits and has no initial value; a @layer
//     statement nested in a style rule declares nothing; @import layer()
//     declares no layer.
//   - Style rules nested deeper than MaxNesting, or whose selector grows
//     past MaxNestedSelectorBytes once the enclosing selectors are written
//     in, are not applied. A resolved selector weighs what its own enclosing
//     selector does, where CSS weighs "&" as the heaviest of them; and
//     ".a &" in a rule for "b c" requires .a above b, where CSS also
//     accepts .a between b and c.
//   - var() is substituted only in display and visibility; float and
//     position values that use it are dropped.
//   - External style sheets and @import load nothing.
//   - On one generated page of badly misnested formatting elements
//     (<b><i><em>...</b>), Chromium left an element that :last-child
//     matches (element.matches says so) with a style that ignores the
//     rule; the cause is not pinned down and no small page shows it.
//   - Namespaced selectors (svg|rect), the column combinator, the nesting
//     selector outside nesting, :host, and pseudo-classes the selector
//     library cannot parse drop their rule, as an invalid selector would;
//     Chromium applies it. Among them are the constraint validation ones,
//     :valid, :invalid, :in-range, :out-of-range and :user-*, whose state
//     depends on value sanitisation, patterns and ranges that are not
//     modelled, and :nth-child(An+B of S) inside another pseudo-class such
//     as :not() or :is().
//     <style>input:invalid+b{display:none}</style><input required><b>x</b>
//   - Whether an object renders its fallback content depends on whether
//     its resource loads (a data: URL does, an image type does even with no
//     data); offline the fallback is always rendered.
//   - dir=auto takes the direction of the first strong character by Unicode
//     bidi class, as Chromium does; direction set by script or by a
//     dirname form submission is not seen. :read-write on a contenteditable
//     element ignores -webkit-user-modify from CSS.
//   - Functional pseudo-classes nested deeper than MaxSelectorNesting (32,
//     with each :is() or :where() counting twice) drop their rule.
//   - :has(> X) is the selector library's :haschild(X): a child matching X,
//     so in :has(> .a .b) the .b is the child, where CSS makes it the .a.
//   - Whether a display: contents element with only whitespace inside has a
//     box is decided by a simple rule (whitespace after inline content in
//     the same block container counts) that covers the usual cases only.
//
// # Limits
//
// Hostile CSS must cost no more than linear time in its size times a fixed
// factor. The style sheet tokenizer and the rule reader run in one pass.
// Complex selectors are matched right to left with the classic "fails
// completely" short cut, so descendant and sibling combinators never
// backtrack exponentially; a selector may hold at most MaxCompounds compound
// selectors, combinators nested inside functional pseudo-classes are
// limited to MaxNestedCombinators, and functional pseudo-classes nest at
// most MaxSelectorNesting deep. Rules are indexed by the id, class or tag of
// their rightmost compound.
//
// Matching work is counted in steps, and a document's author style sheets
// may cost at most MatchSteps of them (2^25): a step is one simple selector
// tested on one element, or one element visited by a search a selector
// makes (an ancestor or sibling a combinator passes, a descendant or child
// :has() looks at, a sibling :nth-child(An+B of S) counts); a test whose
// own work grows with the element (walking ancestors, reading attributes)
// is charged for that work before it runs. A positional pseudo-class
// (:nth-child(2n), :last-of-type, ...) reads the element's place from its
// parent's children, numbered once on first need at one step per child,
// so a striped table costs steps linear in its rows. Every
// matcher call charges, inside :has() and :not() too, so the count bounds
// the work: Engine.Work, the tests and visits actually made, never exceeds
// Engine.StepsCharged. When a charge finds too few steps left, OverBudget
// tells the caller to DropSheets and compute again, so the sheets apply
// everywhere or nowhere; the page is then styled by the user-agent sheet
// and the style attributes alone, and Engine.SheetsDropped says so. Before
// any author rule is matched, the candidate (rule, element) pairs are
// counted too, and more than MatchBudget drops the sheets at once. Nesting
// is bounded by MaxNesting and MaxNestedSelectorBytes. All of this is
// deterministic: the same bytes always cost the same steps. Conditional
// groups and layers nest through an explicit stack. var() substitution is lazy and remembered per scope; a value may
// hold at most MaxVarTokens tokens and pass through MaxVarDepth custom
// properties, and all substitutions together produce at most VarSteps
// tokens, past which the author sheets are dropped as for MatchSteps.
//
// # Security
//
// Nothing here reads the network or the file system, runs script, or keeps
// any attribute value beyond the call.
//
// # Concurrency
//
// An Engine belongs to one parse on one goroutine. It never changes the
// parsed *html.Node tree or the states it is given.
package style

// properties_gen.go is generated by gen.go from the @mdn/browser-compat-data
// npm package, whose folder $BCD names (see gen.go).
//go:generate go run gen.go -bcd $BCD -chrome 156 -o properties_gen.go
