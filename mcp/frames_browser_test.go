//go:build browser

package mcp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// frameSite serves pages; each is the whole document.
func frameSite(t *testing.T, pages map[string]string, post func(r *http.Request)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && post != nil {
			post(r)
		}
		body, found := pages[r.URL.Path]
		if !found {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// framesOmitted reads an answer's view_scan.frames_omitted.
func framesOmitted(t *testing.T, b []byte) int {
	t.Helper()
	var a struct {
		ViewScan struct {
			FramesOmitted int `json:"frames_omitted"`
		} `json:"view_scan"`
	}
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a.ViewScan.FramesOmitted
}

// TestFramesConsentBanner: a consent banner in a frame of the page's own
// origin covers the page. Through the tool server the banner's buttons are
// in the page view; a click on the page's own link below it is refused as
// obscured, naming nothing of the banner; "Accept all" is clicked inside
// the frame (the banner goes), and then the page's link works.
func TestFramesConsentBanner(t *testing.T) {
	web := frameSite(t, map[string]string{
		"/": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>News</title></head><body>
<main><h1>Today's news</h1><p>Story one.</p><a href="/story">Read the story</a></main>
<iframe id="cmp" title="Consent" src="/consent" style="position:fixed;inset:0;width:100%;height:100%;border:0;z-index:100"></iframe></body></html>`,
		"/consent": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Consent</title></head>
<body style="background:rgba(0,0,0,.5)"><div role="dialog" aria-label="Your privacy" style="background:white;margin:20vh auto;width:300px;padding:16px">
<p>We and our 812 partners use cookies.</p>
<button onclick="parent.postMessage('rejected', '*')">Reject all</button>
<button onclick="parent.document.getElementById('cmp').remove()">Accept all</button></div></body></html>`,
		"/story": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Story</title></head><body><main><h1>The story</h1></main></body></html>`,
	}, nil)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--allow-origin", web.URL)
	v := parseView(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/"})))
	if !strings.Contains(v.Text, "812 partners") {
		t.Errorf("the banner's text is not in the page view: %q", v.Text)
	}
	res := s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "link", "Read the story")})
	b := resultText(t, res)
	if code, sent := actFailed(t, res); code != "not_actionable" || sent || !strings.Contains(string(b), "obscured") {
		t.Fatalf("a click below the banner: %s", b)
	}
	if strings.Contains(string(b), "Accept") || strings.Contains(string(b), "partners") {
		t.Errorf("the refusal names the banner's content: %s", b)
	}
	v = parseView(t, ok(t, s.call(t, "browser_observe", map[string]any{})))
	v = s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Accept all")})
	if v.Action.Outcome != "done" || strings.Contains(v.Text, "partners") {
		t.Fatalf("after Accept all: %+v, text %q", v.Action, v.Text)
	}
	v = s.acted(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "link", "Read the story")})
	if v.Action.Outcome != "navigated" || !strings.Contains(v.Text, "The story") {
		t.Errorf("the page's link after the banner: %+v, text %q", v.Action, v.Text)
	}
}

// TestFramesCrossOriginForm: a newsletter form in a frame of another
// origin is filled and submitted when the session allows that origin too
// (the email, a canary, reaches the form's server and no answer, stored
// file or log); when it does not, the frame is never read: nothing of it
// (a canary in its text) is in any answer or stored file, the answer
// counts it in view_scan.frames_omitted, and the page's own controls are
// all the page view lists. Both for a frame of another origin of the
// page's site, which the browser renders in the page's process, and for
// one of another site, which it renders in a process of its own.
func TestFramesCrossOriginForm(t *testing.T) {
	const typed = "CANARY-NEWS-a7e3@example.test"
	const inside = "CANARY-INSIDE-5b19"
	var mu sync.Mutex
	var got []string
	form := frameSite(t, map[string]string{
		"/signup": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Signup</title></head><body>
<form method="post" action="/thanks"><label>Email address <input type="email" name="email"></label>
<button>Subscribe</button></form><p>` + inside + `</p></body></html>`,
		"/thanks": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Thanks</title></head><body><p>You are subscribed.</p></body></html>`,
	}, func(r *http.Request) {
		r.ParseForm()
		mu.Lock()
		got = append(got, r.PostForm.Get("email"))
		mu.Unlock()
	})
	// 127.0.0.1 on another port: another origin of the same site, which
	// the browser renders in the page's own process; localhost: another
	// site, which it renders in a process of its own.
	for _, c := range []struct{ name, formOrigin string }{
		{"same site", form.URL},
		{"other site", strings.Replace(form.URL, "127.0.0.1", "localhost", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			crossOriginForm(t, c.formOrigin, typed, inside, func() []string {
				mu.Lock()
				defer mu.Unlock()
				g := got
				got = nil
				return g
			})
		})
	}
}

// crossOriginForm runs TestFramesCrossOriginForm's cases with the form's
// frame served from formOrigin; posted returns the emails the form's
// server got since it was last asked.
func crossOriginForm(t *testing.T, formOrigin, typed, inside string, posted func() []string) {
	web := frameSite(t, map[string]string{
		"/": `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Blog</title></head><body>
<main><h1>A blog</h1><button>Like</button><iframe title="Newsletter" src="` + formOrigin + `/signup" style="width:500px;height:200px"></iframe></main></body></html>`,
	}, nil)

	t.Run("allowed", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		s := start(t, state, "--allow-origin", web.URL, "--allow-origin", formOrigin)
		var outs [][]byte
		keep := func(res *sdk.CallToolResult) []byte {
			b := ok(t, res)
			outs = append(outs, b)
			return b
		}
		v := parseView(t, keep(s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/"})))
		v = parseView(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "type", "ref": v.ref(t, "textbox", "Email address"), "text": typed})))
		v = parseView(t, keep(s.act(t, map[string]any{"expected_revision": v.Revision, "action": "click", "ref": v.ref(t, "button", "Subscribe")})))
		if v.Action == nil || v.Action.Outcome != "done" {
			t.Errorf("the frame's submit: %+v, want done (a frame's navigation is not the page's)", v.Action)
		}
		if !strings.Contains(v.Text, "You are subscribed.") {
			v = parseView(t, keep(s.call(t, "browser_observe", map[string]any{"wait": map[string]any{"settle_ms": 250}})))
		}
		if !strings.Contains(v.Text, "You are subscribed.") {
			t.Errorf("after submitting, the page view reads %q", v.Text)
		}
		if got := posted(); len(got) != 1 || got[0] != typed {
			t.Errorf("the form's server got %d submissions, want the typed email once", len(got))
		}
		keep(s.call(t, "browser_artifact", map[string]any{"artifact": v.Artifact}))
		s.stop(t)
		nowhere(t, typed, outs, state, s.stderr.Bytes(), 1)
	})

	t.Run("refused", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		s := start(t, state, "--allow-origin", web.URL)
		var outs [][]byte
		keep := func(res *sdk.CallToolResult) []byte {
			b := ok(t, res)
			outs = append(outs, b)
			return b
		}
		b := keep(s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/"}))
		v := parseView(t, b)
		if n := framesOmitted(t, b); n != 1 {
			t.Errorf("frames_omitted %d, want 1", n)
		}
		if len(v.Controls) != 1 || v.Controls[0].Name != "Like" {
			t.Errorf("the page view lists %+v, want the page's button alone", v.Controls)
		}
		keep(s.call(t, "browser_artifact", map[string]any{"artifact": v.Artifact}))
		s.stop(t)
		nowhere(t, inside, outs, state, s.stderr.Bytes(), 1)
	})
}
