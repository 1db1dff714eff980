package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
)

// The hosted server's defaults and bounds (docs/reference.md#hosted-over-http).
const (
	// DefaultMaxSessions is --max-sessions when not given; MaxMaxSessions
	// the most it may be, each session being a browser context in one
	// shared Chromium.
	DefaultMaxSessions = 4
	MaxMaxSessions     = 64
	// DefaultIdleTimeout is --idle-timeout when not given; it may be from
	// MinIdleTimeout to MaxIdleTimeout.
	DefaultIdleTimeout = 10 * time.Minute
	MinIdleTimeout     = time.Second
	MaxIdleTimeout     = 24 * time.Hour
	// MinTokenBytes and MaxTokenBytes bound the token: long enough not to
	// be guessed, short enough for any header.
	MinTokenBytes = 16
	MaxTokenBytes = 4096
	// DrainTimeout bounds how long the calls in flight at shutdown take to
	// finish or be cancelled.
	DrainTimeout = 10 * time.Second
)

// drainGrace is how long the calls in flight at shutdown may run on before
// they are cancelled; the rest of DrainTimeout is for their answers.
const drainGrace = 7 * time.Second

// answerGrace is how long the sessions stay open at shutdown after the last
// answer was written, within DrainTimeout. Closing a session ends its event
// stream, and a client that reads that end before the answer it was sent
// (they come over two connections, read apart) may fail the call instead
// of reporting its answer.
const answerGrace = time.Second

// drainPoll is how often the drain looks at what it waits for.
const drainPoll = 20 * time.Millisecond

// sessionClose bounds the wait for the SDK to close the sessions at
// shutdown, once their calls have been cancelled.
const sessionClose = 5 * time.Second

// requestKey is where the token check leaves the HTTP request's context
// for the tool call it carries (see requestContext).
const requestKey = "domsnap/request-context"

// HostedConfig configures the streamable HTTP front of a Server.
type HostedConfig struct {
	// Addr is the address to listen on, host:port.
	Addr string
	// AllowRemote permits an address that is not loopback.
	AllowRemote bool
	// MaxSessions bounds the sessions alive at once; zero means
	// DefaultMaxSessions.
	MaxSessions int
	// IdleTimeout ends a session whose last call ended this long ago;
	// zero means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Log receives one line per event: listening, a session admitted,
	// refused, expired or ended, a request refused, shutting down. Of each
	// kind of refusal, the first refusalBurst of a refusalWindow get a line
	// each and one more line counts the rest, so a flood of refused
	// requests writes a bounded log that still counts every one. No line
	// holds a token, a URL the browser opened or page content; with
	// principals, a line about a session names its principal. Nil
	// discards them.
	Log io.Writer
	// Principals, when set, replace the single token: each request's
	// bearer token selects its principal, whose sessions, revisions,
	// artifacts and profile lease are its own (docs/reference.md#principals).
	// MaxSessions still bounds all sessions together.
	Principals *Principals
}

// Check fills in the defaults and checks the bounds and the address.
func (c *HostedConfig) Check() error {
	if c.MaxSessions == 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.MaxSessions < 1 || c.MaxSessions > MaxMaxSessions {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--max-sessions must be 1 to "+strconv.Itoa(MaxMaxSessions)+", got "+strconv.Itoa(c.MaxSessions))
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.IdleTimeout < MinIdleTimeout || c.IdleTimeout > MaxIdleTimeout {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--idle-timeout must be "+IdleTimeoutRange()+", got "+c.IdleTimeout.String())
	}
	return CheckAddr(c.Addr, c.AllowRemote)
}

// IdleTimeoutRange is the range of --idle-timeout as people write it,
// from MinIdleTimeout to MaxIdleTimeout: "1s to 24h".
func IdleTimeoutRange() string {
	return shortDuration(MinIdleTimeout) + " to " + shortDuration(MaxIdleTimeout)
}

// shortDuration is d as time.Duration.String writes it, without the zero
// minutes and seconds after whole hours or minutes: 24h, not 24h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-len("0s")]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-len("0m")]
	}
	return s
}

