package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/argcheck"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/mcp/internal/front"
	"github.com/domsnap/domsnap/mcp/internal/store"
	"github.com/domsnap/domsnap/profile"
	"github.com/domsnap/domsnap/schema"
)

// Config configures a Server.
type Config struct {
	// Chrome is the Chromium binary; empty means live.FindChrome's search.
	Chrome string
	// ChromeArgs are extra Chromium flags (tests use them).
	ChromeArgs []string
	// AllowOrigins limits main-frame navigation to these origins; empty
	// allows every http and https origin.
	AllowOrigins []string
	// StateDir is the artifact store's folder; empty means DefaultStateDir.
	StateDir string
	// MaxStoreBytes bounds the store; zero means DefaultMaxStoreBytes.
	MaxStoreBytes int64
	// ModelBytes is the answers' byte budget; zero means limits.ModelBytes.
	// A call's model_bytes may only lower it.
	ModelBytes int
	// Root, when set, is the folder snapshot_observe reads below; without
	// it the tool is not offered.
	Root string
	// Version is the server's version in the MCP handshake.
	Version string
	// ReadOnly leaves browser_act out: the server never sends input to a
	// page, and a call to browser_act is refused as an unknown tool.
	ReadOnly bool
	// UploadRoot, when set, is the folder browser_act's upload reads
	// below; without it every upload is path_refused.
	UploadRoot string
	// MaxUploadBytes bounds one uploaded file; zero means
	// DefaultMaxUploadBytes.
	MaxUploadBytes int64
	// MaxDownloadBytes bounds one download; zero means
	// DefaultMaxDownloadBytes.
	MaxDownloadBytes int64
	// Profile, when set, names the profile (package profile, in the
	// state folder) every session browses with: each in a browser of its
	// own on the profile's folder, leased to one session at a time, and
	// within the profile's origins whatever AllowOrigins says.
	Profile string
}

// DefaultMaxStoreBytes bounds the artifact store unless Config says
// otherwise.
const DefaultMaxStoreBytes int64 = 1 << 30

// DefaultStateDir is the store's default folder: $XDG_STATE_HOME/domsnap,
// else ~/.local/state/domsnap.
func DefaultStateDir() (string, error) {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "domsnap"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errcode.Wrap(errcode.CaptureFailed, pkg, "", "artifact store: finding the home folder", err)
	}
	return filepath.Join(home, ".local", "state", "domsnap"), nil
}

// Server is the agent tool server. Its sessions share one browser.
type Server struct {
	cfg    Config
	policy *Policy
	store  *store.Store
	// profiles is the profiles folder of the state folder.
	profiles *profile.Store
	root     *rootDir
	uploads  *rootDir
	// stateDir is the state folder: the store's, the profiles' and the
	// sessions' downloads'.
	stateDir string
	mcp      *sdk.Server
	inputs   map[string]*argcheck.Schema

	// owners numbers the sessions, for the artifact store.
	owners atomic.Uint64
	// calls is the life of every tool call: it ends when the server
	// shuts down, cancelling the calls still running.
	calls     context.Context
	stopCalls context.CancelCauseFunc
	// hosted is the HTTP front, nil over stdio. With it a session exists
	// only once the front has admitted it. hostedPrincipals is set when it
	// serves a principals file, which ReloadPrincipals may read again.
	hosted           *front.Front[*principal]
	hostedPrincipals bool
	// hostedMax is the front's --max-sessions, the single token's own
	// bound when the token is read again.
	hostedMax int

	mu       sync.Mutex
	browser  *live.Browser
	life     context.Context // the browser's life
	stop     context.CancelFunc
	sessions map[*sdk.ServerSession]*session
	closed   bool
	// retired are browsers that died or stopped answering and are still
	// being closed; Close waits for them. Each is forgotten once closed, so
	// a long run holds only those still closing.
	retired []io.Closer
	// retireErr is the first error closing a retired browser, for Close.
	retireErr error
}

