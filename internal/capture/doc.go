// Package capture reads the result of DOMSnapshot.captureSnapshot: it
// decodes the wire JSON (or takes the tables of a reply someone else
// decoded, [FromTables]), checks every index once, checks the computed
// styles, and builds the [domtree.Tree] of the main document; and it scrubs
// a capture's bytes of every form control value ([Scrub]). Package snapshot
// is its public face and documents the behaviour (its Captures, Scrubbing,
// Security and Limits sections); this package holds the one implementation.
//
// It imports nothing of the CDP client, so that reading saved captures
// never links it: a reply in mafredri/cdp's types reaches [FromTables]
// through internal/capture/cdpreply, which only live imports.
//
// [Scanner] is the JSON lexer with the readers' habits (member names
// checked for repeats, paths handed out, integer tables bounded), shared
// with snapshot's envelope reader; [Coded] turns its errors into
// malformed_snapshot. Every error names package snapshot, the package
// callers called.
//
// # Concurrency
//
// Every function is a pure function of its arguments; the trees returned
// are immutable.
package capture
