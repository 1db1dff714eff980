package mcp

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/mcp/internal/front"
)

// The hosted server's defaults and bounds (docs/reference.md#hosted-over-http).
const (
	// DefaultMaxSessions is --max-sessions when not given; MaxMaxSessions
	// the most it may be, each session being a browser context in one
	// shared Chromium.
	DefaultMaxSessions = 4
	MaxMaxSessions     = 64
	// DefaultIdleTimeout is --idle-timeout when not given; it may be from
	// MinIdleTimeout to 24 hours (IdleTimeoutRange says so).
	DefaultIdleTimeout = 10 * time.Minute
	MinIdleTimeout     = time.Second
	maxIdleTimeout     = 24 * time.Hour
	// DrainTimeout bounds how long the calls in flight at shutdown take to
	// finish or be cancelled.
	DrainTimeout = front.DrainTimeout
)

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
	// kind of refusal, the first few of a window get a line each and one
	// more line counts the rest, so a flood of refused requests writes a
	// bounded log that still counts every one. No line
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
	if c.IdleTimeout < MinIdleTimeout || c.IdleTimeout > maxIdleTimeout {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--idle-timeout must be "+IdleTimeoutRange()+", got "+c.IdleTimeout.String())
	}
	return checkAddr(c.Addr, c.AllowRemote)
}

// IdleTimeoutRange is the range of --idle-timeout as people write it,
// from MinIdleTimeout to its greatest: "1s to 24h".
func IdleTimeoutRange() string {
	return shortDuration(MinIdleTimeout) + " to " + shortDuration(maxIdleTimeout)
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

// checkAddr refuses an address that is not host:port, and one whose host
// is not loopback (127.0.0.0/8, ::1 or localhost) unless allowRemote: an
// empty host listens on every interface.
func checkAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--http must be host:port, got "+errcode.Quote(addr))
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return errcode.New(errcode.InvalidRequest, pkg, "", "--http has no valid port: "+errcode.Quote(addr))
	}
	if allowRemote || front.LoopbackHost(host) {
		return nil
	}
	return errcode.New(errcode.InvalidRequest, pkg, "", "--http "+errcode.Quote(addr)+" is not a loopback address; listen on 127.0.0.1 behind your own reverse proxy, or pass --allow-remote")
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
// with cfg.Principals one of theirs; token is then nil), until ctx ends.
// Then it drains: no new request is taken, the calls in flight get
// DrainTimeout to finish and are cancelled when they do not, every session
// ends and the browser closes with its profile. A Server serves one front.
func (s *Server) Serve(ctx context.Context, ln net.Listener, cfg HostedConfig, token []byte) error {
	f, err := s.newFront(cfg, token, ln.Addr())
	if err != nil {
		ln.Close()
		return err
	}
	serr := f.Serve(ctx, ln)
	err = errors.Join(serr, s.Close())
	f.Logf("stopped")
	return err
}

// newFront checks cfg and makes the server's HTTP front, for the single
// token or cfg's principals.
func (s *Server) newFront(cfg HostedConfig, token []byte, addr net.Addr) (*front.Front[*principal], error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	ps := cfg.Principals
	if ps == nil {
		if len(token) < minTokenBytes {
			return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the token is too short")
		}
		ps = s.tokenPrincipal(token, cfg.MaxSessions)
	} else if len(token) != 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a token and principals exclude each other")
	}
	f := front.New[*principal](hostSide{s}, callers{ps}, front.Config{MaxSessions: cfg.MaxSessions, IdleTimeout: cfg.IdleTimeout, Log: cfg.Log}, addr)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hosted != nil || s.closed {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the server is already serving or closed")
	}
	s.hosted, s.hostedPrincipals, s.hostedMax = f, cfg.Principals != nil, cfg.MaxSessions
	return f, nil
}

// tokenPrincipal is the single token as the one principal without a name,
// allowed as many sessions as the server (max).
func (s *Server) tokenPrincipal(token []byte, max int) *Principals {
	return &Principals{list: []*principal{{MaxSessions: max, sum: sha256.Sum256(token), policy: s.policy, Profile: s.cfg.Profile}}}
}

// ReloadPrincipals reads the principals file at path again (SIGHUP does
// this) and puts it in force: new sessions follow the new file, and every
// session of a principal the file no longer names ends at once. A file that
// cannot be read or checked changes nothing and is returned as the error.
// The server must be serving with principals.
func (s *Server) ReloadPrincipals(path string) error {
	s.mu.Lock()
	f, with := s.hosted, s.hostedPrincipals
	s.mu.Unlock()
	if f == nil || !with {
		return errcode.New(errcode.InvalidRequest, pkg, "", "the server is not serving with principals")
	}
	ps, err := ReadPrincipals(path)
	if err != nil {
		f.Logf("kept the principals in force: the file could not be read again")
		return err
	}
	gone := f.Reload(callers{ps})
	f.Logf("principals read again: %d in force, %d sessions of removed principals end", len(ps.list), gone)
	return nil
}

// ReloadToken reads the token file at path again (SIGHUP does this) and
// puts the token in force: from then on every request must carry the new
// one. The sessions keep going: they belong to whoever holds the token in
// force, as they did before. A file that cannot be read or checked changes
// nothing and is returned as the error. The server must be serving with a
// token, not principals.
func (s *Server) ReloadToken(path string) error {
	s.mu.Lock()
	f, with, max := s.hosted, s.hostedPrincipals, s.hostedMax
	s.mu.Unlock()
	if f == nil || with {
		return errcode.New(errcode.InvalidRequest, pkg, "", "the server is not serving with a token file")
	}
	tok, err := ReadToken(path)
	if err != nil {
		f.Logf("kept the token in force: the file could not be read again")
		return err
	}
	ps := s.tokenPrincipal(tok, max)
	clear(tok)
	f.Reload(callers{ps})
	f.Logf("token read again")
	return nil
}

// hostSide is the server as its HTTP front asks it.
type hostSide struct{ s *Server }

func (h hostSide) SDK() *sdk.Server { return h.s.mcp }

// Open makes the state of the session ss that p opened, with p's grant,
// fixed for the session's life: the server's origins and, when p has its
// own, those too; and p's profile.
func (h hostSide) Open(ss *sdk.ServerSession, p *principal) (end func(), ok bool) {
	s := h.s
	g := grant{principal: p.Name, policy: []*Policy{s.policy}, profile: p.Profile}
	if p.policy != nil && p.policy != s.policy {
		g.policy = append(g.policy, p.policy)
	}
	sess := newSession(s, g)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	s.sessions[ss] = sess
	return sess.end, true
}

func (h hostSide) End(ss *sdk.ServerSession) { h.s.endSession(ss) }

func (h hostSide) StopCalls() { h.s.stopCalls(errShutdown) }

// callers are principals as the front asks them.
type callers struct{ ps *Principals }

func (c callers) Lookup(token []byte) *front.Caller[*principal] {
	p := c.ps.lookup(token)
	if p == nil {
		return nil
	}
	return &front.Caller[*principal]{Name: p.Name, MaxSessions: p.MaxSessions, Grant: p}
}

func (c callers) Named(name string) bool { return c.ps.byName(name) != nil }

func (c callers) Len() int { return len(c.ps.list) }
