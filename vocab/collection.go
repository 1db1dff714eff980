package vocab

import "fmt"

// Kind is the kind of collection a request names and a result reports
// (docs/reference.md#finding-the-collection).
type Kind uint8

// The collection kinds. KindNone is the zero value and names no collection;
// a request never holds it.
const (
	KindNone Kind = iota
	Table
	List
	Form
)

var kindNames = [...]string{"", "table", "list", "form"}

// String is the kind's name in requests and results; "" for KindNone and
// for a value outside the set.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return ""
}

// ParseKind reads a kind name exactly as a request spells it: lower case,
// nothing around it.
func ParseKind(s string) (Kind, bool) {
	for i := Table; int(i) < len(kindNames); i++ {
		if kindNames[i] == s {
			return i, true
		}
	}
	return KindNone, false
}

// MarshalText writes the kind's name; KindNone has none and is an error,
// because no result ever names it.
func (k Kind) MarshalText() ([]byte, error) {
	if s := k.String(); s != "" {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("vocab: kind %d has no name", uint8(k))
}

// UnmarshalText reads a kind name as ParseKind does.
func (k *Kind) UnmarshalText(b []byte) error {
	v, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("vocab: unknown collection kind %q", b)
	}
	*k = v
	return nil
}

// Source says how an element became a collection
// (docs/reference.md#finding-the-collection).
type Source uint8

// The sources. Native is the zero value.
const (
	// Native: a <table>, <ul>, <ol>, <menu> or <form> whose explicit role
	// does not name something else.
	Native Source = iota
	// ARIA: any element whose explicit role is a collection role.
	ARIA
)

var sourceNames = [...]string{"native", "aria"}

// String is the source's name in results; "" outside the set.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return ""
}

// MarshalText writes the source's name.
func (s Source) MarshalText() ([]byte, error) {
	if v := s.String(); v != "" {
		return []byte(v), nil
	}
	return nil, fmt.Errorf("vocab: source %d has no name", uint8(s))
}

// UnmarshalText reads "native" or "aria".
func (s *Source) UnmarshalText(b []byte) error {
	for i, name := range sourceNames {
		if name == string(b) {
			*s = Source(i)
			return nil
		}
	}
	return fmt.Errorf("vocab: unknown collection source %q", b)
}

// Reason says why a collection was not found (docs/reference.md#the-result).
type Reason uint8

// The reasons. ReasonNone is the zero value, the reason of a found
// collection.
const (
	ReasonNone Reason = iota
	// Absent: the whole document was scanned and the collection is not in it.
	Absent
	// ScanLimit: the collection scan's budget ran out first; what lies beyond
	// is unknown, not absent.
	ScanLimit
)

var reasonNames = [...]string{"", "absent", "scan_limit"}

// String is the reason as a result spells it: "" for ReasonNone, "invalid"
// outside the set.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "invalid"
}

// MarshalText writes the reason as String does.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Structure says whether a row's columns can be trusted
// (docs/reference.md#structure-values).
type Structure uint8

// The structures. StructureOK is the zero value.
const (
	// StructureOK: column k is the row's k-th cell.
	StructureOK Structure = iota
	// UnsupportedSpan: a cell of the row spans several columns or rows, or
	// the row lies under a row span from an earlier row. Its columns are not
	// guessed: it has no cells and is never valid.
	UnsupportedSpan
)

var structureNames = [...]string{"ok", "unsupported_span"}

// String is the structure as a result spells it; "invalid" outside the set.
func (s Structure) String() string {
	if int(s) < len(structureNames) {
		return structureNames[s]
	}
	return "invalid"
}

// MarshalText writes the structure as String does.
func (s Structure) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
