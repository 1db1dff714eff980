//go:build browser

package live

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/ownerstamp"
)

// shortTemp is a fresh folder under /tmp whose path is short enough for
// Chromium's singleton socket below it, removed when the test ends.
func shortTemp(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "dsl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestKilledBrowserLeavesNoTempFolder: a browser killed (SIGKILL, its
// process group) leaves nothing of its own in the temporary folder
// (TMPDIR) it was started with: Chromium's singleton folder
// (org.chromium.Chromium.*) and other temporary files are in a folder that
// goes with the browser, for a throw-away profile and for a persistent
// one. When the launcher died too, its next successor's launch sweeps
// those folders; and Close removes them.
func TestKilledBrowserLeavesNoTempFolder(t *testing.T) {
	for _, persistent := range []bool{false, true} {
		name := "throw-away"
		if persistent {
			name = "persistent"
		}
		t.Run(name, func(t *testing.T) {
			folder := t.TempDir()
			base := shortTemp(t)
			t.Setenv("TMPDIR", base)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var b *Browser
			var err error
			if persistent {
				b, err = LaunchProfile(ctx, Options{TempDir: base}, folder, nil)
			} else {
				b, err = Launch(ctx, Options{TempDir: base})
			}
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if _, err := b.NewPage(ctx); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(-b.PID(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			select {
			case <-b.Done():
			case <-time.After(30 * time.Second):
				t.Fatal("the killed browser did not exit")
			}
			ents, err := os.ReadDir(base)
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) == 0 {
				t.Fatal("nothing in the temporary folder: the browser did not use it")
			}
			for _, e := range ents {
				if !strings.HasPrefix(e.Name(), profilePrefix) || !e.IsDir() {
					t.Errorf("the killed browser left %q in the temporary folder", e.Name())
					continue
				}
				// The launcher is gone too: its mark names a process
				// that no longer exists.
				if err := os.WriteFile(filepath.Join(base, e.Name(), ownerstamp.File), []byte("2147483646 1"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if t.Failed() {
				return
			}
			next, err := Launch(ctx, Options{TempDir: base})
			if err != nil {
				t.Fatal(err)
			}
			if err := next.Close(); err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(base); len(left) != 0 {
				t.Errorf("after the next launch's sweep: %v", left)
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestProfileFilesOwnerOnly: every file and folder a browser writes in a
// persistent profile folder is its owner's alone from the start, while the
// browser runs and after it ended, before anything (the lease's end) could
// restrict them: a folder holding a person's sign-in is never readable by
// others, not even between two leases or after a launcher was killed.
func TestProfileFilesOwnerOnly(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "0123456789", MaxAge: 3600, Path: "/"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><p>stored</p><script>localStorage.setItem("k", "v"); indexedDB.open("db", 1);</script>`))
	}))
	defer site.Close()
	folder := filepath.Join(t.TempDir(), "profile")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := LaunchProfile(ctx, Options{}, folder, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, site.URL+"/"); err != nil {
		t.Fatal(err)
	}
	open := func(when string) {
		t.Helper()
		n := 0
		filepath.WalkDir(folder, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			n++
			if fi.Mode().Perm()&0o077 != 0 {
				rel, _ := filepath.Rel(folder, path)
				t.Errorf("%s: %s is %04o, open to group or others", when, rel, fi.Mode().Perm())
			}
			return nil
		})
		if n < 10 {
			t.Fatalf("%s: only %d files and folders in the profile", when, n)
		}
	}
	// Give the browser a moment to write what a visit writes.
	time.Sleep(2 * time.Second)
	open("while the browser runs")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	open("after the browser ended")
}