// CheckAddr refuses an address that is not host:port, and one whose host
// is not loopback (127.0.0.0/8, ::1 or localhost) unless allowRemote: an
// empty host listens on every interface.
func CheckAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--http must be host:port, got "+errcode.Quote(addr))
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--http has no valid port: "+errcode.Quote(addr))
	}
	if allowRemote || isLoopbackHost(host) {
		return nil
	}
	return errcode.New(errcode.InvalidRequest, pkg, "", "--http "+errcode.Quote(addr)+" is not a loopback address; listen on 127.0.0.1 behind your own reverse proxy, or pass --allow-remote")
}

func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ReadToken reads the bearer token from path: the file must be a regular
// file (a named pipe or a device is refused at once, never waited on), the
// owner's alone (no permission for group or others) and hold one token of
// MinTokenBytes to MaxTokenBytes visible ASCII characters, white space
// around it ignored. No message quotes the file's content.
func ReadToken(path string) ([]byte, error) {
	bad := func(msg string) error { return errcode.New(errcode.InvalidRequest, pkg, "", "--token-file: "+msg) }
	if path == "" {
		return nil, bad("a token file is required with --http")
	}
	// Room for white space around the longest token.
	data, err := readOwnerFile(path, MaxTokenBytes+64, bad, "the token is longer than "+strconv.Itoa(MaxTokenBytes)+" bytes")
	if err != nil {
		return nil, err
	}
	tok := bytes.TrimSpace(data)
	if len(tok) < MinTokenBytes || len(tok) > MaxTokenBytes {
		return nil, bad("the token must be " + strconv.Itoa(MinTokenBytes) + " to " + strconv.Itoa(MaxTokenBytes) + " bytes, got " + strconv.Itoa(len(tok)))
	}
	for _, c := range tok {
		if c < 0x21 || c > 0x7e {
			return nil, bad("the token must be visible ASCII characters, with no space inside")
		}
	}
	return tok, nil
}

// readOwnerFile reads the small file at path that a secret lives in (a
// token, the principals): it must be a regular file, the owner's alone, of
// at most limit bytes, else bad says why (tooLong when it is larger). It is
// opened without blocking: a named pipe with no writer would hold a plain
// open, and start-up with it, for ever; what was opened is then checked,
// not what the name held before. No message quotes the content.
func readOwnerFile(path string, limit int, bad func(string) error, tooLong string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, bad("cannot open " + errcode.Quote(path))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, bad(errcode.Quote(path) + " is not a regular file")
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, bad(fmt.Sprintf("%s is open to group or others (mode %04o); make it the owner's alone (chmod 600)", errcode.Quote(path), perm))
	}
	// One byte more than the limit tells a file that is too long.
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, bad("cannot read " + errcode.Quote(path))
	}
	if len(data) > limit {
		return nil, bad(tooLong)
	}
	return data, nil
}

// Listen checks cfg and listens on its address.
func Listen(cfg *HostedConfig) (net.Listener, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, errcode.Wrap(errcode.InvalidRequest, pkg, "", "cannot listen on "+errcode.Quote(cfg.Addr), err)
	}
	return ln, nil
}

// Serve serves the tools over the SDK's streamable HTTP transport at /mcp
// on ln, each request carrying "Authorization: Bearer <token>" (token, or
// with cfg.Principals one of theirs; token is then nil), until ctx ends. Then it drains: no new request is taken, the calls in flight get
// DrainTimeout to finish and are cancelled when they do not, every session
// ends and the browser closes with its profile. A Server serves one front.
func (s *Server) Serve(ctx context.Context, ln net.Listener, cfg HostedConfig, token []byte) error {
	h, err := newHosted(s, cfg, token, ln.Addr())
	if err != nil {
		ln.Close()
		return err
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: h.log}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	h.logf("listening on http://%s/mcp (at most %d sessions, idle timeout %s)", ln.Addr(), h.cfg.MaxSessions, h.cfg.IdleTimeout)
	var serr error
	select {
	case <-ctx.Done():
	case serr = <-served:
	}
	h.drain(hs)
	if errors.Is(serr, http.ErrServerClosed) {
		serr = nil
	}
	err = errors.Join(serr, s.Close())
	h.refusals.close()
	h.logf("stopped")
	return err
}

