package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTempRemovedOnFailure gives the command a server binary that does not
// exist, so connecting fails after the state and temporary folders were
// made, and checks that nothing is left in TMPDIR.
func TestTempRemovedOnFailure(t *testing.T) {
	tmp := t.TempDir()
	pages := t.TempDir()
	if err := os.WriteFile(filepath.Join(pages, "a.html"), []byte("<!DOCTYPE html><p>x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	var errOut strings.Builder
	args := []string{"-domsnap", filepath.Join(pages, "missing"), pages}
	if code := run(t.Context(), args, io.Discard, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errOut.String())
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind: %s", e.Name())
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-limit", "-1", "x"}, {"-timeout", "0s", "x"}} {
		if code := run(t.Context(), args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}
