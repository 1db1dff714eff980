package typed

import "github.com/domsnap/domsnap/vocab"

// Type and Status are the contract's words (package vocab), named here so
// the conversion reads as before.
type (
	Type   = vocab.Type
	Status = vocab.Status
)

// The declared types and the cell statuses.
const (
	String  = vocab.String
	Integer = vocab.Integer
	Number  = vocab.Number
	Boolean = vocab.Boolean

	OK        = vocab.OK
	Missing   = vocab.Missing
	Invalid   = vocab.Invalid
	Truncated = vocab.Truncated
)

// ParseType reads a type name exactly as a request spells it.
func ParseType(s string) (Type, bool) { return vocab.ParseType(s) }

// Cell is one converted cell.
type Cell struct {
	Status Status
	// Value is nil, or for an OK cell a string, int64, float64 or bool as
	// the declared type says.
	Value any
	// Text is the evidence of an invalid or truncated cell: the text as
	// given. It is empty for OK and missing cells.
	Text string
}
