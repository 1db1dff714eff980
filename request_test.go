package domsnap

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

func TestDecodeRequestValid(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want Request
	}{
		{"spec example", `{
  "expected_revision": "r1.5f3a9c.n2.o7",
  "kind": "table",
  "index": 0,
  "fields": [
    {"name": "product", "column": 0, "type": "string",  "required": true},
    {"name": "price",   "column": 2, "type": "number"}
  ],
  "row_limit": 20
}`, Request{ExpectedRevision: "r1.5f3a9c.n2.o7", Kind: aria.Table, Fields: []Field{
			{Name: "product", Column: 0, Type: typed.String, Required: true},
			{Name: "price", Column: 2, Type: typed.Number},
		}, RowLimit: 20}},
		{"defaults", `{"kind":"list","index":15,"fields":[{"name":"a","column":0,"type":"boolean","required":false}]}`,
			Request{Kind: aria.List, Index: 15, Fields: []Field{{Name: "a", Type: typed.Boolean}}, RowLimit: limits.DefaultRowLimit}},
		{"form columns, any key order", `{"fields":[{"type":"integer","column":4,"name":"z9_"}],"row_limit":50,"index":3,"kind":"form"}`,
			Request{Kind: aria.Form, Index: 3, Fields: []Field{{Name: "z9_", Column: 4, Type: typed.Integer}}, RowLimit: 50}},
		{"row_limit 1, column 15, escapes", "\t{\"kind\":\"t\\u0061ble\",\"index\":0,\"fields\":[{\"name\":\"a\",\"column\":15,\"type\":\"string\"}],\"row_limit\":1}\r\n ",
			Request{Kind: aria.Table, Fields: []Field{{Name: "a", Column: 15}}, RowLimit: 1}},
		{"eight fields", `{"kind":"table","index":0,"fields":[` + fieldsJSON(8) + `]}`,
			Request{Kind: aria.Table, Fields: fieldsGo(8), RowLimit: limits.DefaultRowLimit}},
		{"name of 64 bytes", `{"kind":"table","index":0,"fields":[{"name":"` + "a" + strings.Repeat("b", 63) + `","column":0,"type":"string"}]}`,
			Request{Kind: aria.Table, Fields: []Field{{Name: "a" + strings.Repeat("b", 63)}}, RowLimit: limits.DefaultRowLimit}},
		{"revision with surrogate pair escape", `{"expected_revision":"\ud83d\ude00","kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`,
			Request{ExpectedRevision: "\U0001F600", Kind: aria.Table, Fields: []Field{{Name: "a"}}, RowLimit: limits.DefaultRowLimit}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeRequest([]byte(c.in))
			if err != nil {
				t.Fatalf("DecodeRequest: %v", err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate of a decoded request: %v", err)
			}
		})
	}
}

// fieldsJSON writes n valid fields f0..f(n-1).
func fieldsJSON(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, `{"name":"f`+string(rune('0'+i))+`","column":0,"type":"string"}`)
	}
	return strings.Join(parts, ",")
}

func fieldsGo(n int) []Field {
	var out []Field
	for i := range n {
		out = append(out, Field{Name: "f" + string(rune('0'+i))})
	}
	return out
}

// req builds a request document around a fields array and extra members.
func req(fields string, extra string) string {
	return `{"kind":"table","index":0,"fields":[` + fields + `]` + extra + `}`
}

const okField = `{"name":"a","column":0,"type":"string"}`

