package snapshot

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/testkit/hostile"
	"github.com/domsnap/domsnap/limits"
)

func isTooLarge(err error) bool {
	return errors.Is(err, errcode.ErrTooLarge) && errcode.CodeOf(err) == errcode.UnsupportedInput
}

// TestLoadInputBytesBound probes the input byte bound just under, at and
// just over it, for each format, plain and through gzip.
func TestLoadInputBytesBound(t *testing.T) {
	page := "<ul><li>a</li></ul>"
	var capture bytes.Buffer
	if err := hostile.Capture(&capture, 3); err != nil {
		t.Fatal(err)
	}
	// Padding makes each body compress to less than its size, so the
	// same bound can be probed plain and through gzip.
	pad := strings.Repeat(" ", 300)
	for _, body := range []string{page + pad, capture.String() + pad} {
		limit := int64(len(body))
		for _, c := range []struct {
			data string
			ok   bool
		}{{body, true}, {body + " ", false}} {
			// Plain: the input itself is bounded.
			_, err := load([]byte(c.data), LoadOptions{}, inputBounds{bytes: limit, nodes: 100})
			if c.ok && err != nil || !c.ok && !isTooLarge(err) {
				t.Errorf("%d bytes, bound %d: %v", len(c.data), limit, err)
			}
			// Compressed: what the stream expands to is bounded too.
			_, err = load(gz(t, []byte(c.data)), LoadOptions{}, inputBounds{bytes: limit, nodes: 100})
			if c.ok && err != nil || !c.ok && !isTooLarge(err) {
				t.Errorf("gzip of %d bytes, bound %d: %v", len(c.data), limit, err)
			}
		}
		// One byte under.
		if _, err := load([]byte(body), LoadOptions{}, inputBounds{bytes: limit + 1, nodes: 100}); err != nil {
			t.Errorf("under the bound: %v", err)
		}
	}
}

// TestGunzipCountsBeforeKeeping: a stream over the bound is refused after
// counting limit+1 bytes, keeping none, and an accepted one is held in a
// buffer of exactly its size.
func TestGunzipCountsBeforeKeeping(t *testing.T) {
	const limit = 5000
	for _, n := range []int{0, 1, limit - 1, limit, limit + 1, 50 * limit} {
		out, err := gunzip(gz(t, bytes.Repeat([]byte{'a'}, n)), limit)
		if n > limit {
			if !isTooLarge(err) || out != nil {
				t.Errorf("%d bytes: %v", n, err)
			}
			continue
		}
		if err != nil || len(out) != n || cap(out) != n {
			t.Errorf("%d bytes: len %d cap %d, %v", n, len(out), cap(out), err)
		}
	}
	// Two members concatenated are one stream to both passes.
	two := append(gz(t, []byte("ab")), gz(t, []byte("cd"))...)
	if out, err := gunzip(two, limit); err != nil || string(out) != "abcd" {
		t.Errorf("two members: %q %v", out, err)
	}
}

// TestHTMLNodeBound: HTML with more node tokens than the bound is refused
// by the tokenizer pass; at and under the bound it parses.
// TestHTMLBuiltTreeBound: the parser can build far more nodes than there
// are tokens (it re-opens formatting elements); the parsed tree is counted
// again, so such a page is refused even though its tokens pass.
// TestCaptureNodeBound: a capture's node tables are bounded while they are
// read, wire JSON and a bare capture through Load alike.
func TestCaptureNodeBound(t *testing.T) {
	for _, c := range []struct {
		nodes, bound int
		ok           bool
	}{{9, 10, true}, {10, 10, true}, {11, 10, false}, {1000, 10, false}} {
		var b bytes.Buffer
		if err := hostile.Capture(&b, c.nodes); err != nil {
			t.Fatal(err)
		}
		tr, err := capture.Decode(b.Bytes(), nil, c.bound)
		if c.ok && (err != nil || tr.Len() != c.nodes) || !c.ok && !isTooLarge(err) {
			t.Errorf("%d nodes, bound %d: %v", c.nodes, c.bound, err)
		}
		_, err = load(b.Bytes(), LoadOptions{}, inputBounds{bytes: limits.MaxInputBytes, nodes: c.bound})
		if c.ok && err != nil || !c.ok && !isTooLarge(err) {
			t.Errorf("load: %d nodes, bound %d: %v", c.nodes, c.bound, err)
		}
	}
}

