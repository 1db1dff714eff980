package aria

import "github.com/domsnap/domsnap/vocab"

// Kind and Source are the contract's words (package vocab), named here so the
// analysis reads as before.
type (
	Kind   = vocab.Kind
	Source = vocab.Source
)

// The collection kinds and sources.
const (
	KindNone = vocab.KindNone
	Table    = vocab.Table
	List     = vocab.List
	Form     = vocab.Form

	Native = vocab.Native
	ARIA   = vocab.ARIA
)

// ParseKind reads a kind name exactly as a request spells it.
func ParseKind(s string) (Kind, bool) { return vocab.ParseKind(s) }