// hosted is the HTTP front: the token check, the Origin check, the
// admission of sessions and their idle timeouts, around the SDK's handler.
type hosted struct {
	s    *Server
	cfg  HostedConfig
	own  map[string]bool // the server's own origins
	mcp  http.Handler    // the SDK's streamable handler
	gate http.Handler    // the token check, then serveMCP
	log  *log.Logger
	// refusals writes the refusal lines, bounded (refusallog.go).
	refusals *refusalLog

	mu sync.Mutex
	// principals are the callers the front knows: with a single token,
	// one without a name. A reload replaces them.
	principals *Principals
	pending    map[string]int // sessions being initialised, by principal
	leases     map[*sdk.ServerSession]*lease
	draining   bool
	posts      int       // POST requests in flight: calls and their answers
	answered   time.Time // when the last POST request ended, its answer written
}

// lease is one admitted session's place in the front.
type lease struct {
	ss    *sdk.ServerSession
	sess  *session
	who   *Principal
	timer *time.Timer
	busy  int // calls running
	// expired is set when the idle timeout ended the session; its calls
	// get session_expired until the SDK's session is closed one idle
	// period later.
	expired bool
}

func newHosted(s *Server, cfg HostedConfig, token []byte, addr net.Addr) (*hosted, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	ps := cfg.Principals
	if ps == nil {
		if len(token) < MinTokenBytes {
			return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the token is too short")
		}
		// The single token is one principal without a name, allowed as
		// many sessions as the server.
		ps = &Principals{list: []*Principal{{MaxSessions: cfg.MaxSessions, sum: sha256.Sum256(token), policy: s.policy, Profile: s.cfg.Profile}}}
	} else if len(token) != 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a token and principals exclude each other")
	}
	out := cfg.Log
	if out == nil {
		out = io.Discard
	}
	h := &hosted{s: s, cfg: cfg, principals: ps, pending: map[string]int{}, own: ownOrigins(addr),
		log: log.New(out, "domsnap mcp: ", log.LstdFlags), leases: map[*sdk.ServerSession]*lease{}}
	h.refusals = newRefusalLog(h.logf, refusalWindow, refusalBurst)
	s.mu.Lock()
	if s.hosted != nil || s.closed {
		s.mu.Unlock()
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the server is already serving or closed")
	}
	s.hosted = h
	s.mu.Unlock()
	h.mcp = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.mcp }, nil)
	h.gate = auth.RequireBearerToken(h.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(http.HandlerFunc(h.serveMCP))
	return h, nil
}

func (h *hosted) logf(format string, args ...any) { h.log.Printf(format, args...) }

// refusedf logs a refused request of kind, within the bound of refusals.
func (h *hosted) refusedf(kind, format string, args ...any) {
	h.refusals.printf(kind, format, args...)
}

// ownOrigins are the origins a request may name in its Origin header: the
// listening address's, and for a loopback one each loopback name of it.
func ownOrigins(addr net.Addr) map[string]bool {
	own := map[string]bool{}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return own
	}
	hosts := []string{host}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		hosts = []string{"127.0.0.1", "localhost", "::1"}
	}
	for _, h := range hosts {
		if o, ok := originOf(&url.URL{Scheme: "http", Host: net.JoinHostPort(h, port)}); ok {
			own[o] = true
		}
	}
	return own
}

func (h *hosted) ownOrigin(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return false
	}
	o, ok := originOf(u)
	return ok && h.own[o]
}

// principalKey is where the token check leaves the request's principal.
const principalKey = "domsnap/principal"

// verify is the token check: the SHA-256 digest of the given token is
// compared with every principal's in constant time (Principals.Lookup),
// so neither the token's length nor its bytes show in how long a refusal
// takes. It leaves the request's context for the call the request carries,
// and its principal, whose name the SDK also ties each session to.
func (h *hosted) verify(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	h.mu.Lock()
	ps := h.principals
	h.mu.Unlock()
	p := ps.Lookup([]byte(token))
	if p == nil {
		h.refusedf("with a wrong token", "refused a request with a wrong token from %s", r.RemoteAddr)
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: p.Name, Extra: map[string]any{requestKey: r.Context(), principalKey: p}}, nil
}

