package heapcost

import "testing"

// TestRetained: a value that keeps a megabyte alive is measured at about a
// megabyte, and one that keeps nothing at far less.
func TestRetained(t *testing.T) {
	const size = 1 << 20
	kept := Retained(func() any { return make([]byte, size) })
	if kept < size || kept > size+size/4 {
		t.Errorf("a %d-byte slice kept %d bytes", size, kept)
	}
	if none := Retained(func() any { _ = make([]byte, size); return nil }); none > size/4 {
		t.Errorf("a value that keeps nothing kept %d bytes", none)
	}
}
