package domsnap

import (
	"strconv"
	"sync/atomic"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
)

// DecodeRequest decodes one JSON extract request strictly (docs/reference.md#the-request and #corner-cases). Unknown keys, duplicate keys, null anywhere, values of the wrong
// JSON type, integers written with a fraction, an exponent or as -0, values
// out of range, invalid UTF-8, invalid JSON and data after the object are all
// rejected with an invalid_request *Error whose Path is the JSON pointer of the
// first offending value in document order ("" for the request as a whole).
// An error about the bytes themselves (invalid JSON, invalid UTF-8, a lone
// surrogate escape, trailing data) also carries the byte offset where
// reading stopped (Error.ByteOffset).
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
	return decodeRequest(data)
}

// DecodeChecked decodes one JSON request exactly as [DecodeRequest] does,
// with the same errors, and returns it checked, ready for [Extract],
// [Observe] or a live session. The reader applies every rule of
// [Request.Validate] while it reads, so the rules run once: nothing checks
// the request again (docs/reference.md#the-request).
func DecodeChecked(data []byte) (*Checked, error) {
	r, err := decodeRequest(data)
	if err != nil {
		return nil, err
	}
	return newChecked(r), nil
}

// decodeRequest is the one strict reading behind DecodeRequest and
// DecodeChecked.
func decodeRequest(data []byte) (Request, error) {
	ruleRuns.Add(1)
	if len(data) > limits.MaxRequestBytes {
		return Request{}, errcode.TooLarge("domsnap", "the request holds more than "+strconv.Itoa(limits.MaxRequestBytes)+" bytes")
	}
	d := decoder{lx: jsonlex.Lexer{Data: data}}
	r, err := d.request()
	if err != nil {
		return Request{}, err
	}
	return r, nil
}

// ruleRuns counts the times the contract's rules were applied to a
// request: once per Validate, once per decoding (the reader applies them as
// it reads). It is how a test shows a decoded request is checked once.
var ruleRuns atomic.Uint64

// decoder reads the fixed shape of a request with the JSON lexer. The shape
// is two levels deep, and any value of an unexpected type is rejected where
// it starts, so the reader never descends into untrusted nesting and needs
// neither recursion nor a stack.
type decoder struct {
	lx jsonlex.Lexer
}

// syntax maps an error of the lexer to invalid_request, keeping its pointer
// and offset: the request's JSON does not parse.
func syntax(err error) error {
	if e, ok := err.(*jsonlex.Error); ok {
		return errcode.NewAt(errcode.InvalidRequest, pkgName, e.Pointer, e.Offset, "invalid JSON: "+e.Msg)
	}
	return err
}

// value prepares to read the value of path: it rejects null (and anything that
// is no JSON value at all) and any value whose kind is not want.
func (d *decoder) value(path string, want jsonlex.Kind, wantName string) error {
	switch k := d.lx.Kind(); k {
	case want:
		return nil
	case jsonlex.Null:
		if err := d.lx.Literal("null", path); err != nil {
			return syntax(err)
		}
		return invalidRequest(path, "null is not allowed")
	case jsonlex.Invalid:
		return syntax(d.lx.Unexpected(path, "a value"))
	default:
		return invalidRequest(path, "must be "+wantName+", got "+k.String())
	}
}

func (d *decoder) readBool(path string) (bool, error) {
	if err := d.value(path, jsonlex.Bool, "a boolean"); err != nil {
		return false, err
	}
	if d.lx.Data[d.lx.Pos] == 't' {
		return true, syntax(d.lx.Literal("true", path))
	}
	return false, syntax(d.lx.Literal("false", path))
}

