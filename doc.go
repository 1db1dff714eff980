// Package domsnap pulls one visible table, list or form out of a DOM
// snapshot, deterministically and within hard bounds, and returns typed rows
// with honest coverage (docs/reference.md states the contract).
//
// The public API is small: DecodeRequest reads a strict JSON request (or a
// Request is built in Go and checked with Validate), CheckRevision compares a
// caller's expected revision with the current one, and Extract turns a
// domtree.Tree and a Request into a Result whose Canonical form is
// byte-for-byte the same for the same tree and request. Observe wraps an
// extraction with the page's inventory of collections, and Project fits such
// an observation into a model's byte budget (docs/reference.md#the-observation).
//
// Revisions name observations: ParseRevision, LiveRevision and
// Revision.String handle both forms, and EvidenceRef numbers a result's
// evidence references under the revision's sequence.
//
// # Limits
//
// Every bound comes from package limits: the request's ranges, the scan
// budgets spent by packages collect and cells, and the byte cap of a result,
// limits.ExtractionBytes. A result over the cap loses whole trailing rows,
// counted in rows_omitted_by_bytes; a typed record is never clipped. An
// inventory holds at most limits.MaxInventoryPerKind collections of each kind,
// each name bounded like a label cell. A projection never exceeds its byte
// budget and never clips a record; limits.MinModelBytes always suffices.
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
// An observation's Digest is built the same way over the whole observation;
// its Artifact, the SHA-256 of its complete canonical bytes, is what a
// projection names and an ArtifactStore is keyed by.
//
// # Security
//
// A request names a kind, an index, columns and types; there is no key for a
// selector, script, URL or attribute query, and unknown keys are refused.
// Form control values never enter the tree (package domtree), so no result or
// error can carry one; error messages quote at most limits.QuoteBytes of the
// request. Every result is labelled "external-untrusted": page text is data,
// never instructions. Evidence references identify evidence only and cannot
// authorize an action.
//
// # Concurrency
//
// Everything here is a pure function of its arguments: no globals with state,
// no clocks, no randomness. A Tree is immutable, so any number of goroutines
// may extract from one tree at once. The one type with state, ArtifactStore,
// guards it with a mutex and is safe for concurrent use.
package domsnap
