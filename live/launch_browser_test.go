//go:build browser

package live

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/pageserve"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// launch starts a browser for one test and closes it when the test ends. The
// partition must fail, not skip, without Chromium, so a launch failure fails
// the test.
func launch(t testing.TB) *Browser {
	t.Helper()
	b, err := Launch(context.Background(), Options{})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func processGone(pid int) bool {
	return syscall.Kill(pid, 0) != nil
}

func TestLaunchAndClose(t *testing.T) {
	b := launch(t)
	if !strings.Contains(b.Product(), "/") || !strings.HasPrefix(b.Version(), "Chrome/") {
		t.Fatalf("product %q version %q", b.Product(), b.Version())
	}
	profile, pid := b.Profile(), b.PID()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("profile left behind: %v", err)
	}
	if !processGone(pid) {
		t.Fatal("browser process still alive")
	}
	if err := b.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
}

func TestLaunchContextCancelKillsBrowser(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b, err := Launch(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	profile := b.Profile()
	cancel()
	select {
	case <-b.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("browser survived its context")
	}
	b.Close()
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("profile left behind: %v", err)
	}
}

func TestLaunchCancelledHalfWay(t *testing.T) {
	// A deadline far shorter than a browser start, or a cancellation as
	// early: Launch must give up, leave no process and no profile behind,
	// and say which of the two stopped it.
	for _, c := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		code errcode.Code
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 30*time.Millisecond)
		}, errcode.Timeout},
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(30*time.Millisecond, cancel)
			return ctx, cancel
		}, errcode.Cancelled},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			ctx, cancel := c.ctx()
			defer cancel()
			b, err := Launch(ctx, Options{TempDir: tmp})
			if err == nil {
				b.Close()
				t.Fatal("launch succeeded within 30ms; cannot test the half-way path")
			}
			if code := errcode.CodeOf(err); code != c.code {
				t.Fatalf("code %q (%v), want %q", code, err, c.code)
			}
			if leftover, _ := os.ReadDir(tmp); len(leftover) > 0 {
				t.Fatalf("profiles left behind: %v", leftover)
			}
		})
	}
}

func TestLaunchMissingBinary(t *testing.T) {
	_, err := Launch(context.Background(), Options{Path: "/nonexistent/chromium"})
	if !errors.Is(err, ErrNoBrowser) {
		t.Fatalf("err %v, want ErrNoBrowser", err)
	}
}

func TestServeAndCapture(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	srv, err := pageserve.Serve([]byte("<!doctype html><p id=x>caf\xe9</p><script>document.title='ran'</script><noscript>ns</noscript>"), "windows-1252")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	n0, _ := p.Navigations(ctx)
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		t.Fatal(err)
	}
	n1, _ := p.Navigations(ctx)
	if n1 != n0+1 {
		t.Fatalf("navigations %d -> %d, want one more", n0, n1)
	}
	title, err := p.Evaluate(ctx, "document.title")
	if err != nil {
		t.Fatal(err)
	}
	if string(title) != `""` {
		t.Fatalf("a script ran despite the CSP: title %s", title)
	}
	raw0, _ := p.Evaluate(ctx, "document.getElementById('x').textContent")
	var text string
	if err := json.Unmarshal(raw0, &text); err != nil || text != "café" {
		t.Fatalf("charset not applied: %q (%v)", text, err)
	}
	raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Documents []json.RawMessage `json:"documents"`
		Strings   []string          `json:"strings"`
	}
	if err := json.Unmarshal(raw, &top); err != nil || len(top.Documents) != 1 {
		t.Fatalf("capture: %v, %d documents", err, len(top.Documents))
	}
}

// singletonDir is the folder outside the profile where the browser keeps
// its singleton socket, read from the profile's link.
func singletonDir(t *testing.T, profile string) string {
	t.Helper()
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil {
		t.Fatalf("the profile has no SingletonSocket link: %v", err)
	}
	dir := filepath.Dir(target)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the singleton folder is not there while the browser runs: %v", err)
	}
	return dir
}

// TestNoSingletonDirLeft: the singleton folder Chromium keeps outside the
// profile is gone after Close, when the browser closed normally and when it
// was killed (SIGKILL, as a crash or the OOM killer would), which leaves
// the browser no chance to remove it itself.
func TestNoSingletonDirLeft(t *testing.T) {
	for _, kill := range []bool{false, true} {
		b := launch(t)
		profile := b.Profile()
		dir := singletonDir(t, profile)
		if kill {
			if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			select {
			case <-b.Done():
			case <-time.After(15 * time.Second):
				t.Fatal("the killed browser was not reaped")
			}
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("the killed browser removed its singleton folder itself (%v): this test no longer tests anything", err)
			}
		}
		b.Close()
		for _, p := range []string{dir, profile} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("killed %v: %s left behind (%v)", kill, p, err)
			}
		}
	}
}
