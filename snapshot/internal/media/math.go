package media

import (
	"math"
	"strconv"

	"github.com/tdewolff/parse/v2/css"
)

// kind is the type of a computed quantity.
type kind uint8

const (
	kindNumber kind = iota
	kindLength
	kindResolution
)

// qty is a quantity in its canonical unit: pixels, dots per pixel, or none.
type qty struct {
	v float64
	k kind
}

// readNumeric reads a value of the given type written as one number or
// dimension, or one math function, and returns it in the canonical unit.
// s gives the lengths of relative units; nil allows no lengths.
func readNumeric(toks []token, typ valueType, s *Screen) (float64, bool) {
	want := kindNumber
	switch typ {
	case typeLength:
		want = kindLength
	case typeResolution:
		want = kindResolution
	}
	m := &mathReader{toks: toks, s: s}
	q, ok := m.primary(0, false)
	if !ok || m.i != len(toks) {
		return 0, false
	}
	if q.k == kindNumber && want == kindLength && toks[0].Type == css.NumberToken && q.v == 0 {
		return 0, true // a bare zero is a length
	}
	if q.k != want || math.IsNaN(q.v) {
		return 0, false
	}
	if typ == typeInteger && toks[0].Type == css.NumberToken && !isInteger(toks[0].Data) {
		return 0, false
	}
	return q.v, true
}

