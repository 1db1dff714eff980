package aria

import "fmt"

// Kind is the kind of collection a request names.
type Kind uint8

// The collection kinds. KindNone is the zero value and names no collection.
const (
	KindNone Kind = iota
	Table
	List
	Form
)

// String is the kind's name in requests and results; "" for KindNone.
func (k Kind) String() string {
	switch k {
	case Table:
		return "table"
	case List:
		return "list"
	case Form:
		return "form"
	}
	return ""
}

// ParseKind reads a kind name exactly as a request spells it: lower-case,
// no surrounding space.
func ParseKind(s string) (Kind, bool) {
	switch s {
	case "table":
		return Table, true
	case "list":
		return List, true
	case "form":
		return Form, true
	}
	return KindNone, false
}

// MarshalText writes the kind's name; KindNone has none and is an error,
// because no result ever names it.
func (k Kind) MarshalText() ([]byte, error) {
	if s := k.String(); s != "" {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("aria: kind %d has no name", uint8(k))
}

// UnmarshalText reads a kind name as ParseKind does.
func (k *Kind) UnmarshalText(b []byte) error {
	v, ok := ParseKind(string(b))
	if !ok {
		return fmt.Errorf("aria: unknown collection kind %q", b)
	}
	*k = v
	return nil
}

// Source says how an element became a collection.
type Source uint8

// The sources. Native is the zero value.
const (
	// Native: a <table>, <ul>, <ol>, <menu> or <form> whose explicit role
	// does not name something else.
	Native Source = iota
	// ARIA: any element whose explicit role is a collection role.
	ARIA
)

// String is the source's name in results.
func (s Source) String() string {
	switch s {
	case Native:
		return "native"
	case ARIA:
		return "aria"
	}
	return ""
}

// MarshalText writes the source's name.
func (s Source) MarshalText() ([]byte, error) {
	if v := s.String(); v != "" {
		return []byte(v), nil
	}
	return nil, fmt.Errorf("aria: source %d has no name", uint8(s))
}

// UnmarshalText reads "native" or "aria".
func (s *Source) UnmarshalText(b []byte) error {
	switch string(b) {
	case "native":
		*s = Native
	case "aria":
		*s = ARIA
	default:
		return fmt.Errorf("aria: unknown collection source %q", b)
	}
	return nil
}
