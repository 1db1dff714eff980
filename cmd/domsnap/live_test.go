package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These run without a browser: usage errors are found before any launch,
// and a missing browser is an error, never a silent fallback.

func TestLiveUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"capture"}, "exactly one URL"},
		{[]string{"capture", "http://127.0.0.1:1/"}, "-o FILE"},
		{[]string{"capture", "-o", "x.json", "a", "b"}, "exactly one URL"},
		{[]string{"parity"}, "at least one HTML file"},
		{[]string{"extract", "--live", "http://127.0.0.1:1/", "page.html", "--kind", "table", "--field", "a:0:string"}, "--live takes no INPUT"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, r.code, r.stderr, exitUsage, c.want)
		}
	}
}

func TestLiveMissingBrowser(t *testing.T) {
	page := writeTemp(t, "p.html", "<table><tr><td>x</td></tr></table>")
	out := filepath.Join(t.TempDir(), "snap.json")
	for _, args := range [][]string{
		{"capture", "--chrome", "/nonexistent/chromium", "http://127.0.0.1:1/", "-o", out},
		{"parity", "--chrome", "/nonexistent/chromium", page},
		{"extract", "--chrome", "/nonexistent/chromium", "--live", "http://127.0.0.1:1/", "--kind", "table", "--field", "a:0:string"},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitFailure || !strings.HasPrefix(r.stderr, "capture_failed: ") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a failed capture left a file")
	}
}

func TestParityRequestsFile(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	if reqs, skipped, err := parityRequests(page); err != nil || len(reqs) != 9 || skipped != nil {
		t.Fatalf("no requests file: %d requests, skipped %v, %v", len(reqs), skipped, err)
	}
	os.WriteFile(filepath.Join(dir, "p.requests.json"), []byte(`[
{"kind":"list","index":0,"fields":[{"name":"t","column":0,"type":"string"}]},
{"kind":"list","index":99,"fields":[{"name":"t","column":0,"type":"string"}]},
{"kind":"form","index":1,"fields":[{"name":"l","column":0,"type":"string"}]}
]`), 0o644)
	reqs, skipped, err := parityRequests(page)
	if err != nil || len(reqs) != 2 || len(skipped) != 1 || skipped[0] != 1 {
		t.Fatalf("%d requests, skipped %v, %v", len(reqs), skipped, err)
	}
	os.WriteFile(filepath.Join(dir, "p.requests.json"), []byte(`{"kind":"list"}`), 0o644)
	if _, _, err := parityRequests(page); err == nil {
		t.Fatal("a requests file that is not an array was accepted")
	}
}

// TestLiveTimeoutBounds: --timeout must be more than zero and at most five
// minutes. Just inside the bounds the command goes on to look for the
// browser (and fails there, none being named); just outside, and for zero, a
// negative or an unparsable value, it is a usage error before any launch.
func TestLiveTimeoutBounds(t *testing.T) {
	page := writeTemp(t, "p.html", "<table><tr><td>x</td></tr></table>")
	out := filepath.Join(t.TempDir(), "snap.json")
	commands := [][]string{
		{"capture", "--chrome", "/nonexistent/chromium", "http://127.0.0.1:1/", "-o", out},
		{"parity", "--chrome", "/nonexistent/chromium", page},
		{"extract", "--chrome", "/nonexistent/chromium", "--live", "http://127.0.0.1:1/", "--kind", "table", "--field", "a:0:string"},
	}
	for _, c := range []struct {
		value string
		code  int
	}{
		{"1ns", exitFailure},
		{"4m59.999999999s", exitFailure},
		{"5m", exitFailure},
		{"5m0.000000001s", exitUsage},
		{"6m", exitUsage},
		{"0s", exitUsage},
		{"-1s", exitUsage},
		{"soon", exitUsage},
	} {
		for _, args := range commands {
			args := append(append([]string(nil), args...), "--timeout", c.value)
			r := runCmd(t, "", args...)
			if r.code != c.code {
				t.Errorf("%v: exit %d, stderr %q; want exit %d", args, r.code, r.stderr, c.code)
			}
			if c.code == exitFailure && !strings.HasPrefix(r.stderr, "capture_failed: ") {
				t.Errorf("%v: stderr %q, want the missing browser", args, r.stderr)
			}
		}
	}
}
