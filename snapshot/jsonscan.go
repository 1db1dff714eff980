package snapshot

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/domsnap/domsnap/errcode"
)

// scanner reads JSON from a byte slice front to back, one token at a time.
// It is written for the shapes this package reads (objects of known keys,
// arrays of integers, arrays of strings), so it never builds a generic value,
// never uses reflection and never recurses: values it does not need are
// skipped by skipValue, which keeps its nesting on an explicit stack.
//
// Every failure is a malformed_snapshot error whose path is the JSON pointer
// of the value being read when the input stopped making sense.
type scanner struct {
	data []byte
	pos  int
	// maxItems, when positive, bounds the length of the integer arrays
	// the capture decoder reads: each is a table of at most one entry per
	// node.
	maxItems int
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) ws() {
	for s.pos < len(s.data) && isJSONSpace(s.data[s.pos]) {
		s.pos++
	}
}

// peek returns the next non-space byte without consuming it, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

func malformed(path, msg string) *errcode.Error {
	return errcode.New(errcode.MalformedSnapshot, pkgName, path, msg)
}

// errAt describes what the scanner found at its position: the end of the
// input (truncation) or an unexpected byte.
func (s *scanner) errAt(path, want string) *errcode.Error {
	if s.pos >= len(s.data) {
		return malformed(path, "unexpected end of input, want "+want)
	}
	// Only JSON punctuation is named: any other byte could be part of a
	// value, and messages never quote values.
	what := "byte"
	if c := s.data[s.pos]; c < utf8.RuneSelf && strings.IndexByte("{}[],:\"", c) >= 0 {
		what = strconv.QuoteRune(rune(c))
	}
	return malformed(path, "unexpected "+what+" at byte "+strconv.Itoa(s.pos)+", want "+want)
}

// expect consumes the byte c after optional space.
func (s *scanner) expect(c byte, path string) error {
	if s.peek() != c {
		return s.errAt(path, strconv.QuoteRune(rune(c)))
	}
	s.pos++
	return nil
}

// objectStart consumes '{' and reports whether a first member follows.
func (s *scanner) objectStart(path string) (bool, error) {
	if s.peek() != '{' {
		return false, s.wrongType(path, "an object")
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return false, nil
	}
	return true, nil
}

// objectNext is called after a member's value: it consumes ',' and reports
// true, or consumes '}' and reports false.
func (s *scanner) objectNext(path string) (bool, error) {
	switch s.peek() {
	case ',':
		s.pos++
		return true, nil
	case '}':
		s.pos++
		return false, nil
	}
	return false, s.errAt(path, "',' or '}'")
}

// key reads a member name and the ':' after it. The returned bytes alias the
// input when the name has no escapes; they are only compared, never kept.
func (s *scanner) key(path string) ([]byte, error) {
	k, _, err := s.rawKey(path)
	return k, err
}

// rawKey is key that also returns the name as written, quotes and escapes
// included, for a caller that copies members byte for byte.
func (s *scanner) rawKey(path string) (k, raw []byte, err error) {
	if s.peek() != '"' {
		return nil, nil, s.errAt(path, "a member name")
	}
	start, end, esc, err := s.stringSpan(path)
	if err != nil {
		return nil, nil, err
	}
	k = s.data[start:end]
	if esc {
		k = []byte(unquote(k))
	}
	if err := s.expect(':', path); err != nil {
		return nil, nil, err
	}
	return k, s.data[start-1 : end+1], nil
}

// members walks the object at path, one member at a time: it reads the
// member's name and calls f with the decoded name, the member's JSON
// pointer and the name as written (see rawKey); f must consume exactly the
// member's value. With unique set, a name met twice in the object is
// refused before f sees the second one, since two tables of one name would
// leave the reader choosing one silently; without it, f refuses the
// repeats it cares about. The cost is one call of f per member, never per
// array element, so it is fine for tables of any length.
func (s *scanner) members(path string, unique bool, f func(name, p string, raw []byte) error) error {
	more, err := s.objectStart(path)
	if err != nil {
		return err
	}
	var seen map[string]bool
	if unique {
		seen = map[string]bool{}
	}
	for more {
		k, raw, err := s.rawKey(path)
		if err != nil {
			return err
		}
		name := string(k)
		p := path + "/" + escapePointer(name)
		if unique {
			if seen[name] {
				return dup(p)
			}
			seen[name] = true
		}
		if err := f(name, p, raw); err != nil {
			return err
		}
		if more, err = s.objectNext(path); err != nil {
			return err
		}
	}
	return nil
}

