package front

import (
	"sync"
	"time"
)

// The bound of the refusal lines: at most RefusalBurst lines of one kind
// of refusal in a RefusalWindow, and one more that counts the rest.
const (
	RefusalWindow = 10 * time.Second
	RefusalBurst  = 10
)

// refusalLog writes the hosted front's refusal lines, bounded and
// complete. Each kind of refusal (a wrong token, a foreign Origin, ...)
// writes its first burst lines of a window in full, with the client's
// address; the ones past them are counted, and one line says how many
// when the window ends (or the log is closed). So every refused request is
// in the log, one by one or in a count, and a flood of them (wrong tokens
// from anywhere, as fast as a client can send them) writes at most burst
// plus one lines per kind and window instead of one line each.
type refusalLog struct {
	logf   func(format string, args ...any)
	window time.Duration
	burst  int

	mu     sync.Mutex
	kinds  map[string]*refusalKind
	closed bool
}

// refusalKind is one kind's window: when it began, how many lines it
// wrote, how many refusals it held back, and the timer that writes their
// count.
type refusalKind struct {
	start   time.Time
	written int
	held    int
	timer   *time.Timer
}

func newRefusalLog(logf func(string, ...any), window time.Duration, burst int) *refusalLog {
	return &refusalLog{logf: logf, window: window, burst: burst, kinds: map[string]*refusalKind{}}
}

// printf logs one refusal of kind (a short phrase, "with a wrong token"),
// as format and args say, or counts it when its kind's window is full.
func (l *refusalLog) printf(kind, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	k := l.kinds[kind]
	if k == nil {
		k = &refusalKind{start: now}
		l.kinds[kind] = k
	}
	if k.timer == nil && now.Sub(k.start) >= l.window {
		k.start, k.written = now, 0
	}
	if k.written < l.burst || l.closed {
		k.written++
		l.logf(format, args...)
		return
	}
	k.held++
	if k.timer == nil {
		k.timer = time.AfterFunc(k.start.Add(l.window).Sub(now), func() { l.flush(kind) })
	}
}

// flush writes the count of kind's held-back refusals and starts its next
// window.
func (l *refusalLog) flush(kind string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.kinds[kind]
	if k == nil || k.timer == nil {
		return // closed meanwhile, which wrote the count
	}
	l.writeHeld(kind, k)
	k.timer, k.start, k.written = nil, time.Now(), 0
}

// writeHeld writes how many refusals of kind were held back, and forgets
// them.
func (l *refusalLog) writeHeld(kind string, k *refusalKind) {
	if k.held == 0 {
		return
	}
	l.logf("refused %d more requests %s since %s, not logged one by one", k.held, kind, k.start.Format(time.TimeOnly))
	k.held = 0
}

// close writes every count still held back and stops the timers; later
// refusals (a request still arriving as the server stops) are written in
// full.
func (l *refusalLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for kind, k := range l.kinds {
		if k.timer != nil {
			k.timer.Stop()
			k.timer = nil
		}
		l.writeHeld(kind, k)
	}
}
