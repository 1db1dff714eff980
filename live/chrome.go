package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/domsnap/domsnap/errcode"
)

const pkg = "live"

// EnvChrome names the environment variable that points at a Chromium binary
// when no explicit path is given.
const EnvChrome = "DOMSNAP_CHROME"

// ErrNoBrowser is the cause of every error that says no Chromium binary could
// be found or started; test it with errors.Is.
var ErrNoBrowser = errors.New("no Chromium binary")

// usualPaths are the places a Chromium or Chrome binary is installed by the
// common packages, in the order they are tried. Debian's package comes first
// because it is the one the project tests against.
var usualPaths = []string{
	"/usr/bin/chromium",
	"/usr/bin/chromium-browser",
	"/usr/lib/chromium/chromium",
	"/usr/bin/google-chrome-stable",
	"/usr/bin/google-chrome",
	"/snap/bin/chromium",
	"/Applications/Chromium.app/Contents/MacOS/Chromium",
	"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
}

// FindChrome returns the Chromium binary to run: explicit when not empty,
// else $DOMSNAP_CHROME when set, else the first usual install path that
// exists. An explicit or environment path that does not exist is an error; it
// never falls through to another browser, so a test pointed at a missing
// binary fails instead of quietly using a different one.
func FindChrome(explicit string) (string, error) {
	try := func(p, from string) (string, error) {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return "", errcode.Wrap(errcode.CaptureFailed, pkg, "", fmt.Sprintf("%s names %s, which is not a file", from, errcode.Quote(p)), ErrNoBrowser)
		}
		return p, nil
	}
	if explicit != "" {
		return try(explicit, "the chrome option")
	}
	if env := os.Getenv(EnvChrome); env != "" {
		return try(env, "$"+EnvChrome)
	}
	for _, p := range usualPaths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", errcode.Wrap(errcode.CaptureFailed, pkg, "", "Chromium not found (install it with `make install-browser`, or name it with --chrome or $"+EnvChrome+")", ErrNoBrowser)
}

// Options configure Launch.
type Options struct {
	// Path is the Chromium binary; empty means FindChrome's search.
	Path string
	// StartTimeout bounds how long the browser may take to answer over the
	// DevTools protocol. Zero means 30 seconds.
	StartTimeout time.Duration
	// TempDir is the folder the throw-away profile is created in; empty
	// means os.TempDir().
	TempDir string
	// ExtraArgs are appended to the command line (tests use them to provoke
	// failures). The fixed flags cannot be removed.
	ExtraArgs []string

	// persist, set by LaunchProfile, is a persistent profile folder used
	// instead of a throw-away one; lock is handed to the browser with it.
	persist string
	lock    *os.File
}

// Browser is a running headless Chromium with its own throw-away profile.
type Browser struct {
	cmd     *exec.Cmd
	profile string
	// keep is set for a persistent profile (LaunchProfile): Close leaves it.
	keep bool
	// tmp is the browser's TMPDIR when it is a folder of its own, which
	// Close removes (browsertemp.go); "" when the TMPDIR is the profile,
	// or the inherited one.
	tmp     string
	pipe    *devtoolsPipe
	conn    *rpcc.Conn
	client  *cdp.Client
	product string
	proto   string
	// answered is set once the browser has answered over the protocol;
	// one that never did is not asked to close, only killed.
	answered bool

	// life ends when the browser is shut down; every event stream of its
	// tabs lives under it, so none outlives the browser.
	life    context.Context
	endLife context.CancelFunc

	exited   chan struct{} // closed when the process has been reaped
	stopWait chan struct{} // closed by Close to end the context watcher
	once     sync.Once
	closeErr error

	// popups closes the windows the pages open (popup.go).
	popups popupHold
}

// baseArgs are the flags every launch uses: headless, no background traffic,
// no first-run work, and the DevTools protocol over the pipes on fds 3 and 4
// (pipe.go), never on a port.
func baseArgs(profile string) []string {
	return []string{
		"--headless",
		"--no-sandbox",
		"--disable-gpu",
		"--disable-quic",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-extensions",
		"--disable-default-apps",
		"--metrics-recording-only",
		"--password-store=basic",
		"--use-mock-keychain",
		"--mute-audio",
		"--hide-scrollbars",
		"--remote-debugging-pipe",
		"--user-data-dir=" + profile,
	}
}

