package pageserve

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

const pkg = "pageserve"

// PagePath is the one path a Server answers.
const PagePath = "/page.html"

// Server serves one page's exact bytes from memory on a loopback port, and
// fails every other request (docs/reference.md#command-line). The page is sent with the
// charset found offline, so the browser decodes the bytes as offline analysis
// did, and with `Content-Security-Policy: script-src 'none'`, so no script
// runs while scripting stays enabled (noscript content stays unrendered, as
// offline).
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan struct{}
}

// Serve starts a server for data. charset is the encoding label offline
// analysis used ("utf-8", "windows-1252", ...); empty sends no charset.
func Serve(data []byte, charset string) (*Server, error) {
	return ServeOn("127.0.0.1:0", data, charset)
}

// ServeOn is Serve on a given loopback address.
func ServeOn(addr string, data []byte, charset string) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "the page server listens on loopback only, not "+errcode.Quote(addr))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "listening on loopback", err)
	}
	ctype := "text/html"
	if charset != "" {
		ctype += "; charset=" + charset
	}
	body := append([]byte(nil), data...)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "script-src 'none'")
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		if r.URL.Path != PagePath || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			http.Error(w, "", http.StatusNotFound)
			return
		}
		hd.Set("Content-Type", ctype)
		hd.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			_, _ = w.Write(body)
		}
	})
	s := &Server{srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}, ln: ln, done: make(chan struct{})}
	go func() {
		_ = s.srv.Serve(ln)
		close(s.done)
	}()
	return s, nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + PagePath }

// Close stops the server at once, dropping open connections: the tab that
// used it has been closed or no longer matters.
func (s *Server) Close() error {
	err := s.srv.Close()
	<-s.done
	return err
}