func TestDecodeRequestInvalid(t *testing.T) {
	cases := []struct {
		name, in, path, msg string
	}{
		// Not JSON, or not an object.
		{"empty", ``, "", "empty request"},
		{"whitespace only", " \n", "", "empty request"},
		{"array", `[]`, "", "must be an object"},
		{"string", `"x"`, "", "must be an object"},
		{"null document", `null`, "", "null is not allowed"},
		{"bom", "\xef\xbb\xbf{}", "", "invalid JSON"},
		{"truncated", `{"kind":"table"`, "", "unexpected end"},
		{"truncated string", `{"kind":"tab`, "/kind", "unterminated string"},
		{"missing colon", `{"kind" "table"}`, "", "expected ':'"},
		{"trailing comma", `{"kind":"table",}`, "", "expected a key"},
		{"single quotes", `{'kind':1}`, "", "expected a key"},
		{"trailing data", req(okField, "") + `{}`, "", "trailing data"},
		{"trailing garbage", req(okField, "") + ` x`, "", "trailing data"},
		{"two documents", req(okField, "") + req(okField, ""), "", "trailing data"},
		{"invalid utf8 in value", `{"kind":"t` + "\xff" + `"}`, "/kind", "invalid UTF-8"},
		{"invalid utf8 in key", `{"k` + "\xc3" + `":1}`, "", "invalid UTF-8"},
		{"invalid utf8 outside strings", "{\xff}", "", "invalid JSON"},
		{"control char in string", "{\"kind\":\"ta\x01ble\"}", "/kind", "control character"},
		{"bad escape", `{"kind":"\x"}`, "/kind", "invalid escape"},
		{"lone surrogate", `{"expected_revision":"\ud800","kind":"table"}`, "/expected_revision", "lone surrogate"},
		{"bad literal", `{"kind":tru}`, "/kind", "must be a string"},
		{"nul literal", `{"kind":nul}`, "/kind", "invalid literal"},

		// Keys.
		{"unknown key", `{"kind":"table","selector":"#x"}`, "/selector", `unknown key "selector"`},
		{"unknown key escaped", `{"a/b~c":1}`, "/a~1b~0c", "unknown key"},
		{"unknown key before others", `{"url":"http://x","kind":"table"}`, "/url", "unknown key"},
		{"duplicate key", `{"kind":"table","kind":"list"}`, "/kind", "duplicate key"},
		{"case matters", `{"Kind":"table"}`, "/Kind", "unknown key"},
		{"unknown field key", req(`{"name":"a","column":0,"type":"string","xpath":"//a"}`, ""), "/fields/0/xpath", "unknown key"},
		{"duplicate field key", req(`{"name":"a","name":"b"}`, ""), "/fields/0/name", "duplicate key"},

		// Missing keys.
		{"missing kind", `{"index":0,"fields":[` + okField + `]}`, "", `missing key "kind"`},
		{"missing index", `{"kind":"table","fields":[` + okField + `]}`, "", `missing key "index"`},
		{"missing fields", `{"kind":"table","index":0}`, "", `missing key "fields"`},
		{"missing name", req(`{"column":0,"type":"string"}`, ""), "/fields/0", `missing key "name"`},
		{"missing column", req(`{"name":"a","type":"string"}`, ""), "/fields/0", `missing key "column"`},
		{"missing type", req(okField+`,{"name":"b","column":0}`, ""), "/fields/1", `missing key "type"`},

		// null anywhere.
		{"null revision", `{"expected_revision":null}`, "/expected_revision", "null is not allowed"},
		{"null kind", `{"kind":null}`, "/kind", "null is not allowed"},
		{"null fields", `{"kind":"table","index":0,"fields":null}`, "/fields", "null is not allowed"},
		{"null field", req(`null`, ""), "/fields/0", "null is not allowed"},
		{"null required", req(`{"name":"a","column":0,"type":"string","required":null}`, ""), "/fields/0/required", "null is not allowed"},
		{"null row_limit", req(okField, `,"row_limit":null`), "/row_limit", "null is not allowed"},

		// Wrong types.
		{"revision number", `{"expected_revision":7}`, "/expected_revision", "must be a string, got a number"},
		{"revision empty", `{"expected_revision":""}`, "/expected_revision", "must not be empty"},
		{"kind array", `{"kind":["table"]}`, "/kind", "must be a string, got an array"},
		{"index string", `{"kind":"table","index":"0"}`, "/index", "must be an integer, got a string"},
		{"index bool", `{"kind":"table","index":true}`, "/index", "must be an integer, got a boolean"},
		{"fields object", `{"kind":"table","index":0,"fields":{}}`, "/fields", "must be an array, got an object"},
		{"field string", req(`"a"`, ""), "/fields/0", "must be an object, got a string"},
		{"name number", req(`{"name":1}`, ""), "/fields/0/name", "must be a string"},
		{"column string", req(`{"name":"a","column":"0"}`, ""), "/fields/0/column", "must be an integer"},
		{"type bool", req(`{"name":"a","column":0,"type":true}`, ""), "/fields/0/type", "must be a string"},
		{"required string", req(`{"name":"a","column":0,"type":"string","required":"true"}`, ""), "/fields/0/required", "must be a boolean"},
		{"required number", req(`{"name":"a","column":0,"type":"string","required":1}`, ""), "/fields/0/required", "must be a boolean"},
		{"row_limit string", req(okField, `,"row_limit":"5"`), "/row_limit", "must be an integer"},

		// Integers.
		{"index fraction", `{"kind":"table","index":1.0}`, "/index", "without fraction or exponent"},
		{"index exponent", `{"kind":"table","index":1e0}`, "/index", "without fraction or exponent"},
		{"index exponent upper", `{"kind":"table","index":0E+0}`, "/index", "without fraction or exponent"},
		{"index negative zero", `{"kind":"table","index":-0}`, "/index", "negative zero"},
		{"index leading zero", `{"kind":"table","index":01}`, "", "expected ',' or '}'"},
		{"index plus", `{"kind":"table","index":+1}`, "/index", "expected a value"},
		{"index bare minus", `{"kind":"table","index":-}`, "/index", "invalid number"},
		{"index dot", `{"kind":"table","index":1.}`, "/index", "invalid number"},
		{"index huge", `{"kind":"table","index":99999999999999999999999}`, "/index", "must be 0 to 15"},
		{"index -1", `{"kind":"table","index":-1}`, "/index", "must be 0 to 15"},
		{"index 16", `{"kind":"table","index":16}`, "/index", "must be 0 to 15"},
		{"column 16", req(`{"name":"a","column":16,"type":"string"}`, ""), "/fields/0/column", "must be 0 to 15"},
		{"column -1", req(`{"name":"a","column":-1,"type":"string"}`, ""), "/fields/0/column", "must be 0 to 15"},
		{"column fraction", req(`{"name":"a","column":0.5,"type":"string"}`, ""), "/fields/0/column", "without fraction"},
		{"row_limit 0", req(okField, `,"row_limit":0`), "/row_limit", "must be 1 to 50"},
		{"row_limit 51", req(okField, `,"row_limit":51`), "/row_limit", "must be 1 to 50"},
		{"row_limit exponent", req(okField, `,"row_limit":2e1`), "/row_limit", "without fraction"},

		// Values.
		{"kind unknown", `{"kind":"grid"}`, "/kind", "kind must be table, list or form"},
		{"kind upper", `{"kind":"Table"}`, "/kind", "kind must be"},
		{"type unknown", req(`{"name":"a","column":0,"type":"float"}`, ""), "/fields/0/type", "type must be"},
		{"type upper", req(`{"name":"a","column":0,"type":"String"}`, ""), "/fields/0/type", "type must be"},
		{"no fields", `{"kind":"table","index":0,"fields":[]}`, "/fields", "1 to 8 fields"},
		{"nine fields", `{"kind":"table","index":0,"fields":[` + fieldsJSON(8) + `,` + okField + `]}`, "/fields/8", "1 to 8 fields"},
		{"name empty", req(`{"name":""}`, ""), "/fields/0/name", "must match"},
		{"name digit first", req(`{"name":"1a"}`, ""), "/fields/0/name", "must match"},
		{"name upper", req(`{"name":"aB"}`, ""), "/fields/0/name", "must match"},
		{"name dash", req(`{"name":"a-b"}`, ""), "/fields/0/name", "must match"},
		{"name 65", req(`{"name":"`+strings.Repeat("a", 65)+`"}`, ""), "/fields/0/name", "must match"},
		{"name non-ascii", req(`{"name":"é"}`, ""), "/fields/0/name", "must match"},
		{"duplicate name", req(okField+`,{"name":"b","column":1,"type":"string"},{"name":"b"}`, ""), "/fields/2/name", "duplicate field name"},
		{"list column 1, kind first", `{"kind":"list","index":0,"fields":[{"name":"a","column":1,"type":"string"}]}`, "/fields/0/column", "only column 0"},
		{"list column 1, kind last", `{"index":0,"fields":[` + okField + `,{"name":"b","column":1,"type":"string"}],"kind":"list"}`, "/fields/1/column", "only column 0"},
		{"form column 5", `{"kind":"form","index":0,"fields":[{"name":"a","column":5,"type":"string"}]}`, "/fields/0/column", "columns 0 to 4"},
		{"form column 5, kind last", `{"index":0,"fields":[{"name":"a","column":5,"type":"string"}],"kind":"form"}`, "/fields/0/column", "columns 0 to 4"},

		// First offending value in document order.
		{"first of two", `{"index":99,"kind":"nope"}`, "/index", "must be 0 to 15"},
		{"range before syntax", `{"index":99,"kind":}`, "/index", "must be 0 to 15"},
		{"unknown before missing", `{"x":1}`, "/x", "unknown key"},
		{"field error before later error", req(`{"name":"A"}`, `,"row_limit":0`), "/fields/0/name", "must match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeRequest([]byte(c.in))
			checkInvalid(t, err, c.path, c.msg)
		})
	}
}

