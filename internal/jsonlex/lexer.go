package jsonlex

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Lexer reads JSON from Data front to back; Pos is the offset of the next
// byte to read. Callers may read Data and move Pos themselves (to take a
// value's bytes as written, or to read a value again after a failed
// attempt), but only to offsets the lexer has already been at.
type Lexer struct {
	Data []byte
	Pos  int
}

// Error is a failure to read the input as the caller wanted it. Offset is
// the byte offset where reading stopped (len(Data) when the input ended
// early); Pointer is the JSON pointer of the value being read, as the
// caller gave it; Msg says what was wrong in the grammar's words. A
// message names JSON punctuation only, never quotes input.
type Error struct {
	Offset  int
	Pointer string
	Msg     string
}

// Error renders "pointer: message (byte N)".
func (e *Error) Error() string {
	s := e.Msg + " (byte " + strconv.Itoa(e.Offset) + ")"
	if e.Pointer != "" {
		s = e.Pointer + ": " + s
	}
	return s
}

// errorAt builds an Error at offset off.
func errorAt(off int, path, msg string) *Error {
	return &Error{Offset: off, Pointer: path, Msg: msg}
}

// Kind is the JSON type of a value, told from its first byte.
type Kind uint8

// The kinds. Invalid is a byte that starts no JSON value, or the end of the
// input.
const (
	Invalid Kind = iota
	Object
	Array
	String
	Bool
	Null
	Number
)

