package main

import (
	"strings"
	"testing"
	"time"
)

// TestWaitFlagUsage: every bad wait flag is a usage error found before any
// browser starts (the URL points nowhere and no Chromium is named).
func TestWaitFlagUsage(t *testing.T) {
	const url = "http://127.0.0.1:1/"
	page := writeTemp(t, "p.html", "<table><tr><td>x</td></tr></table>")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"extract", "--live", url, "--kind", "table", "--field", "a:0:string", "--wait-until", "idle"}, "--wait-until must be"},
		{[]string{"extract", "--live", url, "--kind", "table", "--field", "a:0:string", "--settle", "10001ms"}, "--settle must be 0 to 10s"},
		{[]string{"extract", "--live", url, "--kind", "table", "--field", "a:0:string", "--settle", "-1ms"}, "--settle must be 0 to 10s"},
		{[]string{"inventory", "--live", url, "--wait-for", "grid"}, "--wait-for must be"},
		{[]string{"inventory", "--live", url, "--wait-for", "table:16"}, "--wait-for must be"},
		{[]string{"inventory", "--live", url, "--wait-for", "table:-1"}, "--wait-for must be"},
		{[]string{"inventory", "--live", url, "--wait-for", "table:"}, "--wait-for must be"},
		{[]string{"capture", url, "-o", "x.json", "--wait-for", "list:x"}, "--wait-for must be"},
		{[]string{"extract", page, "--kind", "table", "--field", "a:0:string", "--settle", "1s"}, "--settle needs --live"},
		{[]string{"inventory", page, "--fail-http"}, "--fail-http needs --live"},
		{[]string{"inventory", "--live", url, page}, "--live takes no INPUT"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, r.code, r.stderr, exitUsage, c.want)
		}
	}
}

// TestWaitForBounds: the index of --wait-for is checked at 14, 15 and 16.
func TestWaitForBounds(t *testing.T) {
	for _, c := range []struct {
		s  string
		ok bool
	}{{"table:14", true}, {"table:15", true}, {"table:16", false}, {"list", true}, {"form:0", true}, {"table:+1", false}} {
		_, _, err := parseWaitFor(c.s)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.s, err)
		}
	}
}

// TestSettleBounds: --settle is checked just under, at and just over 10s.
func TestSettleBounds(t *testing.T) {
	for _, c := range []struct {
		d  string
		ok bool
	}{{"9999999999ns", true}, {"10s", true}, {"10000000001ns", false}, {"0s", true}} {
		w := &waitFlags{until: "load"}
		d, err := time.ParseDuration(c.d)
		if err != nil {
			t.Fatal(err)
		}
		w.settle = d
		if _, err := w.parse(); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.d, err)
		}
	}
}

// TestMCPUsage: the server's bad flags are refused before it serves
// anything.
func TestMCPUsage(t *testing.T) {
	state := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mcp", "extra"}, exitUsage, "mcp takes no operands"},
		{[]string{"mcp", "--state-dir", state, "--allow-origin", "ftp://x"}, exitUsage, "invalid_request: "},
		{[]string{"mcp", "--state-dir", state, "--max-store-bytes", "1048575"}, exitUsage, "invalid_request: "},
		{[]string{"mcp", "--state-dir", state, "--model-bytes", "1023"}, exitUsage, "invalid_request: "},
		{[]string{"mcp", "--state-dir", state, "--root", "/nonexistent/root"}, exitUsage, "invalid_request: "},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, r.code, r.stderr, c.code, c.want)
		}
	}
	if r := runCmd(t, "", "mcp", "-h"); r.code != exitOK || !strings.Contains(r.stdout, "-allow-origin") {
		t.Errorf("mcp -h: exit %d, stdout %q", r.code, r.stdout)
	}
}
