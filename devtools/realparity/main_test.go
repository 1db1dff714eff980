package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/testkit/treediff"
)

func TestFindPages(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.html", "a/z.htm", "a/c.HTML", "notes.txt", "a/d.html.gz", "c/e.html"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("<!DOCTYPE html>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "empty.html"), 0o755); err != nil { // a folder, not a page
		t.Fatal(err)
	}
	got, err := findPages(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(got[i])
	}
	want := []string{"a/c.HTML", "a/z.htm", "b.html", "c/e.html"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findPages = %q, want %q", got, want)
	}
	if _, err := findPages(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing folder gave no error")
	}
}

func TestSummary(t *testing.T) {
	var s summary
	for _, r := range []pageResult{
		{nodes: 10},
		{nodes: 10, requests: []string{"request 0 at /rows"}},
		{nodes: 10, diffs: []treediff.Diff{{What: treediff.State}}},
		{nodes: 10, requests: []string{"inventory at /tables"}, diffs: []treediff.Diff{{What: treediff.Node}}},
		{err: "timeout"},
	} {
		s.add(r)
	}
	want := "pages 5, agree on results 2, differ on results 2, trees equal 2, trees differ 2, errors 1"
	if got := s.String(); got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		r    pageResult
		want string
	}{
		{pageResult{nodes: 7}, "agree, trees equal (7 nodes)"},
		{pageResult{err: "capture_failed"}, "error capture_failed"},
		{pageResult{nodes: 7, requests: []string{"request 1 at /rows/0/c0", "inventory at /"}},
			"differs in 2 requests (request 1 at /rows/0/c0, inventory at /), trees equal (7 nodes)"},
	} {
		if got := c.r.line(false); got != c.want {
			t.Errorf("line = %q, want %q", got, c.want)
		}
	}
	// Tree differences are named by paths and states, never by page text:
	// the text appears only with detail, cut to 64 bytes.
	secret := strings.Repeat("secret ", 20)
	r := pageResult{nodes: 7, diffs: []treediff.Diff{
		{What: treediff.State, OfflineNode: "text " + secret, OfflineState: "excluded=false", LiveState: "excluded=true"},
		{What: treediff.Node, OfflineNode: "text " + secret, LiveNode: "element <p>"},
		{What: treediff.State}, {What: treediff.State},
	}}
	plain := r.line(false)
	if strings.Contains(plain, "secret") {
		t.Errorf("line without detail shows page text: %q", plain)
	}
	if !strings.HasPrefix(plain, "agree, trees differ at 4 of 7 nodes, first: state (end): offline excluded=false, live excluded=true; node offline (end), live (end) (walk ends); ") ||
		!strings.HasSuffix(plain, "; ...") {
		t.Errorf("line = %q", plain)
	}
	detailed := r.line(true)
	if !strings.Contains(detailed, "secret") || strings.Contains(detailed, secret) {
		t.Errorf("detail line does not cut page text to 64 bytes: %q", detailed)
	}
}

func TestCut(t *testing.T) {
	if got := cut("short"); got != `"short"` {
		t.Errorf("cut = %s", got)
	}
	long := strings.Repeat("é", 40) // 80 bytes
	got := cut(long)
	if !strings.HasSuffix(got, "...") || len(got) > maxValue+5 || strings.Contains(got, `\x`) {
		t.Errorf("cut = %s: not cut at a rune boundary within %d bytes", got, maxValue)
	}
}

func TestUsage(t *testing.T) {
	var out, errOut strings.Builder
	for _, args := range [][]string{nil, {"a", "b"}, {"-limit", "-1", "x"}, {"-bogus", "x"}} {
		if code := run(t.Context(), args, &out, &errOut); code != 2 {
			t.Errorf("run %q = %d, want 2", args, code)
		}
	}
	if code := run(t.Context(), []string{t.TempDir()}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "no .html or .htm file") {
		t.Errorf("an empty folder: exit %d, %q", code, errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("usage errors wrote to stdout: %q", out.String())
	}
}