func mustCapture(t *testing.T, nodes int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := hostile.Capture(&b, nodes); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoadCharsetLabel: an unknown label is invalid_request whatever the
// input: a byte-order mark, a capture, an envelope, gzip, binary data, an
// input over the bound.
func TestLoadCharsetLabel(t *testing.T) {
	env := `{"format":"domsnap-snapshot/1","revision":"r1.a","capture":` + string(mustCapture(t, 3)) + `}`
	for name, data := range map[string][]byte{
		"bom":      []byte("\xef\xbb\xbf<p>x</p>"),
		"utf16":    []byte("\xff\xfe<\x00p\x00>\x00"),
		"capture":  mustCapture(t, 3),
		"envelope": []byte(env),
		"gzip":     gz(t, []byte("<p>x</p>")),
		"binary":   {0, 1, 2},
		"large":    bytes.Repeat([]byte{' '}, 100),
	} {
		_, err := load(data, LoadOptions{Charset: "bogus"}, inputBounds{bytes: 50, nodes: 100})
		if errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := CheckCharset(" Shift_JIS "); err != nil {
		t.Errorf("a known label in another spelling: %v", err)
	}
}

// TestGzipBombFullSize: the real bound through the public API, once: a
// bomb that expands one byte past 256 MiB is refused after it is counted,
// without a buffer of that size.
func TestGzipBombFullSize(t *testing.T) {
	// Spaces are whitespace before a JSON value, so nothing refuses the
	// stream early: only the byte bound can stop it.
	bomb := hostile.GzipBomb("{", limits.MaxInputBytes, ' ')
	if len(bomb) > 1<<20 {
		t.Fatalf("the bomb is %d bytes", len(bomb))
	}
	if _, err := Load(bomb, LoadOptions{}); !isTooLarge(err) {
		t.Errorf("gzip expanding to %d bytes: %v", limits.MaxInputBytes+1, err)
	}
}

// BenchmarkHTMLScan is the cost of the tokenizer pass that bounds the node
// count before parsing, against html.Parse of the same page: the pass adds
// that fraction to ParseHTML's time.
// TestCheckHead: the head check refuses exactly binary data that is
// neither gzip nor JSON, and whatever it refuses Load refuses too.
func TestCheckHead(t *testing.T) {
	for _, c := range []struct {
		in     string
		refuse bool
	}{
		{"", false},
		{"<p>x</p>", false},
		{"\x00\x00\x00", true},
		{"\x1f\x8b\x00\x00", false},
		{" \n{\"documents\":\x00", false},
		{"\xff\xfe<\x00p\x00", false},
		{strings.Repeat(" ", sniffBytes) + "\x00", false},
		{strings.Repeat(" ", sniffBytes-1) + "\x00", true},
	} {
		err := CheckHead([]byte(c.in))
		if (err != nil) != c.refuse {
			t.Errorf("%q: %v", c.in[:min(len(c.in), 12)], err)
		}
		if err == nil {
			continue
		}
		if _, lerr := Load([]byte(c.in), LoadOptions{}); errcode.CodeOf(lerr) != errcode.UnsupportedInput || errcode.CodeOf(err) != errcode.UnsupportedInput {
			t.Errorf("%q: head refused (%v) but Load says %v", c.in[:min(len(c.in), 12)], err, lerr)
		}
	}
}

// TestHTMLScanShortcut: the token pass counts only when the text has
// enough "<" to pass the bound, 2*count("<")+1 tokens at most. At that
// bound it stops once past the doctype; one under, it counts, and a page
// that makes that many tokens is over.
// TestHTMLScanShortcutKeepsEdits: the shortcut must not skip a token the
// parser reads edited, or a short page with "</>" or a comment holding a
// character reference would parse unlike Chromium.
