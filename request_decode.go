package domsnap

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/domsnap/domsnap/aria"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/typed"
)

// DecodeRequest decodes one JSON extract request strictly (docs/reference.md#the-request and #corner-cases). Unknown keys, duplicate keys, null anywhere, values of the wrong
// JSON type, integers written with a fraction, an exponent or as -0, values
// out of range, invalid UTF-8, invalid JSON and data after the object are all
// rejected with an invalid_request *Error whose Path is the JSON pointer of the
// first offending value in document order ("" for the request as a whole).
//
// Checks that need two values are made as soon as both are known: a column
// that its kind forbids is reported at the column when the kind came first,
// and at the end of the request otherwise; a missing key is reported at the
// end of its object, with the object's path.
//
// A request of more than limits.MaxRequestBytes is refused whole, before it
// is read, with unsupported_input ("too_large"): no valid request comes near
// that size.
func DecodeRequest(data []byte) (Request, error) {
	if len(data) > limits.MaxRequestBytes {
		return Request{}, errcode.New(errcode.UnsupportedInput, "domsnap", "",
			"too_large: the request holds more than "+strconv.Itoa(limits.MaxRequestBytes)+" bytes")
	}
	d := decoder{data: data}
	r, err := d.request()
	if err != nil {
		return Request{}, err
	}
	return r, nil
}

// decoder is a small strict JSON reader for the fixed shape of a request.
// The shape is two levels deep, and any value of an unexpected type is
// rejected where it starts, so the reader never descends into untrusted
// nesting and needs neither recursion nor a stack.
type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *decoder) syntax(path, what string) error {
	if d.pos >= len(d.data) {
		return invalidRequest(path, "invalid JSON: unexpected end of input, "+what)
	}
	return invalidRequest(path, "invalid JSON at byte "+strconv.Itoa(d.pos)+": "+what)
}

// kindAt names the JSON type of the value starting at the current position.
func (d *decoder) kindAt() string {
	switch c := d.peek(); {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return "no JSON value"
}

// value prepares to read the value of path: it rejects null (and anything that
// is no JSON value at all) and reports whether the value has the wanted start.
func (d *decoder) value(path string, want byte, wantName string) error {
	d.ws()
	c := d.peek()
	if c == 'n' {
		if d.literal("null") {
			return invalidRequest(path, "null is not allowed")
		}
		return d.syntax(path, "invalid literal")
	}
	ok := c == want
	if want == '0' {
		ok = c == '-' || c >= '0' && c <= '9'
	}
	if want == 't' {
		ok = c == 't' || c == 'f'
	}
	if !ok {
		if d.kindAt() == "no JSON value" {
			return d.syntax(path, "expected a value")
		}
		return invalidRequest(path, "must be "+wantName+", got "+d.kindAt())
	}
	return nil
}

// literal consumes lit when it is next, and reports whether it was.
func (d *decoder) literal(lit string) bool {
	if strings.HasPrefix(string(d.data[d.pos:min(len(d.data), d.pos+len(lit))]), lit) {
		d.pos += len(lit)
		return true
	}
	return false
}

func (d *decoder) readBool(path string) (bool, error) {
	if err := d.value(path, 't', "a boolean"); err != nil {
		return false, err
	}
	if d.literal("true") {
		return true, nil
	}
	if d.literal("false") {
		return false, nil
	}
	return false, d.syntax(path, "invalid literal")
}

// readInt reads a JSON number that must be an integer in [lo, hi]: no
// fraction, no exponent, not -0.
func (d *decoder) readInt(path, name string, lo, hi int) (int, error) {
	if err := d.value(path, '0', "an integer"); err != nil {
		return 0, err
	}
	start := d.pos
	if d.peek() == '-' {
		d.pos++
	}
	switch c := d.peek(); {
	case c == '0':
		d.pos++
	case c >= '1' && c <= '9':
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
		}
	default:
		return 0, d.syntax(path, "invalid number")
	}
	intEnd := d.pos
	if d.peek() == '.' {
		d.pos++
		if !d.digits() {
			return 0, d.syntax(path, "invalid number")
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.peek(); c == '+' || c == '-' {
			d.pos++
		}
		if !d.digits() {
			return 0, d.syntax(path, "invalid number")
		}
	}
	lexeme := string(d.data[start:d.pos])
	if d.pos != intEnd {
		return 0, invalidRequest(path, name+" must be an integer without fraction or exponent, got "+errcode.Quote(lexeme))
	}
	if lexeme == "-0" {
		return 0, invalidRequest(path, name+" must not be negative zero")
	}
	v, err := strconv.Atoi(lexeme)
	if err != nil || v < lo || v > hi {
		return 0, invalidRequest(path, name+" must be "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi)+", got "+errcode.Quote(lexeme))
	}
	return v, nil
}

