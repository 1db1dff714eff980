package main

import (
	"os/exec"
	"syscall"
)

// setDeathSignal ties domsnap's life to the worker's: if the worker dies,
// the kernel kills domsnap too, so a lost worker leaves nothing running.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
