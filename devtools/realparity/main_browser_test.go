//go:build browser

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealParityFixtures runs the command over three fixture pages: one that
// agrees offline and live, and two whose divergences docs/divergences.md
// lists (a meta CSP that blocks author styles live only; a
// hidden="until-found" element, which the page view's scan enters live only,
// so the inventory comparison is seen to cover the page view). Without Chromium
// the browser does not start and the test fails.
func TestRealParityFixtures(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"aria-table.html", "css-csp-meta.html", "hidden-collections.html"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "html", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A file that is not a page is not read.
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	args := []string{dir}
	if c := os.Getenv("DOMSNAP_CHROME"); c != "" {
		args = []string{"-chrome", c, dir}
	}
	if code := run(t.Context(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want three page lines and a summary, got:\n%s", out.String())
	}
	if !strings.HasPrefix(lines[0], "aria-table.html: agree, trees equal (") {
		t.Errorf("agreeing page: %s", lines[0])
	}
	if !strings.HasPrefix(lines[1], "css-csp-meta.html: differs in 9 requests (") || !strings.Contains(lines[1], "trees differ at ") {
		t.Errorf("meta CSP page: %s", lines[1])
	}
	if !strings.HasPrefix(lines[2], "hidden-collections.html: differs in 9 requests (") || !strings.Contains(lines[2], "inventory at /view_scan/visited)") {
		t.Errorf("until-found page: %s", lines[2])
	}
	want := "pages 3, agree on results 1, differ on results 2, trees equal 1, trees differ 2, errors 0"
	if lines[3] != want {
		t.Errorf("summary %q, want %q", lines[3], want)
	}
}

// TestRealParityBounded runs the -bounded mode over two fixture pages: each
// read agrees with the whole snapshot at both first budgets, and the small
// one took more captures than the default one (the retakes were exercised).
func TestRealParityBounded(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"aria-table.html", "hidden-collections.html"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "html", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut strings.Builder
	args := []string{"-bounded", "-budget", "8", dir}
	if c := os.Getenv("DOMSNAP_CHROME"); c != "" {
		args = append([]string{"-chrome", c}, args...)
	}
	if code := run(t.Context(), args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want two page lines and a summary, got:\n%s", out.String())
	}
	for _, l := range lines[:2] {
		if !strings.Contains(l, ": agree (") || !strings.Contains(l, "; budget 8: ") {
			t.Errorf("page line: %s", l)
		}
	}
	var pages, agree, differ, moved, errs int
	var atDefault, atSmall uint64
	if _, err := fmt.Sscanf(lines[2], "pages %d, agree %d, differ %d, page moved %d, errors %d, captures at default budget %d, captures at budget 8 %d",
		&pages, &agree, &differ, &moved, &errs, &atDefault, &atSmall); err != nil {
		t.Fatalf("summary %q: %v", lines[2], err)
	}
	if pages != 2 || agree != 2 || atSmall <= atDefault {
		t.Errorf("summary %q: want two agreeing pages and more captures at budget 8", lines[2])
	}
}
