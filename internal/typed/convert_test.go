package typed

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

func TestConvertStatus(t *testing.T) {
	types := []Type{String, Integer, Number, Boolean}
	for _, ty := range types {
		if got, want := Convert("", false, ty), (Cell{Status: Missing}); got != want {
			t.Errorf("%v empty: got %+v, want %+v", ty, got, want)
		}
		if got, want := Convert("12", true, ty), (Cell{Status: Truncated, Text: "12"}); got != want {
			t.Errorf("%v truncated: got %+v, want %+v", ty, got, want)
		}
		// A summary cut short with nothing retained is still truncated, not missing.
		if got, want := Convert("", true, ty), (Cell{Status: Truncated}); got != want {
			t.Errorf("%v truncated empty: got %+v, want %+v", ty, got, want)
		}
	}
	if got, want := Convert("Price", false, Number), (Cell{Status: Invalid, Text: "Price"}); got != want {
		t.Errorf("invalid number: got %+v, want %+v", got, want)
	}
	if got, want := Convert("4.5", false, Number), (Cell{Status: OK, Value: 4.5}); got != want {
		t.Errorf("number: got %+v, want %+v", got, want)
	}
	if got, want := Convert("x", false, Type(200)), (Cell{Status: Invalid, Text: "x"}); got != want {
		t.Errorf("unknown type: got %+v, want %+v", got, want)
	}
}

func TestString(t *testing.T) {
	for _, s := range []string{"x", " ", "\u00a0", "Widget 4.5", "null", "\x00", "\xff"} {
		got := Convert(s, false, String)
		if diff := cmp.Diff(Cell{Status: OK, Value: s}, got); diff != "" {
			t.Errorf("string %q (-want +got):\n%s", s, diff)
		}
	}
}

func TestBoolean(t *testing.T) {
	for s, want := range map[string]bool{"true": true, "false": false} {
		got := Convert(s, false, Boolean)
		if diff := cmp.Diff(Cell{Status: OK, Value: want}, got); diff != "" {
			t.Errorf("boolean %q (-want +got):\n%s", s, diff)
		}
	}
	for _, s := range []string{"True", "TRUE", "False", "1", "0", "yes", "on", " true", "true ",
		"tru", "truee", "null", "\u00a0false", "t", "f"} {
		if got := Convert(s, false, Boolean); got.Status != Invalid || got.Value != nil || got.Text != s {
			t.Errorf("boolean %q: got %+v, want invalid", s, got)
		}
	}
}

func TestInteger(t *testing.T) {
	max := int64(limits.MaxSafeInteger)
	accept := map[string]int64{
		"0": 0, "-0": 0, "7": 7, "-7": -7, "10": 10, "1234567890": 1234567890,
		strconv.FormatInt(max, 10):    max,
		strconv.FormatInt(-max, 10):   -max,
		strconv.FormatInt(max-1, 10):  max - 1,
		strconv.FormatInt(-max+1, 10): -max + 1,
	}
	for s, want := range accept {
		got := Convert(s, false, Integer)
		if diff := cmp.Diff(Cell{Status: OK, Value: want}, got); diff != "" {
			t.Errorf("integer %q (-want +got):\n%s", s, diff)
		}
	}
	reject := []string{
		strconv.FormatInt(max+1, 10), strconv.FormatInt(-max-1, 10),
		"9007199254740999", "90071992547409910", "99999999999999999999999999",
		"-99999999999999999999999999", "01", "-01", "00", "-00", "+1", "1.0", "1e0", "1E2",
		"-", "--1", " 1", "1 ", "1,234", "1 234", "1_000", "0x1F", "\uff11", "\u00a01",
		"1.", ".5", "NaN", "Infinity", "null", "true", "-0.0", "١",
	}
	for _, s := range reject {
		if got := Convert(s, false, Integer); got.Status != Invalid || got.Value != nil || got.Text != s {
			t.Errorf("integer %q: got %+v, want invalid", s, got)
		}
	}
}

