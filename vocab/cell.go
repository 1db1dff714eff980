package vocab

import "fmt"

// Type is the type a request's field declares for its cells
// (docs/reference.md#types).
type Type uint8

// The declared types. String is the zero value.
const (
	String Type = iota
	Integer
	Number
	Boolean
)

var typeNames = [...]string{"string", "integer", "number", "boolean"}

// String is the type's name in requests; "" outside the set.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return ""
}

// ParseType reads a type name exactly as a request spells it.
func ParseType(s string) (Type, bool) {
	for i, name := range typeNames {
		if name == s {
			return Type(i), true
		}
	}
	return 0, false
}

// MarshalText writes the type's name.
func (t Type) MarshalText() ([]byte, error) {
	if s := t.String(); s != "" {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("vocab: type %d has no name", uint8(t))
}

// UnmarshalText reads a type name as ParseType does.
func (t *Type) UnmarshalText(b []byte) error {
	v, ok := ParseType(string(b))
	if !ok {
		return fmt.Errorf("vocab: unknown type %q", b)
	}
	*t = v
	return nil
}

// Status says what became of one cell (docs/reference.md#cell-statuses).
type Status uint8

// The cell statuses. OK is the zero value; only an OK cell has a value.
const (
	// OK: the text was acceptable and converted to the declared type.
	OK Status = iota
	// Missing: the summary was empty, or the column absent.
	Missing
	// Invalid: text was present but not acceptable; the text is the evidence.
	Invalid
	// Truncated: the summary was cut short; the retained prefix is the
	// evidence.
	Truncated
)

var statusNames = [...]string{"ok", "missing", "invalid", "truncated"}

// String is the status's name in results; "" outside the set.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return ""
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) {
	if v := s.String(); v != "" {
		return []byte(v), nil
	}
	return nil, fmt.Errorf("vocab: status %d has no name", uint8(s))
}

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, name := range statusNames {
		if name == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("vocab: unknown status %q", b)
}

// Truncation names the first bound that cut a cell's summary
// (docs/reference.md#cell-statuses).
type Truncation uint8

// The truncations. TruncNone is the zero value: the summary is complete.
const (
	TruncNone Truncation = iota
	// TruncText: retained text stopped at CellUnits while non-whitespace text
	// remained.
	TruncText
	// TruncNodes: the CellNodes budget ran out while nodes remained unvisited.
	TruncNodes
	// TruncLabels: label resolution was cut by MaxIDChars or MaxLabels.
	TruncLabels
)

var truncationNames = [...]string{"", "text", "nodes", "labels"}

// String is the truncation's name in a result's cell: "" for TruncNone,
// "invalid" outside the set.
func (t Truncation) String() string {
	if int(t) < len(truncationNames) {
		return truncationNames[t]
	}
	return "invalid"
}

// MarshalText writes the truncation's name, "" for TruncNone.
func (t Truncation) MarshalText() ([]byte, error) {
	if int(t) >= len(truncationNames) {
		return nil, fmt.Errorf("vocab: truncation %d has no name", uint8(t))
	}
	return []byte(truncationNames[t]), nil
}

// UnmarshalText reads a name MarshalText writes.
func (t *Truncation) UnmarshalText(b []byte) error {
	for i, name := range truncationNames {
		if string(b) == name {
			*t = Truncation(i)
			return nil
		}
	}
	return fmt.Errorf("vocab: unknown truncation %q", b)
}
