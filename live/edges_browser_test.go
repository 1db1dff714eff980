//go:build browser

package live

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/leftover"
	"github.com/domsnap/domsnap/internal/testkit/silent"
	"github.com/domsnap/domsnap/snapshot"
)

// orphanEnv, when set in the environment of this test binary, makes it the
// orphan helper instead of running tests: it launches a browser in the
// folder the variable names, opens a tab, prints the profile and the
// browser's pid, and exits without closing anything.
const orphanEnv = "DOMSNAP_TEST_ORPHAN_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(orphanEnv); dir != "" {
		os.Exit(runOrphan(dir))
	}
	os.Exit(m.Run())
}

func runOrphan(dir string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(context.Background(), Options{TempDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := b.NewPage(ctx)
	if err == nil {
		err = p.Navigate(ctx, "data:text/html,<p>orphan</p>")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("%s %d\n", b.Profile(), b.PID())
	// No Close: the process ends with the browser and the tab open.
	return 0
}

// marked returns a fresh folder to launch browsers in, whose path marks
// every process of those launches, and fails the test if any such process
// is still alive when it ends.
//
// The folder's name is short: Chromium puts sockets under it, and a Unix
// socket path holds at most 107 bytes, which the long names t.TempDir makes
// from subtest names can exceed.
func marked(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ds")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		noLeftovers(t, dir)
		os.RemoveAll(dir)
	})
	return dir
}

// noLeftovers fails when a process holding marker is alive a few seconds
// from now, and kills it so it does not outlive the test.
func noLeftovers(t *testing.T, marker string) {
	t.Helper()
	left, err := leftover.WaitGone(marker, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range left {
		t.Errorf("process %d left behind: %.120s", p.PID, p.Cmdline)
		if pr, err := os.FindProcess(p.PID); err == nil {
			pr.Kill()
		}
	}
}

// TestOrphanedBrowserDies runs a program that launches a browser, loads a
// page and exits without Close. The browser and every helper it forked
// must die with it. The profile folder cannot be removed by a program that
// is gone; the next launch in the same folder sweeps it.
func TestOrphanedBrowserDies(t *testing.T) {
	dir := marked(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanEnv+"="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v (%s)", err, out)
	}
	var profile string
	var pid int
	if _, err := fmt.Sscanf(string(out), "%s %d", &profile, &pid); err != nil || !strings.HasPrefix(profile, dir) {
		t.Fatalf("helper printed %q", out)
	}
	left, err := leftover.WaitGone(dir, 15*time.Second)
	if err != nil || len(left) > 0 {
		t.Fatalf("the browser outlived its owner: %v %v", left, err)
	}
	if _, err := os.Stat(profile); err != nil {
		t.Fatalf("the orphan's profile is already gone (%v): the sweep below would prove nothing", err)
	}
	b, err := Launch(context.Background(), Options{TempDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Errorf("the next launch left the stale profile: %v", err)
	}
	own := b.Profile()
	b.Close()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left in the folder: %v (own profile %s)", entries, filepath.Base(own))
	}
}

// scriptServer serves one page whose scripts run (unlike Serve, which
// forbids them), so a test can load a hostile page.
func scriptServer(t *testing.T, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// silentServer accepts connections on loopback and never answers them. It
// TestDialogsDismissed: a page that opens an alert, a confirm and a prompt
// while it loads still loads; each dialog is dismissed as a person pressing
// Cancel would (confirm gives false, prompt null), and the capture shows it.
func TestDialogsDismissed(t *testing.T) {
	url := scriptServer(t, `<!DOCTYPE html><html><head><meta charset="utf-8"><title>dialogs</title></head><body>
<p id="r">not run</p>
<script>alert("one"); document.getElementById("r").textContent = "confirm=" + confirm("two") + " prompt=" + prompt("three", "x");</script>
</body></html>`)
	b, err := Launch(context.Background(), Options{TempDir: marked(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"confirm=false prompt=null"`) {
		t.Error("the dialogs were not dismissed with Cancel")
	}
	if n := p.DialogsDismissed(); n != 3 {
		t.Errorf("%d dialogs dismissed, want 3", n)
	}
}

// TestLiveDeadlines: a page whose script never yields, before or after the
// load event, and a server that never answers, each end in timeout soon
// after the deadline, and closing the tab and the browser afterwards is
// prompt too. The bounds are loose on purpose: the machine may be loaded.
func TestLiveDeadlines(t *testing.T) {
	const deadline = 3 * time.Second
	for _, c := range []struct {
		name, url string
	}{
		{"loop while parsing", scriptServer(t, `<!DOCTYPE html><title>loop</title><script>for (;;) {}</script><p>never</p>`)},
		{"loop after load", scriptServer(t, `<!DOCTYPE html><title>loop</title><p>once</p><script>onload = () => setTimeout(() => { for (;;) {} })</script>`)},
		{"silent server", silent.Start(t).URL()},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := Launch(context.Background(), Options{TempDir: marked(t)})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			p, err := b.NewPage(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			err = p.Navigate(ctx, c.url)
			if err == nil {
				_, err = p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
			}
			took := time.Since(start)
			if code := errcode.CodeOf(err); code != errcode.Timeout {
				t.Fatalf("code %q (%v), want timeout", code, err)
			}
			if took > deadline+10*time.Second {
				t.Errorf("took %v for a %v deadline", took, deadline)
			}
			start = time.Now()
			p.Close()
			if err := b.Close(); err != nil {
				t.Error(err)
			}
			t.Logf("timeout after %v, closed in %v", took, time.Since(start))
			if took := time.Since(start); took > 15*time.Second {
				t.Errorf("closing took %v", took)
			}
		})
	}
}
