//go:build browser

package mcp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// listeningFamily lists the TCP ports a process and all its descendants
// listen on.
func listeningFamily(t *testing.T, pid int) []string {
	t.Helper()
	fam, err := leftover.Family(pid)
	if err != nil {
		t.Fatal(err)
	}
	addrs, err := leftover.ListeningTCP(fam)
	if err != nil {
		t.Fatal(err)
	}
	return addrs
}

// TestBrowserListensOnNoPort: the browser the server starts, with every
// helper it forked, listens on no TCP port, in standard-input mode and in
// hosted mode, after a navigation: a DevTools port on loopback would let any
// local user drive every session's tab without the server's token. The
// detector is shown to work on a process known to listen: the test's own web
// server, and the hosted server's HTTP port.
func TestBrowserListensOnNoPort(t *testing.T) {
	web := site(t)
	if len(listeningFamily(t, os.Getpid())) == 0 {
		t.Fatal("the detector does not see the test's own web server listening")
	}
	t.Run("stdio", func(t *testing.T) {
		s := start(t, filepath.Join(t.TempDir(), "state"))
		ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"}))
		if addrs := listeningFamily(t, s.browserPID(t)); len(addrs) > 0 {
			t.Fatalf("the browser listens on %v", addrs)
		}
	})
	t.Run("hosted", func(t *testing.T) {
		p := startHosted(t)
		cs := p.client(t)
		if o := invoke(cs, "browser_navigate", map[string]any{"url": web.URL + "/table"}); o.err != nil || o.code != "" {
			t.Fatalf("navigate: %v %s", o.err, o.code)
		}
		if len(listeningFamily(t, p.cmd.Process.Pid)) == 0 {
			t.Fatal("the detector does not see the hosted server's own port")
		}
		if addrs := listeningFamily(t, p.chromePID(t)); len(addrs) > 0 {
			t.Fatalf("the browser listens on %v", addrs)
		}
	})
}
