//go:build browser

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
	"github.com/domsnap/domsnap/internal/testkit/silent"
)

// The hostile-page probes of the live commands: each ends soon after its
// --timeout with the timeout code, or with a result, and leaves no process
// and no profile folder behind. Every run gets its own TMPDIR, which the
// browser's profile lies in and every process of the run inherits, so the
// leftover check cannot confuse the run with anything else on the machine.

// probeTimeout is the --timeout the probes give. The elapsed-time bound is
// much looser, since the machine may be loaded.
const probeTimeout = 3 * time.Second

// isolate points TMPDIR at a fresh folder for the rest of the test and
// checks, when the test ends, that no process holds it and no profile is
// left in it.
func isolate(t *testing.T) string {
	t.Helper()
	dir := shortTempDir(t)
	t.Setenv("TMPDIR", dir)
	t.Cleanup(func() { checkNothingLeft(t, dir) })
	return dir
}

// shortTempDir is t.TempDir with a short name. Chromium puts sockets under
// TMPDIR, and a Unix socket path holds at most 107 bytes: under the long
// folder names t.TempDir makes from subtest names, the browser fails to
// start.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ds")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func checkNothingLeft(t *testing.T, dir string) {
	t.Helper()
	left, err := leftover.WaitGone(dir, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range left {
		t.Errorf("process %d left behind: %.120s", p.PID, p.Cmdline)
		syscall.Kill(p.PID, syscall.SIGKILL)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "domsnap-chrome-") {
			t.Errorf("profile folder %s left behind", e.Name())
		}
	}
}

func hostilePage(t *testing.T, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

const tableArgs = "--kind table --field a:0:string"

// TestLiveProbeDialogs: a page that opens an alert, a confirm and a prompt
// while it loads is captured and extracted; the dialogs do not hold it up.
func TestLiveProbeDialogs(t *testing.T) {
	isolate(t)
	url := hostilePage(t, `<!DOCTYPE html><html><head><meta charset="utf-8"><title>dialogs</title></head><body>
<script>alert("one"); confirm("two"); prompt("three");</script>
<table><tr><th>a</th></tr><tr><td>after the dialogs</td></tr></table></body></html>`)
	start := time.Now()
	r := runLive(t, append([]string{"extract", "--live", url}, strings.Fields(tableArgs)...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, "after the dialogs") {
		t.Fatalf("exit %d after %v, stdout %q, stderr %q", r.code, time.Since(start), r.stdout, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "snap.json")
	if r := runLive(t, "capture", url, "-o", out); r.code != exitOK {
		t.Fatalf("capture: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestLiveProbeTimeouts: a renderer stuck in an endless loop, while parsing
// or after the load event, and a server that never answers, end with the
// timeout code (exit 1) soon after --timeout, for capture and extract
// --live alike; parity with a deadline shorter than a browser launch too.
func TestLiveProbeTimeouts(t *testing.T) {
	loopParse := hostilePage(t, `<!DOCTYPE html><title>loop</title><script>for (;;) {}</script><table><tr><td>never</td></tr></table>`)
	loopLoad := hostilePage(t, `<!DOCTYPE html><title>loop</title><table><tr><td>once</td></tr></table><script>onload = () => setTimeout(() => { for (;;) {} })</script>`)
	deadURL := silent.Start(t).URL()
	page := writeTemp(t, "p.html", "<table><tr><td>x</td></tr></table>")
	snap := filepath.Join(t.TempDir(), "snap.json")
	tm := probeTimeout.String()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"extract loop while parsing", append([]string{"extract", "--live", loopParse, "--timeout", tm}, strings.Fields(tableArgs)...)},
		{"extract loop after load", append([]string{"extract", "--live", loopLoad, "--timeout", tm}, strings.Fields(tableArgs)...)},
		{"extract silent server", append([]string{"extract", "--live", deadURL, "--timeout", tm}, strings.Fields(tableArgs)...)},
		{"capture loop while parsing", []string{"capture", loopParse, "-o", snap, "--timeout", tm}},
		{"capture loop after load", []string{"capture", loopLoad, "-o", snap, "--timeout", tm}},
		{"capture silent server", []string{"capture", deadURL, "-o", snap, "--timeout", tm}},
		{"parity deadline during launch", []string{"parity", page, "--timeout", "1ms"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			isolate(t)
			start := time.Now()
			r := runCmd(t, "", c.args...)
			took := time.Since(start)
			t.Logf("exit %d after %v", r.code, took)
			if r.code != exitFailure || !strings.HasPrefix(lastLine(r.stderr), "timeout: ") {
				t.Fatalf("exit %d, stderr %q; want exit 1 with timeout", r.code, r.stderr)
			}
			if took > probeTimeout+15*time.Second {
				t.Errorf("took %v for a %v timeout", took, probeTimeout)
			}
			if _, err := os.Stat(snap); !os.IsNotExist(err) {
				t.Errorf("a timed-out capture left a file")
			}
		})
	}
}

// buildDomsnap builds the command into a fresh folder and returns its path.
func buildDomsnap(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "domsnap")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestLiveStopSignals starts the real binary on a page that never answers,
// waits until its browser runs, and sends a stop signal. The command must
// exit with an error (cancelled) within seconds, and no process of the run
// and no profile folder may remain.
func TestLiveStopSignals(t *testing.T) {
	bin := buildDomsnap(t)
	dead := silent.Start(t)
	deadURL, accepted := dead.URL(), dead.Accepted
	snap := filepath.Join(t.TempDir(), "snap.json")
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"SIGTERM extract", syscall.SIGTERM, append([]string{"extract", "--live", deadURL, "--timeout", "2m"}, strings.Fields(tableArgs)...)},
		{"SIGHUP capture", syscall.SIGHUP, []string{"capture", deadURL, "-o", snap, "--timeout", "2m"}},
		{"SIGINT extract", syscall.SIGINT, append([]string{"extract", "--live", deadURL, "--timeout", "2m"}, strings.Fields(tableArgs)...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := shortTempDir(t)
			t.Cleanup(func() { checkNothingLeft(t, dir) })
			cmd := exec.Command(bin, c.args...)
			cmd.Env = append(os.Environ(), "TMPDIR="+dir)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			defer func() {
				cmd.Process.Kill()
				<-exited
			}()
			// The signal goes once the browser is waiting on the page: the
			// server has one more connection than before the run.
			before := accepted()
			deadline := time.Now().Add(60 * time.Second)
			for accepted() == before {
				if time.Now().After(deadline) {
					t.Fatalf("the browser did not ask for the page within a minute; stderr %q", stderr.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			if ps, err := leftover.Processes(dir); err != nil || len(ps) < 2 {
				t.Fatalf("the run's processes cannot be told apart by its folder: %v %v", ps, err)
			}
			sent := time.Now()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				exited <- err
				ee, ok := err.(*exec.ExitError)
				if !ok || ee.ExitCode() != exitFailure {
					t.Errorf("exit %v, want status %d", err, exitFailure)
				}
				t.Logf("exited %v after the signal", time.Since(sent))
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30s after %v; stderr %q", c.sig, stderr.String())
			}
			if !strings.HasPrefix(stderr.String(), "cancelled: ") {
				t.Errorf("stderr %q, want cancelled", stderr.String())
			}
			if _, err := os.Stat(snap); !os.IsNotExist(err) {
				t.Errorf("an interrupted capture left a file")
			}
		})
	}
}