// New checks cfg, opens the artifact store and registers the tools. No
// browser starts until the first navigation.
func New(cfg Config) (*Server, error) {
	if cfg.ModelBytes == 0 {
		cfg.ModelBytes = limits.ModelBytes
	}
	if cfg.ModelBytes < limits.MinModelBytes {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the model byte budget must be at least "+strconv.Itoa(limits.MinModelBytes))
	}
	if cfg.MaxStoreBytes == 0 {
		cfg.MaxStoreBytes = DefaultMaxStoreBytes
	}
	if cfg.MaxUploadBytes == 0 {
		cfg.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if cfg.MaxDownloadBytes == 0 {
		cfg.MaxDownloadBytes = DefaultMaxDownloadBytes
	}
	if cfg.MaxUploadBytes < 0 || cfg.MaxDownloadBytes < 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "the upload and download size bounds must not be negative")
	}
	policy, err := NewPolicy(cfg.AllowOrigins)
	if err != nil {
		return nil, err
	}
	dir := cfg.StateDir
	if dir == "" {
		if dir, err = DefaultStateDir(); err != nil {
			return nil, err
		}
	}
	if cfg.Profile != "" {
		if err := profile.CheckName(cfg.Profile); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(dir, cfg.MaxStoreBytes)
	if err != nil {
		return nil, err
	}
	profiles, err := profile.Open(dir)
	if err != nil {
		return nil, err
	}
	if cfg.Profile != "" {
		// Known at start: a typo in the name is found now, not at the first
		// navigation. Its origins are read again at each session's start.
		if _, err := profiles.Get(cfg.Profile); err != nil {
			return nil, err
		}
	}
	sweepSessionFolders(dir)
	s := &Server{cfg: cfg, stateDir: dir, policy: policy, store: st, profiles: profiles, sessions: map[*sdk.ServerSession]*session{}, inputs: map[string]*argcheck.Schema{}}
	if cfg.Root != "" {
		if s.root, err = openRootDir(cfg.Root); err != nil {
			return nil, err
		}
	}
	if cfg.UploadRoot != "" {
		if s.uploads, err = openRootDir(cfg.UploadRoot); err != nil {
			return nil, err
		}
	}
	s.life, s.stop = context.WithCancel(context.Background())
	s.calls, s.stopCalls = context.WithCancelCause(context.Background())
	version := cfg.Version
	if version == "" {
		version = "devel"
	}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "domsnap", Title: "domsnap", Version: version},
		&sdk.ServerOptions{Instructions: instructions, Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}})
	for _, t := range tools() {
		if t.name == "snapshot_observe" && s.root == nil || t.name == "browser_act" && cfg.ReadOnly {
			continue
		}
		if err := s.addTool(t); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Run serves one session over t (standard input and output with
// sdk.StdioTransport) until the client closes its end or ctx ends, then
// ends the session and closes the browser.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.mcp.Run(ctx, t)
	cerr := s.Close()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	return errors.Join(err, cerr)
}

// endSession disposes of a session's browser context. The HTTP front
// calls it when an MCP session ends; Run and Close do it for theirs.
func (s *Server) endSession(ss *sdk.ServerSession) {
	s.mu.Lock()
	sess := s.sessions[ss]
	delete(s.sessions, ss)
	s.mu.Unlock()
	if sess != nil {
		sess.end()
	}
}

// Close ends every session and closes the browser, removing its profile.
// It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	sessions := s.sessions
	s.sessions = map[*sdk.ServerSession]*session{}
	b := s.browser
	s.browser = nil
	retired := s.retired
	s.retired = nil
	retireErr := s.retireErr
	s.retireErr = nil
	s.mu.Unlock()
	s.stopCalls(errShutdown)
	for _, sess := range sessions {
		sess.end()
	}
	s.stop()
	errs := []error{retireErr}
	if b != nil {
		errs = append(errs, b.Close())
	}
	for _, r := range retired {
		errs = append(errs, r.Close())
	}
	return errors.Join(errs...)
}

