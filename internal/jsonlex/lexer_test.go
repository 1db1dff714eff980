package jsonlex

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// wantErr checks that err is an *Error at offset off with pointer ptr and a
// message holding msg.
func wantErr(t *testing.T, err error, off int, ptr, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want *Error", err, err)
	}
	if e.Offset != off || e.Pointer != ptr || !strings.Contains(e.Msg, msg) {
		t.Fatalf("got offset %d pointer %q msg %q, want %d %q containing %q", e.Offset, e.Pointer, e.Msg, off, ptr, msg)
	}
}

func TestSkipValueAcceptsEveryShape(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `"s"`, `true`, `false`, `null`, `0`, `-0.5e+7`, `1E3`,
		` { "a" : [ 1 , { "b" : null } , "x\u00e9\n" ] , "c" : {} } `,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	} {
		l := Lexer{Data: []byte(in)}
		if err := l.SkipValue(""); err != nil {
			t.Errorf("%.30q: %v", in, err)
			continue
		}
		if err := l.End(); err != nil {
			t.Errorf("%.30q: %v", in, err)
		}
	}
}

func TestSkipValueRefuses(t *testing.T) {
	cases := []struct {
		in       string
		off      int
		msg      string
		atTheEnd bool
	}{
		{`{"a":1,}`, 7, "expected a key string", false},
		{`{"a" 1}`, 5, "expected ':'", false},
		{`[1 2]`, 3, "expected ',' or ']'", false},
		{`{"a":1 "b"}`, 7, `unexpected '"', expected ',' or '}'`, false},
		{`[tru]`, 1, "invalid literal, expected true", false},
		{`[nul`, 1, "invalid literal, expected null", false},
		{`-`, 1, "invalid number", false},
		{`1.`, 2, "invalid number", false},
		{`1e+`, 3, "invalid number", false},
		{`+1`, 0, "expected a value", false},
		{`"a` + "\x01" + `"`, 2, "control character", false},
		{`"\x"`, 1, "invalid escape", false},
		{`"\u12G4"`, 1, `invalid \u escape`, false},
		{`"abc`, 4, "unterminated string", true},
		{`"\u12`, 5, "unexpected end of input", true},
		{`[1,`, 3, "unexpected end of input, expected a value", true},
		{`{"a":[1]`, 8, "unexpected end of input, expected ',' or '}'", true},
	}
	for _, c := range cases {
		l := Lexer{Data: []byte(c.in)}
		err := l.SkipValue("/p")
		wantErr(t, err, c.off, "/p", c.msg)
		if c.atTheEnd && c.off != len(c.in) {
			t.Errorf("%q: an early end is reported at len(input)", c.in)
		}
	}
}

func TestEndRefusesTrailingData(t *testing.T) {
	l := Lexer{Data: []byte(`{} x`)}
	if err := l.SkipValue(""); err != nil {
		t.Fatal(err)
	}
	wantErr(t, l.End(), 3, "", "data after the top-level value")
}

func TestInt64(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "-0": 0, "7": 7, "-12": -12,
		"9223372036854775807": 1<<63 - 1, "-9223372036854775808": -1 << 63} {
		l := Lexer{Data: []byte(in)}
		got, err := l.Int64("")
		if err != nil || got != want || l.Pos != len(in) {
			t.Errorf("%s: %d, %v, pos %d", in, got, err, l.Pos)
		}
	}
	for in, msg := range map[string]string{
		"9223372036854775808":  "out of range",
		"-9223372036854775809": "out of range",
		"1.5":                  "fraction or exponent",
		"2e3":                  "fraction or exponent",
		"01":                   "leading zero",
		`"1"`:                  "got a string, want an integer",
		"x":                    "unexpected byte, expected an integer",
	} {
		l := Lexer{Data: []byte(in)}
		_, err := l.Int64("/n")
		wantErr(t, err, 0, "/n", msg)
	}
	// Int32's bounds, just under, at and over.
	for in, ok := range map[string]bool{"2147483647": true, "2147483648": false, "-2147483648": true, "-2147483649": false} {
		l := Lexer{Data: []byte(in)}
		_, err := l.Int32("")
		if (err == nil) != ok {
			t.Errorf("Int32(%s): %v", in, err)
		}
	}
}

func TestStringsLenientAndStrict(t *testing.T) {
	cases := []struct {
		in, lenient string
		strictOff   int // -1: strict accepts it too
		strictMsg   string
	}{
		{`"plain"`, "plain", -1, ""},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", -1, ""},
		{`"\u00e9\ud83d\ude00"`, "é\U0001F600", -1, ""},
		{`"x` + "\xff" + `y"`, "x\uFFFDy", 2, "invalid UTF-8"},
		{`"x\ud800y"`, "x\uFFFDy", 2, "lone surrogate"},
		{`"\udc00"`, "\uFFFD", 1, "lone surrogate"},
		{`"\ud800\u0041"`, "\uFFFDA", 1, "lone surrogate"},
	}
	for _, c := range cases {
		l := Lexer{Data: []byte(c.in)}
		sp, err := l.StringSpan("/s")
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got := l.Decode(sp); got != c.lenient {
			t.Errorf("%q: lenient %q, want %q", c.in, got, c.lenient)
		}
		got, err := l.DecodeStrict(sp, "/s")
		if c.strictOff < 0 {
			if err != nil || got != c.lenient {
				t.Errorf("%q: strict %q, %v", c.in, got, err)
			}
			continue
		}
		wantErr(t, err, c.strictOff, "/s", c.strictMsg)
	}
}

