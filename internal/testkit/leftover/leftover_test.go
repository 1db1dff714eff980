package leftover

import (
	"os"
	"os/exec"
	"runtime"
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
	ps, err := Processes(marker)
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
