package front

import (
	"context"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long the calls in flight at shutdown take to
// finish or be cancelled.
const DrainTimeout = 10 * time.Second

// drainGrace is how long the calls in flight at shutdown may run on before
// they are cancelled; the rest of DrainTimeout is for their answers.
const drainGrace = 7 * time.Second

// AnswerGrace is how long the sessions stay open at shutdown after the last
// answer was written, within DrainTimeout. Closing a session ends its event
// stream, and a client that reads that end before the answer it was sent
// (they come over two connections, read apart) may fail the call instead
// of reporting its answer.
const AnswerGrace = time.Second

// drainPoll is how often the drain looks at what it waits for.
const drainPoll = 20 * time.Millisecond

// sessionClose bounds the wait for the SDK to close the sessions at
// shutdown, once their calls have been cancelled.
const sessionClose = 5 * time.Second

// Draining reports whether the front has begun to shut down.
func (f *Front[P]) Draining() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.draining
}

// drain shuts the front down: no new request is taken, the POST requests
// in flight get drainGrace to finish, then their calls are cancelled and
// get the rest of DrainTimeout to answer; then, once the clients have had
// AnswerGrace to read the last answer, every session is closed.
func (f *Front[P]) drain(hs *http.Server) {
	f.mu.Lock()
	f.draining = true
	posts := f.posts
	f.mu.Unlock()
	f.Logf("shutting down (%d requests in flight)", posts)
	start := time.Now()
	sctx, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	shut := make(chan struct{})
	go func() {
		_ = hs.Shutdown(sctx) // closes the listener and the idle connections
		close(shut)
	}()
	if !f.waitPosts(start.Add(drainGrace)) {
		f.srv.StopCalls()
		if !f.waitPosts(start.Add(DrainTimeout)) {
			f.Logf("requests still in flight after %s", DrainTimeout)
		}
	}
	f.settle(start.Add(DrainTimeout))
	// Closing the SDK's sessions ends their event streams, which would
	// hold their connections open.
	closed := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for ss := range f.srv.SDK().Sessions() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ss.Close()
			}()
		}
		wg.Wait()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(sessionClose):
		f.Logf("sessions still closing after %s", sessionClose)
	}
	cancel()
	_ = hs.Close()
	<-shut
}

// settle waits until AnswerGrace has passed since the last answer was
// written, or no session is left, or limit passes.
func (f *Front[P]) settle(limit time.Time) {
	pollUntil(limit, func() bool {
		f.mu.Lock()
		busy := f.posts > 0
		until := f.answered.Add(AnswerGrace)
		f.mu.Unlock()
		return !busy && (!time.Now().Before(until) || sessionsLeft(f.srv.SDK()) == 0)
	})
}

// sessionsLeft counts the SDK's sessions.
func sessionsLeft(m *sdk.Server) int {
	n := 0
	for range m.Sessions() {
		n++
	}
	return n
}

// waitPosts waits until no POST request is in flight or deadline passes,
// and reports whether none is.
func (f *Front[P]) waitPosts(deadline time.Time) bool {
	return pollUntil(deadline, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.posts == 0
	})
}

// pollUntil checks done every drainPoll until it holds, and reports true,
// or deadline passes, and reports false. The drain polls: what it waits
// for (requests ending, answers read) has no event to wait on.
func pollUntil(deadline time.Time, done func() bool) bool {
	for {
		if done() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(drainPoll)
	}
}
