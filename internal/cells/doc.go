// Package cells turns one cell, list item, label source or form control into
// bounded text (docs/reference.md#cell-text and #form-columns).
//
// [Summarize] walks a cell's subtree in tree order and keeps the visible text,
// with a space for every element that is not inline-level and for every
// visible <br>, whitespace collapsed and trimmed. [FormCell] computes the five
// fixed form columns: label, role, disabled, checked and required.
// [LabelledBy] reads one element's aria-labelledby with the label rules, for
// callers that name things other than form controls. For the page view,
// [ContentName] is a summary in which images give their alt text,
// [OptionText] an option's text, and [Text] the same normalised text under
// a bound of the caller's.
//
// # Limits
//
// One summary visits at most [limits.CellNodes] nodes and keeps at most
// [limits.CellUnits] UTF-16 code units. A label cell spends a single CellNodes
// budget over everything it reads: the text walks of every label element, the
// ancestor check of every label element (one node for each ancestor from the
// label's parent up to and including the document, always walked in full, so
// its cost is the label's depth and nothing else), and the control's own
// content for buttons. At most [limits.MaxLabels] distinct label elements are
// resolved per control and at most [limits.MaxIDChars] UTF-16 units of
// aria-labelledby are read.
//
// The walk stops at the first bound it meets. Once the retained text is full
// it goes on only to learn whether visible non-whitespace text remains: the
// first such character ends the walk as truncated ("text"); running out of
// nodes first ends it as truncated ("nodes"); reaching the end of the subtree
// means the text filled the bound exactly and is not truncated. Work is
// therefore at most CellNodes node visits plus the bytes of the visited text
// nodes up to the first character past the bound, whatever the cell's size.
// Whitespace past the bound is read to find that character, so a text node
// made of a long run of spaces costs its length; nothing else grows with the
// page.
//
// The disabled column, the search for a control's nearest ancestor label and
// the editable-ancestor check of a summary's start walk ancestors without a
// budget: the reference does not charge them, and they are linear in depth with no
// recursion.
//
// # Decisions where the reference is silent
//
//   - A nested collection is an element that aria.Collection recognises and
//     that is not invisible; an invisible table or list is no collection
//     (docs/reference.md#visibility), so the walk enters it and reads its visible
//     descendants. The start element is always entered when it is a
//     collection; an excluded start element adds nothing, and an editable
//     start element is not entered (the secret rule wins).
//   - A cell, item or label source that lies inside an editable control is
//     missing (a table inside a contenteditable region, say): its text is
//     what a person typed. The check walks the start's ancestors once,
//     outside the node budget, so every other cell costs what docs/reference.md#cell-text says.
//     A button inside an editable region gives no content label either.
//   - A native label contributes like a referenced one: its non-empty
//     aria-label, else its visible text, in which a visible <img> gives its
//     alt where it stands, and so does a button's own content (label
//     source 4), as browsers name <button><img alt="Delete"></button>.
//   - A label element, native or referenced, contributes nothing when it is
//     or lies inside an editable control, an option, an optgroup or a
//     datalist: option text is never read through a label, even outside a
//     select.
//   - An aria-labelledby value is clipped when non-whitespace text follows
//     its first MaxIDChars units; trailing whitespace past the bound is not a
//     clip. When several bounds apply, Why names the one met first while
//     reading the sources in order.
//   - Native labels follow the reference's wording rather than HTML's labelable
//     element rules: a label for=ID labels whichever control has that id (the
//     first element with the id, as getElementById), and an ancestor label
//     without for labels every control inside it.
//
// # Security
//
// No value a person typed or a page pre-filled is ever read. The tree holds
// no such values (domtree drops them), and on top of that the walk never
// enters an input, textarea, select or contenteditable element, label
// elements inside one contribute nothing, and an option is never read through
// an aria-labelledby reference.
//
// # Concurrency
//
// Every function is pure: it reads the immutable tree and keeps no state
// between calls, so any number of goroutines may call them at once.
package cells
