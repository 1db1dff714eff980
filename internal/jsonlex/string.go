package jsonlex

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Span is a string as written: Data[Start:End] is its content between the
// quotes, and Esc says whether it holds escapes. Its escapes were checked
// when it was read, so decoding it cannot fail for the syntax.
type Span struct {
	Start, End int
	Esc        bool
}

// Raw returns the span's content as written.
func (l *Lexer) Raw(s Span) []byte { return l.Data[s.Start:s.End] }

// Quoted returns the span with its quotes, as written.
func (l *Lexer) Quoted(s Span) []byte { return l.Data[s.Start-1 : s.End+1] }

// StringSpan consumes a string and returns its span. It checks the
// grammar: every escape well-formed, no control character. Bytes that are
// not UTF-8 are left for Unquote to judge.
func (l *Lexer) StringSpan(path string) (Span, error) {
	if l.Peek() != '"' {
		return Span{}, l.WrongType(path, "a string")
	}
	d := l.Data
	i := l.Pos + 1
	start := i
	esc := false
	eof := func() (Span, error) {
		l.Pos = len(d)
		return Span{}, errorAt(len(d), path, "unexpected end of input in an unterminated string")
	}
	for {
		if i >= len(d) {
			return eof()
		}
		c := d[i]
		switch {
		case c == '"':
			l.Pos = i + 1
			return Span{start, i, esc}, nil
		case c == '\\':
			esc = true
			if i+1 >= len(d) {
				return eof()
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) {
					return eof()
				}
				if _, ok := hex4(d[i+2 : i+6]); !ok {
					return Span{}, errorAt(i, path, "invalid \\u escape in a string")
				}
				i += 6
			default:
				return Span{}, errorAt(i, path, "invalid escape in a string")
			}
		case c < 0x20:
			return Span{}, errorAt(i, path, "control character in a string")
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

// Decode returns the text of a span read by StringSpan, leniently: bytes
// that are not UTF-8 and lone surrogate escapes each become U+FFFD, as
// encoding/json decodes them, so a capture read here and one read through
// encoding/json give the same text.
func (l *Lexer) Decode(s Span) string { return DecodeRaw(l.Raw(s), s.Esc) }

// DecodeRaw is Decode for the content of a span kept apart from its lexer.
func DecodeRaw(raw []byte, esc bool) string {
	if !esc && utf8.Valid(raw) {
		return string(raw)
	}
	v, _ := unquote(raw, false)
	return v
}

// DecodeStrict returns the text of a span read by StringSpan and refuses,
// with an Error at the offending byte, a byte that is not UTF-8 ("invalid
// UTF-8") and a surrogate escape not paired with its partner ("lone
// surrogate"), which a lenient reader would turn into U+FFFD silently.
func (l *Lexer) DecodeStrict(s Span, path string) (string, error) {
	raw := l.Raw(s)
	if !s.Esc && utf8.Valid(raw) {
		return string(raw), nil
	}
	v, bad := unquote(raw, true)
	if bad < 0 {
		return v, nil
	}
	if raw[bad] == '\\' {
		return "", errorAt(s.Start+bad, path, "lone surrogate in a \\u escape")
	}
	return "", errorAt(s.Start+bad, path, "invalid UTF-8 in a string")
}

// unquote decodes the content of a checked span. Leniently, it turns
// invalid UTF-8 and lone surrogates into U+FFFD, byte by byte; strictly, it
// stops at the first and returns its offset in raw (-1 when there is none).
func unquote(raw []byte, strict bool) (string, int) {
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
				at := i
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
					if r2 == utf8.RuneError && strict {
						return "", at
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
			if strict {
				return "", i
			}
			buf = utf8.AppendRune(buf, utf8.RuneError)
		} else {
			buf = append(buf, raw[i:i+size]...)
		}
		i += size
	}
	return string(buf), -1
}
