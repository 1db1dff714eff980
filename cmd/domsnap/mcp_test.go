package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/mcp"
)

// TestMCPHostedRefusesToStart: the HTTP server does not start without a
// token file, with one open to group or others, on an address that is not
// loopback without --allow-remote, or with limits out of bounds; the
// hosted flags need --http. Each refusal is a usage error (exit 2) that
// never quotes the token, and nothing is listened on.
func TestMCPHostedRefusesToStart(t *testing.T) {
	dir := t.TempDir()
	secret := "never-show-this-token-0123456789"
	good := filepath.Join(dir, "token")
	os.WriteFile(good, []byte(secret+"\n"), 0o600)
	open := filepath.Join(dir, "open-token")
	os.WriteFile(open, []byte(secret+"\n"), 0o600)
	os.Chmod(open, 0o640)
	state := filepath.Join(dir, "state")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--http", "127.0.0.1:0"}, "token file is required"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", filepath.Join(dir, "missing")}, "cannot open"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", open}, "group or others"},
		{[]string{"--http", "0.0.0.0:0", "--token-file", good}, "--allow-remote"},
		{[]string{"--http", ":0", "--token-file", good}, "--allow-remote"},
		{[]string{"--http", "127.0.0.1", "--token-file", good}, "host:port"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", good, "--max-sessions", "0"}, "--max-sessions"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", good, "--max-sessions", "65"}, "--max-sessions"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", good, "--idle-timeout", "0s"}, "--idle-timeout"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", good, "--idle-timeout", "999ms"}, "--idle-timeout"},
		{[]string{"--http", "127.0.0.1:0", "--token-file", good, "--idle-timeout", "24h0m1s"}, "--idle-timeout"},
		{[]string{"--token-file", good}, "--token-file needs --http"},
		{[]string{"--allow-remote"}, "--allow-remote needs --http"},
		{[]string{"--max-sessions", "2"}, "--max-sessions needs --http"},
		{[]string{"--idle-timeout", "1m"}, "--idle-timeout needs --http"},
	}
	for _, c := range cases {
		args := append([]string{"mcp", "--state-dir", state}, c.args...)
		r := runCmd(t, "", args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, secret) {
			t.Errorf("%v: exit %d, stderr %q", c.args, r.code, r.stderr)
		}
	}
}

// TestMCPHelpNamesHostedFlags: the help lists every hosted flag.
func TestMCPHelpNamesHostedFlags(t *testing.T) {
	r := runCmd(t, "", "help", "mcp")
	for _, f := range []string{"-http", "-token-file", "-allow-remote", "-max-sessions", "-idle-timeout"} {
		if !strings.Contains(r.stdout, f) {
			t.Errorf("help mcp lacks %s:\n%s", f, r.stdout)
		}
	}
}

// TestMCPHelpNamesTools: the help names every tool the server can serve.
func TestMCPHelpNamesTools(t *testing.T) {
	r := runCmd(t, "", "help", "mcp")
	names := mcp.ToolNames()
	if len(names) < 6 {
		t.Fatalf("the server names %d tools: %v", len(names), names)
	}
	for _, name := range names {
		if !strings.Contains(r.stdout, name) {
			t.Errorf("help mcp lacks %s:\n%s", name, r.stdout)
		}
	}
}

// TestMCPTokenFIFO: a --token-file that is a named pipe with no writer
// makes start-up fail at once with a usage error naming the cause, where
// opening it plainly would wait for a writer for ever. Should the refusal
// not come, a writer opens the pipe so the test fails instead of hanging.
func TestMCPTokenFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "token")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan result, 1)
	go func() {
		got <- runCmd(t, "", "mcp", "--state-dir", filepath.Join(dir, "state"), "--http", "127.0.0.1:0", "--token-file", fifo)
	}()
	var r result
	select {
	case r = <-got:
	case <-time.After(10 * time.Second):
		t.Error("start-up still waits on the named pipe after 10s")
		if w, err := os.OpenFile(fifo, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		r = <-got
	}
	if r.code != exitUsage || !strings.Contains(r.stderr, "not a regular file") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}