// String names the kind with its article, as messages use it: "an
// object", "null", "no JSON value".
func (k Kind) String() string {
	switch k {
	case Object:
		return "an object"
	case Array:
		return "an array"
	case String:
		return "a string"
	case Bool:
		return "a boolean"
	case Null:
		return "null"
	case Number:
		return "a number"
	}
	return "no JSON value"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace moves past JSON white space.
func (l *Lexer) SkipSpace() {
	for l.Pos < len(l.Data) && isSpace(l.Data[l.Pos]) {
		l.Pos++
	}
}

// Peek returns the next byte after white space without consuming it, 0 at
// the end of the input.
func (l *Lexer) Peek() byte {
	l.SkipSpace()
	if l.Pos >= len(l.Data) {
		return 0
	}
	return l.Data[l.Pos]
}

// Kind returns the kind of the value that starts after white space.
func (l *Lexer) Kind() Kind {
	switch c := l.Peek(); {
	case c == '{':
		return Object
	case c == '[':
		return Array
	case c == '"':
		return String
	case c == 't' || c == 'f':
		return Bool
	case c == 'n':
		return Null
	case c == '-' || c >= '0' && c <= '9':
		return Number
	}
	return Invalid
}

// Unexpected describes what the lexer found at its position, the end of
// the input or an unexpected byte, where want was expected.
func (l *Lexer) Unexpected(path, want string) *Error {
	if l.Pos >= len(l.Data) {
		return errorAt(l.Pos, path, "unexpected end of input, expected "+want)
	}
	// Only JSON punctuation is named: any other byte could be part of a
	// value, and messages never quote values.
	what := "byte"
	if c := l.Data[l.Pos]; c < utf8.RuneSelf && strings.IndexByte("{}[],:\"", c) >= 0 {
		what = strconv.QuoteRune(rune(c))
	}
	return errorAt(l.Pos, path, "unexpected "+what+", expected "+want)
}

// WrongType names what was found where a value of another type was wanted.
func (l *Lexer) WrongType(path, want string) *Error {
	k := l.Kind()
	if k == Invalid {
		return l.Unexpected(path, want)
	}
	return errorAt(l.Pos, path, "got "+k.String()+", want "+want)
}

// Expect consumes the byte c after white space.
func (l *Lexer) Expect(c byte, path string) error {
	if l.Peek() != c {
		return l.Unexpected(path, strconv.QuoteRune(rune(c)))
	}
	l.Pos++
	return nil
}

// ObjectStart consumes '{' and reports whether a first member follows.
func (l *Lexer) ObjectStart(path string) (bool, error) { return l.open('{', '}', "an object", path) }

// ObjectNext is called after a member's value: it consumes ',' and reports
// true, or consumes '}' and reports false.
func (l *Lexer) ObjectNext(path string) (bool, error) { return l.next('}', "',' or '}'", path) }

// ArrayStart consumes '[' and reports whether a first element follows.
func (l *Lexer) ArrayStart(path string) (bool, error) { return l.open('[', ']', "an array", path) }

// ArrayNext consumes ',' and reports true, or ']' and reports false.
func (l *Lexer) ArrayNext(path string) (bool, error) { return l.next(']', "',' or ']'", path) }

// open consumes the opening bracket of a container and reports whether it
// holds anything, consuming the closing bracket when it does not.
func (l *Lexer) open(c, end byte, want, path string) (bool, error) {
	if l.Peek() != c {
		return false, l.WrongType(path, want)
	}
	l.Pos++
	if l.Peek() == end {
		l.Pos++
		return false, nil
	}
	return true, nil
}

// next consumes what follows a container's item: ',' (more follows) or
// the closing bracket.
func (l *Lexer) next(end byte, want, path string) (bool, error) {
	switch l.Peek() {
	case ',':
		l.Pos++
		return true, nil
	case end:
		l.Pos++
		return false, nil
	}
	return false, l.Unexpected(path, want)
}

// Key reads a member name and the ':' after it, returning the span of the
// name's content (see StringSpan). A name is required: path is the
// object's.
func (l *Lexer) Key(path string) (Span, error) {
	if l.Peek() != '"' {
		return Span{}, l.Unexpected(path, "a key string")
	}
	sp, err := l.StringSpan(path)
	if err != nil {
		return Span{}, err
	}
	if err := l.Expect(':', path); err != nil {
		return Span{}, err
	}
	return sp, nil
}

// Members walks the object at path one member at a time, calling f with
// the span of the member's name; f must consume exactly the member's value.
// An error of f is returned as it is.
func (l *Lexer) Members(path string, f func(key Span) error) error {
	more, err := l.ObjectStart(path)
	if err != nil {
		return err
	}
	for more {
		k, err := l.Key(path)
		if err != nil {
			return err
		}
		if err := f(k); err != nil {
			return err
		}
		if more, err = l.ObjectNext(path); err != nil {
			return err
		}
	}
	return nil
}

// Elements walks the array at path one element at a time, calling f with
// the element's index; f must consume exactly the element. An error of f is
// returned as it is. It is the array's twin of Members.
func (l *Lexer) Elements(path string, f func(i int) error) error {
	more, err := l.ArrayStart(path)
	if err != nil {
		return err
	}
	for i := 0; more; i++ {
		if err := f(i); err != nil {
			return err
		}
		if more, err = l.ArrayNext(path); err != nil {
			return err
		}
	}
	return nil
}

// Literal consumes lit (true, false or null).
func (l *Lexer) Literal(lit, path string) error {
	if len(l.Data)-l.Pos < len(lit) || string(l.Data[l.Pos:l.Pos+len(lit)]) != lit {
		return errorAt(l.Pos, path, "invalid literal, expected "+lit)
	}
	l.Pos += len(lit)
	return nil
}

// Null consumes a null when one is next and reports whether it was.
func (l *Lexer) Null(path string) (bool, error) {
	if l.Peek() != 'n' {
		return false, nil
	}
	return true, l.Literal("null", path)
}

// Number consumes a number by the RFC 8259 grammar and returns its bytes.
func (l *Lexer) Number(path string) ([]byte, error) {
	d, i := l.Data, l.Pos
	start := i
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
	bad := func() ([]byte, error) {
		l.Pos = i
		return nil, errorAt(i, path, "invalid number, expected a digit")
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if !digits() {
		return bad()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return bad()
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return bad()
		}
	}
	l.Pos = i
	return d[start:i], nil
}

// Int64 reads a number written as an integer (no fraction, no exponent, no
// leading zero) that fits in an int64. It is the fast path of the tables of
// integers a capture is made of.
func (l *Lexer) Int64(path string) (int64, error) {
	l.SkipSpace()
	d, i := l.Data, l.Pos
	neg := false
	if i < len(d) && d[i] == '-' {
		neg = true
		i++
	}
	if i >= len(d) || d[i] < '0' || d[i] > '9' {
		return 0, l.WrongType(path, "an integer")
	}
	var v uint64
	if d[i] == '0' {
		i++
	} else {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			if v > (1<<63)/10 {
				return 0, errorAt(l.Pos, path, "integer out of range")
			}
			v = v*10 + uint64(d[i]-'0')
			i++
		}
	}
	if i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E') {
		return 0, errorAt(l.Pos, path, "got a number with a fraction or exponent, want an integer")
	}
	if i < len(d) && d[i] >= '0' && d[i] <= '9' {
		return 0, errorAt(l.Pos, path, "integer with a leading zero")
	}
	if v > 1<<63 || (!neg && v == 1<<63) {
		return 0, errorAt(l.Pos, path, "integer out of range")
	}
	l.Pos = i
	if neg {
		return -int64(v), nil
	}
	return int64(v), nil
}

