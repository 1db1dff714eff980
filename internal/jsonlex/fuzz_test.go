package jsonlex

import (
	"encoding/json"
	"testing"
)

// validMaxDepth is the deepest nesting encoding/json.Valid accepts. The
// lexer has no bound on depth (its stack is one byte per open container, so
// depth costs memory in proportion to the input), so a document nested more
// deeply is the one place where the two may disagree, and only one way.
const validMaxDepth = 10000

// nesting is the deepest nesting of arrays and objects in data, counted
// outside strings. It is only asked of a document the lexer accepted, so
// its strings are well formed.
func nesting(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++ // the escaped byte (or the u of \uXXXX) is not a quote
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// FuzzSkipValueMatchesValid holds the lexer's grammar to encoding/json's:
// SkipValue then End accepts exactly the documents json.Valid accepts,
// except one nested more deeply than Valid allows, which only the lexer
// accepts. A refusal stops within the input, and an acceptance reads all
// of it. A document that is one string also decodes, leniently, to the
// text encoding/json decodes it to.
func FuzzSkipValueMatchesValid(f *testing.F) {
	for _, s := range []string{
		``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `-`, `01`, `1.`, `.5`, `1e`, `1e+`,
		`1E-7`, `-12.5e+3`, `"`, `"a`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\u12"`, `"\x"`, "\"\x01\"",
		"\"\xff\"", `[]`, `[1,]`, `[,1]`, `[1 2]`, `{}`, `{"a":1}`, `{"a":1,}`, `{"a"}`, `{1:2}`,
		`{"a":[{"b":{}}],"c":"d"}`, " \t\r\n[ 1 , { \"k\" : null } ]\n", `[1]]`, `[1]x`, "\x00", "\u00a0[]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := Lexer{Data: data}
		err := l.SkipValue("/p")
		if err == nil {
			err = l.End()
		}
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Offset < 0 || e.Offset > len(data) {
				t.Fatalf("refusal %v is not an *Error within the %d bytes", err, len(data))
			}
		} else if l.Pos != len(data) {
			t.Fatalf("accepted, but stopped at byte %d of %d", l.Pos, len(data))
		}
		valid := json.Valid(data)
		if err == nil && valid {
			checkStringDecode(t, data)
		}
		if (err == nil) == valid {
			return
		}
		if err == nil && nesting(data) > validMaxDepth {
			return // deeper than Valid goes: the lexer has no such bound
		}
		t.Fatalf("json.Valid says %v, the lexer says %v, for %q", valid, err, data)
	})
}

// checkStringDecode compares Decode with encoding/json's decoding when the
// valid document data is one string: both turn bytes that are not UTF-8
// and lone surrogate escapes into U+FFFD.
func checkStringDecode(t *testing.T, data []byte) {
	l := Lexer{Data: data}
	if l.Peek() != '"' {
		return
	}
	span, err := l.StringSpan("")
	if err != nil {
		t.Fatalf("a valid string refused: %v", err)
	}
	var want string
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("encoding/json refuses what Valid accepts: %v", err)
	}
	if got := l.Decode(span); got != want {
		t.Fatalf("Decode %q, encoding/json %q, for %q", got, want, data)
	}
}

// TestNestingBeyondValid pins the one documented difference the fuzz target
// allows: a document nested more deeply than encoding/json accepts is read
// by the lexer, with a stack and no recursion; one level less, both accept.
func TestNestingBeyondValid(t *testing.T) {
	for _, depth := range []int{validMaxDepth, validMaxDepth + 1} {
		data := make([]byte, 0, 2*depth)
		for range depth {
			data = append(data, '[')
		}
		for range depth {
			data = append(data, ']')
		}
		l := Lexer{Data: data}
		if err := l.SkipValue(""); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if got, want := json.Valid(data), depth <= validMaxDepth; got != want {
			t.Fatalf("depth %d: json.Valid %v, want %v", depth, got, want)
		}
		if got := nesting(data); got != depth {
			t.Fatalf("nesting %d, want %d", got, depth)
		}
	}
}
