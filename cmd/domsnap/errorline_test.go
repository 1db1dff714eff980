package main

import (
	"testing"

	"github.com/domsnap/domsnap/errcode"
)

// TestErrorLineSaysWhere: the line printed for an error about the input's
// bytes says where, from the error's offset field.
func TestErrorLineSaysWhere(t *testing.T) {
	got := errorLine(errcode.NewAt(errcode.InvalidRequest, "domsnap", "/kind", 9, "invalid JSON: unterminated string"))
	if want := "invalid_request: /kind: invalid JSON: unterminated string (byte 9)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got = errorLine(errcode.New(errcode.InvalidRequest, "domsnap", "/index", "index must be 0 to 15, got 16"))
	if want := "invalid_request: /index: index must be 0 to 15, got 16"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