// dup is the error of a member name met twice in one object.
func dup(path string) error { return malformed(path, "duplicate key") }

// arrayStart consumes '[' and reports whether a first element follows.
func (s *scanner) arrayStart(path string) (bool, error) {
	if s.peek() != '[' {
		return false, s.wrongType(path, "an array")
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return false, nil
	}
	return true, nil
}

// arrayNext consumes ',' and reports true, or ']' and reports false.
func (s *scanner) arrayNext(path string) (bool, error) {
	switch s.peek() {
	case ',':
		s.pos++
		return true, nil
	case ']':
		s.pos++
		return false, nil
	}
	return false, s.errAt(path, "',' or ']'")
}

// wrongType names what was found where a value of another type was wanted.
func (s *scanner) wrongType(path, want string) *errcode.Error {
	c := s.peek()
	var got string
	switch {
	case c == 0:
		return malformed(path, "unexpected end of input, want "+want)
	case c == '{':
		got = "an object"
	case c == '[':
		got = "an array"
	case c == '"':
		got = "a string"
	case c == 't' || c == 'f':
		got = "a boolean"
	case c == 'n':
		got = "null"
	case c == '-' || (c >= '0' && c <= '9'):
		got = "a number"
	default:
		return s.errAt(path, want)
	}
	return malformed(path, "got "+got+", want "+want)
}

// integer reads a JSON number written as an integer (no fraction, no
// exponent) that fits in an int64.
func (s *scanner) integer(path string) (int64, error) {
	s.ws()
	d, i := s.data, s.pos
	neg := false
	if i < len(d) && d[i] == '-' {
		neg = true
		i++
	}
	if i >= len(d) || d[i] < '0' || d[i] > '9' {
		return 0, s.wrongType(path, "an integer")
	}
	var v uint64
	if d[i] == '0' {
		i++
	} else {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			if v > (1<<63)/10 {
				return 0, malformed(path, "integer out of range")
			}
			v = v*10 + uint64(d[i]-'0')
			i++
		}
	}
	if i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E') {
		return 0, malformed(path, "got a number with a fraction or exponent, want an integer")
	}
	if i < len(d) && d[i] >= '0' && d[i] <= '9' {
		return 0, malformed(path, "integer with a leading zero")
	}
	if v > 1<<63 || (!neg && v == 1<<63) {
		return 0, malformed(path, "integer out of range")
	}
	s.pos = i
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// int32Value reads an integer that must fit in an int32: every index this
// package reads is one, since a tree holds fewer than 2^31 nodes.
func (s *scanner) int32Value(path string) (int32, error) {
	v, err := s.integer(path)
	if err != nil {
		return 0, err
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, malformed(path, "integer out of range")
	}
	return int32(v), nil
}

// stringSpan consumes a string and returns the bounds of its raw content
// (between the quotes) and whether it holds escapes. Escapes are checked
// here, so decoding the span later cannot fail.
func (s *scanner) stringSpan(path string) (start, end int, esc bool, err error) {
	if s.peek() != '"' {
		return 0, 0, false, s.wrongType(path, "a string")
	}
	d := s.data
	i := s.pos + 1
	start = i
	for {
		if i >= len(d) {
			s.pos = i
			return 0, 0, false, malformed(path, "unexpected end of input inside a string")
		}
		c := d[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return start, i, esc, nil
		case c == '\\':
			esc = true
			if i+1 >= len(d) {
				s.pos = len(d)
				return 0, 0, false, malformed(path, "unexpected end of input inside a string")
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					s.pos = len(d)
					return 0, 0, false, malformed(path, "unexpected end of input inside a string")
				}
				if _, ok := hex4(d[i+2 : i+6]); !ok {
					return 0, 0, false, malformed(path, "invalid \\u escape in a string")
				}
				i += 6
			default:
				return 0, 0, false, malformed(path, "invalid escape in a string")
			}
		case c < 0x20:
			return 0, 0, false, malformed(path, "control character in a string")
		default:
			i++
		}
	}
}