// isInteger reports whether a number token is written as an integer.
func isInteger(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// mathReader reads math functions (calc() and its kin) over a token cursor.
type mathReader struct {
	toks []token
	i    int
	s    *Screen
}

func (m *mathReader) space() {
	for m.i < len(m.toks) && m.toks[m.i].Type == css.WhitespaceToken {
		m.i++
	}
}

// primary reads one number, dimension or math function; inMath allows the
// constants and parenthesised sums that only math functions may hold.
func (m *mathReader) primary(depth int, inMath bool) (qty, bool) {
	if m.i >= len(m.toks) || depth > MaxDepth {
		return qty{}, false
	}
	t := m.toks[m.i]
	switch t.Type {
	case css.NumberToken:
		m.i++
		v, err := strconv.ParseFloat(t.Data, 64)
		return qty{v, kindNumber}, err == nil
	case css.DimensionToken:
		m.i++
		return m.dimension(t.Data)
	case css.IdentToken:
		if !inMath {
			return qty{}, false
		}
		m.i++
		switch lower(t.Data) {
		case "pi":
			return qty{math.Pi, kindNumber}, true
		case "e":
			return qty{math.E, kindNumber}, true
		case "infinity":
			return qty{math.Inf(1), kindNumber}, true
		case "-infinity":
			return qty{math.Inf(-1), kindNumber}, true
		case "nan":
			return qty{math.NaN(), kindNumber}, true
		}
		return qty{}, false
	case css.LeftParenthesisToken:
		if !inMath {
			return qty{}, false
		}
		m.i++
		q, ok := m.sum(depth + 1)
		m.space()
		if !ok || m.i >= len(m.toks) || m.toks[m.i].Type != css.RightParenthesisToken {
			return qty{}, false
		}
		m.i++
		return q, true
	case css.FunctionToken:
		name := lower(t.Data[:len(t.Data)-1])
		m.i++
		args, ok := m.args(depth + 1)
		if !ok {
			return qty{}, false
		}
		return apply(name, args)
	}
	return qty{}, false
}

// args reads the comma-separated sums of a function up to its ")".
func (m *mathReader) args(depth int) ([]qty, bool) {
	var out []qty
	for {
		m.space()
		// round() may start with a rounding strategy.
		if m.i < len(m.toks) && m.toks[m.i].Type == css.IdentToken && len(out) == 0 {
			switch lower(m.toks[m.i].Data) {
			case "nearest", "up", "down", "to-zero":
				out = append(out, qty{v: strategyCode(lower(m.toks[m.i].Data)), k: kind(255)})
				m.i++
				m.space()
				if m.i >= len(m.toks) || m.toks[m.i].Type != css.CommaToken {
					return nil, false
				}
				m.i++
				continue
			}
		}
		q, ok := m.sum(depth)
		if !ok {
			return nil, false
		}
		out = append(out, q)
		m.space()
		if m.i >= len(m.toks) {
			return nil, false
		}
		switch m.toks[m.i].Type {
		case css.CommaToken:
			m.i++
		case css.RightParenthesisToken:
			m.i++
			return out, true
		default:
			return nil, false
		}
	}
}

func strategyCode(s string) float64 {
	switch s {
	case "up":
		return 1
	case "down":
		return 2
	case "to-zero":
		return 3
	}
	return 0
}

// sum reads "product [(+|-) product]...", where + and - need whitespace on
// both sides.
func (m *mathReader) sum(depth int) (qty, bool) {
	m.space()
	q, ok := m.product(depth)
	if !ok {
		return qty{}, false
	}
	for {
		save := m.i
		if m.i >= len(m.toks) || m.toks[m.i].Type != css.WhitespaceToken {
			return q, true
		}
		m.i++
		if m.i >= len(m.toks) || m.toks[m.i].Type != css.DelimToken || (m.toks[m.i].Data != "+" && m.toks[m.i].Data != "-") {
			m.i = save
			return q, true
		}
		op := m.toks[m.i].Data
		m.i++
		if m.i >= len(m.toks) || m.toks[m.i].Type != css.WhitespaceToken {
			return qty{}, false
		}
		m.i++
		r, ok := m.product(depth)
		if !ok || r.k != q.k {
			return qty{}, false
		}
		if op == "+" {
			q.v += r.v
		} else {
			q.v -= r.v
		}
	}
}

// product reads "value [(*|/) value]...".
func (m *mathReader) product(depth int) (qty, bool) {
	q, ok := m.primary(depth, true)
	if !ok {
		return qty{}, false
	}
	for {
		save := m.i
		m.space()
		if m.i >= len(m.toks) || m.toks[m.i].Type != css.DelimToken || (m.toks[m.i].Data != "*" && m.toks[m.i].Data != "/") {
			m.i = save
			return q, true
		}
		op := m.toks[m.i].Data
		m.i++
		m.space()
		r, ok := m.primary(depth, true)
		if !ok {
			return qty{}, false
		}
		switch {
		case op == "/" && r.k == kindNumber:
			q.v /= r.v
		case op == "*" && r.k == kindNumber:
			q.v *= r.v
		case op == "*" && q.k == kindNumber:
			q = qty{q.v * r.v, r.k}
		default:
			return qty{}, false // a length times a length, or over one
		}
	}
}

// apply computes a math function of its arguments.
func apply(name string, args []qty) (qty, bool) {
	strategy := -1.0
	if len(args) > 0 && args[0].k == kind(255) {
		if name != "round" {
			return qty{}, false
		}
		strategy, args = args[0].v, args[1:]
	}
	sameKind := func() bool {
		for _, a := range args[1:] {
			if a.k != args[0].k {
				return false
			}
		}
		return len(args) > 0
	}
	switch name {
	case "calc", "-webkit-calc":
		if len(args) == 1 {
			return args[0], true
		}
	case "min", "max":
		if sameKind() {
			q := args[0]
			for _, a := range args[1:] {
				if name == "min" {
					q.v = math.Min(q.v, a.v)
				} else {
					q.v = math.Max(q.v, a.v)
				}
			}
			return q, true
		}
	case "clamp":
		if len(args) == 3 && sameKind() {
			return qty{math.Max(args[0].v, math.Min(args[1].v, args[2].v)), args[0].k}, true
		}
	case "abs":
		if len(args) == 1 {
			return qty{math.Abs(args[0].v), args[0].k}, true
		}
	case "sign":
		if len(args) == 1 {
			v := args[0].v
			switch {
			case v > 0:
				v = 1
			case v < 0:
				v = -1
			}
			return qty{v, kindNumber}, true
		}
	case "round":
		if len(args) == 1 && args[0].k == kindNumber {
			args = append(args, qty{1, kindNumber})
		}
		if len(args) == 2 && sameKind() {
			a, b := args[0].v, args[1].v
			if b == 0 {
				return qty{math.NaN(), args[0].k}, true
			}
			x := a / b
			switch strategy {
			case 1:
				x = math.Ceil(x)
			case 2:
				x = math.Floor(x)
			case 3:
				x = math.Trunc(x)
			default:
				x = math.Floor(x + 0.5)
			}
			return qty{x * b, args[0].k}, true
		}
	}
	return qty{}, false
}

// dimension reads a dimension token's number and unit. Lengths relative to
// font metrics (ex, ch, ...) are not known here.
func (m *mathReader) dimension(text string) (qty, bool) {
	n := numberPrefix(text)
	v, err := strconv.ParseFloat(text[:n], 64)
	if err != nil {
		return qty{}, false
	}
	unit := lower(text[n:])
	switch unit {
	case "dppx", "x":
		return qty{v, kindResolution}, true
	case "dpi":
		return qty{v / 96, kindResolution}, true
	case "dpcm":
		return qty{v * 2.54 / 96, kindResolution}, true
	}
	var px float64
	switch unit {
	case "px":
		px = 1
	case "in":
		px = 96
	case "cm":
		px = 96 / 2.54
	case "mm":
		px = 96 / 25.4
	case "q":
		px = 96 / 101.6
	case "pt":
		px = 96.0 / 72
	case "pc":
		px = 16
	default:
		if m.s == nil {
			return qty{}, false
		}
		s := m.s
		// Without dynamic browser chrome the small, large and dynamic
		// viewports are one; container units fall back to the small
		// viewport when no container is queried.
		w, h := s.Width/100, s.Height/100
		switch unit {
		case "em", "rem":
			px = s.FontSize
		case "vw", "svw", "lvw", "dvw", "vi", "svi", "lvi", "dvi", "cqw", "cqi":
			px = w
		case "vh", "svh", "lvh", "dvh", "vb", "svb", "lvb", "dvb", "cqh", "cqb":
			px = h
		case "vmin", "svmin", "lvmin", "dvmin", "cqmin":
			px = math.Min(w, h)
		case "vmax", "svmax", "lvmax", "dvmax", "cqmax":
			px = math.Max(w, h)
		default:
			return qty{}, false
		}
	}
	return qty{v * px, kindLength}, true
}

// numberPrefix returns the length of the number at the start of a
// dimension token's text.
func numberPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	return i
}
