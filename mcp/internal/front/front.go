package front

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is what the front needs of the tool server behind it. P is the
// server's own record of a principal, which the front hands back when one
// of its sessions opens.
type Server[P any] interface {
	// SDK is the SDK server whose streamable handler the front wraps and
	// whose sessions it admits, counts and closes.
	SDK() *sdk.Server
	// Open makes the state of the session ss, which the principal g has
	// just opened, and returns what ends it; ok is false when the server
	// has closed, and the front then closes ss. The front calls it holding
	// its lock: it must not call back into the front.
	Open(ss *sdk.ServerSession, g P) (end func(), ok bool)
	// End disposes of the state of the session ss, which the SDK closed.
	End(ss *sdk.ServerSession)
	// StopCalls cancels the tool calls still running, at shutdown.
	StopCalls()
}

// Callers are the principals in force, as the front asks them.
type Callers[P any] interface {
	// Lookup returns the caller whose bearer token is token, nil when
	// none is, in a time that tells nothing of which, if any, matched.
	Lookup(token []byte) *Caller[P]
	// Named reports whether a caller named name is in force.
	Named(name string) bool
	// Len is the number of callers in force.
	Len() int
}

// Caller is one principal as the front knows it.
type Caller[P any] struct {
	// Name names the caller in the log and ties its sessions to it; ""
	// is the single token's caller, which has none.
	Name string
	// MaxSessions is the most sessions a named caller may have alive at
	// once.
	MaxSessions int
	// Grant is the server's record of the caller, for Server.Open.
	Grant P
}

// Config is the front's bounds and log.
type Config struct {
	// MaxSessions bounds the sessions alive at once.
	MaxSessions int
	// IdleTimeout ends a session whose last call ended this long ago.
	IdleTimeout time.Duration
	// Log receives one line per event; nil discards them.
	Log io.Writer
}

// requestKey is where the token check leaves the HTTP request's context
// for the tool call it carries (see RequestContext).
const requestKey = "domsnap/request-context"

// principalKey is where the token check leaves the request's principal.
const principalKey = "domsnap/principal"

// Front is the HTTP front: the token check, the Origin check, the
// admission of sessions and their idle timeouts, around the SDK's handler.
// It serves one listener once.
type Front[P any] struct {
	srv  Server[P]
	cfg  Config
	own  map[string]bool // the server's own origins
	mcp  http.Handler    // the SDK's streamable handler
	gate http.Handler    // the token check, then serveMCP
	log  *log.Logger
	// refusals writes the refusal lines, bounded (refusallog.go).
	refusals *refusalLog

	mu sync.Mutex
	// callers are the principals the front knows: with a single token,
	// one without a name. A reload replaces them.
	callers  Callers[P]
	pending  map[string]int // sessions being initialised, by principal
	leases   map[*sdk.ServerSession]*lease[P]
	draining bool
	posts    int       // POST requests in flight: calls and their answers
	answered time.Time // when the last POST request ended, its answer written
}

// New makes the front of srv for the callers cs, listening on addr (whose
// origins a request may name), with cfg's bounds, which the caller has
// checked.
func New[P any](srv Server[P], cs Callers[P], cfg Config, addr net.Addr) *Front[P] {
	out := cfg.Log
	if out == nil {
		out = io.Discard
	}
	f := &Front[P]{srv: srv, cfg: cfg, callers: cs, pending: map[string]int{}, own: ownOrigins(addr),
		log: log.New(out, "domsnap mcp: ", log.LstdFlags), leases: map[*sdk.ServerSession]*lease[P]{}}
	f.refusals = newRefusalLog(f.Logf, RefusalWindow, RefusalBurst)
	m := srv.SDK()
	f.mcp = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return m }, nil)
	f.gate = auth.RequireBearerToken(f.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(http.HandlerFunc(f.serveMCP))
	return f
}