// readInt reads a JSON number that must be an integer in [lo, hi]: no
// fraction, no exponent, not -0.
func (d *decoder) readInt(path, name string, lo, hi int) (int, error) {
	if err := d.value(path, jsonlex.Number, "an integer"); err != nil {
		return 0, err
	}
	num, err := d.lx.Number(path)
	if err != nil {
		return 0, syntax(err)
	}
	lexeme := string(num)
	for _, c := range num {
		if c == '.' || c == 'e' || c == 'E' {
			return 0, invalidRequest(path, name+" must be an integer without fraction or exponent, got "+errcode.Quote(lexeme))
		}
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

// readString reads a JSON string value.
func (d *decoder) readString(path string) (string, error) {
	if err := d.value(path, jsonlex.String, "a string"); err != nil {
		return "", err
	}
	sp, err := d.lx.StringSpan(path)
	if err != nil {
		return "", syntax(err)
	}
	return d.text(sp, path)
}

// readMember reads a string naming a member of a closed set (a kind, a
// type): parse reads the name and valid refuses the members a request may
// not name. msg says what is allowed.
func readMember[T any](d *decoder, path string, parse func(string) (T, bool), valid func(T) bool, msg string) (T, error) {
	var zero T
	s, err := d.readString(path)
	if err != nil {
		return zero, err
	}
	v, ok := parse(s)
	if !ok || !valid(v) {
		return zero, invalidRequest(path, msg+", got "+errcode.Quote(s))
	}
	return v, nil
}

// text decodes a string strictly: valid UTF-8 only, and no lone surrogate
// escapes (which a lenient decoder would silently turn into U+FFFD). Both
// are errors of the text, not of the JSON, so the message does not say
// "invalid JSON".
func (d *decoder) text(sp jsonlex.Span, path string) (string, error) {
	s, err := d.lx.DecodeStrict(sp, path)
	if e, ok := err.(*jsonlex.Error); ok {
		return "", errcode.NewAt(errcode.InvalidRequest, pkgName, e.Pointer, e.Offset, e.Msg)
	}
	return s, nil
}

// members walks the members of an object. For each member it checks the
// key against known (unknown and duplicate keys are errors) and calls
// member with the key and its path, positioned before the value. It
// returns which of known were met.
func (d *decoder) members(path string, known []string, member func(key, keyPath string) error) ([]bool, error) {
	if err := d.value(path, jsonlex.Object, "an object"); err != nil {
		return nil, err
	}
	seen := make([]bool, len(known))
	more, err := d.lx.ObjectStart(path)
	for err == nil && more {
		var sp jsonlex.Span
		if sp, err = d.lx.Key(path); err != nil {
			break
		}
		if err = d.member(sp, path, known, seen, member); err != nil {
			return nil, err
		}
		more, err = d.lx.ObjectNext(path)
	}
	return seen, syntax(err)
}

// member checks one key of an object and reads its value with read.
func (d *decoder) member(sp jsonlex.Span, path string, known []string, seen []bool, read func(key, keyPath string) error) error {
	key, err := d.text(sp, path)
	if err != nil {
		return err
	}
	keyPath := jsonlex.AppendKey(path, key)
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
	return read(key, keyPath)
}

// missingKey reports, at the object's path, the first of the required keys
// (the first n of known) that was not met.
func missingKey(path string, known []string, seen []bool, n int) error {
	for i, name := range known[:n] {
		if !seen[i] {
			return invalidRequest(path, "missing key "+strconv.Quote(name))
		}
	}
	return nil
}

// The keys of a request and of a field, the required ones first.
var (
	requestKeys = []string{"kind", "index", "fields", "expected_revision", "row_limit"}
	fieldKeys   = []string{"name", "column", "type", "required"}
)

const requiredRequestKeys, requiredFieldKeys = 3, 3

func (d *decoder) request() (Request, error) {
	r := Request{RowLimit: limits.DefaultRowLimit}
	if d.lx.Peek() == 0 && d.lx.Pos == len(d.lx.Data) {
		return r, invalidRequest("", "empty request")
	}
	var hasFields, kindAfterFields bool
	seen, err := d.members("", requestKeys, func(key, path string) error {
		var err error
		switch key {
		case "expected_revision":
			r.ExpectedRevision, err = d.readString(path)
			if err == nil && r.ExpectedRevision == "" {
				err = invalidRequest(path, "expected_revision must not be empty; omit it instead")
			}
		case "kind":
			if r.Kind, err = readMember(d, path, aria.ParseKind, validKind, kindMsg); err != nil {
				return err
			}
			kindAfterFields = hasFields
		case "index":
			r.Index, err = d.readInt(path, "index", 0, limits.MaxCollectionIndex)
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
	if err := missingKey("", requestKeys, seen, requiredRequestKeys); err != nil {
		return Request{}, err
	}
	if err := d.lx.End(); err != nil {
		e := err.(*jsonlex.Error)
		return Request{}, errcode.NewAt(errcode.InvalidRequest, pkgName, "", e.Offset, "trailing data after the request")
	}
	return r, nil
}

// fields reads the fields array. kind is the request's kind when it came
// before the array, aria.KindNone otherwise.
func (d *decoder) fields(path string, kind aria.Kind) ([]Field, error) {
	if err := d.value(path, jsonlex.Array, "an array"); err != nil {
		return nil, err
	}
	more, err := d.lx.ArrayStart(path)
	if err != nil {
		return nil, syntax(err)
	}
	if !more {
		return nil, invalidRequest(path, fieldCountMsg()+", got none")
	}
	var out []Field
	for i := 0; more; i++ {
		fp := jsonlex.AppendIndex(path, i)
		if i >= limits.MaxFields {
			return nil, invalidRequest(fp, fieldCountMsg()+", got more")
		}
		f, err := d.field(fp, kind, out)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		if more, err = d.lx.ArrayNext(path); err != nil {
			return nil, syntax(err)
		}
	}
	return out, nil
}

func (d *decoder) field(path string, kind aria.Kind, earlier []Field) (Field, error) {
	var f Field
	seen, err := d.members(path, fieldKeys, func(key, kp string) error {
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
		case "column":
			if f.Column, err = d.readInt(kp, "column", 0, limits.MaxColumn); err != nil {
				return err
			}
			if err := checkColumnForKind(kp, f.Column, kind); err != nil {
				return err
			}
		case "type":
			f.Type, err = readMember(d, kp, typed.ParseType, validType, typeMsg)
		case "required":
			f.Required, err = d.readBool(kp)
		}
		return err
	})
	if err != nil {
		return Field{}, err
	}
	if err := missingKey(path, fieldKeys, seen, requiredFieldKeys); err != nil {
		return Field{}, err
	}
	return f, nil
}
