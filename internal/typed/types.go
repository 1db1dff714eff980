package typed

import "fmt"

// Type is the type a request declares for a field.
type Type uint8

// The declared types.
const (
	String Type = iota
	Integer
	Number
	Boolean
)

// String is the type's name in requests.
func (t Type) String() string {
	switch t {
	case String:
		return "string"
	case Integer:
		return "integer"
	case Number:
		return "number"
	case Boolean:
		return "boolean"
	}
	return ""
}

// ParseType reads a type name exactly as a request spells it.
func ParseType(s string) (Type, bool) {
	switch s {
	case "string":
		return String, true
	case "integer":
		return Integer, true
	case "number":
		return Number, true
	case "boolean":
		return Boolean, true
	}
	return 0, false
}

// MarshalText writes the type's name.
func (t Type) MarshalText() ([]byte, error) {
	if s := t.String(); s != "" {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("typed: type %d has no name", uint8(t))
}

// UnmarshalText reads a type name as ParseType does.
func (t *Type) UnmarshalText(b []byte) error {
	v, ok := ParseType(string(b))
	if !ok {
		return fmt.Errorf("typed: unknown type %q", b)
	}
	*t = v
	return nil
}

// Status says what became of one cell.
type Status uint8

// The cell statuses.
const (
	// OK: the text was acceptable; Value holds the typed value.
	OK Status = iota
	// Missing: the summary was empty (or the column absent); Value is nil.
	Missing
	// Invalid: text was present but not acceptable; Text holds it as evidence.
	Invalid
	// Truncated: the summary was cut short; Text holds the retained prefix.
	Truncated
)

// String is the status's name in results.
func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Missing:
		return "missing"
	case Invalid:
		return "invalid"
	case Truncated:
		return "truncated"
	}
	return ""
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) {
	if v := s.String(); v != "" {
		return []byte(v), nil
	}
	return nil, fmt.Errorf("typed: status %d has no name", uint8(s))
}

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for _, v := range []Status{OK, Missing, Invalid, Truncated} {
		if v.String() == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("typed: unknown status %q", b)
}

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
