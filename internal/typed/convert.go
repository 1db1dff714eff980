package typed

import (
	"math"
	"strconv"

	"github.com/domsnap/domsnap/limits"
)

// Convert turns a summary's text into a typed cell (docs/reference.md#types). A
// truncated summary is Truncated whatever its text, with the retained
// prefix as evidence; an empty one is Missing; text the type does not
// accept is Invalid with the text as evidence; anything else is OK.
//
// A Type outside the four declared ones accepts nothing, so such a cell is
// Invalid rather than a panic; requests are validated long before this.
func Convert(text string, truncated bool, t Type) Cell {
	if truncated {
		return Cell{Status: Truncated, Text: text}
	}
	if text == "" {
		return Cell{Status: Missing}
	}
	var v any
	ok := false
	switch t {
	case String:
		v, ok = text, true
	case Integer:
		v, ok = ParseInteger(text)
	case Number:
		v, ok = ParseNumber(text)
	case Boolean:
		v, ok = ParseBoolean(text)
	}
	if !ok {
		return Cell{Status: Invalid, Text: text}
	}
	return Cell{Status: OK, Value: v}
}

// ParseBoolean accepts exactly "true" and "false".
func ParseBoolean(s string) (bool, bool) {
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// ParseInteger accepts -?(0|[1-9][0-9]*) within plus or minus
// limits.MaxSafeInteger. "-0" gives 0.
func ParseInteger(s string) (int64, bool) {
	neg := false
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		neg, digits = true, digits[1:]
	}
	if !intPart(digits, len(digits)) {
		return 0, false
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		// v stays at most MaxSafeInteger (about 9e15) before each step, so
		// v*10+9 cannot overflow an int64.
		v = v*10 + int64(digits[i]-'0')
		if v > limits.MaxSafeInteger {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

// intPart reports whether s[:n] is the int production of RFC 8259:
// "0", or a digit 1-9 followed by any digits.
func intPart(s string, n int) bool {
	if n == 0 {
		return false
	}
	if s[0] == '0' {
		return n == 1
	}
	for i := 0; i < n; i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// ParseNumber accepts the RFC 8259 number grammar exactly,
//
//	number = [ "-" ] int [ frac ] [ exp ]
//	int    = "0" / ( digit1-9 *DIGIT )
//	frac   = "." 1*DIGIT
//	exp    = ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT
//
// whose float64 value is finite, and which does not round to zero when a
// digit before the exponent is non-zero. Negative zero stays negative zero.
func ParseNumber(s string) (float64, bool) {
	nonZero, ok := numberGrammar(s)
	if !ok {
		return 0, false
	}
	// The grammar above is a subset of what ParseFloat reads, so an error
	// here can only be a range error: the value is not a finite float64.
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	if f == 0 && nonZero {
		return 0, false
	}
	return f, true
}

// numberGrammar checks s against the RFC 8259 number production and
// reports whether a digit of the int or frac part is non-zero.
func numberGrammar(s string) (nonZero, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		nonZero = nonZero || s[i] != '0'
		i++
	}
	if !intPart(s[start:], i-start) {
		return false, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		fstart := i
		for i < len(s) && isDigit(s[i]) {
			nonZero = nonZero || s[i] != '0'
			i++
		}
		if i == fstart {
			return false, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		estart := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == estart {
			return false, false
		}
	}
	return nonZero, i == len(s)
}
