package mcp

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/mcp/internal/front"
)

// heldLine is the line that counts the refusals of one kind held back.
var heldLine = regexp.MustCompile(`^refused (\d+) more requests (.+) since \d\d:\d\d:\d\d, not logged one by one$`)

// TestHostedRefusalFlood: a flood of requests with a wrong token writes a
// bounded log (it wrote one line each), and once the server stops the log
// still counts every one of them.
func TestHostedRefusalFlood(t *testing.T) {
	srv := offlineServer(t, t.TempDir())
	f := startFront(t, srv, HostedConfig{})
	wrong := f.token[:len(f.token)-1] + "z"
	waitFor(t, "the listening line", func() bool { return strings.Contains(f.log.String(), "listening") })
	const flood = 300
	start := time.Now()
	for i := 0; i < flood; i++ {
		if code, _, _ := f.post(t, "/mcp", map[string]string{"Authorization": "Bearer " + wrong}); code != http.StatusUnauthorized {
			t.Fatalf("request %d: %d", i, code)
		}
	}
	during := strings.Count(f.log.String(), "\n")
	if err := f.stop(); err != nil {
		t.Fatal(err)
	}
	single, held := 0, 0
	for _, s := range strings.Split(strings.TrimSpace(f.log.String()), "\n") {
		s = s[strings.Index(s, "domsnap mcp: ")+len("domsnap mcp: "):]
		// The date and the time the logger writes first.
		s = s[strings.IndexByte(s, ' ')+1:]
		s = s[strings.IndexByte(s, ' ')+1:]
		if strings.HasPrefix(s, "refused a request with a wrong token from ") {
			single++
		} else if m := heldLine.FindStringSubmatch(s); m != nil && m[2] == "with a wrong token" {
			n, _ := strconv.Atoi(m[1])
			held += n
		}
	}
	// A window lasts front.RefusalWindow: a slow machine may take more than one
	// for the flood, each writing its burst and one count.
	windows := 1 + int(time.Since(start)/front.RefusalWindow)
	if during > 2+windows*(front.RefusalBurst+1) {
		t.Fatalf("%d refused requests wrote %d lines", flood, during)
	}
	if single+held != flood {
		t.Fatalf("the log counts %d + %d refused requests, want %d:\n%s", single, held, flood, f.log.String())
	}
}