// ReloadPrincipals reads the principals file at path again (SIGHUP does
// this) and puts it in force: new sessions follow the new file, and every
// session of a principal the file no longer names ends at once. A file that
// cannot be read or checked changes nothing and is returned as the error.
// The server must be serving with principals.
func (s *Server) ReloadPrincipals(path string) error {
	s.mu.Lock()
	h := s.hosted
	s.mu.Unlock()
	if h == nil || h.cfg.Principals == nil {
		return errcode.New(errcode.InvalidRequest, pkg, "", "the server is not serving with principals")
	}
	ps, err := ReadPrincipals(path)
	if err != nil {
		h.logf("kept the principals in force: the file could not be read again")
		return err
	}
	h.reload(ps)
	return nil
}

// reload puts ps in force and ends the sessions of the principals it no
// longer names. Principals are told apart by name: one that stays keeps
// its sessions, each with the grant it was made with.
func (h *hosted) reload(ps *Principals) {
	h.mu.Lock()
	h.principals = ps
	var gone []*lease
	for _, l := range h.leases {
		if ps.byName(l.who.Name) == nil {
			gone = append(gone, l)
		}
	}
	h.mu.Unlock()
	h.logf("principals read again: %d in force, %d sessions of removed principals end", ps.Len(), len(gone))
	for _, l := range gone {
		h.logf("session%s ended: its principal was removed", who(l.who))
		l.sess.end()
		go l.ss.Close()
	}
}

// principalOf is the principal the token check found for r.
func principalOf(r *http.Request) *Principal {
	ti := auth.TokenInfoFromContext(r.Context())
	if ti == nil {
		return nil
	}
	p, _ := ti.Extra[principalKey].(*Principal)
	return p
}

// who is how the log names a principal: " for NAME", nothing for the
// single token's.
func who(p *Principal) string {
	if p == nil || p.Name == "" {
		return ""
	}
	return " for " + p.Name
}

// requestContext is the context of the HTTP request that carried a call,
// nil over stdio. It ends when the client goes away.
func requestContext(req *sdk.CallToolRequest) context.Context {
	if req == nil || req.Extra == nil || req.Extra.TokenInfo == nil {
		return nil
	}
	c, _ := req.Extra.TokenInfo.Extra[requestKey].(context.Context)
	return c
}

func (h *hosted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		h.health(w, r)
	case "/mcp":
		// The token check answers 401 without this header's challenge
		// unless it is there already; serveMCP takes it off again.
		w.Header().Set("WWW-Authenticate", `Bearer realm="domsnap"`)
		if !hasBearer(r) {
			// The token check refuses it without asking verify, which
			// logs the other refusals; this one is logged here.
			h.refusedf("without a bearer token", "refused a request without a bearer token from %s", r.RemoteAddr)
		}
		h.gate.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// hasBearer reports whether the request carries a bearer token at all,
// by the token check's own rule: an Authorization header of two words,
// the first "Bearer" in any case. It says nothing of the token's worth.
func hasBearer(r *http.Request) bool {
	f := strings.Fields(r.Header.Get("Authorization"))
	return len(f) == 2 && strings.EqualFold(f[0], "bearer")
}

// health answers whether the server takes requests, and nothing else.
func (h *hosted) health(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	h.mu.Lock()
	draining := h.draining
	h.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if draining {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "shutting down\n")
		return
	}
	io.WriteString(w, "ok\n")
}