// checkInvalid asserts an invalid_request error with path and a message
// containing msg.
func checkInvalid(t *testing.T, err error, path, msg string) {
	t.Helper()
	if err == nil {
		t.Fatal("accepted, want invalid_request")
	}
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("error %v (%T) is not invalid_request", err, err)
	}
	if e.Path != path {
		t.Errorf("path %q, want %q (%v)", e.Path, path, err)
	}
	if !strings.Contains(e.Msg, msg) {
		t.Errorf("message %q does not contain %q", e.Msg, msg)
	}
	if len(e.Msg) > 2*limits.QuoteBytes+120 {
		t.Errorf("message of %d bytes is too long: %q", len(e.Msg), e.Msg)
	}
}

func TestDecodeRequestQuotesAtMost64Bytes(t *testing.T) {
	long := strings.Repeat("k", 1000)
	for _, in := range []string{
		`{"` + long + `":1}`,
		`{"kind":"` + long + `"}`,
		req(`{"name":"`+long+`"}`, ""),
		`{"kind":"table","index":1` + strings.Repeat("0", 1000) + `}`,
	} {
		_, err := DecodeRequest([]byte(in))
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%.40s: %v", in, err)
		}
		if strings.Contains(e.Msg, strings.Repeat("k", limits.QuoteBytes+1)) ||
			strings.Contains(e.Msg, strings.Repeat("0", limits.QuoteBytes+1)) {
			t.Errorf("message quotes more than %d bytes: %q", limits.QuoteBytes, e.Msg)
		}
	}
}