func TestMembersAndKinds(t *testing.T) {
	l := Lexer{Data: []byte(`{"a":{},"b~/":[],"c":"","d":true,"e":null,"f":-1}`)}
	var keys []string
	var kinds []Kind
	err := l.Members("", func(k Span) error {
		keys = append(keys, AppendKey("", l.Decode(k)))
		kinds = append(kinds, l.Kind())
		return l.SkipValue("")
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, " "); got != "/a /b~0~1 /c /d /e /f" {
		t.Errorf("pointers %q", got)
	}
	want := []Kind{Object, Array, String, Bool, Null, Number}
	for i, k := range kinds {
		if k != want[i] {
			t.Errorf("member %d: kind %s, want %s", i, k, want[i])
		}
	}
	// An error of the callback comes back as it is.
	sentinel := errors.New("stop")
	l = Lexer{Data: []byte(`{"a":1}`)}
	if err := l.Members("", func(Span) error { return sentinel }); err != sentinel {
		t.Errorf("callback error became %v", err)
	}
	// A value that is not an object names what it is.
	l = Lexer{Data: []byte(` [1]`)}
	wantErr(t, l.Members("/o", nil), 1, "/o", "got an array, want an object")
}

func TestElements(t *testing.T) {
	l := Lexer{Data: []byte(`[ 1, "x" ,[],{} ]`)}
	var seen []int
	err := l.Elements("/a", func(i int) error {
		seen = append(seen, i)
		return l.SkipValue(AppendIndex("/a", i))
	})
	if err != nil || fmt.Sprint(seen) != "[0 1 2 3]" {
		t.Errorf("indexes %v, error %v", seen, err)
	}
	l = Lexer{Data: []byte(`[]`)}
	if err := l.Elements("", func(int) error { t.Error("called for an empty array"); return nil }); err != nil {
		t.Error(err)
	}
	// An error of the callback comes back as it is.
	sentinel := errors.New("stop")
	l = Lexer{Data: []byte(`[1]`)}
	if err := l.Elements("", func(int) error { return sentinel }); err != sentinel {
		t.Errorf("callback error became %v", err)
	}
	// A value that is not an array names what it is; a bad separator is a
	// syntax error at its byte.
	l = Lexer{Data: []byte(` {}`)}
	wantErr(t, l.Elements("/a", nil), 1, "/a", "got an object, want an array")
	l = Lexer{Data: []byte(`[1 2]`)}
	wantErr(t, l.Elements("/a", func(i int) error { _, err := l.Number(""); return err }), 3, "/a", "expected ',' or ']'")
}

func TestAppendKeyAndIndex(t *testing.T) {
	for _, c := range [][3]string{{"", "a", "/a"}, {"/x", "a/b", "/x/a~1b"}, {"", "~", "/~0"}, {"", "", "/"}, {"/x", "~1", "/x/~01"}} {
		if got := AppendKey(c[0], c[1]); got != c[2] {
			t.Errorf("AppendKey(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	if got := AppendIndex("/f", 12); got != "/f/12" {
		t.Errorf("AppendIndex = %q", got)
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Offset: 4, Pointer: "/a", Msg: "m"}
	if got := e.Error(); got != "/a: m (byte 4)" {
		t.Errorf("got %q", got)
	}
}

func TestSplitPointerInvertsAppendKey(t *testing.T) {
	names := []string{"a", "b/c", "~", "~1", "", "x~0/y"}
	p := ""
	for _, n := range names {
		p = AppendKey(p, n)
	}
	got := SplitPointer(p)
	if strings.Join(got, "|") != strings.Join(names, "|") || len(got) != len(names) {
		t.Errorf("SplitPointer(%q) = %q, want %q", p, got, names)
	}
	if SplitPointer("") != nil {
		t.Error("the whole document has tokens")
	}
}

// TestRawValue: a value comes back as written, spacing and escapes inside
// kept, the space before it left out, with no capacity past its end; a
// malformed one is refused as SkipValue refuses it.
func TestRawValue(t *testing.T) {
	data := []byte(`{"a" :  [1, {"b":"\u0041"} ] ,"c":2}`)
	l := Lexer{Data: data}
	var got []string
	err := l.Members("", func(k Span) error {
		v, err := l.RawValue("")
		if err == nil && cap(v) != len(v) {
			t.Errorf("%s: capacity %d past its length %d", v, cap(v), len(v))
		}
		got = append(got, string(v))
		return err
	})
	if err != nil || len(got) != 2 || got[0] != `[1, {"b":"\u0041"} ]` || got[1] != `2` {
		t.Fatalf("%q %v", got, err)
	}
	for _, bad := range []string{`[1,`, `{"a"}`, `tru`, ``, `"x`} {
		l := Lexer{Data: []byte(bad)}
		if v, err := l.RawValue(""); err == nil {
			t.Errorf("%q: read as %q", bad, v)
		}
	}
}
