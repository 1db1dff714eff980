package snapshot

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestNoCDPClient: reading saved snapshots and HTML must not link the CDP
// client (github.com/mafredri/cdp and its websocket), which only live needs.
// The import graph is asked of the go command itself, so the test fails the
// day any package below these, directly or not, imports the client again.
func TestNoCDPClient(t *testing.T) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	pkgs := []string{
		"github.com/domsnap/domsnap",
		"github.com/domsnap/domsnap/snapshot",
		"github.com/domsnap/domsnap/internal/capture",
	}
	out, err := exec.CommandContext(ctx, goCmd, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	seen := map[string]bool{}
	for _, d := range deps {
		seen[d] = true
		if strings.HasPrefix(d, "github.com/mafredri/cdp") || d == "github.com/domsnap/domsnap/live" {
			t.Errorf("an offline package depends on %s", d)
		}
	}
	// The listing must be the real graph, not an empty or failed one.
	for _, want := range append(pkgs, "github.com/domsnap/domsnap/domtree", "golang.org/x/net/html") {
		if !seen[want] {
			t.Errorf("go list -deps does not list %s: %d lines", want, len(deps))
		}
	}
}
