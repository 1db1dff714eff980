//go:build browser

package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// lockedLog collects a process's standard error.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.WriteString(line + "\n")
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// hostedProc is one `domsnap mcp --http` process on a loopback port.
type hostedProc struct {
	cmd    *exec.Cmd
	tmp    string // its TMPDIR: the marker of every process it starts
	state  string
	url    string // http://127.0.0.1:PORT
	token  string
	stderr *lockedLog
	exited chan struct{}
	err    error // Wait's, once exited is closed
	done   bool  // stop has run
}

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:[0-9]+)/mcp`)

// startHosted starts the server with a fresh token file and waits until it
// listens. When the test ends it is stopped with SIGTERM if it still runs,
// and then no process of it and no profile folder may remain, and its
// standard error must never have held the token.
func startHosted(t *testing.T, args ...string) *hostedProc {
	t.Helper()
	var raw [24]byte
	rand.Read(raw[:])
	p := &hostedProc{tmp: t.TempDir(), state: filepath.Join(t.TempDir(), "state"), token: hex.EncodeToString(raw[:]),
		stderr: &lockedLog{}, exited: make(chan struct{})}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(p.token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(binary(t), append([]string{"mcp", "--http", "127.0.0.1:0", "--token-file", tokenFile, "--state-dir", p.state}, args...)...)
	p.cmd.Env = append(os.Environ(), "TMPDIR="+p.tmp)
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			p.stderr.add(sc.Text())
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.stop(t) })
	select {
	case p.url = <-addr:
	case <-p.exited:
		t.Fatalf("the server exited: %v: %s", p.err, p.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not listen: %s", p.stderr.String())
	}
	return p
}

// stop sends SIGTERM unless the process has exited, waits for it, and
// checks what it left.
func (p *hostedProc) stop(t *testing.T) {
	t.Helper()
	if p.done {
		return
	}
	p.done = true
	select {
	case <-p.exited:
	default:
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(60 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
			t.Errorf("the server did not stop within 60s of SIGTERM")
		}
	}
	if p.err != nil {
		t.Errorf("the server exited with %v: %s", p.err, p.stderr.String())
	}
	left, err := leftover.WaitGone(p.tmp, 15*time.Second)
	if err != nil || len(left) > 0 {
		t.Errorf("left running: %v %v", left, err)
		for _, l := range left {
			syscall.Kill(l.PID, syscall.SIGKILL)
		}
	}
	ents, _ := os.ReadDir(p.tmp)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "domsnap-chrome-") {
			t.Errorf("profile folder left behind: %s", e.Name())
		}
	}
	if strings.Contains(p.stderr.String(), p.token) {
		t.Error("the token is in the server's log")
	}
}

// chromePID is the server's main Chromium process.
func (p *hostedProc) chromePID(t *testing.T) int {
	t.Helper()
	ps, _ := leftover.Processes(p.tmp)
	for _, x := range ps {
		if !strings.Contains(x.Cmdline, "--type=") && strings.Contains(x.Cmdline, "--user-data-dir=") {
			return x.PID
		}
	}
	t.Fatal("no browser process")
	return 0
}

type tokenTransport struct {
	token string
	base  http.RoundTripper
}

func (tt tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tt.token)
	return tt.base.RoundTrip(r)
}

// client opens a session with the SDK's streamable client.
func (p *hostedProc) client(t *testing.T) *sdk.ClientSession {
	t.Helper()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "load-test", Version: "1"}, nil).Connect(ctx,
		&sdk.StreamableClientTransport{Endpoint: p.url + "/mcp", HTTPClient: &http.Client{Transport: tokenTransport{p.token, tr}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("%v: %s", err, p.stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// rss reads a field of /proc/PID/FILE (status: VmRSS, VmHWM;
// smaps_rollup: Pss) in KiB, 0 when the process is gone.
func rss(pid int, file, field string) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), file))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
