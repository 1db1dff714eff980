package live

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/domsnap/domsnap/errcode"
)

// LoginOptions configure Login.
type LoginOptions struct {
	// Path is the Chromium binary; empty means FindChrome's search.
	Path string
	// Profile is the persistent profile folder the person signs in with.
	Profile string
	// URL is the page the window opens on.
	URL string
	// Lock, when set, is handed to the browser as an open descriptor (the
	// profile's lease, package profile), so the lease lasts as long as the
	// browser even if the caller dies first.
	Lock *os.File
	// ExtraArgs are appended to the command line (tests use them).
	ExtraArgs []string
}

// loginStopGrace is how long a window asked to close (SIGTERM, which makes
// Chromium write its cookies out and exit) has before it is killed.
const loginStopGrace = 5 * time.Second

// HasDisplay reports whether a window can be shown: DISPLAY or
// WAYLAND_DISPLAY is set.
func HasDisplay() bool {
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// loginArgs are the flags of the visible window. The cookie store must be
// read again by the headless browsers that later use the profile, and
// Chromium encrypts it with a key from the desktop's password store, which a
// headless browser does not reach: with --password-store=basic both sides
// use the same fixed key (the headless launch passes it too). The rest keeps
// the window quiet: no first-run pages, no sync, no extensions, no
// background traffic.
func loginArgs(profile string) []string {
	args := []string{
		"--password-store=basic",
		"--use-mock-keychain",
		"--no-first-run",
		"--no-default-browser-check",
		"--disable-sync",
		"--disable-extensions",
		"--disable-default-apps",
		"--disable-component-update",
		"--disable-background-networking",
		"--user-data-dir=" + profile,
	}
	// Chromium's sandbox refuses to start as root; a person's own account
	// keeps it.
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	return args
}

// Login opens a visible Chromium window on opts.URL with the persistent
// profile opts.Profile, for a person to sign in, and returns when the
// person has closed the window (the browser exited). When ctx ends first
// the browser is asked to close, then killed; the error is then timeout or
// cancelled. Every helper the browser left is killed before Login returns,
// and so nothing of it outlives the call. Login never reads the profile's
// files, and nothing the page shows comes back.
func Login(ctx context.Context, opts LoginOptions) error {
	if !HasDisplay() {
		return errcode.New(errcode.InvalidRequest, pkg, "", "no display: signing in needs a window (DISPLAY or WAYLAND_DISPLAY)")
	}
	path, err := FindChrome(opts.Path)
	if err != nil {
		return err
	}
	if opts.Profile == "" || !filepath.IsAbs(opts.Profile) {
		return errcode.New(errcode.InvalidRequest, pkg, "", "the profile folder must be an absolute path")
	}
	if err := ctx.Err(); err != nil {
		return cancelled(err)
	}
	args := append(loginArgs(opts.Profile), opts.ExtraArgs...)
	args = append(args, "--", opts.URL)
	cmd := browserCommand(path, args)
	setProcessGroup(cmd)
	cmd.Env = append(os.Environ(),
		"XDG_CONFIG_HOME="+filepath.Join(opts.Profile, "xdg-config"),
		"XDG_CACHE_HOME="+filepath.Join(opts.Profile, "xdg-cache"))
	// Its temporary files go to a folder of its own, removed below
	// (browsertemp.go).
	sweepStaleProfiles("")
	tmp, ownTmp := browserTemp("", opts.Profile, false)
	if tmp != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	}
	if ownTmp {
		defer removeRetrying(tmp)
	}
	// The window's output is not kept: once a page has loaded it may
	// name the page.
	cmd.Stdout, cmd.Stderr = nil, nil
	if opts.Lock != nil {
		cmd.ExtraFiles = []*os.File{opts.Lock}
	}
	if err := cmd.Start(); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkg, "", "starting "+errcode.Quote(path), errors.Join(ErrNoBrowser, err))
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-exited:
	case <-ctx.Done():
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(loginStopGrace):
			killGroup(cmd)
			<-exited
		}
	}
	// Helpers (zygote, renderers, crash handler) share the group.
	killGroup(cmd)
	removeSingletonDir(opts.Profile)
	if err := ctx.Err(); err != nil {
		return cancelled(err)
	}
	if werr != nil {
		var ee *exec.ExitError
		if errors.As(werr, &ee) && ee.ExitCode() != 0 {
			return errcode.New(errcode.CaptureFailed, pkg, "", "Chromium exited with status "+ee.String())
		}
	}
	return nil
}
