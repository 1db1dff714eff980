package live

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// expiringCtx is a context whose deadline passes when the test says so, not
// when a clock does: Err is context.DeadlineExceeded from then on.
type expiringCtx struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newExpiringCtx() *expiringCtx {
	return &expiringCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *expiringCtx) expire()               { c.once.Do(func() { close(c.done) }) }
func (c *expiringCtx) Done() <-chan struct{} { return c.done }
func (c *expiringCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func TestDoneCodes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c := errcode.CodeOf(callError(ctx, "x", ctx.Err())); c != errcode.Cancelled {
		t.Errorf("cancelled context: %q", c)
	}
	exp := newExpiringCtx()
	exp.expire()
	if c := errcode.CodeOf(callError(exp, "x", exp.Err())); c != errcode.Timeout {
		t.Errorf("expired context: %q", c)
	}
	if c := errcode.CodeOf(cancelled(context.DeadlineExceeded)); c != errcode.Timeout {
		t.Errorf("cancelled(DeadlineExceeded): %q", c)
	}
	if c := errcode.CodeOf(cancelled(context.Canceled)); c != errcode.Cancelled {
		t.Errorf("cancelled(Canceled): %q", c)
	}
	if c := errcode.CodeOf(callError(context.Background(), "x", errors.New("boom"))); c != errcode.CaptureFailed {
		t.Errorf("live context: %q", c)
	}
}

// TestWithDeadline: a context without a deadline gets the default live
// timeout; one with a deadline, later or earlier, keeps its own.
func TestWithDeadline(t *testing.T) {
	ctx, cancel := withDeadline(context.Background())
	defer cancel()
	d, ok := ctx.Deadline()
	if left := time.Until(d); !ok || left > limits.LiveTimeout || left < limits.LiveTimeout-time.Minute {
		t.Fatalf("deadline %v (%v left), want about %v", ok, left, limits.LiveTimeout)
	}
	for _, own := range []time.Duration{time.Second, limits.MaxLiveTimeout} {
		want := time.Now().Add(own)
		base, cancelBase := context.WithDeadline(context.Background(), want)
		ctx, cancel := withDeadline(base)
		if d, _ := ctx.Deadline(); !d.Equal(want) {
			t.Errorf("own deadline %v replaced by %v", want, d)
		}
		cancel()
		cancelBase()
	}
}

// TestObservationDeadline: a deadline that passes during an observation
// ends it with timeout, publishes nothing and invalidates the previous
// observation, as a cancellation does.
func TestObservationDeadline(t *testing.T) {
	for _, when := range []string{"before", "capture", "after"} {
		t.Run(when, func(t *testing.T) {
			s, f := newFakeSession(t)
			prev := first(t, s)
			ctx := newExpiringCtx()
			f.base = f.navCalls
			switch when {
			case "before":
				ctx.expire()
			case "capture":
				f.captureHook = func() error { ctx.expire(); return nil }
			case "after":
				f.navHook = func(call int) error {
					if call == 2 {
						ctx.expire()
					}
					return nil
				}
			}
			_, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(prev)})
			wantCode(t, err, errcode.Timeout)
			if rev, ok, _ := s.Revision(context.Background()); rev != prev || ok {
				t.Fatalf("after the timeout: revision %q current=%v, want %q invalidated", rev, ok, prev)
			}
		})
	}
}

// TestPageCallDeadline: a tab call whose deadline has passed fails with
// timeout, and one whose context was cancelled with cancelled.
func TestPageCallDeadline(t *testing.T) {
	p := fakePage(t, &fakeCDP{replies: map[string]string{"DOMSnapshot.captureSnapshot": `"result":{"documents":[],"strings":[]}`}})
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	wantCode(t, err, errcode.Timeout)
	err = p.Navigate(ctx, "http://127.0.0.1:1/")
	wantCode(t, err, errcode.Timeout)
}