// Launch starts Chromium and connects to it over the DevTools protocol.
//
// The browser lives until Close is called or ctx is done, whichever comes
// first; either way the process group is killed and the temporary profile
// removed. Every failure half-way through releases what was acquired.
func Launch(ctx context.Context, opts Options) (_ *Browser, err error) {
	path, err := FindChrome(opts.Path)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	sweepStaleProfiles(opts.TempDir)
	keep := opts.persist != ""
	profile := opts.persist
	if !keep {
		if profile, err = os.MkdirTemp(opts.TempDir, profilePrefix); err != nil {
			return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "creating the browser profile", err)
		}
		markOwner(profile)
	}
	tmp, ownTmp := browserTemp(opts.TempDir, profile, !keep)
	// removeProfile undoes the folders on a failed start: a throw-away
	// profile goes, a persistent one stays, and the browser's own
	// temporary folder goes.
	removeProfile := func() {
		if !keep {
			os.RemoveAll(profile)
		}
		if ownTmp {
			os.RemoveAll(tmp)
		}
	}
	if err := writePreferences(profile, keep); err != nil {
		removeProfile()
		return nil, err
	}
	args := append(baseArgs(profile), opts.ExtraArgs...)
	args = append(args, "about:blank")
	cmd := browserCommand(path, args)
	setProcessGroup(cmd)
	// Chromium keeps its crash database and caches under the XDG folders,
	// not the --user-data-dir; pointing them into the profile keeps every
	// file the browser writes inside what Close removes. Its temporary
	// files go to a folder that goes with the browser (browsertemp.go).
	cmd.Env = append(os.Environ(),
		"XDG_CONFIG_HOME="+filepath.Join(profile, "xdg-config"),
		"XDG_CACHE_HOME="+filepath.Join(profile, "xdg-cache"))
	if tmp != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	var stderr tailBuffer
	cmd.Stdout = nil
	cmd.Stderr = &stderr
	childFiles, pipe, err := newPipes()
	if err != nil {
		removeProfile()
		return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "making the DevTools pipes", err)
	}
	cmd.ExtraFiles = childFiles
	if opts.lock != nil {
		// The lease's lock, as the browser's fd 5: held while it runs.
		cmd.ExtraFiles = append(cmd.ExtraFiles[:len(childFiles):len(childFiles)], opts.lock)
	}
	err = cmd.Start()
	// The child holds its own copies now; ours must go, or the reader
	// would never see the end of the browser's output.
	for _, f := range childFiles {
		f.Close()
	}
	if err != nil {
		pipe.close()
		removeProfile()
		return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "starting "+errcode.Quote(path), errors.Join(ErrNoBrowser, err))
	}
	pipe.start()
	b := &Browser{cmd: cmd, profile: profile, keep: keep, pipe: pipe, exited: make(chan struct{}), stopWait: make(chan struct{})}
	if ownTmp {
		b.tmp = tmp
	}
	b.life, b.endLife = context.WithCancel(context.Background())
	go func() {
		_ = cmd.Wait()
		close(b.exited)
		// The protocol ends with the browser, even if a helper it forked
		// still held its end of the pipe.
		pipe.close()
	}()
	defer func() {
		if err != nil {
			b.shutdown()
		}
	}()

	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	startCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := pipe.dial(startCtx, "")
	if err != nil {
		// A browser that died at once may have closed the pipe before the
		// dial: say that it exited, with its last words, as below.
		if startCtx.Err() == nil && b.exitedSoon() {
			return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "Chromium exited before answering over the DevTools protocol"+stderr.describe(), ErrNoBrowser)
		}
		return nil, startError(ctx, "connecting to the DevTools pipe", err)
	}
	b.conn = conn
	b.client = cdp.NewClient(conn)
	// The browser reads the pipe once it is ready: the first reply is the
	// sign that it started.
	v, err := b.client.Browser.GetVersion(startCtx)
	if err != nil {
		if startCtx.Err() == nil && b.exitedSoon() {
			return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "Chromium exited before answering over the DevTools protocol"+stderr.describe(), ErrNoBrowser)
		}
		// The caller's context ending is a cancellation; StartTimeout
		// running out is a browser that failed to start.
		return nil, startError(ctx, "waiting "+timeout.String()+" for Browser.getVersion", err)
	}
	b.product, b.proto = v.Product, v.ProtocolVersion
	b.answered = true
	go b.watch(ctx)
	return b, nil
}

// watch ties the browser's life to the launch context.
func (b *Browser) watch(ctx context.Context) {
	select {
	case <-ctx.Done():
		b.shutdown()
	case <-b.stopWait:
	case <-b.exited:
	}
}

// exitedSoon reports whether the browser process has exited, or exits
// within a moment: a browser that dies closes the pipe a little before the
// process is reaped.
func (b *Browser) exitedSoon() bool {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-b.exited:
		return true
	case <-t.C:
		return false
	}
}

