package live

import (
	"strings"
	"testing"
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