// retire drops a browser that died or stopped answering, and closes it
// (killing what is left of it and removing its profile) in the background.
func (s *Server) retire(b *live.Browser) {
	s.mu.Lock()
	if s.browser == b {
		s.browser = nil
	}
	s.retireLocked(b)
	s.mu.Unlock()
}

// retireLocked closes b in the background (killing what is left of a
// browser and removing its profile) and forgets it once closed.
func (s *Server) retireLocked(b io.Closer) {
	s.retired = append(s.retired, b)
	go func() {
		err := b.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if i := slices.Index(s.retired, b); i >= 0 {
			s.retired = slices.Delete(s.retired, i, i+1)
		}
		if s.retireErr == nil {
			s.retireErr = err
		}
	}()
}

// sessionFor returns the state of the MCP session a call came in.
func (s *Server) sessionFor(ss *sdk.ServerSession) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the server is shutting down")
	}
	sess := s.sessions[ss]
	if sess == nil {
		if s.hosted != nil {
			// The front admits every hosted session; one it does not
			// know has been ended and forgotten.
			return nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended")
		}
		sess = newSession(s, s.defaultGrant())
		s.sessions[ss] = sess
	}
	if sess.isEnded() {
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the session has ended; open a new one")
	}
	return sess, nil
}

// errShutdown is why the calls still running are cancelled at shutdown;
// errClientGone why a call whose client went away is.
var (
	errShutdown   = errors.New("the server is shutting down")
	errClientGone = errors.New("the client went away")
)

// callContext is the life of one tool call: the SDK's context for it,
// ended also when the server shuts down and, over HTTP, when the request
// that carried the call ends (the client went away), so its capture is
// cancelled and publishes nothing.
func (s *Server) callContext(ctx context.Context, req *sdk.CallToolRequest) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stops := []func() bool{context.AfterFunc(s.calls, func() { cancel(errShutdown) })}
	if rc := front.RequestContext(req); rc != nil {
		stops = append(stops, context.AfterFunc(rc, func() { cancel(errClientGone) }))
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel(nil)
	}
}

// browserFor returns the shared browser, launching it when there is none
// or the last one has died. A launch is bounded by its own start timeout
// and belongs to the server's life, not to the call that started it.
func (s *Server) browserFor(ctx context.Context) (*live.Browser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the server is shutting down")
	}
	if b := s.browser; b != nil {
		select {
		case <-b.Done():
			s.browser = nil
			s.retireLocked(b) // reaps it and removes its profile
		default:
			return b, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, errcode.Wrap(errcode.Cancelled, pkg, "", "context done", err)
	}
	b, err := live.Launch(s.life, live.Options{Path: s.cfg.Chrome, ExtraArgs: s.cfg.ChromeArgs})
	if err != nil {
		return nil, err
	}
	s.browser = b
	return b, nil
}

// defaultGrant is what a session may do without a principal: go where
// --allow-origin allows, with the server's profile when it has one.
func (s *Server) defaultGrant() grant {
	return grant{policy: []*Policy{s.policy}, profile: s.cfg.Profile}
}

// profileStore is the state folder's profiles.
func (s *Server) profileStore() *profile.Store { return s.profiles }

// launchProfile starts a browser of a session's own on the leased
// profile's folder. It belongs to the server's life, and the session's
// reset closes it.
func (s *Server) launchProfile(ctx context.Context, lease *profile.Lease) (*live.Browser, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, errcode.New(errcode.SessionExpired, pkg, "", "the server is shutting down")
	}
	if err := ctx.Err(); err != nil {
		return nil, errcode.Wrap(errcode.Cancelled, pkg, "", "context done", err)
	}
	return live.LaunchProfile(s.life, live.Options{Path: s.cfg.Chrome, ExtraArgs: s.cfg.ChromeArgs}, lease.Profile().Folder, lease.File())
}

