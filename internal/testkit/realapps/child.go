package realapps

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startWait bounds how long an application may take to set itself up and
// print its port: Django migrates a fresh database first, which takes
// seconds on a loaded machine.
const startWait = 2 * time.Minute

// stopWait bounds how long an application may take to end once its
// standard input closes, before its process group is killed.
const stopWait = 10 * time.Second

// startChild runs cmd with its standard input held open, reads the first
// line it prints (its port) within startWait, and ends it when t ends.
func startChild(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	setChildAttrs(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, left: 64 << 10}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	done := make(chan error, 1)
	stop := func() {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(stopWait):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, r)
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		stop()
		// The group is gone with its leader as a rule; a helper it forked
		// and left behind is not.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	})
	ctx, cancel := context.WithTimeout(context.Background(), startWait)
	defer cancel()
	select {
	case line := <-lines:
		if line == "" {
			t.Fatalf("%s ended before it served: %s", cmd.Path, stderr.String())
		}
		return line
	case <-ctx.Done():
		t.Fatalf("%s printed no port within %v: %s", cmd.Path, startWait, stderr.String())
	}
	return ""
}

// limitedWriter keeps at most left bytes of what it is given.
type limitedWriter struct {
	w    io.Writer
	left int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > l.left {
		p = p[:l.left]
	}
	l.left -= len(p)
	_, err := l.w.Write(p)
	return n, err
}
