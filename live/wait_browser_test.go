//go:build browser

package live

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// hungServer accepts connections and never answers.
func hungServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// TestGotoNeverCommits: a navigation that never commits is cancelled when
// the caller cancels it, and timeout when the caller's deadline or its own
// deadline passes;
// either way the tab navigates normally afterwards.
func TestGotoNeverCommits(t *testing.T) {
	b := launch(t)
	hung := hungServer(t)
	srv := serve(t, []byte("<table><tr><td>x</td></tr></table>"))
	p, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(time.Second, cancel)
	_, err = p.Goto(ctx, hung, UntilLoad, time.Now().Add(time.Minute))
	stop.Stop()
	cancel()
	if errcode.CodeOf(err) != errcode.Cancelled {
		t.Fatalf("cancelled: %v", err)
	}
	// The caller's own deadline passing is a timeout, as the command
	// line's --timeout is (in a tab of its own: the first tab may still be
	// loading the hung page).
	p2, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	_, err = p2.Goto(ctx, hung, UntilLoad, time.Now().Add(time.Minute))
	cancel()
	if errcode.CodeOf(err) != errcode.Timeout {
		t.Fatalf("caller's deadline: %v", err)
	}
	nav, err := p.Goto(context.Background(), srv.URL(), UntilLoad, time.Now().Add(20*time.Second))
	if err != nil || nav.Status != 200 || nav.WaitTimedOut {
		t.Fatalf("after the cancelled navigation: %+v %v", nav, err)
	}
	_, err = p.Goto(context.Background(), hung, UntilLoad, time.Now().Add(time.Second))
	if errcode.CodeOf(err) != errcode.Timeout {
		t.Fatalf("deadline: %v", err)
	}
	nav, err = p.Goto(context.Background(), srv.URL(), UntilNetworkIdle, time.Now().Add(20*time.Second))
	if err != nil || nav.Status != 200 || nav.WaitTimedOut {
		t.Fatalf("after the timed-out navigation: %+v %v", nav, err)
	}
}
