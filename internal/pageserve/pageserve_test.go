package pageserve

import (
	"io"
	"net/http"
	"strings"
	"testing"

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
