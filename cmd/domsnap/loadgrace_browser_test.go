//go:build browser

package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// stalledURL serves a page with a table whose image is on a server that
// accepts the connection and never answers: its document is parsed at
// once, its load event never comes.
func stalledURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>a</td><td>b</td></tr></table><img src="http://` + ln.Addr().String() + `/stalled.png">`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestLiveLoadGrace: `inventory --live` without --wait-until reads a page
// whose load event never comes soon after dom_ready (at most 5 s), where
// the stalled image would hold it for the whole 30 s default timeout, and
// says load_complete false on standard error; with --wait-until load it
// waits for the load event until --timeout ends the command with timeout.
// (A page that loads prints no warning: TestLiveHTTPStatus.) The bounds
// are loose on purpose, for a loaded machine; the browser's start is
// inside them.
func TestLiveLoadGrace(t *testing.T) {
	url := stalledURL(t)
	t0 := time.Now()
	o, r := liveInventory(t, "--live", url)
	if took := time.Since(t0); r.code != exitOK || !hasTable(o) || !strings.Contains(r.stderr, "warning: load_complete false") || took > 20*time.Second {
		t.Fatalf("default wait after %v: exit %d, %+v, stderr %q", took, r.code, o, r.stderr)
	}
	const timeout = 8 * time.Second
	t0 = time.Now()
	_, r = liveInventory(t, "--live", url, "--wait-until", "load", "--timeout", timeout.String())
	if took := time.Since(t0); r.code != exitFailure || !strings.HasPrefix(r.stderr, "timeout: ") || took < timeout {
		t.Fatalf("--wait-until load after %v: exit %d, stderr %q", took, r.code, r.stderr)
	}
}
