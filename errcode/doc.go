// Package errcode is the one error type of domsnap: a stable code, an
// optional JSON-pointer path, a message and an optional cause (docs/reference.md#errors). Every package below the public API returns these, and package domsnap
// re-exports the type and its sentinels, so a caller branches with errors.Is
// on a sentinel or errors.As on [*Error], never on message text.
//
// # Security
//
// Messages quote at most [limits.QuoteBytes] of input, through [Quote], and never
// a form value: code that builds a message must not pass a control's value
// here, and the tree never holds one to pass (docs/reference.md#the-tree and #form-columns).
package errcode
