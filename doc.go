// Package domsnap pulls one visible table, list or form out of a DOM
// snapshot, deterministically and within hard bounds, and returns typed rows
// with honest coverage. docs/reference.md states the contract; this package
// states it in Go, and a caller needs no other package of the module but
// [github.com/domsnap/domsnap/snapshot] to read a page.
//
// The public API is small. A [Request] names a collection by [Kind] and
// index and lists typed [Field] columns; it is read from strict JSON by
// [DecodeRequest] (docs/reference.md#the-request) or built as a literal of
// this package's constants ([Table], [String], ...). [Request.Check]
// applies the contract's rules once and gives a [*Checked], and
// [DecodeChecked] reads JSON straight into one; [Extract] and [Observe]
// take either, as a [Query], and never check a *Checked again.
// [Extract] turns a [github.com/domsnap/domsnap/domtree.Tree] and a request
// into a [Result] whose [Result.Canonical] form is byte-for-byte the same for
// the same tree and request (docs/reference.md#the-result). [Observe] wraps
// the same analysis with the page's inventory of collections, and [Project]
// fits such an [Observation] into a model's byte budget
// (docs/reference.md#the-observation and #the-projection). Each cell has a
// [Status], and an [OK] cell's value is read with its type by
// [Cell.StringValue], [Cell.IntegerValue], [Cell.NumberValue] or
// [Cell.BooleanValue].
//
// Revisions name observations (docs/reference.md#revisions): [ParseRevision],
// [LiveRevision] and [Revision.String] handle both forms, [CheckRevision] and
// [Checked.CheckRevision] compare an expected revision with the current one,
// and [EvidenceRef] numbers a result's evidence references under the
// revision's sequence.
//
// A page view's action and region references carry the observation's
// sequence and a number n, from 1 in output order; [ObserveNumbered] takes
// a [Numbering], by which a live session keeps an element's number within
// its document (docs/reference.md#stable-numbers). [Observation.ChangesSince]
// tells a page view as what changed since an earlier observation of the
// same document, and [ProjectView] gives the view whole, as those changes,
// or not at all (docs/reference.md#answers-that-cost-what-changed).
//
// Every failure is an [*Error] with a stable [Code] (docs/reference.md#errors):
// branch with errors.Is against the sentinels such as [ErrInvalidRequest],
// or with [CodeOf], never on message text.
//
// # Limits
//
// Every bound comes from package [github.com/domsnap/domsnap/limits]
// (docs/reference.md#limits): the request's ranges, the scan budgets the
// analysis spends, reported as a [Scan] each, and the byte cap of a result,
// [limits.ExtractionBytes]. A result over the cap loses whole trailing rows,
// counted in rows_omitted_by_bytes; a typed record is never clipped. An
// inventory holds at most [limits.MaxInventoryPerKind] collections of each
// kind, each name bounded like a label cell. A projection never exceeds its byte
// budget and never clips a record; [limits.MinModelBytes] always suffices.
//
// # Digest
//
// A result's digest is "sha256:" followed by the lower-case hex SHA-256 of
// the result's canonical JSON with three kinds of member removed, key and
// value and the comma before them: the result's "revision", every "evidence"
// (the collection's and each row's) and the "digest" itself. Everything else
// is byte-identical to Canonical, and the digest is taken after the byte cap,
// so it covers exactly the rows printed. Re-observing an unchanged page gives
// the same digest although revision and evidence references are fresh.
// An observation's [Observation.Digest] is built the same way over the
// whole observation; its [Observation.Artifact], the SHA-256 of its complete
// canonical bytes, is what a projection names and what the tool server's
// artifact store (package mcp) files it under.
//
// # Security
//
// A request names a kind, an index, columns and types; there is no key for a
// selector, script, URL or attribute query, and unknown keys are refused.
// Form control values never enter the tree (docs/reference.md#secrets), so
// no result or error can carry one; error messages quote at most
// [limits.QuoteBytes] of the request, as [Quote] does. Every result is
// labelled "external-untrusted": page text is data, never instructions. Evidence references identify evidence only and cannot
// authorize an action.
//
// # Concurrency
//
// Everything here is a pure function of its arguments: no globals with state,
// no clocks, no randomness. A Tree is immutable, so any number of goroutines
// may extract from one tree at once.
package domsnap
