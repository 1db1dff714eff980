package store

import (
	"testing"
)

// TestHold: bytes held outside the artifacts count in the bound: room is
// made by removing the least recently used artifacts, more than the
// bound is refused, and Unhold gives the room back.
func TestHold(t *testing.T) {
	s, err := Open(t.TempDir(), MinBytes)
	if err != nil {
		t.Fatal(err)
	}
	obs := []byte(`{"a":1}`)
	if _, err := s.Put(obs, obs, 1024); err != nil {
		t.Fatal(err)
	}
	if s.Hold(MinBytes + 1) {
		t.Fatal("more than the bound was held")
	}
	if !s.Hold(MinBytes) || s.Len() != 0 || s.Bytes() != MinBytes {
		t.Fatalf("holding the whole bound: %d artifacts, %d bytes", s.Len(), s.Bytes())
	}
	if s.Hold(1) {
		t.Fatal("a byte past the bound was held")
	}
	s.Unhold(MinBytes)
	if s.Bytes() != 0 || !s.Hold(10) {
		t.Fatalf("after Unhold: %d bytes", s.Bytes())
	}
}
