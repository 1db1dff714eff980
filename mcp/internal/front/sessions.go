package front

import (
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
)

// lease is one admitted session's place in the front.
type lease[P any] struct {
	ss    *sdk.ServerSession
	end   func() // ends the server's state of the session
	who   *Caller[P]
	timer *time.Timer
	busy  int // calls running
	// expired is set when the idle timeout ended the session; its calls
	// get session_expired until the SDK's session is closed one idle
	// period later.
	expired bool
}

// Live counts the admitted sessions that hold a place: not expired.
func (f *Front[P]) Live() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.liveLocked()
}

// liveLocked counts the sessions that hold a place: admitted and not
// expired.
func (f *Front[P]) liveLocked() int {
	n := 0
	for _, l := range f.leases {
		if !l.expired {
			n++
		}
	}
	return n
}

// liveOfLocked counts the live sessions of the principal named name.
func (f *Front[P]) liveOfLocked(name string) int {
	n := 0
	for _, l := range f.leases {
		if !l.expired && l.who.Name == name {
			n++
		}
	}
	return n
}

// admitLocked gives the session the SDK just initialised under id its
// state in the server, its idle timer and a watcher that ends it with the
// SDK's. An initialisation that failed left no session to admit.
func (f *Front[P]) admitLocked(id string, p *Caller[P]) {
	var ss *sdk.ServerSession
	for x := range f.srv.SDK().Sessions() {
		if x.ID() == id {
			ss = x
			break
		}
	}
	if ss == nil {
		return
	}
	if !f.callers.Named(p.Name) {
		// The principals file was read again while the session opened,
		// and no longer names its principal.
		go ss.Close()
		return
	}
	end, ok := f.srv.Open(ss, p.Grant)
	if !ok {
		go ss.Close()
		return
	}
	l := &lease[P]{ss: ss, end: end, who: p}
	l.timer = time.AfterFunc(f.cfg.IdleTimeout, func() { f.idle(l) })
	f.leases[ss] = l
	go func() {
		_ = ss.Wait()
		f.gone(ss)
	}()
	f.Logf("session admitted%s (%d of %d live)", who(p), f.liveLocked(), f.cfg.MaxSessions)
}

// Begin marks a call of ss as running, which holds off its idle timeout;
// done marks it ended, which restarts the timeout when it was the last. A
// session the front has not admitted, or has expired, is session_expired.
func (f *Front[P]) Begin(ss *sdk.ServerSession) (done func(), err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := f.leases[ss]
	if l == nil || l.expired {
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended; open a new one")
	}
	l.busy++
	l.timer.Stop()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		l.busy--
		if l.busy == 0 && !l.expired {
			l.timer.Reset(f.cfg.IdleTimeout)
		}
	}, nil
}

// idle ends a session whose last call ended IdleTimeout ago: its state in
// the server is ended (its browser context disposed) and its place freed;
// its later calls get session_expired until, one idle period on, the SDK's
// session is closed and the front forgets it.
func (f *Front[P]) idle(l *lease[P]) {
	f.mu.Lock()
	if l.busy > 0 || l.expired || f.leases[l.ss] != l {
		f.mu.Unlock()
		return
	}
	l.expired = true
	ss := l.ss
	l.timer = time.AfterFunc(f.cfg.IdleTimeout, func() { ss.Close() })
	f.mu.Unlock()
	l.end()
	f.Logf("session%s expired after %s idle", who(l.who), f.cfg.IdleTimeout)
}

// gone ends a session the SDK closed: the client ended it, it expired and
// was forgotten, or the server is shutting down.
func (f *Front[P]) gone(ss *sdk.ServerSession) {
	f.mu.Lock()
	l := f.leases[ss]
	delete(f.leases, ss)
	f.mu.Unlock()
	if l == nil {
		return
	}
	l.timer.Stop()
	f.srv.End(ss)
	f.Logf("session%s ended", who(l.who))
}
