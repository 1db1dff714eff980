package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestTempRemovedOnFailure runs the command with a commit that does not
// exist, so the build fails after the temporary folder was made, and
// checks that nothing is left in TMPDIR.
func TestTempRemovedOnFailure(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var errOut strings.Builder
	if code := run([]string{"-base", "0000000000000000000000000000000000000000", "-runs", "1"}, io.Discard, &errOut); code != 1 {
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
	for _, args := range [][]string{{}, {"-base", "x", "-runs", "0"}, {"-base", "x", "a", "b"}} {
		if code := run(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

func TestPages(t *testing.T) {
	if p := string(tablePage(2)); strings.Count(p, "<tr>") != 61 || strings.Count(p, "<p>") != 2 {
		t.Errorf("table page: %d rows, %d paragraphs", strings.Count(p, "<tr>"), strings.Count(p, "<p>"))
	}
	if p := string(controlsPage(120)); strings.Count(p, "<section>") != 10 || strings.Count(p, "<button>") != 10 {
		t.Errorf("controls page: %d sections", strings.Count(p, "<section>"))
	}
}
