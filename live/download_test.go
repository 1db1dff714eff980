package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/domsnap/domsnap/limits"
)

// TestDownloadName: a suggested name keeps only its last path part, with
// control and format characters made spaces, leading dots dropped, bounded
// as a cell summary; nothing left is "download".
func TestDownloadName(t *testing.T) {
	for in, want := range map[string]string{
		"report.csv":            "report.csv",
		"../../etc/passwd":      "passwd",
		`..\..\boot.ini`:        "boot.ini",
		"a\x01b\nc\u202ed.txt":  "a b c d.txt",
		"...hidden":             "hidden",
		"dir/":                  "download",
		" . ":                   "download",
		"":                      "download",
		"\x00\x1f":              "download",
		"quarterly report.pdf ": "quarterly report.pdf",
	} {
		if got := downloadName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	long := downloadName(strings.Repeat("x", 10000) + ".txt")
	if n := len(utf16.Encode([]rune(long))); n != limits.CellUnits {
		t.Errorf("a 10,000-character name kept %d units", n)
	}
}

// TestMediaType: the bytes decide; a text file takes its extension's text
// type from the fixed table, a binary one never does.
func TestMediaType(t *testing.T) {
	for _, c := range []struct{ name, head, want string }{
		{"r.csv", "a,b\n1,2\n", "text/csv"},
		{"r.json", `{"a":1}`, "application/json"},
		{"r.txt", "hello", "text/plain"},
		{"r.unknown", "hello", "text/plain"},
		{"r.csv", "\x00\x01\x02binary", "application/octet-stream"},
		{"r.pdf", "%PDF-1.7\n", "application/pdf"},
		{"r.html", "<!DOCTYPE html><p>x", "text/html"},
	} {
		if got := mediaType(c.name, []byte(c.head)); got != c.want {
			t.Errorf("%s %q: %s, want %s", c.name, c.head, got, c.want)
		}
	}
}

// TestSettleWaitsForWanted: an answer that knows its action handed a
// navigation to the downloads waits for that download to be told of, and a
// download told of but not yet judged this context's own is held back for
// the next answer rather than passed over.
func TestSettleWaitsForWanted(t *testing.T) {
	d := &Downloads{byID: map[string]*Download{}, changed: make(chan struct{})}
	update := func(f func()) {
		d.mu.Lock()
		f()
		changed := d.changed
		d.changed = make(chan struct{})
		d.mu.Unlock()
		close(changed)
	}
	ctx := context.Background()
	// Nothing began and the deadline passed: nothing, and nothing passed.
	if got, next := d.Settle(ctx, 0, 1, time.Now().Add(-time.Second)); len(got) != 0 || next != 0 {
		t.Fatalf("empty: %v, next %d", got, next)
	}
	// The wanted download is told of while the answer waits, unjudged
	// first; the wait ends once it is judged and ended, however long the
	// deadline (a wait that never woke would hold the test).
	unjudged := &Download{Name: "a.csv", guid: "g1"}
	go func() {
		update(func() { d.list = append(d.list, unjudged) })
		update(func() { unjudged.ID, d.byID["d1"] = "d1", unjudged })
		update(func() { unjudged.done, unjudged.Path = true, "/x/g1" })
	}()
	got, next := d.Settle(ctx, 0, 1, time.Now().Add(10*time.Minute))
	if len(got) != 1 || got[0].ID != "d1" || got[0].Path == "" || next != 1 {
		t.Fatalf("wanted one: %+v, next %d", got, next)
	}
	// A judged download, then one not yet judged, then a judged one: the
	// deadline passes; the first is returned, the others wait for the
	// next call, which returns both once the middle one is judged.
	second := &Download{ID: "d2", Name: "b.csv", guid: "g2", done: true, Status: DownloadTooMany}
	third := &Download{Name: "c.csv", guid: "g3"}
	fourth := &Download{ID: "d4", Name: "d.csv", guid: "g4", done: true, Status: DownloadTooMany}
	update(func() { d.list = append(d.list, second, third, fourth) })
	got, next = d.Settle(ctx, 1, 0, time.Now().Add(-time.Second))
	if len(got) != 1 || got[0].ID != "d2" || next != 2 {
		t.Fatalf("held back: %+v, next %d", got, next)
	}
	update(func() { third.ID, third.done, third.Status = "d3", true, DownloadTooMany })
	got, next = d.Settle(ctx, next, 0, time.Now().Add(-time.Second))
	if len(got) != 2 || got[0].ID != "d3" || got[1].ID != "d4" || next != 4 {
		t.Fatalf("the next call: %+v, next %d", got, next)
	}
	// Another context's download keeps its place and is never listed.
	update(func() { d.list = append(d.list, &Download{guid: "g5", done: true, foreign: true}) })
	if got, next = d.Settle(ctx, next, 1, time.Now().Add(-time.Second)); len(got) != 0 || next != 5 {
		t.Fatalf("foreign: %+v, next %d", got, next)
	}
}

// TestCompletedAfterCancel: the browser may finish a download it was
// already told to cancel (too many, too large). It stays reported as
// cancelled, this context's own, and the file the browser finished is
// removed. Before, its missing file made it another context's download,
// and no answer listed it.
func TestCompletedAfterCancel(t *testing.T) {
	dir := t.TempDir()
	d := &Downloads{opts: DownloadOptions{Dir: dir, MaxBytes: 1 << 20, MaxCount: 1}, byID: map[string]*Download{}, changed: make(chan struct{})}
	// The first ended before the browser finished its file (the cancel
	// removed the partial one); the second's file was finished first.
	first := &Download{ID: "d1", Name: "r.csv", guid: "g1"}
	second := &Download{ID: "d2", Name: "s.csv", guid: "g2"}
	d.list, d.byID["d1"], d.byID["d2"] = []*Download{first, second}, first, second
	d.end(first, DownloadTooMany, "")
	d.end(second, DownloadTooLarge, "")
	if err := os.WriteFile(filepath.Join(dir, "g2"), []byte("a,b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.completed(first)
	d.completed(second)
	got, next := d.Settle(context.Background(), 0, 2, time.Now().Add(-time.Second))
	if len(got) != 2 || got[0].Status != DownloadTooMany || got[1].Status != DownloadTooLarge || got[0].Path != "" || got[1].Path != "" || next != 2 {
		t.Fatalf("cancelled downloads that completed: %+v, next %d", got, next)
	}
	for _, id := range []string{"d1", "d2"} {
		if _, ok := d.Get(id); !ok {
			t.Fatalf("%s was forgotten", id)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left in the folder: %v", ents)
	}
}
