package media

import (
	"math"
	"slices"

	"github.com/tdewolff/parse/v2/css"
)

// feature evaluates the text inside one pair of parentheses as a media
// feature: boolean ("hover"), plain ("min-width: 40em") or a range ("width
// < 900px", "400px <= width < 900px"). Anything else, and any feature or
// value not known, is unknown.
func (s *Screen) feature(toks []token) tri {
	if len(toks) == 0 {
		return unknown
	}
	if toks[0].Type == css.IdentToken {
		name := lower(toks[0].Data)
		rest := trim(toks[1:])
		if len(rest) == 0 {
			return s.boolean(name)
		}
		if rest[0].Type == css.ColonToken {
			return s.plain(name, trim(rest[1:]))
		}
		op, n, ok := readOp(rest)
		if !ok {
			return unknown
		}
		return s.compare(name, op, trim(rest[n:]), true)
	}
	// value op name [op value]
	at := topOp(toks)
	if at < 0 {
		return unknown
	}
	op1, n, _ := readOp(toks[at:])
	v1 := trim(toks[:at])
	rest := trim(toks[at+n:])
	if len(rest) == 0 || rest[0].Type != css.IdentToken {
		return unknown
	}
	name := lower(rest[0].Data)
	rest = trim(rest[1:])
	if len(rest) == 0 {
		return s.compare(name, op1, v1, false)
	}
	op2, n, ok := readOp(rest)
	if !ok || op1[0] == '=' || op1[0] != op2[0] {
		return unknown // both "<" or both ">", never "="
	}
	return s.compare(name, op1, v1, false).and(s.compare(name, op2, trim(rest[n:]), true))
}

// readOp reads a comparison at the start of toks: <, <=, >, >= or =, the
// two-character ones without whitespace between. It returns the tokens read.
func readOp(toks []token) (op string, n int, ok bool) {
	if len(toks) == 0 || toks[0].Type != css.DelimToken {
		return "", 0, false
	}
	switch toks[0].Data {
	case "=":
		return "=", 1, true
	case "<", ">":
		if len(toks) > 1 && toks[1].Type == css.DelimToken && toks[1].Data == "=" {
			return toks[0].Data + "=", 2, true
		}
		return toks[0].Data, 1, true
	}
	return "", 0, false
}

// topOp returns the index of the first comparison outside every block, or -1.
func topOp(toks []token) int {
	for i := 0; i < len(toks); i++ {
		if closerOf(toks[i].Type) != css.ErrorToken {
			i = blockEnd(toks, i)
			continue
		}
		if _, _, ok := readOp(toks[i:]); ok {
			return i
		}
	}
	return -1
}

// boolean evaluates "(name)": true unless the value is zero, none or
// no-preference.
func (s *Screen) boolean(name string) tri {
	f, ok := lookup(name)
	if !ok {
		return unknown
	}
	switch f.typ {
	case typeKeyword:
		v := s.Keywords[name]
		return triOf(v != "" && v != "none" && v != "no-preference")
	case typeRatio:
		w, _ := s.ratio(name)
		return triOf(w != 0)
	}
	return triOf(s.number(name) != 0)
}

// plain evaluates "(name: value)", with an optional min- or max- prefix on
// a ranged feature.
func (s *Screen) plain(name string, value []token) tri {
	if len(value) == 0 {
		return unknown
	}
	f, ok := lookup(name)
	prefix := ""
	if !ok {
		var base string
		base, prefix = splitPrefix(name)
		if prefix == "" {
			return unknown
		}
		if f, ok = lookup(base); !ok || !f.ranged {
			return unknown
		}
		name = base
	}
	if f.boolOnly {
		return unknown
	}
	if f.typ == typeKeyword {
		if len(value) != 1 || value[0].Type != css.IdentToken {
			return unknown
		}
		v := lower(value[0].Data)
		if !slices.Contains(f.values, v) {
			return unknown
		}
		return triOf(s.Keywords[name] == v)
	}
	op := "="
	switch prefix {
	case "min":
		op = ">="
	case "max":
		op = "<="
	}
	return s.compare(name, op, value, true)
}

// compare evaluates "name op value" (nameFirst) or "value op name" for a
// numeric feature.
func (s *Screen) compare(name, op string, value []token, nameFirst bool) tri {
	f, ok := lookup(name)
	if !ok || f.typ == typeKeyword || f.boolOnly {
		return unknown
	}
	if op != "=" && !f.ranged {
		return unknown
	}
	if f.typ == typeRatio {
		num, den, ok := readRatio(value)
		if !ok {
			return unknown
		}
		w, h := s.ratio(name)
		// Compare w/h with num/den without dividing: a zero denominator
		// is an infinite ratio.
		a, b := w*den, num*h
		if !nameFirst {
			a, b = b, a
		}
		return triOf(holds(a, op, b, epsilon))
	}
	v, ok := readNumeric(value, f.typ, s)
	if !ok {
		return unknown
	}
	a, b := s.number(name), v
	eps := 0.0
	switch f.typ {
	case typeLength:
		eps = epsilon
	case typeResolution:
		// Resolutions compare in dots per inch.
		a, b, eps = a*96, b*96, epsilon
	case typeNumber:
		if f.ranged { // the device pixel ratio, like a resolution
			a, b, eps = a*96, b*96, epsilon
		}
	}
	if !nameFirst {
		a, b = b, a
	}
	return triOf(holds(a, op, b, eps))
}

// epsilon is the tolerance of Chromium's non-strict comparisons of
// lengths, ratios and resolutions: its layout unit, 1/64 of a pixel. Its
// strict comparisons are exact.
const epsilon = 1.0 / 64

func holds(a float64, op string, b, eps float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b+eps
	case ">":
		return a > b
	case ">=":
		return a+eps >= b
	}
	return math.Abs(a-b) <= eps
}

// readRatio reads "<number> [/ <number>]", both not negative; 0/0 stands
// for 1/0, as Chromium reads it.
func readRatio(toks []token) (num, den float64, ok bool) {
	var slash []int
	for i := 0; i < len(toks); i++ {
		if closerOf(toks[i].Type) != css.ErrorToken {
			i = blockEnd(toks, i)
		} else if toks[i].Type == css.DelimToken && toks[i].Data == "/" {
			slash = append(slash, i)
		}
	}
	switch len(slash) {
	case 0:
		num, ok = readNumeric(toks, typeNumber, nil)
		den = 1
	case 1:
		var ok2 bool
		num, ok = readNumeric(trim(toks[:slash[0]]), typeNumber, nil)
		den, ok2 = readNumeric(trim(toks[slash[0]+1:]), typeNumber, nil)
		ok = ok && ok2
	default:
		return 0, 0, false
	}
	if !ok || num < 0 || den < 0 || math.IsNaN(num) || math.IsNaN(den) {
		return 0, 0, false
	}
	if num == 0 && den == 0 {
		num = 1
	}
	return num, den, true
}