// serveMCP runs after the token check: the Origin check, admission of a
// new session within --max-sessions, and the SDK's handler.
func (h *hosted) serveMCP(w http.ResponseWriter, r *http.Request) {
	w.Header().Del("WWW-Authenticate")
	if o := r.Header.Get("Origin"); o != "" && !h.ownOrigin(o) {
		h.refusedf("from a foreign Origin", "refused a request from a foreign Origin (from %s)", r.RemoteAddr)
		http.Error(w, "Forbidden: the request's Origin is not this server's", http.StatusForbidden)
		return
	}
	if foreignHost(r) {
		// The SDK's handler refuses such a request too, but silently;
		// this check comes first so that every refusal is logged.
		h.refusedf("with a foreign Host", "refused a request with a foreign Host (from %s)", r.RemoteAddr)
		http.Error(w, "Forbidden: the request's Host is not a loopback name", http.StatusForbidden)
		return
	}
	p := principalOf(r)
	if p == nil {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	id := r.Header.Get("Mcp-Session-Id")
	opening := r.Method == http.MethodPost && id == ""
	h.mu.Lock()
	if h.draining {
		h.mu.Unlock()
		h.refusedf("while shutting down", "refused a request while shutting down (from %s)", r.RemoteAddr)
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	if id != "" && !h.ownsLocked(p, id) {
		// Another principal's session is answered as the SDK answers one
		// that does not exist, word for word: nothing tells it is there.
		h.mu.Unlock()
		h.refusedf("naming a session not their own", "refused a request%s naming a session that is not its own (from %s)", who(p), r.RemoteAddr)
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if opening {
		if live := h.liveLocked(); live+h.pendingLocked() >= h.cfg.MaxSessions {
			h.mu.Unlock()
			h.refusedf("for a session past --max-sessions", "refused a new session%s: %d of %d are live (--max-sessions)", who(p), live, h.cfg.MaxSessions)
			refuseSession(w, h.cfg.MaxSessions)
			return
		}
		if mine := h.liveOfLocked(p.Name); p.Name != "" && mine+h.pending[p.Name] >= p.MaxSessions {
			h.mu.Unlock()
			h.refusedf("for a session past a principal's max_sessions", "refused a new session%s: %d of its %d are live (max_sessions)", who(p), mine, p.MaxSessions)
			refusePrincipal(w, p.MaxSessions)
			return
		}
		h.pending[p.Name]++
	}
	if r.Method == http.MethodPost {
		h.posts++
	}
	h.mu.Unlock()
	admitted := false
	if opening {
		// The reservation ends as the first byte of the answer is written,
		// before the client can act on it: a session the answer names is
		// admitted at that same moment, and an answer that names none (an
		// error, a request that opens nothing) frees the place.
		w = &admitWriter{ResponseWriter: w, admit: func(id string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.pending[p.Name]--
			admitted = true
			if id != "" {
				h.admitLocked(id, p)
			}
		}}
	}
	h.mcp.ServeHTTP(w, r)
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Method == http.MethodPost {
		h.posts--
		h.answered = time.Now()
	}
	if opening && !admitted {
		h.pending[p.Name]--
	}
}

// ownsLocked reports whether the session named id, when the front knows
// it, is p's. One the front does not know is left to the SDK, which
// answers it as not found.
func (h *hosted) ownsLocked(p *Principal, id string) bool {
	for ss, l := range h.leases {
		if ss.ID() == id {
			return l.who.Name == p.Name
		}
	}
	return true
}

// pendingLocked counts the sessions being initialised.
func (h *hosted) pendingLocked() int {
	n := 0
	for _, c := range h.pending {
		n += c
	}
	return n
}

// liveOfLocked counts the live sessions of the principal named name.
func (h *hosted) liveOfLocked(name string) int {
	n := 0
	for _, l := range h.leases {
		if !l.expired && l.who.Name == name {
			n++
		}
	}
	return n
}

// foreignHost reports whether a request reached a loopback listener under
// a Host that is not loopback: a page's script whose name was rebound to
// 127.0.0.1 (DNS rebinding) sends its own name as Host. It refuses at least
// what the SDK's handler refuses (a host it reads as loopback and this
// does not, such as one with an IPv6 zone, is refused here).
func foreignHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !loopbackHostPort(local.String()) {
		return false
	}
	return !loopbackHostPort(r.Host)
}

// loopbackHostPort is isLoopbackHost of a host:port, or of a bare host.
func loopbackHostPort(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	return isLoopbackHost(host)
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

// liveLocked counts the sessions that hold a place: admitted and not
// expired.
func (h *hosted) liveLocked() int {
	n := 0
	for _, l := range h.leases {
		if !l.expired {
			n++
		}
	}
	return n
}

// admitLocked gives the session the SDK just initialised under id its
// live session, its idle timer and a watcher that ends it with the SDK's.
// An initialisation that failed left no session to admit.
func (h *hosted) admitLocked(id string, p *Principal) {
	var ss *sdk.ServerSession
	for x := range h.s.mcp.Sessions() {
		if x.ID() == id {
			ss = x
			break
		}
	}
	if ss == nil {
		return
	}
	if h.principals.byName(p.Name) == nil {
		// The principals file was read again while the session opened,
		// and no longer names its principal.
		go ss.Close()
		return
	}
	g := grant{principal: p.Name, policy: []*Policy{h.s.policy}, profile: p.Profile}
	if p.policy != nil && p.policy != h.s.policy {
		g.policy = append(g.policy, p.policy)
	}
	sess := newSession(h.s, g)
	h.s.mu.Lock()
	closed := h.s.closed
	if !closed {
		h.s.sessions[ss] = sess
	}
	h.s.mu.Unlock()
	if closed {
		go ss.Close()
		return
	}
	l := &lease{ss: ss, sess: sess, who: p}
	l.timer = time.AfterFunc(h.cfg.IdleTimeout, func() { h.idle(l) })
	h.leases[ss] = l
	go func() {
		_ = ss.Wait()
		h.gone(ss)
	}()
	h.logf("session admitted%s (%d of %d live)", who(p), h.liveLocked(), h.cfg.MaxSessions)
}

// begin marks a call of ss as running, which holds off its idle timeout;
// done marks it ended, which restarts the timeout when it was the last.
func (h *hosted) begin(ss *sdk.ServerSession) (done func(), err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.leases[ss]
	if l == nil || l.expired {
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended; open a new one")
	}
	l.busy++
	l.timer.Stop()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		l.busy--
		if l.busy == 0 && !l.expired {
			l.timer.Reset(h.cfg.IdleTimeout)
		}
	}, nil
}

// idle ends a session whose last call ended IdleTimeout ago: its browser
// context is disposed and its place freed; its later calls get
// session_expired until, one idle period on, the SDK's session is closed
// and the front forgets it.
func (h *hosted) idle(l *lease) {
	h.mu.Lock()
	if l.busy > 0 || l.expired || h.leases[l.ss] != l {
		h.mu.Unlock()
		return
	}
	l.expired = true
	ss := l.ss
	l.timer = time.AfterFunc(h.cfg.IdleTimeout, func() { ss.Close() })
	h.mu.Unlock()
	l.sess.end()
	h.logf("session%s expired after %s idle", who(l.who), h.cfg.IdleTimeout)
}

// gone ends a session the SDK closed: the client ended it, it expired and
// was forgotten, or the server is shutting down.
func (h *hosted) gone(ss *sdk.ServerSession) {
	h.mu.Lock()
	l := h.leases[ss]
	delete(h.leases, ss)
	h.mu.Unlock()
	if l == nil {
		return
	}
	l.timer.Stop()
	h.s.EndSession(ss)
	h.logf("session%s ended", who(l.who))
}

// drain shuts the front down: no new request is taken, the POST requests
// in flight get drainGrace to finish, then their calls are cancelled and
// get the rest of DrainTimeout to answer; then, once the clients have had
// answerGrace to read the last answer, every session is closed.
func (h *hosted) drain(hs *http.Server) {
	h.mu.Lock()
	h.draining = true
	posts := h.posts
	h.mu.Unlock()
	h.logf("shutting down (%d requests in flight)", posts)
	start := time.Now()
	sctx, cancel := context.WithTimeout(context.Background(), DrainTimeout)
	defer cancel()
	shut := make(chan struct{})
	go func() {
		_ = hs.Shutdown(sctx) // closes the listener and the idle connections
		close(shut)
	}()
	if !h.waitPosts(start.Add(drainGrace)) {
		h.s.stopCalls(errShutdown)
		if !h.waitPosts(start.Add(DrainTimeout)) {
			h.logf("requests still in flight after %s", DrainTimeout)
		}
	}
	h.settle(start.Add(DrainTimeout))
	// Closing the SDK's sessions ends their event streams, which would
	// hold their connections open.
	closed := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for ss := range h.s.mcp.Sessions() {
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
		h.logf("sessions still closing after %s", sessionClose)
	}
	cancel()
	_ = hs.Close()
	<-shut
}

// settle waits until answerGrace has passed since the last answer was
// written, or no session is left, or limit passes.
func (h *hosted) settle(limit time.Time) {
	pollUntil(limit, func() bool {
		h.mu.Lock()
		busy := h.posts > 0
		until := h.answered.Add(answerGrace)
		h.mu.Unlock()
		return !busy && (!time.Now().Before(until) || sessionsLeft(h.s.mcp) == 0)
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
func (h *hosted) waitPosts(deadline time.Time) bool {
	return pollUntil(deadline, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.posts == 0
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
