package live

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// PagePath is the one path a Server answers.
const PagePath = "/page.html"

// Server serves one page's exact bytes from memory on a loopback port, and
// fails every other request (SPEC section 14). The page is sent with the
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
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

// Close stops the server and waits for it.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.done
	return err
}
