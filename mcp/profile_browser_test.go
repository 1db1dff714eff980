//go:build browser

package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
	"github.com/domsnap/domsnap/profile"
)

// profileBrowserOf is the browser the session of cs runs on its profile.
func profileBrowserOf(t *testing.T, srv *Server, want func(*session) bool) *session {
	t.Helper()
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, sess := range srv.sessions {
		if want(sess) {
			return sess
		}
	}
	t.Fatal("no such session")
	return nil
}

// TestProfileSessionsHosted: sessions of a hosted server with a profile
// take turns on it. A cookie one session's page set is sent in the next
// session's browser (the profile persists); a second session is
// profile_busy while the first lives; the first session's browser killed,
// its next navigation starts a new browser on the profile (the lease
// retaken, the stale singleton files cleared); its idle timeout releases
// the lease. Nothing is left running on the folder, and no singleton file
// in it.
func TestProfileSessionsHosted(t *testing.T) {
	var present, missing atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "keep", Value: "persisted", Path: "/", MaxAge: 3600})
		fmt.Fprint(w, `<!doctype html><ul><li>set</li></ul>`)
	})
	mux.HandleFunc("/show", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("keep"); err == nil && c.Value == "persisted" {
			present.Add(1)
		} else {
			missing.Add(1)
		}
		fmt.Fprint(w, `<!doctype html><ul><li>shown</li></ul>`)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)

	state := filepath.Join(t.TempDir(), "state")
	profiles, err := profile.Open(state)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := profiles.Create("p", []string{site.URL})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{StateDir: state, Profile: "p"})
	if err != nil {
		t.Fatal(err)
	}
	f := startFront(t, srv, HostedConfig{IdleTimeout: 2 * time.Second})
	nav := func(cs *sdk.ClientSession, path string) string {
		return textOf(call(t, cs, "browser_navigate", map[string]any{"url": site.URL + path}))
	}

	a := f.mustConnect(t)
	if got := nav(a, "/set"); !strings.Contains(got, `"http_status":200`) {
		t.Fatalf("a /set: %s", got)
	}
	b := f.mustConnect(t)
	if got := nav(b, "/show"); !strings.Contains(got, "profile_busy") {
		t.Fatalf("b while a holds the profile: %s", got)
	}
	a.Close()
	free := func() bool {
		l, err := prof.Lease()
		if err != nil {
			return false
		}
		l.Close()
		return true
	}
	waitWithin(t, 30*time.Second, "a's session to end and release the profile", free)
	if got := nav(b, "/show"); !strings.Contains(got, `"http_status":200`) || present.Load() != 1 || missing.Load() != 0 {
		t.Fatalf("b after a ended: %s; the cookie came %d times, was missing %d times", got, present.Load(), missing.Load())
	}

	// b's browser is killed: b's next navigation starts another on the
	// profile.
	sess := profileBrowserOf(t, srv, func(s *session) bool { return s.browser != nil })
	br := sess.browser
	syscall.Kill(br.PID(), syscall.SIGKILL)
	select {
	case <-br.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the killed browser was not reaped")
	}
	if got := nav(b, "/show"); !strings.Contains(got, `"http_status":200`) {
		t.Fatalf("b after its browser was killed: %s", got)
	}

	// b idles out: its lease goes with it.
	c := f.mustConnect(t)
	if got := nav(c, "/show"); !strings.Contains(got, "profile_busy") {
		t.Fatalf("c while b holds the profile: %s", got)
	}
	waitWithin(t, 30*time.Second, "b to idle out", free)
	// c idled out too meanwhile; a new session takes the profile.
	d := f.mustConnect(t)
	if got := nav(d, "/show"); !strings.Contains(got, `"http_status":200`) {
		t.Fatalf("a new session after b idled out: %s", got)
	}
	if err := f.stop(); err != nil {
		t.Fatal(err)
	}
	if ps, _ := leftover.WaitGone(prof.Folder, 10*time.Second); len(ps) != 0 {
		t.Fatalf("left running on the profile: %v", ps)
	}
	ents, _ := os.ReadDir(prof.Folder)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "Singleton") {
			t.Errorf("left in the profile: %s", e.Name())
		}
	}
	if _, err := os.Stat(prof.Folder); err != nil {
		t.Errorf("the profile folder went: %v", err)
	}
}
