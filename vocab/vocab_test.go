package vocab

import (
	"encoding"
	"fmt"
	"testing"
)

// word is what every set offers; the round trip below runs over each set's
// whole member list and one value past it.
type word interface {
	fmt.Stringer
	encoding.TextMarshaler
}

func TestNamesRoundTrip(t *testing.T) {
	sets := []struct {
		name    string
		members []word
		names   []string
		parse   func(string) (word, error)
	}{
		{"Kind", []word{Table, List, Form}, []string{"table", "list", "form"},
			func(s string) (word, error) { var v Kind; err := v.UnmarshalText([]byte(s)); return v, err }},
		{"Source", []word{Native, ARIA}, []string{"native", "aria"},
			func(s string) (word, error) { var v Source; err := v.UnmarshalText([]byte(s)); return v, err }},
		{"Type", []word{String, Integer, Number, Boolean}, []string{"string", "integer", "number", "boolean"},
			func(s string) (word, error) { var v Type; err := v.UnmarshalText([]byte(s)); return v, err }},
		{"Status", []word{OK, Missing, Invalid, Truncated}, []string{"ok", "missing", "invalid", "truncated"},
			func(s string) (word, error) { var v Status; err := v.UnmarshalText([]byte(s)); return v, err }},
		{"Truncation", []word{TruncNone, TruncText, TruncNodes, TruncLabels}, []string{"", "text", "nodes", "labels"},
			func(s string) (word, error) { var v Truncation; err := v.UnmarshalText([]byte(s)); return v, err }},
	}
	for _, set := range sets {
		for i, m := range set.members {
			if got := m.String(); got != set.names[i] {
				t.Errorf("%s member %d: String() = %q, want %q", set.name, i, got, set.names[i])
			}
			b, err := m.MarshalText()
			if err != nil || string(b) != set.names[i] {
				t.Errorf("%s member %d: MarshalText() = %q, %v", set.name, i, b, err)
			}
			back, err := set.parse(set.names[i])
			if err != nil || back != m {
				t.Errorf("%s: UnmarshalText(%q) = %v, %v; want %v", set.name, set.names[i], back, err, m)
			}
		}
		if _, err := set.parse("TABLE-ish"); err == nil {
			t.Errorf("%s: an unknown name was accepted", set.name)
		}
	}
}

func TestParseExact(t *testing.T) {
	for _, s := range []string{"", "Table", " table", "table ", "none"} {
		if k, ok := ParseKind(s); ok {
			t.Errorf("ParseKind(%q) = %v, true", s, k)
		}
	}
	for _, s := range []string{"", "String", "int", "float"} {
		if v, ok := ParseType(s); ok {
			t.Errorf("ParseType(%q) = %v, true", s, v)
		}
	}
}

// TestOutsideTheSet: a value no constant names is never printed as a
// member's name, and the sets that must name every value they write refuse
// to marshal it.
func TestOutsideTheSet(t *testing.T) {
	if _, err := KindNone.MarshalText(); err == nil {
		t.Error("KindNone marshalled")
	}
	if _, err := Kind(9).MarshalText(); err == nil {
		t.Error("Kind(9) marshalled")
	}
	if _, err := Source(9).MarshalText(); err == nil {
		t.Error("Source(9) marshalled")
	}
	if _, err := Type(9).MarshalText(); err == nil {
		t.Error("Type(9) marshalled")
	}
	if _, err := Status(9).MarshalText(); err == nil {
		t.Error("Status(9) marshalled")
	}
	if _, err := Truncation(9).MarshalText(); err == nil {
		t.Error("Truncation(9) marshalled")
	}
	if got := Reason(9).String(); got != "invalid" {
		t.Errorf("Reason(9) = %q", got)
	}
	if got := Structure(9).String(); got != "invalid" {
		t.Errorf("Structure(9) = %q", got)
	}
	if Absent.String() != "absent" || ScanLimit.String() != "scan_limit" || ReasonNone.String() != "" {
		t.Error("reason names changed")
	}
	if StructureOK.String() != "ok" || UnsupportedSpan.String() != "unsupported_span" {
		t.Error("structure names changed")
	}
}
