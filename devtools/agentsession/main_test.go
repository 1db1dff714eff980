package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTempRemovedOnFailure gives the session a server binary that does not
// exist, so connecting fails after the folders were made and the page is
// served, and checks that nothing is left in TMPDIR.
func TestTempRemovedOnFailure(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if err := run(filepath.Join(t.TempDir(), "missing"), io.Discard); err == nil {
		t.Fatal("a missing server binary gave no error")
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		t.Errorf("left behind: %s", e.Name())
	}
}

// TestPageHasTheRegion checks that the embedded page holds the region the
// session expands, so the session cannot fail for want of it.
func TestPageHasTheRegion(t *testing.T) {
	if !strings.Contains(string(page), `<section aria-label="Stock">`) || !strings.Contains(string(page), "<table>") {
		t.Error("page.html lost the Stock region or its table")
	}
}