// startError codes a launch step's failure: timeout or cancelled when the
// caller's context ended (whatever error the step saw then), capture_failed
// otherwise, StartTimeout running out included.
func startError(ctx context.Context, what string, err error) error {
	return callError(ctx, what, err)
}

// Product is the browser's product string from Browser.getVersion, such as
// "HeadlessChrome/156.0.8078.108".
func (b *Browser) Product() string { return b.product }

// Version is the browser identity in the form saved snapshots record:
// "Chrome/<version>", whatever the headless product prefix.
func (b *Browser) Version() string {
	p := b.product
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return "Chrome" + p[i:]
	}
	return p
}

// ProtocolVersion is the DevTools protocol version the browser speaks.
func (b *Browser) ProtocolVersion() string { return b.proto }

// Profile is the profile directory: a temporary one, removed by Close, or
// the persistent one LaunchProfile was given, which Close leaves.
func (b *Browser) Profile() string { return b.profile }

// PID is the browser process id.
func (b *Browser) PID() int { return b.cmd.Process.Pid }

// Done is closed when the browser process has exited.
func (b *Browser) Done() <-chan struct{} { return b.exited }

// Close ends the browser: it asks politely over the protocol, kills the
// process group when that does not end it promptly, and removes the profile.
// It is safe to call more than once and from several goroutines.
func (b *Browser) Close() error {
	b.shutdown()
	return b.closeErr
}

func (b *Browser) shutdown() {
	b.once.Do(func() {
		close(b.stopWait)
		b.endLife()
		if b.answered {
			ctx, cancel := context.WithTimeout(context.Background(), closeCallTimeout)
			_ = b.client.Browser.Close(ctx)
			cancel()
		}
		if b.conn != nil {
			_ = b.conn.Close()
		}
		if b.pipe != nil {
			// Our ends of the pipes go whatever the browser does; that
			// ends the reader and every tab's connection.
			b.pipe.close()
			if !b.pipe.wait(5*time.Second) && b.closeErr == nil {
				b.closeErr = errcode.New(errcode.CaptureFailed, pkg, "", "the DevTools pipe's reader did not stop")
			}
		}
		if b.answered {
			// A browser asked to close over the protocol usually exits at
			// once; give it a moment before the kill below.
			select {
			case <-b.exited:
			case <-time.After(3 * time.Second):
			}
		}
		// The browser's helpers (zygote, renderers, crash handler) share its
		// process group; kill the group even after a clean exit so none is left.
		killGroup(b.cmd)
		select {
		case <-b.exited:
		case <-time.After(5 * time.Second):
			b.closeErr = errcode.New(errcode.CaptureFailed, pkg, "", "browser process did not exit")
		}
		// A browser that was killed or crashed left its singleton folder
		// behind (singleton.go); it is in the browser's own temporary
		// folder, unless no such folder could be given.
		removeSingletonDir(b.profile)
		if b.tmp != "" {
			if err := removeRetrying(b.tmp); err != nil && b.closeErr == nil {
				b.closeErr = errcode.Wrap(errcode.CaptureFailed, pkg, "", "removing the browser's temporary folder", err)
			}
		}
		if b.keep {
			// A persistent profile stays; its lease's end clears the
			// singleton links inside it.
			return
		}
		if err := removeRetrying(b.profile); err != nil && b.closeErr == nil {
			b.closeErr = errcode.Wrap(errcode.CaptureFailed, pkg, "", "removing the browser profile", err)
		}
	})
}

// removeRetrying removes the folder dir with all it holds. Chromium
// helpers may still flush files for a moment after the main process is
// gone: the removal is retried for up to a second.
func removeRetrying(dir string) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// NewPage opens a new tab (about:blank) and connects to it over a session
// of its own, so page events and replies never share a connection with
// other tabs.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	select {
	case <-b.stopWait:
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "browser is closed")
	default:
	}
	t, err := b.client.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank"))
	if err != nil {
		return nil, callError(ctx, "Target.createTarget", err)
	}
	p, err := openPage(ctx, b, t.TargetID)
	if err != nil {
		closeCtx, cancel := context.WithTimeout(context.Background(), closeCallTimeout)
		_, _ = b.client.Target.CloseTarget(closeCtx, target.NewCloseTargetArgs(t.TargetID))
		cancel()
		return nil, err
	}
	return p, nil
}

// tailBuffer keeps the last bytes a process wrote, for a launch failure's
// message; it holds no page content because no page has loaded yet.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 512

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) describe() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(bytes.TrimSpace(t.buf))
	if s == "" {
		return ""
	}
	return " (stderr ends: " + errcode.Quote(s) + ")"
}
