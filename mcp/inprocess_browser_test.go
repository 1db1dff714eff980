//go:build browser

package mcp_test

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/mcp"
)

// startInProcess is start with the server in this process, served over an
// in-memory transport, for the tests that must wait on what happens inside
// it (a call blocked on the session's lock, the tab's count of refused
// requests) rather than sleep and hope it happened. The browser's profile
// lives under the returned server's tmp, as with start, so stop checks
// that nothing is left behind the same way.
func startInProcess(t *testing.T, cfg mcp.Config) (*server, *mcp.Server) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the browser's throw-away profile goes here
	srv, err := mcp.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	life, end := context.WithCancel(context.Background())
	run := make(chan error, 1)
	go func() { run <- srv.Run(life, st) }()
	c := sdk.NewClient(&sdk.Implementation{Name: "domsnap-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		end() // Run returns, closing the server
		<-run
		t.Fatal(err)
	}
	// Normally the client's close ends Run (stop); end is for a test that
	// fails before it gets there.
	t.Cleanup(end)
	s := &server{cs: cs, tmp: tmp, stderr: new(bytes.Buffer), run: run}
	t.Cleanup(func() { s.stop(t) })
	return s, srv
}

// waitUntil polls cond until it holds, failing the test after within.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(within); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited %v for %s", within, what)
		}
	}
}

// blockedIn reports whether a goroutine of this process is parked (in a
// select or on a channel) with fn, a function as a stack trace names it,
// on its stack.
func blockedIn(fn string) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, g := range strings.Split(string(buf), "\n\n") {
		head, _, _ := strings.Cut(g, "\n")
		parked := strings.Contains(head, "[select") || strings.Contains(head, "[chan send") || strings.Contains(head, "[chan receive")
		if parked && strings.Contains(g, "\n"+fn+"(") {
			return true
		}
	}
	return false
}
