//go:build browser

package live

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// TestPipeEndsWithBrowser: the pipe's reader and every tab's virtual
// connection end when the browser is closed, and when it is killed from
// outside without Close; the process-wide counters come back to where they
// were, so no goroutine of the connection outlives the browser. The browser
// and its helpers listen on no TCP port while they run.
func TestPipeEndsWithBrowser(t *testing.T) {
	for _, kill := range []bool{false, true} {
		name := "close"
		if kill {
			name = "killed"
		}
		t.Run(name, func(t *testing.T) {
			readers, conns := pipeReaders.Load(), pipeConns.Load()
			b, err := Launch(context.Background(), Options{TempDir: marked(t)})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			p, err := b.NewPage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Navigate(ctx, "data:text/html,<p>pipe</p>"); err != nil {
				t.Fatal(err)
			}
			if got := pipeReaders.Load(); got != readers+1 {
				t.Fatalf("%d readers, want %d", got, readers+1)
			}
			// The browser's own connection and the tab's.
			if got := pipeConns.Load(); got != conns+2 {
				t.Fatalf("%d connections, want %d", got, conns+2)
			}
			fam, err := leftover.Family(b.PID())
			if err != nil {
				t.Fatal(err)
			}
			if addrs, err := leftover.ListeningTCP(fam); err != nil || len(addrs) > 0 {
				t.Fatalf("the browser listens on %v (%v)", addrs, err)
			}
			if kill {
				syscall.Kill(-b.PID(), syscall.SIGKILL)
				select {
				case <-b.pipe.done:
				case <-time.After(15 * time.Second):
					t.Fatal("the reader outlived the killed browser")
				}
				select {
				case <-p.conn.Context().Done():
				case <-time.After(5 * time.Second):
					t.Fatal("the tab's connection outlived the killed browser")
				}
			}
			p.Close()
			if err := b.Close(); err != nil && !kill {
				t.Fatal(err)
			}
			select {
			case <-b.pipe.done:
			default:
				t.Fatal("Close returned before the reader ended")
			}
			if got := pipeReaders.Load(); got != readers {
				t.Fatalf("%d readers left, want %d", got, readers)
			}
			if got := pipeConns.Load(); got != conns {
				t.Fatalf("%d connections left, want %d", got, conns)
			}
		})
	}
}
