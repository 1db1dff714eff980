package front

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// serveMCP runs after the token check: the Origin check, admission of a
// new session within the server's bound and its principal's, and the SDK's
// handler.
func (f *Front[P]) serveMCP(w http.ResponseWriter, r *http.Request) {
	w.Header().Del("WWW-Authenticate")
	if o := r.Header.Get("Origin"); o != "" && !f.ownOrigin(o) {
		f.refusedf("from a foreign Origin", "refused a request from a foreign Origin (from %s)", r.RemoteAddr)
		http.Error(w, "Forbidden: the request's Origin is not this server's", http.StatusForbidden)
		return
	}
	if foreignHost(r) {
		// The SDK's handler refuses such a request too, but silently;
		// this check comes first so that every refusal is logged.
		f.refusedf("with a foreign Host", "refused a request with a foreign Host (from %s)", r.RemoteAddr)
		http.Error(w, "Forbidden: the request's Host is not a loopback name", http.StatusForbidden)
		return
	}
	p := principalOf[P](r)
	if p == nil {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	id := r.Header.Get("Mcp-Session-Id")
	opening := r.Method == http.MethodPost && id == ""
	f.mu.Lock()
	if f.draining {
		f.mu.Unlock()
		f.refusedf("while shutting down", "refused a request while shutting down (from %s)", r.RemoteAddr)
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	if id != "" {
		if known, mine := f.ownerLocked(p, id); !mine {
			// A session the front has not admitted, or another
			// principal's, is answered here as the SDK answers one that
			// does not exist, word for word, and never reaches the SDK:
			// it knows sessions the front has not admitted yet (one whose
			// initialize is still running, one being closed) and answers
			// another principal's with 403 "session user mismatch",
			// which would tell that the session is there.
			f.mu.Unlock()
			if known {
				f.refusedf("naming a session not their own", "refused a request%s naming a session that is not its own (from %s)", who(p), r.RemoteAddr)
			}
			sessionNotFound(w)
			return
		}
	}
	if opening {
		if live := f.liveLocked(); live+f.pendingLocked() >= f.cfg.MaxSessions {
			f.mu.Unlock()
			f.refusedf("for a session past --max-sessions", "refused a new session%s: %d of %d are live (--max-sessions)", who(p), live, f.cfg.MaxSessions)
			refuseSession(w, f.cfg.MaxSessions)
			return
		}
		if mine := f.liveOfLocked(p.Name); p.Name != "" && mine+f.pending[p.Name] >= p.MaxSessions {
			f.mu.Unlock()
			f.refusedf("for a session past its principal's max_sessions", "refused a new session%s: %d of its %d are live (max_sessions)", who(p), mine, p.MaxSessions)
			refusePrincipal(w, p.MaxSessions)
			return
		}
		f.pending[p.Name]++
	}
	if r.Method == http.MethodPost {
		f.posts++
	}
	f.mu.Unlock()
	admitted := false
	if opening {
		// The reservation ends as the first byte of the answer is written,
		// before the client can act on it: a session the answer names is
		// admitted at that same moment, and an answer that names none (an
		// error, a request that opens nothing) frees the place.
		w = &admitWriter{ResponseWriter: w, admit: func(id string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.pending[p.Name]--
			admitted = true
			if id != "" {
				f.admitLocked(id, p)
			}
		}}
	}
	f.mcp.ServeHTTP(w, r)
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Method == http.MethodPost {
		f.posts--
		f.answered = time.Now()
	}
	if opening && !admitted {
		f.pending[p.Name]--
	}
}

// ownerLocked reports whether the front has admitted a session named id
// (known), and whether it is p's (mine). A session it has not admitted is
// no one's.
func (f *Front[P]) ownerLocked(p *Caller[P], id string) (known, mine bool) {
	for ss, l := range f.leases {
		if ss.ID() == id {
			return true, l.who.Name == p.Name
		}
	}
	return false, false
}

// sessionNotFound answers a request naming a session that does not exist
// for its caller exactly as the SDK answers one it does not know.
func sessionNotFound(w http.ResponseWriter) {
	http.Error(w, "session not found", http.StatusNotFound)
}

// pendingLocked counts the sessions being initialised.
func (f *Front[P]) pendingLocked() int {
	n := 0
	for _, c := range f.pending {
		n += c
	}
	return n
}

// admitWriter calls admit when the SDK starts writing the answer, with the
// id of the session the answer names, "" when it names none.
type admitWriter struct {
	http.ResponseWriter
	once  sync.Once
	admit func(id string)
}

func (w *admitWriter) check() {
	w.once.Do(func() { w.admit(w.Header().Get("Mcp-Session-Id")) })
}

func (w *admitWriter) WriteHeader(code int) {
	w.check()
	w.ResponseWriter.WriteHeader(code)
}

func (w *admitWriter) Write(p []byte) (int, error) {
	w.check()
	return w.ResponseWriter.Write(p)
}

// Flush serves http.ResponseController, which the SDK flushes its event
// stream through.
func (w *admitWriter) Flush() {
	w.check()
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *admitWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// refuseSession answers the initialisation of one session too many: 429
// with a JSON-RPC error saying why, for clients that show it.
func refuseSession(w http.ResponseWriter, max int) {
	msg := "domsnap: too many sessions: all " + strconv.Itoa(max) + " allowed by --max-sessions are live; end one or wait until one idles out"
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "60")
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write(body)
}

// refusePrincipal answers the initialisation of one session too many for
// its principal: 429, as refuseSession.
func refusePrincipal(w http.ResponseWriter, max int) {
	msg := "domsnap: too many sessions: all " + strconv.Itoa(max) + " allowed to this caller (max_sessions) are live; end one or wait until one idles out"
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "60")
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write(body)
}
