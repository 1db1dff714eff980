//go:build unix && !linux

package live

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the browser in a process group of its own, so Close
// can kill it together with every helper process it forked. Outside Linux
// there is no portable way to tie the child to its parent's life: a program
// that exits without Close leaves the browser running there.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
