package silent

import (
	"net"
	"testing"
	"time"
)

// TestTakesAndNeverAnswers: a connection is accepted and counted, and a
// request sent on it gets no byte back before the read deadline.
func TestTakesAndNeverAnswers(t *testing.T) {
	s := Start(t)
	c, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); s.Accepted() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("accepted %d connections, want 1", s.Accepted())
		}
	}
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Fatalf("the server answered: %d bytes, %v", n, err)
	}
	if s.URL() != "http://"+s.Addr+"/" {
		t.Fatalf("URL %q", s.URL())
	}
}