func (d *decoder) digits() bool {
	start := d.pos
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
	}
	return d.pos > start
}

// readString reads a JSON string value.
func (d *decoder) readString(path string) (string, error) {
	if err := d.value(path, '"', "a string"); err != nil {
		return "", err
	}
	return d.str(path)
}

// str reads a string starting at '"': strict RFC 8259 escapes, no control
// characters, valid UTF-8 only, and no lone surrogate escapes (which a lenient
// decoder would silently turn into U+FFFD).
func (d *decoder) str(path string) (string, error) {
	d.pos++ // opening quote
	start := d.pos
	var b []byte // nil until an escape forces a copy
	for {
		if d.pos >= len(d.data) {
			return "", d.syntax(path, "unterminated string")
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := d.data[start:d.pos]
			d.pos++
			if b != nil {
				return string(append(b, s...)), nil
			}
			return string(s), nil
		case c < 0x20:
			return "", d.syntax(path, "control character in string")
		case c == '\\':
			b = append(b, d.data[start:d.pos]...)
			r, err := d.escape(path)
			if err != nil {
				return "", err
			}
			b = utf8.AppendRune(b, r)
			start = d.pos
		case c < utf8.RuneSelf:
			d.pos++
		default:
			r, n := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && n == 1 {
				return "", invalidRequest(path, "invalid UTF-8 at byte "+strconv.Itoa(d.pos))
			}
			d.pos += n
		}
	}
}

// escape reads one escape sequence starting at '\'.
func (d *decoder) escape(path string) (rune, error) {
	d.pos++
	c := d.peek()
	d.pos++
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		r, ok := d.hex4()
		if !ok {
			return 0, d.syntax(path, "invalid \\u escape")
		}
		if !utf16.IsSurrogate(r) {
			return r, nil
		}
		if r < 0xDC00 && d.literal("\\u") {
			if lo, ok := d.hex4(); ok {
				if p := utf16.DecodeRune(r, lo); p != utf8.RuneError {
					return p, nil
				}
			}
		}
		return 0, invalidRequest(path, "lone surrogate in \\u escape")
	}
	d.pos--
	return 0, d.syntax(path, "invalid escape")
}

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(v), true
}

// members walks the members of an object starting at '{'. For each member
// it checks the key against known (unknown and duplicate keys are errors)
// and calls member with the key and its path, positioned before the value.
func (d *decoder) members(path string, known []string, member func(key, keyPath string) error) error {
	if err := d.value(path, '{', "an object"); err != nil {
		return err
	}
	d.pos++
	seen := make([]bool, len(known))
	d.ws()
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	for {
		d.ws()
		if d.peek() != '"' {
			return d.syntax(path, "expected a key string")
		}
		key, err := d.str(path)
		if err != nil {
			return err
		}
		keyPath := path + "/" + pointerEscape(key)
		d.ws()
		if d.peek() != ':' {
			return d.syntax(path, "expected ':'")
		}
		d.pos++
		k := -1
		for i, name := range known {
			if name == key {
				k = i
			}
		}
		if k < 0 {
			return invalidRequest(keyPath, "unknown key "+errcode.Quote(key))
		}
		if seen[k] {
			return invalidRequest(keyPath, "duplicate key "+errcode.Quote(key))
		}
		seen[k] = true
		if err := member(key, keyPath); err != nil {
			return err
		}
		d.ws()
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return nil
		default:
			return d.syntax(path, "expected ',' or '}'")
		}
	}
}

// pointerEscape escapes a key for a JSON pointer (RFC 6901).
func pointerEscape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

var (
	requestKeys = []string{"expected_revision", "kind", "index", "fields", "row_limit"}
	fieldKeys   = []string{"name", "column", "type", "required"}
)

