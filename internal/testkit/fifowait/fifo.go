package fifowait

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// HangGuard is how long a read of a named pipe may take before a test
// calls it a hang: a refusal takes microseconds, a hang for ever.
const HangGuard = 10 * time.Second

// WithinOrUnblock runs f and waits for it up to HangGuard. When f is still
// waiting then (on the named pipe path), the test fails, and a writer opens
// and closes the pipe so that f returns and the test ends instead of
// hanging.
func WithinOrUnblock(t *testing.T, path string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(HangGuard):
		t.Errorf("still waiting on the named pipe after %v", HangGuard)
		if w, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		<-done
	}
}
