package mcp

import (
	"testing"

	"github.com/domsnap/domsnap/errcode"
)

func TestPolicy(t *testing.T) {
	open, err := NewPolicy(nil)
	if err != nil {
		t.Fatal(err)
	}
	limited, err := NewPolicy([]string{"http://127.0.0.1:8080", "HTTPS://Example.com:443/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url           string
		open, limited bool
	}{
		{"http://127.0.0.1:8080/a?b", true, true},
		{"http://127.0.0.1:8081/", true, false},
		{"https://example.com/x", true, true},
		{"https://EXAMPLE.com:443/x", true, true},
		{"http://example.com/x", true, false},
		{"file:///etc/passwd", false, false},
		{"data:text/html,<p>x", false, false},
		{"javascript:alert(1)", false, false},
		{"chrome://settings", false, false},
		{"view-source:http://127.0.0.1:8080/", false, false},
		{"about:blank", false, false},
		{"http:///nohost", false, false},
		{"not a url at all", false, false},
	} {
		if got := open.Allow(c.url); got != c.open {
			t.Errorf("open %s: %v", c.url, got)
		}
		if got := limited.Allow(c.url); got != c.limited {
			t.Errorf("limited %s: %v", c.url, got)
		}
		if err := limited.check(c.url); (err == nil) != c.limited || err != nil && errcode.CodeOf(err) != errcode.NavigationRefused {
			t.Errorf("check %s: %v", c.url, err)
		}
	}
	for _, bad := range []string{"ftp://x", "http://x/path", "http://x?q", "x", "http://user@x"} {
		if _, err := NewPolicy([]string{bad}); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("origin %q: %v", bad, err)
		}
	}
}

// TestRefusedByBrowser: Chromium's own refusals of where a navigation led
// are refusals; other network errors are not.
func TestRefusedByBrowser(t *testing.T) {
	for text, want := range map[string]bool{
		"net::ERR_UNSAFE_REDIRECT": true, "net::ERR_UNKNOWN_URL_SCHEME": true, "net::ERR_DISALLOWED_URL_SCHEME": true,
		"net::ERR_CONNECTION_REFUSED": false, "net::ERR_ABORTED": false, "": false,
	} {
		if refusedByBrowser(text) != want {
			t.Errorf("%q: want %v", text, want)
		}
	}
}
