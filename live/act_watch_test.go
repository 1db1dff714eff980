package live

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestEndedFirst: the wait after an action reads the action's context before
// its own, so a deadline that closed the watcher's streams is a deadline
// (the effects so far), never a failure to follow the page, even when the
// wait's own context has not been told yet (a live context stands for it).
func TestEndedFirst(t *testing.T) {
	past, cancelPast := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancelPast()
	stopped, stop := context.WithCancel(context.Background())
	stop()
	live := context.Background()
	for _, c := range []struct {
		name         string
		outer, inner context.Context
		want         error
	}{
		{"the action's deadline passed, the wait not yet told", past, live, context.DeadlineExceeded},
		{"the action cancelled, the wait not yet told", stopped, live, context.Canceled},
		{"the wait's own deadline", live, past, context.DeadlineExceeded},
		{"neither ended", live, live, nil},
	} {
		if got := endedFirst(c.outer, c.inner); !errors.Is(got, c.want) || (c.want == nil) != (got == nil) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
