// Package snapshot turns every source of a page into a [domtree.Tree] (docs/reference.md#the-tree, #errors and #saved-snapshots): a DOMSnapshot.captureSnapshot result from
// Chromium as wire JSON ([DecodeCapture]); a saved snapshot file ([Load],
// [WriteSnapshot]); and HTML ([ParseHTML]). A reply already decoded into
// mafredri/cdp's types is live.FromReply's, so that a program reading only
// files never links the CDP client.
//
// # Layout
//
// [Load] is the one entry: it sniffs the input, reads the saved-snapshot
// envelope itself (load.go, write.go) and hands each source to its own
// package. The capture decoder and the scrub are internal/capture (under
// the module's internal/, since live builds FromReply on it too); the
// offline HTML source, from bytes to a styled tree, is
// snapshot/internal/htmlsource. This package keeps the names callers use
// and their documentation; errors from every part name package snapshot.
//
// # Captures
//
// The wire decoder is written for the shape of captureSnapshot on the
// project's one JSON lexer (internal/jsonlex): token by token over the
// bytes, no reflection and no generic JSON values. The lexer's errors become
// malformed_snapshot here, with their JSON pointer and byte offset. Only the
// main document (documents[0]) is read; its node table, its layout table
// (node index and computed styles) and the string table are kept as
// integers, and strings are decoded only when the tree takes them. Unknown
// keys are skipped; a key read twice in one object is refused. A null table
// is an absent one and a null inner attribute or style array an empty one,
// as encoding/json reads them (mafredri/cdp's types marshal empty tables as
// null); a null where an integer belongs is malformed. Frame documents are
// checked for syntax and dropped.
//
// Building follows what Chromium's snapshot contains. Its node arrays are in
// pre-order and walk the flat tree: every node inside a shadow tree carries
// shadowRootType (the type of the root it is in), slotted light children
// appear under their slot, unslotted ones do not appear, and template
// contents are not listed at all. So the tree leaves out pseudo-element
// nodes, shadow-tree nodes (their host gets [domtree.ShadowHost]) and document
// fragments, each with its subtree; every template element gets
// [domtree.TemplateContents]; an element with a contentDocumentIndex gets
// [domtree.FrameOwner] and its document is never read. That is the light
// tree the extraction reads. When the capture holds shadow content other
// than the browser's own (user-agent) trees, the tree also gets a composed
// twin ([domtree.Tree.Composed]) holding the nodes in the capture's flat
// order, each in its tree scope, which the page view reads
// (docs/reference.md#the-composed-page). An HTML file's declarative shadow
// roots give it one the same way.
//
// Display and visibility come from each element's first layout object and
// the computed styles named by CaptureOptions.ComputedStyles. An element
// without a layout object is not rendered ([domtree.DisplayNone]) unless a
// descendant has one (display: contents); then it is DisplayBlock with its
// parent's visibility. Those styles are checked, not trusted: every element
// and text layout object must hold a display value where display is
// expected and a visibility value where visibility is, else the capture is
// malformed_snapshot. A bare capture names no styles, so one taken with
// other styles, or in another order, is refused rather than misread until
// LoadOptions.ComputedStyles names them.
//
// A shadow root with no nodes at all leaves no trace in a capture, so its
// host is not marked ShadowHost live; nothing would be inside it to enter
// anyway.
//
// # Saved snapshots
//
// Load sniffs its input: gzip by magic bytes (decompressed output capped at
// [MaxDecompressedBytes]; more is unsupported_input, a corrupt stream
// malformed_snapshot, gzip inside gzip unsupported_input); then, when the
// first non-space byte is '{', a JSON object whose first recognised member
// is "format" (an envelope) or "documents" or "strings" (a bare capture);
// other JSON objects are unsupported_input and broken ones
// malformed_snapshot. Anything else is HTML, unless its first 1,024 bytes
// hold binary bytes as the MIME Sniffing Standard defines them, which is
// unsupported_input. An envelope must name [FormatName] (another format is
// unsupported_input), a revision of the form "r1." plus letters, digits,
// '.', '-' and '_' (at most 128 bytes), an RFC 3339 captured_at when one is
// given, computed styles naming display and visibility, and a capture
// object; unknown members are skipped. Errors inside the capture carry
// paths under /capture. The revision of an envelope is the one it
// recorded; HTML and bare captures get [FileRevision] of the input bytes
// exactly as given (compressed bytes when compressed). WriteSnapshot writes
// an envelope as deterministic bytes, its capture always scrubbed first.
//
// # Limits
//
// Inputs are bounded while they are read, never after: Load refuses more
// than [limits.MaxInputBytes] of input, a gzip stream expanding to more (it
// counts the expansion first, keeping nothing, and then decompresses into a
// buffer of exactly the size counted), and a tree of more than
// [limits.MaxTreeNodes] nodes, all with unsupported_input and "too_large" in
// the message. A capture's per-node tables are refused as soon as one grows
// past the node bound while it is read. HTML is tokenized once before it is
// parsed: more start tags, text runs, comments and doctypes than the node
// bound are refused before any tree exists, and the parsed tree is counted
// again before it is styled, since the parser adds implied and re-opened
// elements of its own. A Charset that names no encoding is invalid_request
// whatever the input, checked before anything else.
//
// # Scrubbing
//
// docs/reference.md#saved-snapshots keeps a capture "exactly as the protocol returns it", but
// the secret rule of docs/reference.md#secrets forbids any control value in
// any output, and a saved file is an output: the secret rule wins. [ScrubCapture] removes the
// inputValue, textValue and optionSelected tables, the value attribute of
// every input that is not a button (its first type attribute decides, as in
// [domtree.Builder]), the text of text nodes under a textarea or inside a
// contenteditable editing host (the nodes stay, pointing at an empty
// string) and the layout text of all of those nodes, in every document of
// the capture, and blanks each string-table entry that only removed data
// referred to. Text inside an editing host is what a person typed, or what
// a script put there after load, and analysis never reads it. The tree
// built from a scrubbed capture is the tree built from the original but for
// that text, so a saved snapshot analysed offline gives the live result
// byte for byte. WriteSnapshot scrubs every capture it writes, so no caller
// can forget to, except one ScrubEnvelope already scrubbed and that still
// holds the same bytes; scrubbing is idempotent. What stays is page content the
// tree itself keeps: option text and value attributes, the selected
// attribute, button elements' value attributes, and attributes such as an
// iframe's srcdoc.
//
// # Security
//
// Form control values never reach the tree (docs/reference.md#the-tree). The capture's
// inputValue, textValue and optionSelected tables are scanned for syntax
// and dropped without being decoded; the value attribute of an input that
// is not a button, and the text under a textarea, are never decoded from
// the string table either (domtree's builder drops them as well). Nor do
// they reach a saved snapshot: WriteSnapshot scrubs (see Scrubbing), and a
// capture the scrub cannot read is refused rather than written. Error
// messages name positions and indexes, never values, and cut member names
// in paths to [limits.QuoteBytes].
//
// # Limits
//
// Every index from the input is checked once, in validate, before the
// build uses it: table lengths, parent before child, a single root, node
// types, string indexes, rare-data and layout indexes. Any inconsistency is
// a malformed_snapshot error with a JSON-pointer path. Nothing recurses on
// input depth (skipping nested JSON keeps an explicit stack), every loop
// advances through the input, and memory is proportional to the input:
// each kept integer took at least two input bytes. Inputs over 2 GiB are
// refused. ScrubCapture makes one pass to read and one to write, with
// memory linear in the input; its output is at most the input's size plus
// a few bytes for each node whose text it empties.
//
// # Concurrency
//
// Every function is a pure function of its arguments (WriteSnapshot also
// writes to the writer it is given); the trees returned are immutable and
// may be shared. [ParseHTML]'s own documentation covers the offline parse and
// its cascade.
package snapshot
