package leftover

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestProcessesFindsMarkedChild: a child that holds the marker in its
// environment is found while it runs and gone once it is killed; the caller
// itself is never listed.
func TestProcessesFindsMarkedChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := Processes("x"); err == nil {
			t.Fatal("no error without /proc")
		}
		return
	}
	marker := t.TempDir()
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), "LEFTOVER_MARK="+marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Start returns once the child has begun its exec, which may be before
	// the kernel has written the new program's environment: /proc shows
	// it empty for that moment, so the child is looked for until it shows.
	var ps []Process
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		ps, err = Processes(marker)
		if err != nil || len(ps) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || len(ps) != 1 || ps[0].PID != cmd.Process.Pid {
		cmd.Process.Kill()
		t.Fatalf("found %v, %v; want the child %d", ps, err, cmd.Process.Pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if left, err := WaitGone(marker, 5*time.Second); err != nil || len(left) != 0 {
		t.Fatalf("after kill: %v, %v", left, err)
	}
	if _, err := Processes(""); err == nil {
		t.Fatal("an empty marker matched everything")
	}
}

// TestListeningTCPFindsListener: a socket this process listens on is found
// among its family's listening sockets while it is open, and not once it is
// closed; a child started meanwhile is in the family.
func TestListeningTCPFindsListener(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := ListeningTCP(nil); err == nil {
			t.Fatal("no error without /proc")
		}
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprintf(":%04X", ln.Addr().(*net.TCPAddr).Port)
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Kill(); child.Wait() }()
	fam, err := Family(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fam, child.Process.Pid) || !slices.Contains(fam, os.Getpid()) {
		t.Fatalf("family %v lacks the child %d or the process", fam, child.Process.Pid)
	}
	has := func() bool {
		addrs, err := ListeningTCP(fam)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range addrs {
			if strings.HasSuffix(a, port) {
				return true
			}
		}
		return false
	}
	if !has() {
		t.Fatal("the open listener was not found")
	}
	ln.Close()
	if has() {
		t.Fatal("the closed listener is still found")
	}
}