func TestValidate(t *testing.T) {
	good := Request{Kind: aria.Table, Fields: []Field{{Name: "a"}}}
	if err := good.Validate(); err != nil {
		t.Fatalf("zero row limit means the default: %v", err)
	}
	mod := func(f func(*Request)) Request {
		r := good
		r.Fields = append([]Field(nil), good.Fields...)
		f(&r)
		return r
	}
	cases := []struct {
		name string
		r    Request
		path string
	}{
		{"no kind", mod(func(r *Request) { r.Kind = aria.KindNone }), "/kind"},
		{"bad kind", mod(func(r *Request) { r.Kind = 200 }), "/kind"},
		{"index -1", mod(func(r *Request) { r.Index = -1 }), "/index"},
		{"index 16", mod(func(r *Request) { r.Index = limits.MaxCollectionIndex + 1 }), "/index"},
		{"no fields", mod(func(r *Request) { r.Fields = nil }), "/fields"},
		{"nine fields", mod(func(r *Request) { r.Fields = fieldsGo(limits.MaxFields + 1) }), "/fields/8"},
		{"bad name", mod(func(r *Request) { r.Fields[0].Name = "A" }), "/fields/0/name"},
		{"dup name", mod(func(r *Request) { r.Fields = append(r.Fields, Field{Name: "a"}) }), "/fields/1/name"},
		{"column 16", mod(func(r *Request) { r.Fields[0].Column = limits.MaxColumn + 1 }), "/fields/0/column"},
		{"list column 1", mod(func(r *Request) { r.Kind = aria.List; r.Fields[0].Column = 1 }), "/fields/0/column"},
		{"form column 5", mod(func(r *Request) { r.Kind = aria.Form; r.Fields[0].Column = 5 }), "/fields/0/column"},
		{"bad type", mod(func(r *Request) { r.Fields[0].Type = 200 }), "/fields/0/type"},
		{"row limit -1", mod(func(r *Request) { r.RowLimit = -1 }), "/row_limit"},
		{"row limit 51", mod(func(r *Request) { r.RowLimit = limits.MaxRowLimit + 1 }), "/row_limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkInvalid(t, c.r.Validate(), c.path, "")
		})
	}
	for _, ok := range []Request{
		mod(func(r *Request) { r.Index = limits.MaxCollectionIndex }),
		mod(func(r *Request) { r.Fields = fieldsGo(limits.MaxFields) }),
		mod(func(r *Request) { r.Fields[0].Column = limits.MaxColumn }),
		mod(func(r *Request) { r.Kind = aria.Form; r.Fields[0].Column = limits.MaxFormColumn }),
		mod(func(r *Request) { r.RowLimit = limits.MaxRowLimit }),
		mod(func(r *Request) { r.RowLimit = limits.MinRowLimit }),
	} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

