//go:build browser

package live

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// guardSecret is in every page outside the policy of these tests.
const guardSecret = "guard-secret-mark"

// TestGuardStopsCommitsOutside: with preloading on (so the launch
// preference that turns it off plays no part), a page of the allowed
// origin reaches a page of another origin through a speculation-rules
// prefetch or prerender, or moves its main frame to a blob: URL or to
// about:blank. None of these is a request the Fetch domain pauses; each is
// stopped where it commits: the tab is left on about:blank, Navigations
// answers navigation_refused once, and no capture of the session ever holds
// the page outside the policy.
func TestGuardStopsCommitsOutside(t *testing.T) {
	saved := profilePreferences
	profilePreferences = nil
	t.Cleanup(func() { profilePreferences = saved })

	var hits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<ul><li>` + guardSecret + `</li></ul>`))
	}))
	defer other.Close()
	leave := func(script string, after time.Duration) string {
		return `<script>addEventListener("load", () => setTimeout(() => { ` + script + ` }, ` + strconv.FormatInt(after.Milliseconds(), 10) + `))</script>`
	}
	toOther := `location.href = "` + other.URL + `/secret"`
	pages := map[string]string{
		"/prefetch":  `<script type="speculationrules">{"prefetch":[{"source":"list","urls":["` + other.URL + `/secret"]}]}</script>` + leave(toOther, 1500*time.Millisecond),
		"/prerender": `<script type="speculationrules">{"prerender":[{"source":"list","urls":["` + other.URL + `/secret"]}]}</script>` + leave(toOther, 1500*time.Millisecond),
		// The mark is put together by the script, so the allowed page's own
		// source does not hold it.
		"/blob":  leave(`location.href = URL.createObjectURL(new Blob(["<p>`+guardSecret[:5]+`" + "`+guardSecret[5:]+`</p>"], {type: "text/html"}))`, 200*time.Millisecond),
		"/blank": leave(`location.href = "about:blank"`, 200*time.Millisecond),
	}
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, other.URL+"/secret", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<p>allowed</p>` + pages[r.URL.Path]))
	}))
	defer allowed.Close()

	b := launch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	bc, err := b.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	p, err := bc.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Guard(ctx, func(u string) bool { return strings.HasPrefix(u, allowed.URL+"/") }); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(p, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := ""
	s.onCapture = func(raw []byte) {
		if bytes.Contains(raw, []byte(guardSecret)) {
			t.Errorf("%s: a capture holds a page outside the policy", path)
		}
	}
	for _, path = range []string{"/prefetch", "/prerender", "/blob", "/blank"} {
		hits.Store(0)
		refused := p.Refused()
		if _, err := p.Goto(ctx, allowed.URL+path, UntilLoad, time.Now().Add(20*time.Second)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// Capture until the move is refused; a capture in between sees the
		// allowed page or fails because the tab navigated.
		seen := false
		for end := time.Now().Add(10 * time.Second); !seen && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			_, err := s.Capture(ctx)
			switch errcode.CodeOf(err) {
			case errcode.NavigationRefused:
				seen = true
			case "", errcode.NavigatedDuringCapture, errcode.CaptureFailed:
				// A capture racing a navigation may fail; the next one
				// reads the tab again.
			default:
				t.Fatalf("%s: %v", path, err)
			}
		}
		if !seen {
			raw, _ := p.Evaluate(ctx, "location.href")
			t.Fatalf("%s: the move was never refused (hits %d, refused %d, href %s)", path, hits.Load(), p.Refused()-refused, raw)
		}
		// Once only, and the tab is blank.
		if _, err := p.Navigations(ctx); err != nil {
			t.Fatalf("%s: refused again: %v", path, err)
		}
		var href string
		raw, err := p.Evaluate(ctx, "location.href")
		if err != nil || json.Unmarshal(raw, &href) != nil || href != "about:blank" {
			t.Fatalf("%s: the tab is on %s (%v), want about:blank", path, raw, err)
		}
		if p.Refused() != refused {
			t.Fatalf("%s: the Fetch domain refused it, so the commit check was not what stopped it", path)
		}
		if path == "/prefetch" || path == "/prerender" {
			// The speculation did load the other origin's page (the tab may
			// have asked it for an icon as well).
			if hits.Load() == 0 {
				t.Fatalf("%s: the other origin was never asked: nothing was speculated", path)
			}
		}
		// The request side still knows the main frame, also after a
		// prerendered page took its place: a redirect away is stopped
		// before it is made.
		hits.Store(0)
		if _, err := p.Goto(ctx, allowed.URL+"/away", UntilLoad, time.Now().Add(20*time.Second)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if p.Refused() != refused+1 || hits.Load() != 0 {
			t.Fatalf("%s: a redirect away afterwards: %d refused, the other origin asked %d times", path, p.Refused()-refused, hits.Load())
		}
	}
}
