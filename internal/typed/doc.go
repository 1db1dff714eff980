// Package typed converts a cell summary's text to the typed value a request
// declared (docs/reference.md#types): string, integer, number or boolean, with a
// status that says whether the value is there (ok), absent (missing), not
// acceptable (invalid) or cut short (truncated).
//
// Acceptance is exact. Numbers follow the RFC 8259 grammar, checked here
// character by character before any float parsing, because strconv accepts
// far more ("+1", ".5", "1.", "0x1F", "Inf", underscores). Integers are the
// JSON integers without fraction or exponent. Booleans are exactly "true"
// or "false". Nothing is trimmed, and no locale, currency, date or
// thousands separator is understood.
//
// # Limits
//
// An integer must lie within plus or minus [limits.MaxSafeInteger], so every
// accepted integer survives a round trip through any JSON reader that
// stores numbers as doubles. A number must parse to a finite float64, and
// when its digits before the exponent include a non-zero digit it must not
// round to zero: a value that reads as something must not be reported as
// nothing. Work is linear in the length of the text.
//
// # Security
//
// [Convert] reads only the text it is given. The text of an invalid or
// truncated cell is returned as evidence exactly as given: the caller has
// already bounded it, and no form control value ever reaches a summary.
//
// # Concurrency
//
// Convert is a pure function and safe for concurrent use.
package typed