func TestNumber(t *testing.T) {
	accept := []struct {
		in   string
		want float64
		json string
	}{
		{"0", 0, "0"},
		{"-0", math.Copysign(0, -1), "-0"},
		{"-0.0", math.Copysign(0, -1), "-0"},
		{"0e5", 0, "0"},
		{"0E-400", 0, "0"},
		{"0.000e999999", 0, "0"},
		{"4.5", 4.5, "4.5"},
		{"-12.50", -12.5, "-12.5"},
		{"1.0", 1, "1"},
		{"20e1", 200, "200"},
		{"1E+2", 100, "100"},
		{"1e-2", 0.01, "0.01"},
		{"12.5e-3", 0.0125, "0.0125"},
		{"1e21", 1e21, "1e+21"},
		{"1e20", 1e20, "100000000000000000000"},
		{"0.000001", 1e-6, "0.000001"},
		{"0.0000001", 1e-7, "1e-7"},
		{"1e308", 1e308, "1e+308"},
		{"1.7976931348623157e308", math.MaxFloat64, "1.7976931348623157e+308"},
		{"-1.7976931348623157e308", -math.MaxFloat64, "-1.7976931348623157e+308"},
		{"4.9e-324", 5e-324, "5e-324"},
		{"2.5e-324", 5e-324, "5e-324"},
		{"9007199254740993", 9007199254740992, "9007199254740992"},
		{"123456789012345678901234567890", 1.2345678901234568e+29, "1.2345678901234568e+29"},
		{"-0.000000000000000000000000000000000000000000000000000000000000000000000000000001", -1e-78, "-1e-78"},
	}
	for _, c := range accept {
		got := Convert(c.in, false, Number)
		if got.Status != OK {
			t.Errorf("number %q: got %+v, want ok", c.in, got)
			continue
		}
		f, isFloat := got.Value.(float64)
		if !isFloat || math.Float64bits(f) != math.Float64bits(c.want) {
			t.Errorf("number %q: value %#v, want %v", c.in, got.Value, c.want)
		}
		b, err := json.Marshal(got.Value)
		if err != nil || string(b) != c.json {
			t.Errorf("number %q: encodes as %s (%v), want %s", c.in, b, err, c.json)
		}
	}
	reject := []string{
		"1e-400", "-1e-400", "2.4e-324", "123.456e-789", "0.1e-99999",
		"1e309", "-1e309", "1.8e308", "123123e100000", "0.4e006699999999999999999999999",
		"NaN", "-NaN", "Infinity", "-Infinity", "Inf", "inf", "+1", "+0", ".5", "-.5", "1.",
		"-1.", "0x1F", "0X1F", "01", "-01", "00", "1_000", "1,234", "1 234", " 1", "1 ",
		"\t1", "1\n", "\u00a01", "\uff11", "-", "--1", "1e", "1e+", "1E-", "1eE2", "1e+-1",
		"1.e5", ".e1", "e1", "1.0.", "0.1.2", "1.2a-3", "2@", "1f", "1d", "0b1", "null",
		"true", "1\x00", "1/2", "١", "$4.50", "4.50 €", "4,5", "2024-01-01", "12:30", "1e1.5",
	}
	for _, s := range reject {
		if got := Convert(s, false, Number); got.Status != Invalid || got.Value != nil || got.Text != s {
			t.Errorf("number %q: got %+v, want invalid", s, got)
		}
	}
}

func TestNames(t *testing.T) {
	for _, ty := range []Type{String, Integer, Number, Boolean} {
		got, ok := ParseType(ty.String())
		if !ok || got != ty {
			t.Errorf("ParseType(%q) = %v, %v", ty.String(), got, ok)
		}
		b, err := ty.MarshalText()
		var back Type
		if err != nil || back.UnmarshalText(b) != nil || back != ty {
			t.Errorf("type %v does not round-trip: %q %v", ty, b, err)
		}
	}
	for _, s := range []string{"", "String", "int", "float", "bool", " number"} {
		if _, ok := ParseType(s); ok {
			t.Errorf("ParseType(%q) accepted", s)
		}
		var ty Type
		if ty.UnmarshalText([]byte(s)) == nil {
			t.Errorf("UnmarshalText(%q) accepted", s)
		}
	}
	if _, err := Type(9).MarshalText(); err == nil || Type(9).String() != "" {
		t.Error("an unknown type has a name")
	}
	want := map[Status]string{OK: "ok", Missing: "missing", Invalid: "invalid", Truncated: "truncated"}
	for s, name := range want {
		if s.String() != name {
			t.Errorf("status %d is %q, want %q", s, s.String(), name)
		}
		b, err := s.MarshalText()
		var back Status
		if err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("status %v does not round-trip", s)
		}
	}
	var s Status
	if s.UnmarshalText([]byte("OK")) == nil {
		t.Error("status names are case-sensitive")
	}
	if _, err := Status(9).MarshalText(); err == nil || Status(9).String() != "" {
		t.Error("an unknown status has a name")
	}
}
