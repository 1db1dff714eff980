package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// TestSessionLock: a call waiting for the session's lock gives up when it
// is cancelled, without taking the lock; an ended session refuses calls.
func TestSessionLock(t *testing.T) {
	ss := newSession(&Server{}, grant{})
	if err := ss.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() { got <- ss.acquire(ctx) }()
	select {
	case err := <-got:
		t.Fatalf("acquired a held lock: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if err := <-got; errcode.CodeOf(err) != errcode.Cancelled {
		t.Fatalf("waiting call: %v", err)
	}
	ss.release()
	// The cancelled waiter did not take the lock: the next call gets it.
	if err := ss.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ss.release()
	ss.end()
	if err := ss.acquire(context.Background()); errcode.CodeOf(err) != errcode.SessionExpired {
		t.Fatalf("ended session: %v", err)
	}
	// The refusal released the lock again.
	select {
	case ss.lock <- struct{}{}:
	default:
		t.Fatal("the lock is held after a refused call")
	}
}
