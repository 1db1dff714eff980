package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

func TestFindChrome(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "chrome")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvChrome, "")
	if p, err := FindChrome(bin); err != nil || p != bin {
		t.Fatalf("explicit: %q %v", p, err)
	}
	for _, missing := range []string{filepath.Join(dir, "none"), dir} {
		if _, err := FindChrome(missing); !isNoBrowser(err) {
			t.Errorf("explicit %q: %v", missing, err)
		}
	}
	t.Setenv(EnvChrome, bin)
	if p, err := FindChrome(""); err != nil || p != bin {
		t.Fatalf("from the environment: %q %v", p, err)
	}
	t.Setenv(EnvChrome, filepath.Join(dir, "none"))
	if _, err := FindChrome(""); !isNoBrowser(err) {
		t.Errorf("a missing $%s must not fall through: %v", EnvChrome, err)
	}
	// The explicit path wins over the environment.
	if p, err := FindChrome(bin); err != nil || p != bin {
		t.Fatalf("explicit over environment: %q %v", p, err)
	}
}

func isNoBrowser(err error) bool {
	return err != nil && errcode.CodeOf(err) == errcode.CaptureFailed && errorsIs(err, ErrNoBrowser)
}

func TestLaunchBrowserThatDies(t *testing.T) {
	readers, conns := pipeReaders.Load(), pipeConns.Load()
	dir := t.TempDir()
	bin := filepath.Join(dir, "chrome")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho dying >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	start := time.Now()
	_, err := Launch(t.Context(), Options{Path: bin, StartTimeout: 20 * time.Second, TempDir: tmp})
	if !isNoBrowser(err) || !strings.Contains(err.Error(), "dying") {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("Launch waited for the timeout instead of noticing the exit")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("profiles left behind: %v", left)
	}
	noPipeLeft(t, readers, conns)
}

func TestLaunchBrowserThatHangs(t *testing.T) {
	readers, conns := pipeReaders.Load(), pipeConns.Load()
	dir := t.TempDir()
	bin := filepath.Join(dir, "chrome")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	start := time.Now()
	_, err := Launch(t.Context(), Options{Path: bin, StartTimeout: 300 * time.Millisecond, TempDir: tmp})
	if errcode.CodeOf(err) != errcode.CaptureFailed {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 8*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("profiles left behind: %v", left)
	}
	noPipeLeft(t, readers, conns)
}

// noPipeLeft checks that the process's pipe readers and connections are
// back to readers and conns. The counters are the whole process's, and in
// the browser partition a browser an earlier test closed may still be
// ending as this one checks: a count above the one wanted is given
// pipeSettle to come down before it is a leak.
func noPipeLeft(t *testing.T, readers, conns int64) {
	t.Helper()
	deadline := time.Now().Add(pipeSettle)
	for (pipeReaders.Load() != readers || pipeConns.Load() != conns) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pipeReaders.Load() != readers || pipeConns.Load() != conns {
		t.Errorf("readers %d connections %d left, want %d %d", pipeReaders.Load(), pipeConns.Load(), readers, conns)
	}
}

// pipeSettle is how long noPipeLeft waits for the counters.
const pipeSettle = 10 * time.Second
