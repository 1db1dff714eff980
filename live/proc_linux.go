package live

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the browser in a process group of its own, so Close
// can kill it together with every helper process it forked, and asks the
// kernel to SIGKILL it when the process that started it dies, so a program
// that exits without Close, or is killed, takes the browser with it. The
// request survives the exec of a wrapper script (Debian's /usr/bin/chromium
// execs the real binary). Chromium's helpers need no signal of their own:
// the zygotes and renderers, and the crash handlers that leave the group
// through setsid, all exit once the browser process is gone.
//
// The kernel sends the signal when the thread that forked the child ends,
// not the process. The Go runtime keeps its threads for the life of the
// program, except a thread locked with runtime.LockOSThread whose goroutine
// returns without unlocking: a browser launched from such a goroutine dies
// when that goroutine returns.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