func (d *decoder) request() (Request, error) {
	r := Request{RowLimit: limits.DefaultRowLimit}
	d.ws()
	if d.pos >= len(d.data) {
		return r, invalidRequest("", "empty request")
	}
	var hasKind, hasIndex, hasFields, kindAfterFields bool
	err := d.members("", requestKeys, func(key, path string) error {
		var err error
		switch key {
		case "expected_revision":
			r.ExpectedRevision, err = d.readString(path)
			if err == nil && r.ExpectedRevision == "" {
				err = invalidRequest(path, "expected_revision must not be empty; omit it instead")
			}
		case "kind":
			var s string
			if s, err = d.readString(path); err != nil {
				return err
			}
			k, ok := aria.ParseKind(s)
			if !ok || !validKind(k) {
				return invalidRequest(path, kindMsg+", got "+errcode.Quote(s))
			}
			r.Kind, hasKind, kindAfterFields = k, true, hasFields
		case "index":
			r.Index, err = d.readInt(path, "index", 0, limits.MaxCollectionIndex)
			hasIndex = true
		case "fields":
			r.Fields, err = d.fields(path, r.Kind)
			hasFields = true
		case "row_limit":
			r.RowLimit, err = d.readInt(path, "row_limit", limits.MinRowLimit, limits.MaxRowLimit)
		}
		return err
	})
	if err != nil {
		return Request{}, err
	}
	if kindAfterFields {
		for i, f := range r.Fields {
			if err := checkColumnForKind("/fields/"+strconv.Itoa(i)+"/column", f.Column, r.Kind); err != nil {
				return Request{}, err
			}
		}
	}
	switch {
	case !hasKind:
		return Request{}, invalidRequest("", `missing key "kind"`)
	case !hasIndex:
		return Request{}, invalidRequest("", `missing key "index"`)
	case !hasFields:
		return Request{}, invalidRequest("", `missing key "fields"`)
	}
	d.ws()
	if d.pos < len(d.data) {
		return Request{}, invalidRequest("", "trailing data after the request at byte "+strconv.Itoa(d.pos))
	}
	return r, nil
}

// fields reads the fields array. kind is the request's kind when it came
// before the array, aria.KindNone otherwise.
func (d *decoder) fields(path string, kind aria.Kind) ([]Field, error) {
	if err := d.value(path, '[', "an array"); err != nil {
		return nil, err
	}
	d.pos++
	var out []Field
	d.ws()
	if d.peek() == ']' {
		d.pos++
		return nil, invalidRequest(path, fieldCountMsg()+", got none")
	}
	for i := 0; ; i++ {
		fp := path + "/" + strconv.Itoa(i)
		if i >= limits.MaxFields {
			return nil, invalidRequest(fp, fieldCountMsg()+", got more")
		}
		f, err := d.field(fp, kind, out)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		d.ws()
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return out, nil
		default:
			return nil, d.syntax(path, "expected ',' or ']'")
		}
	}
}

func (d *decoder) field(path string, kind aria.Kind, earlier []Field) (Field, error) {
	var f Field
	var hasName, hasColumn, hasType bool
	err := d.members(path, fieldKeys, func(key, kp string) error {
		var err error
		switch key {
		case "name":
			if f.Name, err = d.readString(kp); err != nil {
				return err
			}
			if err := checkName(kp, f.Name); err != nil {
				return err
			}
			for _, g := range earlier {
				if g.Name == f.Name {
					return invalidRequest(kp, "duplicate field name "+errcode.Quote(f.Name))
				}
			}
			hasName = true
		case "column":
			if f.Column, err = d.readInt(kp, "column", 0, limits.MaxColumn); err != nil {
				return err
			}
			if err := checkColumnForKind(kp, f.Column, kind); err != nil {
				return err
			}
			hasColumn = true
		case "type":
			var s string
			if s, err = d.readString(kp); err != nil {
				return err
			}
			t, ok := typed.ParseType(s)
			if !ok || !validType(t) {
				return invalidRequest(kp, typeMsg+", got "+errcode.Quote(s))
			}
			f.Type, hasType = t, true
		case "required":
			f.Required, err = d.readBool(kp)
		}
		return err
	})
	if err != nil {
		return Field{}, err
	}
	switch {
	case !hasName:
		return Field{}, invalidRequest(path, `missing key "name"`)
	case !hasColumn:
		return Field{}, invalidRequest(path, `missing key "column"`)
	case !hasType:
		return Field{}, invalidRequest(path, `missing key "type"`)
	}
	return f, nil
}
