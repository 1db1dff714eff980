// Package silent gives tests a loopback server that accepts connections,
// reads what they send and never answers: the stalled subresource or the
// dead host a page may wait on, for tests of deadlines and load waits.
//
// Every connection is closed, and the listener too, when the test ends.
package silent

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Server is one silent listener.
type Server struct {
	// Addr is the listener's host:port on loopback.
	Addr string

	mu    sync.Mutex
	conns []net.Conn
}

// Start listens on a free loopback port until t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String()}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			go io.Copy(io.Discard, c) // read, never write
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.Close()
		}
	})
	return s
}

// URL is the server's root as an http URL.
func (s *Server) URL() string { return "http://" + s.Addr + "/" }

// Accepted is how many connections the server has taken so far.
func (s *Server) Accepted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}