// currentBrowser is the shared browser, nil before the first navigation
// (tests use it to find the process).
func (s *Server) currentBrowser() *live.Browser {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.browser
}

// addTool registers one tool with its published schemas and a handler
// that checks the arguments before any work and turns every failure into
// a coded error result.
func (s *Server) addTool(t toolDef) error {
	var sch schema.Tool
	for _, x := range schema.ToolSchemas() {
		if x.Name == t.name {
			sch = x
		}
	}
	in, err := schema.ToolFiles.ReadFile(sch.Input)
	if err != nil {
		return err
	}
	out, err := schema.ToolFiles.ReadFile(sch.Output)
	if err != nil {
		return err
	}
	compiled, err := argcheck.Compile(in)
	if err != nil {
		return err
	}
	s.inputs[t.name] = compiled
	tool := &sdk.Tool{
		Name:         t.name,
		Title:        t.title,
		Description:  t.description,
		InputSchema:  json.RawMessage(in),
		OutputSchema: json.RawMessage(out),
		Annotations:  t.annotations,
	}
	handle := t.handle
	s.mcp.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		ctx, cancel := s.callContext(ctx, req)
		defer cancel()
		args := []byte(req.Params.Arguments)
		if len(bytes.TrimSpace(args)) == 0 {
			args = []byte("{}")
		}
		if err := validate(compiled, args); err != nil {
			return errorResult(err), nil
		}
		sess, err := s.sessionFor(req.Session)
		if err != nil {
			return errorResult(err), nil
		}
		if s.hosted != nil {
			done, err := s.hosted.Begin(req.Session)
			if err != nil {
				return errorResult(err), nil
			}
			defer done()
		}
		res, err := handle(ctx, s, sess, args)
		if err != nil {
			return errorResult(err), nil
		}
		return res, nil
	})
	return nil
}

// validate checks arguments against a tool's input schema. The message
// names where the arguments broke it, never what they held.
func validate(s *argcheck.Schema, args []byte) error {
	v, err := argcheck.Decode(args)
	if err != nil {
		return errcode.New(errcode.InvalidRequest, pkg, "", "the arguments are not one JSON object")
	}
	if ok, loc := s.Validate(v); !ok {
		msg := "the arguments do not match the tool's input schema"
		if loc != "" {
			msg += " at " + errcode.Quote(loc)
		}
		return errcode.New(errcode.InvalidRequest, pkg, "", msg)
	}
	return nil
}

// answer is a successful tool result: the JSON bytes as the text, and the
// same object as the structured content.
func answer(data []byte) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(data)}},
		StructuredContent: json.RawMessage(data),
	}
}

// errorBody is the text of an error result. ActionSent marks the error of
// a browser_act call whose input reached the page: the page may have
// changed, and the last observation is no longer current.
type errorBody struct {
	Error struct {
		Code       string `json:"code"`
		Message    string `json:"message"`
		ActionSent bool   `json:"action_sent,omitempty"`
	} `json:"error"`
}

// errorResult is a coded error as a tool result: isError, the error as
// the text, and no structured content. Only the error's own message and
// path are shown, never its cause, which may come from a library and hold
// a URL.
func errorResult(err error) *sdk.CallToolResult {
	var b errorBody
	var e *errcode.Error
	if errors.As(err, &e) {
		b.Error.Code = string(e.Code)
		b.Error.Message = e.Detail()
		if e.Path != "" {
			b.Error.Message = errcode.Quote(e.Path) + ": " + e.Detail()
		}
	} else {
		b.Error.Code = string(errcode.CaptureFailed)
		b.Error.Message = "the call failed"
	}
	b.Error.ActionSent = live.ActionSent(err)
	data, _ := json.Marshal(b)
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}, IsError: true}
}

// defaultTimeout is the wait's timeout when a call names none.
const defaultTimeout = 30 * time.Second