// Int32 reads an integer that must fit in an int32.
func (l *Lexer) Int32(path string) (int32, error) {
	start := l.Pos
	v, err := l.Int64(path)
	if err != nil {
		return 0, err
	}
	if v < -1<<31 || v > 1<<31-1 {
		l.SkipSpace()
		return 0, errorAt(start, path, "integer out of range")
	}
	return int32(v), nil
}

// SkipValue consumes one JSON value of any shape, checking its syntax, and
// keeps nothing of it. Nesting is tracked on an explicit stack of open
// brackets.
func (l *Lexer) SkipValue(path string) error {
	var stack []byte // '{' or '[' per open container
	for {
		// A value is expected here.
		switch c := l.Peek(); c {
		case '{':
			l.Pos++
			if l.Peek() == '}' {
				l.Pos++
				break
			}
			if _, err := l.Key(path); err != nil {
				return err
			}
			stack = append(stack, '{')
			continue
		case '[':
			l.Pos++
			if l.Peek() == ']' {
				l.Pos++
				break
			}
			stack = append(stack, '[')
			continue
		case '"':
			if _, err := l.StringSpan(path); err != nil {
				return err
			}
		case 't':
			if err := l.Literal("true", path); err != nil {
				return err
			}
		case 'f':
			if err := l.Literal("false", path); err != nil {
				return err
			}
		case 'n':
			if err := l.Literal("null", path); err != nil {
				return err
			}
		default:
			if c == '-' || (c >= '0' && c <= '9') {
				if _, err := l.Number(path); err != nil {
					return err
				}
			} else {
				return l.Unexpected(path, "a value")
			}
		}
		// A value ended: close containers until one continues.
		for {
			if len(stack) == 0 {
				return nil
			}
			top := stack[len(stack)-1]
			c := l.Peek()
			if c == ',' {
				l.Pos++
				if top == '{' {
					if _, err := l.Key(path); err != nil {
						return err
					}
				}
				break
			}
			if (top == '{' && c == '}') || (top == '[' && c == ']') {
				l.Pos++
				stack = stack[:len(stack)-1]
				continue
			}
			if top == '{' {
				return l.Unexpected(path, "',' or '}'")
			}
			return l.Unexpected(path, "',' or ']'")
		}
	}
}

// RawValue consumes one JSON value of any shape, checking its syntax as
// SkipValue does, and returns it as written, without the white space
// before it. The slice's capacity ends with the value, so appending to it
// cannot write over what follows in Data.
func (l *Lexer) RawValue(path string) ([]byte, error) {
	l.SkipSpace()
	start := l.Pos
	if err := l.SkipValue(path); err != nil {
		return nil, err
	}
	return l.Data[start:l.Pos:l.Pos], nil
}

// End checks that nothing but white space follows the top-level value.
func (l *Lexer) End() error {
	l.SkipSpace()
	if l.Pos != len(l.Data) {
		return errorAt(l.Pos, "", "data after the top-level value")
	}
	return nil
}
