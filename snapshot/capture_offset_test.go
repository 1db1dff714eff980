package snapshot

import (
	"errors"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
)

// TestCaptureErrorsCarryOffset: a capture whose JSON breaks gives the byte
// offset where reading stopped as a field, through every reader of this
// package, and a message that spells no offset; an inconsistent but
// well-formed capture gives none.
func TestCaptureErrorsCarryOffset(t *testing.T) {
	good := string(marshal(t, baseCapture()))
	broken := strings.Replace(good, `"nodeType":[`, `"nodeType":[}`, 1)
	at := int64(strings.Index(good, `"nodeType":[`) + len(`"nodeType":[`))
	readers := map[string]func([]byte) error{
		"DecodeCapture": func(b []byte) error { _, err := DecodeCapture(b, CaptureOptions{}); return err },
		"ScrubCapture":  func(b []byte) error { _, err := ScrubCapture(b); return err },
		"Load":          func(b []byte) error { _, err := Load(b, LoadOptions{}); return err },
	}
	for name, read := range readers {
		err := read([]byte(broken))
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.MalformedSnapshot {
			t.Fatalf("%s: %v", name, err)
		}
		if off, ok := e.ByteOffset(); !ok || off != at {
			t.Errorf("%s: offset %d %v, want %d (%v)", name, off, ok, at, err)
		}
		if e.Path != "/documents/0/nodes/nodeType/0" || strings.Contains(e.Msg, "byte") {
			t.Errorf("%s: path %q message %q", name, e.Path, e.Msg)
		}
	}
	inconsistent := strings.Replace(good, `"parentIndex":[-1,0,1,1,3,4,3]`, `"parentIndex":[-1,0,9,1,3,4,3]`, 1)
	_, err := DecodeCapture([]byte(inconsistent), CaptureOptions{})
	var e *errcode.Error
	if !errors.As(err, &e) {
		t.Fatalf("inconsistent capture: %v", err)
	}
	if _, ok := e.ByteOffset(); ok {
		t.Errorf("a semantic error has an offset: %v", err)
	}
}
