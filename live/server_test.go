package live

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

func TestServeOnePageOnly(t *testing.T) {
	body := []byte("<p>caf\xe9</p>")
	srv, err := Serve(body, "windows-1252")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") || !strings.HasSuffix(srv.URL(), PagePath) {
		t.Fatalf("URL %q", srv.URL())
	}
	resp, err := http.Get(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(got) != string(body) {
		t.Fatalf("page: %d %q", resp.StatusCode, got)
	}
	for h, want := range map[string]string{
		"Content-Type":            "text/html; charset=windows-1252",
		"Content-Security-Policy": "script-src 'none'",
	} {
		if v := resp.Header.Get(h); v != want {
			t.Errorf("%s: %q, want %q", h, v, want)
		}
	}
	base := strings.TrimSuffix(srv.URL(), PagePath)
	for _, path := range []string{"/", "/favicon.ico", "/page.html/x", "/style.css", PagePath + "x"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || strings.Contains(string(b), "caf") {
			t.Errorf("%s: %d %q", path, resp.StatusCode, b)
		}
		if resp.Header.Get("Content-Security-Policy") != "script-src 'none'" {
			t.Errorf("%s: no CSP on the failure", path)
		}
	}
	resp, err = http.Post(srv.URL(), "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST: %d", resp.StatusCode)
	}
	// The bytes are copied: changing the caller's slice changes nothing.
	body[0] = 'X'
	resp, _ = http.Get(srv.URL())
	got, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if got[0] != '<' {
		t.Fatal("the server shares the caller's buffer")
	}
}

func TestServeLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:80", "garbage"} {
		if _, err := ServeOn(addr, nil, ""); errcode.CodeOf(err) != errcode.CaptureFailed {
			t.Errorf("%q: %v", addr, err)
		}
	}
	srv, err := ServeOn("[::1]:0", nil, "")
	if err == nil {
		srv.Close()
	}
}

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

// TestLaunchBrowserThatDies starts a "browser" that exits at once: Launch
// must fail promptly, say so, and leave no profile and no pipe reader
// behind.
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

// TestLaunchBrowserThatHangs starts a "browser" that never answers over
// the pipe: Launch gives up at StartTimeout, kills it without asking it to
// close (it would not answer that either), and leaves no pipe reader behind.
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

// noPipeLeft fails when more pipe readers or virtual connections run than
// before a failed launch: the launch closed its pipe before it returned,
// and the shutdown waited for the reader to end.
func noPipeLeft(t *testing.T, readers, conns int64) {
	t.Helper()
	if pipeReaders.Load() != readers || pipeConns.Load() != conns {
		t.Errorf("readers %d connections %d left, want %d %d", pipeReaders.Load(), pipeConns.Load(), readers, conns)
	}
}
