package live

import (
	"strings"
	"testing"

	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"
)

// TestAllowPaused: a paused request is judged by its URL; a paused
// response only when it is a redirect, by where its Location leads,
// relative ones resolved against the request.
func TestAllowPaused(t *testing.T) {
	allow := func(u string) bool { return strings.HasPrefix(u, "http://ok.test/") }
	status := func(n int) *int { return &n }
	failed := network.ErrorReasonFailed
	for _, c := range []struct {
		name string
		ev   fetch.RequestPausedReply
		want bool
	}{
		{"allowed request", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}}, true},
		{"refused request", fetch.RequestPausedReply{Request: network.Request{URL: "http://no.test/a"}}, false},
		{"ordinary response", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}, ResponseStatusCode: status(200)}, true},
		{"failed response", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}, ResponseErrorReason: &failed}, true},
		{"redirect to file", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}, ResponseStatusCode: status(302),
			ResponseHeaders: []fetch.HeaderEntry{{Name: "location", Value: "file:///etc/hostname"}}}, false},
		{"redirect elsewhere", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}, ResponseStatusCode: status(307),
			ResponseHeaders: []fetch.HeaderEntry{{Name: "Location", Value: "http://no.test/"}}}, false},
		{"relative redirect", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a/b"}, ResponseStatusCode: status(301),
			ResponseHeaders: []fetch.HeaderEntry{{Name: "Content-Type", Value: "text/html"}, {Name: "Location", Value: " ../c "}}}, true},
		{"redirect without location", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}, ResponseStatusCode: status(304)}, true},
		{"unreadable location", fetch.RequestPausedReply{Request: network.Request{URL: "http://ok.test/a"}, ResponseStatusCode: status(302),
			ResponseHeaders: []fetch.HeaderEntry{{Name: "Location", Value: "http://[::1"}}}, false},
	} {
		if got := allowPaused(&c.ev, allow); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestGuardPermitted: the guard's own about:blank loads pass, once each;
// the browser's error page passes; about:blank otherwise, and every URL
// the policy refuses, does not.
func TestGuardPermitted(t *testing.T) {
	g := &guard{allow: func(u string) bool { return u == "http://ok.test/" }}
	if g.permitted(blankURL) {
		t.Fatal("about:blank the guard did not load passed")
	}
	g.blanks = 1
	if !g.permitted(blankURL) || g.blanks != 0 {
		t.Fatalf("the guard's own about:blank: blanks %d", g.blanks)
	}
	if g.permitted(blankURL) {
		t.Fatal("a second about:blank passed on one load")
	}
	for u, want := range map[string]bool{
		"http://ok.test/": true, "chrome-error://chromewebdata/": true,
		"blob:http://ok.test/1b88cfc5": false, "http://no.test/": false, "data:text/html,x": false,
	} {
		if g.permitted(u) != want {
			t.Errorf("%s: want %v", u, want)
		}
	}
}
