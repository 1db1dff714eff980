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

// TestTooLargeIsItsCause: a refusal for size matches ErrTooLarge through any
// wrapping, and its code's sentinel too; no other error matches it, even one
// whose message says too_large; and the message says too_large once.
func TestTooLargeIsItsCause(t *testing.T) {
	e := TooLarge("readbound", "the input holds more than 9 bytes")
	for _, err := range []error{e, fmt.Errorf("reading: %w", e), Wrap(CaptureFailed, "live", "", "capture", e)} {
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v does not match ErrTooLarge", err)
		}
	}
	if !errors.Is(e, Sentinel(UnsupportedInput)) || CodeOf(e) != UnsupportedInput {
		t.Errorf("%v is not unsupported_input", e)
	}
	for _, err := range []error{
		New(UnsupportedInput, "snapshot", "", "too_large: said in the text only"),
		Sentinel(UnsupportedInput),
		errors.New("too_large"),
	} {
		if errors.Is(err, ErrTooLarge) {
			t.Errorf("%v matches ErrTooLarge", err)
		}
	}
	if got, want := e.Error(), "readbound: unsupported_input: too_large: the input holds more than 9 bytes"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := strings.Count(e.Detail(), "too_large"); got != 1 {
		t.Errorf("Detail() %q says too_large %d times", e.Detail(), got)
	}
}