func TestErrorSentinels(t *testing.T) {
	for _, c := range []struct {
		sentinel *Error
		code     errcode.Code
	}{
		{ErrInvalidRequest, errcode.InvalidRequest},
		{ErrForeignRevision, errcode.ForeignRevision},
		{ErrNavigatedRevision, errcode.NavigatedRevision},
		{ErrStaleRevision, errcode.StaleRevision},
		{ErrUnsupportedAdapter, errcode.UnsupportedAdapter},
		{ErrMalformedSnapshot, errcode.MalformedSnapshot},
		{ErrUnsupportedInput, errcode.UnsupportedInput},
		{ErrCaptureFailed, errcode.CaptureFailed},
		{ErrNavigatedDuringCapture, errcode.NavigatedDuringCapture},
		{ErrCancelled, errcode.Cancelled},
		{ErrTimeout, errcode.Timeout},
	} {
		err := error(errcode.New(c.code, "x", "/p", "m"))
		if !errors.Is(err, c.sentinel) {
			t.Errorf("%s does not match its sentinel", c.code)
		}
		if c.code != errcode.InvalidRequest && errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%s matches invalid_request", c.code)
		}
		if CodeOf(err) != c.code {
			t.Errorf("CodeOf = %q", CodeOf(err))
		}
	}
}

func TestRequestUnmarshalJSON(t *testing.T) {
	var wrapper struct {
		Extract Request `json:"extract"`
	}
	err := json.Unmarshal([]byte(`{"extract":{"kind":"list","index":2,"fields":[{"name":"a","column":0,"type":"string"}]}}`), &wrapper)
	if err != nil {
		t.Fatal(err)
	}
	want := Request{Kind: aria.List, Index: 2, Fields: []Field{{Name: "a"}}, RowLimit: limits.DefaultRowLimit}
	if diff := cmp.Diff(want, wrapper.Extract); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	err = json.Unmarshal([]byte(`{"extract":{"kind":"list","index":2,"fields":[{"name":"a","column":0,"type":"string","css":"x"}]}}`), &wrapper)
	checkInvalid(t, err, "/fields/0/css", "unknown key")
}

func TestDecodeRequestSizeBound(t *testing.T) {
	base := `{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`
	pad := func(n int) []byte {
		// Whitespace after the object keeps a request valid at any size.
		return []byte(base + strings.Repeat(" ", n-len(base)))
	}
	for _, n := range []int{limits.MaxRequestBytes - 1, limits.MaxRequestBytes} {
		if _, err := DecodeRequest(pad(n)); err != nil {
			t.Errorf("%d bytes: %v", n, err)
		}
	}
	_, err := DecodeRequest(pad(limits.MaxRequestBytes + 1))
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrUnsupportedInput) {
		t.Errorf("one byte over: %v", err)
	}
}

// TestDecodeRequestByteOffsets: an error about the bytes carries where
// reading stopped as a field, and its message spells no offset; an error
// about a value has no offset.
func TestDecodeRequestByteOffsets(t *testing.T) {
	cases := []struct {
		in   string
		off  int64 // -1: none
		path string
	}{
		{`{"kind" "table"}`, 8, ""},
		{`{"kind":"table"`, 15, ""},
		{`{"kind":"t` + "\xff" + `"}`, 10, "/kind"},
		{`{"expected_revision":"ab\ud800"}`, 24, "/expected_revision"},
		{req(okField, "") + ` x`, int64(len(req(okField, ""))) + 1, ""},
		{`{"kind":"grid"}`, -1, "/kind"},
		{`{"kind":"table","index":16}`, -1, "/index"},
	}
	for _, c := range cases {
		_, err := DecodeRequest([]byte(c.in))
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: %v", c.in, err)
		}
		off, ok := e.ByteOffset()
		if c.off < 0 && ok || c.off >= 0 && (!ok || off != c.off) || e.Path != c.path {
			t.Errorf("%q: offset %d %v path %q, want %d %q (%v)", c.in, off, ok, e.Path, c.off, c.path, err)
		}
		if strings.Contains(e.Msg, "byte") {
			t.Errorf("%q: the message spells the offset: %q", c.in, e.Msg)
		}
	}
}
