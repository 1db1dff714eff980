package domsnap

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
)

// Request is one extract request (docs/reference.md#the-request).
type Request struct {
	// ExpectedRevision is the revision the caller last observed. Offline it is
	// optional ("" means absent); when given it must equal the snapshot's.
	ExpectedRevision string
	// Kind is the collection kind: Table, List or Form.
	Kind Kind
	// Index is the zero-based visible index of the collection among those of
	// its kind, 0 to limits.MaxCollectionIndex.
	Index int
	// Fields are the typed columns to read, 1 to limits.MaxFields, names unique.
	Fields []Field
	// RowLimit is how many seen rows are returned, 1 to limits.MaxRowLimit.
	// DecodeRequest always sets it; in a request built in Go, 0 means
	// limits.DefaultRowLimit.
	RowLimit int
}

// Field is one typed column of a request.
type Field struct {
	// Name matches ^[a-z][a-z0-9_]{0,63}$ and is unique within the request.
	Name string
	// Column is 0 to limits.MaxColumn; a list allows only 0 and a form 0 to
	// limits.MaxFormColumn (label, role, disabled, checked, required).
	Column int
	// Type is the declared type the cell text is converted to: String,
	// Integer, Number or Boolean.
	Type Type
	// Required makes a row invalid when this cell is missing.
	Required bool
}

// rowLimit is the effective row limit.
func (r Request) rowLimit() int {
	if r.RowLimit == 0 {
		return limits.DefaultRowLimit
	}
	return r.RowLimit
}

// Validate checks a request built in Go against the rules DecodeRequest
// applies to JSON, reporting the first offending value with the JSON-pointer
// path it would have in the request's JSON form. A RowLimit of 0 is accepted
// and means the default. It gives only the verdict; [Request.Check] applies
// the same rules and keeps the checked request, so that nothing checks it
// again.
func (r Request) Validate() error {
	if !validKind(r.Kind) {
		return invalidRequest("/kind", kindMsg)
	}
	if err := checkIndex("/index", r.Index); err != nil {
		return err
	}
	if len(r.Fields) < limits.MinFields {
		return invalidRequest("/fields", fieldCountMsg())
	}
	for i, f := range r.Fields {
		base := "/fields/" + strconv.Itoa(i)
		if i >= limits.MaxFields {
			return invalidRequest(base, fieldCountMsg())
		}
		if err := checkName(base+"/name", f.Name); err != nil {
			return err
		}
		for _, g := range r.Fields[:i] {
			if g.Name == f.Name {
				return invalidRequest(base+"/name", "duplicate field name "+errcode.Quote(f.Name))
			}
		}
		if err := checkColumn(base+"/column", f.Column); err != nil {
			return err
		}
		if err := checkColumnForKind(base+"/column", f.Column, r.Kind); err != nil {
			return err
		}
		if !validType(f.Type) {
			return invalidRequest(base+"/type", typeMsg)
		}
	}
	if r.RowLimit != 0 {
		if err := checkRowLimit("/row_limit", r.RowLimit); err != nil {
			return err
		}
	}
	return nil
}

const (
	typeMsg = "type must be string, integer, number or boolean"
	kindMsg = "kind must be table, list or form"
)

func fieldCountMsg() string {
	return "a request holds " + strconv.Itoa(limits.MinFields) + " to " + strconv.Itoa(limits.MaxFields) + " fields"
}

// validKind and validType accept exactly the members of the closed sets, so a
// value converted from an arbitrary integer is refused, not printed.
func validKind(k aria.Kind) bool { return k == aria.Table || k == aria.List || k == aria.Form }

func validType(t typed.Type) bool {
	return t == typed.String || t == typed.Integer || t == typed.Number || t == typed.Boolean
}

func checkIndex(path string, v int) error {
	if v < 0 || v > limits.MaxCollectionIndex {
		return invalidRequest(path, "index must be 0 to "+strconv.Itoa(limits.MaxCollectionIndex)+", got "+strconv.Itoa(v))
	}
	return nil
}

func checkColumn(path string, v int) error {
	if v < 0 || v > limits.MaxColumn {
		return invalidRequest(path, "column must be 0 to "+strconv.Itoa(limits.MaxColumn)+", got "+strconv.Itoa(v))
	}
	return nil
}

func checkColumnForKind(path string, v int, k aria.Kind) error {
	switch {
	case k == aria.List && v > limits.MaxListColumn:
		return invalidRequest(path, "a list item has only column 0, got "+strconv.Itoa(v))
	case k == aria.Form && v > limits.MaxFormColumn:
		return invalidRequest(path, "a form has columns 0 to "+strconv.Itoa(limits.MaxFormColumn)+
			" (label, role, disabled, checked, required), got "+strconv.Itoa(v))
	}
	return nil
}

func checkRowLimit(path string, v int) error {
	if v < limits.MinRowLimit || v > limits.MaxRowLimit {
		return invalidRequest(path, "row_limit must be "+strconv.Itoa(limits.MinRowLimit)+" to "+
			strconv.Itoa(limits.MaxRowLimit)+", got "+strconv.Itoa(v))
	}
	return nil
}

// checkName applies ^[a-z][a-z0-9_]{0,63}$.
func checkName(path, s string) error {
	ok := len(s) >= 1 && len(s) <= limits.MaxNameLength && s[0] >= 'a' && s[0] <= 'z'
	for i := 1; ok && i < len(s); i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	if !ok {
		return invalidRequest(path, "name must match ^[a-z][a-z0-9_]{0,63}$, got "+errcode.Quote(s))
	}
	return nil
}

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

// MarshalJSON writes the request in its JSON form with keys in the order of
// docs/reference.md#the-request; DecodeRequest reads it back to an equal Request. An absent
// expected revision and a false required flag are left out, and the row
// limit is always written, resolved to its default when 0.
func (r Request) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	if r.ExpectedRevision != "" {
		b = append(b, `"expected_revision":`...)
		b = appendString(b, r.ExpectedRevision)
		b = append(b, ',')
	}
	b = append(b, `"kind":`...)
	b = appendString(b, r.Kind.String())
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(r.Index), 10)
	b = append(b, `,"fields":[`...)
	for i, f := range r.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendString(b, f.Name)
		b = append(b, `,"column":`...)
		b = strconv.AppendInt(b, int64(f.Column), 10)
		b = append(b, `,"type":`...)
		b = appendString(b, f.Type.String())
		if f.Required {
			b = append(b, `,"required":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, `],"row_limit":`...)
	b = strconv.AppendInt(b, int64(r.rowLimit()), 10)
	return append(b, '}'), nil
}

// UnmarshalJSON decodes a request with DecodeRequest's strict rules, so a
// request embedded in a larger JSON document is held to the same contract.
// Error paths are relative to the request itself.
func (r *Request) UnmarshalJSON(data []byte) error {
	v, err := DecodeRequest(data)
	if err != nil {
		return err
	}
	*r = v
	return nil
}
