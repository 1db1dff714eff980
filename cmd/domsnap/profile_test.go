package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/profile"
)

// TestProfileCommands: list and remove, and every refusal that comes
// before a browser: bad names, a URL with a password, no display, --profile
// without --live, an unknown profile, and --principals with what it
// replaces.
func TestProfileCommands(t *testing.T) {
	state := t.TempDir()
	if r := runCmd(t, "", "profile"); r.code != exitUsage {
		t.Errorf("no subcommand: %d", r.code)
	}
	if r := runCmd(t, "", "profile", "lst"); r.code != exitUsage || !strings.Contains(r.stderr, "did you mean list?") {
		t.Errorf("a typo: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "help", "profile"); r.code != exitOK || !strings.Contains(r.stdout, "usage: domsnap profile login NAME URL") {
		t.Errorf("help: %d %q", r.code, r.stdout)
	}
	if r := runCmd(t, "", "profile", "list", "--state-dir", state); r.code != exitOK || r.stdout != "" {
		t.Errorf("an empty list: %d %q", r.code, r.stdout)
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	const secret = "pw-canary-31337"
	for _, args := range [][]string{
		{"profile", "login", ".hidden", "https://a.example/", "--state-dir", state},
		{"profile", "login", "Upper", "https://a.example/", "--state-dir", state},
		{"profile", "login", "p", "https://u:" + secret + "@a.example/", "--state-dir", state},
		{"profile", "login", "p", "ftp://a.example/", "--state-dir", state},
		{"profile", "login", "p", "https://a.example/", "--origin", "https://b.example/path", "--state-dir", state},
		{"profile", "login", "p", "--state-dir", state},
	} {
		r := runCmd(t, "", args...)
		if r.code != exitUsage || strings.Contains(r.stderr, secret) {
			t.Errorf("%q: exit %d, %q", args, r.code, r.stderr)
		}
	}
	r := runCmd(t, "", "profile", "login", "p", "https://a.example/", "--state-dir", state)
	if r.code != exitUsage || !strings.Contains(r.stderr, "no display") {
		t.Errorf("no display: %d %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(state, profile.Dir)); !os.IsNotExist(err) {
		t.Errorf("a refused login made the profiles folder: %v", err)
	}

	store, err := profile.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Create("p", []string{"https://b.example", "https://a.example"}); err != nil {
		t.Fatal(err)
	}
	if r := runCmd(t, "", "profile", "list", "--state-dir", state); r.code != exitOK || r.stdout != "p\thttps://a.example https://b.example\tnever used\n" {
		t.Errorf("list: %d %q", r.code, r.stdout)
	}
	if r := runCmd(t, "", "inventory", "--live", "https://a.example/", "--profile", "nope", "--state-dir", state); r.code != exitFailure || !strings.HasPrefix(r.stderr, "unknown_profile: ") {
		t.Errorf("an unknown profile: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "inventory", "--live", "https://c.example/", "--profile", "p", "--state-dir", state); r.code != exitFailure || !strings.HasPrefix(r.stderr, "navigation_refused: ") || strings.Contains(r.stderr, "c.example") {
		t.Errorf("an origin the profile is not bound to: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "extract", "--profile", "p", "--kind", "table", "--field", "a:0:string", "page.html"); r.code != exitUsage || !strings.Contains(r.stderr, "--profile needs --live") {
		t.Errorf("--profile without --live: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "mcp", "--profile", "nope", "--state-dir", state); r.code != exitFailure || !strings.HasPrefix(r.stderr, "unknown_profile: ") {
		t.Errorf("mcp with an unknown profile: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "mcp", "--http", "127.0.0.1:0", "--principals", "x.json", "--token-file", "t"); r.code != exitUsage {
		t.Errorf("--principals with --token-file: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "mcp", "--principals", "x.json"); r.code != exitUsage || !strings.Contains(r.stderr, "--principals needs --http") {
		t.Errorf("--principals without --http: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "profile", "remove", "p", "--state-dir", state); r.code != exitOK {
		t.Errorf("remove: %d %q", r.code, r.stderr)
	}
	if r := runCmd(t, "", "profile", "remove", "p", "--state-dir", state); r.code != exitFailure || !strings.HasPrefix(r.stderr, "unknown_profile: ") {
		t.Errorf("remove again: %d %q", r.code, r.stderr)
	}
}
