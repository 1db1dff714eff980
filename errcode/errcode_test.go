package errcode

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/domsnap/domsnap/limits"
)

func TestIsMatchesByCode(t *testing.T) {
	err := fmt.Errorf("context: %w", New(MalformedSnapshot, "snapshot", "/documents/0", "bad"))
	if !errors.Is(err, Sentinel(MalformedSnapshot)) {
		t.Fatal("wrapped error does not match its sentinel")
	}
	if errors.Is(err, Sentinel(InvalidRequest)) {
		t.Fatal("matched another code")
	}
	if CodeOf(err) != MalformedSnapshot || CodeOf(errors.New("x")) != "" {
		t.Fatal("CodeOf wrong")
	}
	// A concrete error is not a sentinel for another concrete error of the same code.
	if errors.Is(New(InvalidRequest, "", "/a", "x"), New(InvalidRequest, "", "/b", "y")) {
		t.Fatal("two concrete errors matched")
	}
}

func TestErrorText(t *testing.T) {
	got := Wrap(InvalidRequest, "domsnap", "/fields/1/name", "bad name", errors.New("cause")).Error()
	want := "domsnap: invalid_request: /fields/1/name: bad name: cause"
	if got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestQuoteBound(t *testing.T) {
	for _, n := range []int{limits.QuoteBytes - 1, limits.QuoteBytes, limits.QuoteBytes + 1} {
		s := strings.Repeat("a", n)
		q := Quote(s)
		cut := strings.HasSuffix(q, "...")
		if cut != (n > limits.QuoteBytes) {
			t.Errorf("n=%d: quote %q cut=%v", n, q, cut)
		}
	}
	// A multi-byte rune straddling the bound is dropped whole.
	s := strings.Repeat("a", limits.QuoteBytes-1) + "é" + "tail"
	q := Quote(s)
	if strings.Contains(q, "\\x") || !utf8.ValidString(q) {
		t.Fatalf("quote split a rune: %q", q)
	}
	if strings.Contains(q, "tail") {
		t.Fatalf("quote kept more than the bound: %q", q)
	}
}

func TestOffsetAndPointer(t *testing.T) {
	e := NewAt(InvalidRequest, "domsnap", "/fields/0/a~1b", 0, "invalid JSON: x")
	if off, ok := e.ByteOffset(); !ok || off != 0 {
		t.Fatalf("offset %d %v, want 0 true", off, ok)
	}
	if got := e.Error(); got != "domsnap: invalid_request: /fields/0/a~1b: invalid JSON: x (byte 0)" {
		t.Errorf("text %q", got)
	}
	if got := e.Pointer().Tokens(); strings.Join(got, "|") != "fields|0|a/b" {
		t.Errorf("tokens %q", got)
	}
	plain := New(InvalidRequest, "domsnap", "", "m")
	if _, ok := plain.ByteOffset(); ok {
		t.Error("an error made without an offset has one")
	}
	if plain.Pointer().Tokens() != nil || plain.Detail() != "m" {
		t.Errorf("tokens %q detail %q", plain.Pointer().Tokens(), plain.Detail())
	}
	if got := Pointer("/~0x/").Tokens(); len(got) != 2 || got[0] != "~x" || got[1] != "" {
		t.Errorf("tokens %q", got)
	}
	// An error with an offset is still matched by its sentinel.
	if !errors.Is(e, Sentinel(InvalidRequest)) {
		t.Error("sentinel does not match")
	}
}
