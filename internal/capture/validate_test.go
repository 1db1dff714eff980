package capture

import (
	"bytes"
	"errors"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/hostile"
)

// TestValidateNodeBound: the node bound is checked in validate too, so it
// holds for a capture that did not come through the wire decoder's tables
// (a reply's).
func TestValidateNodeBound(t *testing.T) {
	var b bytes.Buffer
	if err := hostile.Capture(&b, 5); err != nil {
		t.Fatal(err)
	}
	rc, err := decodeRaw(b.Bytes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	rc.maxNodes = 4
	if err := validate(rc); !errors.Is(err, errcode.ErrTooLarge) || errcode.CodeOf(err) != errcode.UnsupportedInput {
		t.Errorf("validate: %v", err)
	}
}