func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unquote decodes the raw content of a string already checked by
// stringSpan. It turns invalid UTF-8 and lone surrogates into U+FFFD, byte by
// byte, as encoding/json does, so both decoding paths give the same text.
func unquote(raw []byte) string {
	buf := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c == '\\' {
			switch raw[i+1] {
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, _ := hex4(raw[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if lo, ok := hex4(raw[i+2 : i+6]); ok {
							if dec := utf16.DecodeRune(r, lo); dec != utf8.RuneError {
								r2 = dec
								i += 6
							}
						}
					}
					r = r2
				}
				buf = utf8.AppendRune(buf, r)
				continue
			default: // '"', '\\', '/'
				buf = append(buf, raw[i+1])
			}
			i += 2
			continue
		}
		if c < utf8.RuneSelf {
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size == 1 {
			buf = utf8.AppendRune(buf, utf8.RuneError)
		} else {
			buf = append(buf, raw[i:i+size]...)
		}
		i += size
	}
	return string(buf)
}

// decodeSpan turns a checked string span into a Go string.
func decodeSpan(raw []byte, esc bool) string {
	if !esc && utf8.Valid(raw) {
		return string(raw)
	}
	return unquote(raw)
}

// skipValue consumes one JSON value of any shape, checking its syntax, and
// keeps nothing of it. Nesting is tracked on an explicit stack of open
// brackets, so hostile depth costs memory in proportion to the input, never
// call-stack depth.
func (s *scanner) skipValue(path string) error {
	var stack []byte // '{' or '[' per open container
	for {
		// A value is expected here.
		switch c := s.peek(); c {
		case '{':
			s.pos++
			if s.peek() == '}' {
				s.pos++
				break
			}
			if _, _, _, err := s.stringSpan(path); err != nil {
				return err
			}
			if err := s.expect(':', path); err != nil {
				return err
			}
			stack = append(stack, '{')
			continue
		case '[':
			s.pos++
			if s.peek() == ']' {
				s.pos++
				break
			}
			stack = append(stack, '[')
			continue
		case '"':
			if _, _, _, err := s.stringSpan(path); err != nil {
				return err
			}
		case 't':
			if err := s.literal("true", path); err != nil {
				return err
			}
		case 'f':
			if err := s.literal("false", path); err != nil {
				return err
			}
		case 'n':
			if err := s.literal("null", path); err != nil {
				return err
			}
		default:
			if c == '-' || (c >= '0' && c <= '9') {
				if err := s.number(path); err != nil {
					return err
				}
			} else {
				return s.errAt(path, "a value")
			}
		}
		// A value ended: close containers until one continues.
		for {
			if len(stack) == 0 {
				return nil
			}
			top := stack[len(stack)-1]
			c := s.peek()
			if c == ',' {
				s.pos++
				if top == '{' {
					if _, _, _, err := s.stringSpan(path); err != nil {
						return err
					}
					if err := s.expect(':', path); err != nil {
						return err
					}
				}
				break
			}
			if (top == '{' && c == '}') || (top == '[' && c == ']') {
				s.pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if top == '{' {
				return s.errAt(path, "',' or '}'")
			}
			return s.errAt(path, "',' or ']'")
		}
	}
}

func (s *scanner) literal(lit, path string) error {
	if len(s.data)-s.pos < len(lit) {
		s.pos = len(s.data)
		return malformed(path, "unexpected end of input, want "+lit)
	}
	if string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return s.errAt(path, lit)
	}
	s.pos += len(lit)
	return nil
}

// number consumes a number by the RFC 8259 grammar.
func (s *scanner) number(path string) error {
	d, i := s.data, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() bool {
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if !digits() {
		s.pos = i
		return s.errAt(path, "a digit")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			s.pos = i
			return s.errAt(path, "a digit")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			s.pos = i
			return s.errAt(path, "a digit")
		}
	}
	s.pos = i
	return nil
}

// end checks that nothing but space follows the top-level value.
func (s *scanner) end() error {
	s.ws()
	if s.pos != len(s.data) {
		return malformed("", "data after the top-level value at byte "+strconv.Itoa(s.pos))
	}
	return nil
}
