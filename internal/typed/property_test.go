package typed

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"testing"

	"github.com/domsnap/domsnap/limits"
	"pgregory.net/rapid"
)

// Reference grammars, written as regular expressions so that they share
// nothing with the hand-written scanner they check.
var (
	integerRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	numberRE  = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
	nonZeroRE = regexp.MustCompile(`^-?[0.]*[1-9]`)
)

// checkConvert is the one property every input must keep; the rapid test
// and the fuzz target both run it.
func checkConvert(t interface{ Fatalf(string, ...any) }, text string, truncated bool, ty Type) {
	c := Convert(text, truncated, ty)
	switch {
	case truncated:
		if c != (Cell{Status: Truncated, Text: text}) {
			t.Fatalf("truncated %q: %+v", text, c)
		}
		return
	case text == "":
		if c != (Cell{Status: Missing}) {
			t.Fatalf("empty: %+v", c)
		}
		return
	}
	switch c.Status {
	case OK:
		if c.Text != "" || c.Value == nil {
			t.Fatalf("ok %q: %+v", text, c)
		}
	case Invalid:
		if c.Text != text || c.Value != nil {
			t.Fatalf("invalid %q: %+v", text, c)
		}
	default:
		t.Fatalf("%q as %v: status %v", text, ty, c.Status)
	}
	switch ty {
	case String:
		if c != (Cell{Status: OK, Value: text}) {
			t.Fatalf("string %q: %+v", text, c)
		}
	case Boolean:
		want := text == "true" || text == "false"
		if (c.Status == OK) != want || (want && c.Value != (text == "true")) {
			t.Fatalf("boolean %q: %+v", text, c)
		}
	case Integer:
		checkInteger(t, text, c)
	case Number:
		checkNumber(t, text, c)
	default:
		if c.Status != Invalid {
			t.Fatalf("unknown type %d accepted %q", ty, text)
		}
	}
}

// checkInteger: accepted exactly when the grammar matches and big.Int
// says the value lies within plus or minus MaxSafeInteger.
func checkInteger(t interface{ Fatalf(string, ...any) }, text string, c Cell) {
	want := false
	var bi big.Int
	if integerRE.MatchString(text) {
		if _, ok := bi.SetString(text, 10); !ok {
			t.Fatalf("big.Int rejects %q", text)
		}
		want = bi.CmpAbs(big.NewInt(limits.MaxSafeInteger)) <= 0
	}
	if (c.Status == OK) != want {
		t.Fatalf("integer %q: %+v, want accepted=%v", text, c, want)
	}
	if want {
		v, ok := c.Value.(int64)
		if !ok || !bi.IsInt64() || v != bi.Int64() {
			t.Fatalf("integer %q: value %#v, want %s", text, c.Value, bi.String())
		}
	}
}

// checkNumber: rejected whenever the reference grammar rejects; when the
// grammar matches, accepted exactly when the value is finite and does not
// lose non-zero digits to zero; and every accepted value survives a round
// trip through encoding/json bit for bit, negative zero included.
func checkNumber(t interface{ Fatalf(string, ...any) }, text string, c Cell) {
	if !numberRE.MatchString(text) {
		if c.Status == OK {
			t.Fatalf("number %q outside the grammar was accepted: %+v", text, c)
		}
		if json.Valid([]byte(text)) && (text[0] == '-' || ('0' <= text[0] && text[0] <= '9')) &&
			'0' <= text[len(text)-1] && text[len(text)-1] <= '9' {
			t.Fatalf("encoding/json takes %q as a number but the grammar does not", text)
		}
		return
	}
	if !json.Valid([]byte(text)) {
		t.Fatalf("grammar accepts %q but encoding/json does not", text)
	}
	f, err := strconv.ParseFloat(text, 64)
	want := err == nil && !math.IsInf(f, 0) && !(f == 0 && nonZeroRE.MatchString(text))
	if (c.Status == OK) != want {
		t.Fatalf("number %q: %+v, want accepted=%v", text, c, want)
	}
	if !want {
		return
	}
	v, ok := c.Value.(float64)
	if !ok || math.Float64bits(v) != math.Float64bits(f) {
		t.Fatalf("number %q: value %#v, want %v", text, c.Value, f)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("number %q: marshal: %v", text, err)
	}
	var back float64
	if err := json.Unmarshal(b, &back); err != nil || math.Float64bits(back) != math.Float64bits(v) {
		t.Fatalf("number %q: %s reads back as %v (%v)", text, b, back, err)
	}
	again := Convert(string(b), false, Number)
	if g, ok := again.Value.(float64); again.Status != OK || !ok || math.Float64bits(g) != math.Float64bits(v) {
		t.Fatalf("number %q: its encoding %s converts to %+v", text, b, again)
	}
}

// numberish draws strings that are mostly close to numbers: well-formed
// ones with random parts, and random runs of number characters.
func numberish() *rapid.Generator[string] {
	digits := rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 1, 25, -1)
	wellFormed := rapid.Custom(func(t *rapid.T) string {
		s := ""
		if rapid.Bool().Draw(t, "neg") {
			s = "-"
		}
		if rapid.Bool().Draw(t, "zero") {
			s += "0"
		} else {
			s += rapid.StringOfN(rapid.RuneFrom([]rune("123456789")), 1, 1, -1).Draw(t, "lead") +
				rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 0, 20, -1).Draw(t, "int")
		}
		if rapid.Bool().Draw(t, "frac") {
			s += "." + digits.Draw(t, "fracdigits")
		}
		if rapid.Bool().Draw(t, "exp") {
			s += rapid.SampledFrom([]string{"e", "E", "e+", "e-", "E+", "E-"}).Draw(t, "e") +
				rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 1, 6, -1).Draw(t, "expdigits")
		}
		return s
	})
	junk := rapid.StringOfN(rapid.RuneFrom([]rune("-+.eE0123456789 x\u00a0")), 0, 30, -1)
	return rapid.OneOf(wellFormed, wellFormed, junk,
		rapid.SampledFrom([]string{"true", "false", "True", "null", "NaN", "-0", "0e-400", "1e-400"}))
}

func TestConvertProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := numberish().Draw(t, "text")
		ty := Type(rapid.IntRange(0, 5).Draw(t, "type"))
		truncated := rapid.IntRange(0, 9).Draw(t, "truncated") == 0
		checkConvert(t, text, truncated, ty)
	})
}

func TestIntegerBoundaryProperty(t *testing.T) {
	// Integers around the bound, drawn as offsets from plus or minus MaxSafeInteger.
	rapid.Check(t, func(t *rapid.T) {
		base := int64(limits.MaxSafeInteger)
		if rapid.Bool().Draw(t, "neg") {
			base = -base
		}
		off := rapid.Int64Range(-1000, 1000).Draw(t, "offset")
		checkConvert(t, strconv.FormatInt(base+off, 10), false, Integer)
		checkConvert(t, strconv.FormatInt(base+off, 10), false, Number)
	})
}

func FuzzConvert(f *testing.F) {
	for _, s := range []string{"", "0", "-0", "4.5", "1e-400", "0e-400", "9007199254740992", "true", "x"} {
		f.Add(s, false, int(Number))
	}
	f.Fuzz(func(t *testing.T, text string, truncated bool, ty int) {
		if ty < 0 || ty > 255 {
			ty &= 0xff
		}
		checkConvert(t, text, truncated, Type(ty))
	})
}
