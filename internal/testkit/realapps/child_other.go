//go:build !linux

package realapps

import (
	"os/exec"
	"syscall"
)

// setChildAttrs puts the child in a process group of its own, which the
// test kills as one.
func setChildAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