// Serve serves on ln until ctx ends, then drains (see drain). It returns
// the HTTP server's error, nil when the drain closed it.
func (f *Front[P]) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second, ErrorLog: f.log}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	f.Logf("listening on http://%s/mcp (at most %d sessions, idle timeout %s)", ln.Addr(), f.cfg.MaxSessions, f.cfg.IdleTimeout)
	var serr error
	select {
	case <-ctx.Done():
	case serr = <-served:
	}
	f.drain(hs)
	// The refusals held back are counted now, not when their window ends.
	f.refusals.close()
	if errors.Is(serr, http.ErrServerClosed) {
		serr = nil
	}
	return serr
}

// Logf writes one line to the front's log.
func (f *Front[P]) Logf(format string, args ...any) { f.log.Printf(format, args...) }

// refusedf logs a refused request of kind (a short phrase, "with a wrong
// token"), within the bound of the refusal log.
func (f *Front[P]) refusedf(kind, format string, args ...any) {
	f.refusals.printf(kind, format, args...)
}

// verify is the token check: the principals compare the given token with
// every one of theirs in constant time, so neither the token's length nor
// its bytes show in how long a refusal takes. It leaves the request's
// context for the call the request carries, and its principal, whose name
// the SDK also ties each session to.
func (f *Front[P]) verify(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	f.mu.Lock()
	cs := f.callers
	f.mu.Unlock()
	p := cs.Lookup([]byte(token))
	if p == nil {
		f.refusedf("with a wrong token", "refused a request with a wrong token from %s", r.RemoteAddr)
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: p.Name, Extra: map[string]any{requestKey: r.Context(), principalKey: p}}, nil
}

// Reload puts cs in force and ends the sessions of the principals it no
// longer names, returning how many it ended. Principals are told apart by
// name: one that stays keeps its sessions, each with the grant it was made
// with (the single token's, without a name, stays when cs has one too).
func (f *Front[P]) Reload(cs Callers[P]) int {
	f.mu.Lock()
	f.callers = cs
	var gone []*lease[P]
	for _, l := range f.leases {
		if !cs.Named(l.who.Name) {
			gone = append(gone, l)
		}
	}
	f.mu.Unlock()
	for _, l := range gone {
		f.Logf("session%s ended: its principal was removed", who(l.who))
		l.end()
		go l.ss.Close()
	}
	return len(gone)
}

// principalOf is the principal the token check found for r.
func principalOf[P any](r *http.Request) *Caller[P] {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return nil
	}
	p, _ := ti.Extra[principalKey].(*Caller[P])
	return p
}

// who is how the log names a principal: " for NAME", nothing for the
// single token's.
func who[P any](p *Caller[P]) string {
	if p == nil || p.Name == "" {
		return ""
	}
	return " for " + p.Name
}

// RequestContext is the context of the HTTP request that carried a call,
// nil over stdio. It ends when the client goes away.
func RequestContext(req *sdk.CallToolRequest) context.Context {
	if req == nil || req.Extra == nil || req.Extra.TokenInfo == nil {
		return nil
	}
	c, _ := req.Extra.TokenInfo.Extra[requestKey].(context.Context)
	return c
}

func (f *Front[P]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		f.health(w, r)
	case "/mcp":
		// The token check answers 401 without this header's challenge
		// unless it is there already; serveMCP takes it off again.
		w.Header().Set("WWW-Authenticate", `Bearer realm="domsnap"`)
		if !hasBearer(r) {
			// The token check refuses it without asking verify, which
			// logs the other refusals; this one is logged here.
			f.refusedf("without a bearer token", "refused a request without a bearer token from %s", r.RemoteAddr)
		}
		f.gate.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// hasBearer reports whether the request carries a bearer token at all,
// by the token check's own rule: an Authorization header of two words,
// the first "Bearer" in any case. It says nothing of the token's worth.
func hasBearer(r *http.Request) bool {
	fs := strings.Fields(r.Header.Get("Authorization"))
	return len(fs) == 2 && strings.EqualFold(fs[0], "bearer")
}

// health answers whether the server takes requests, and nothing else.
func (f *Front[P]) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	f.mu.Lock()
	draining := f.draining
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if draining {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "shutting down\n")
		return
	}
	io.WriteString(w, "ok\n")
}
