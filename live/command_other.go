//go:build !unix

package live

import "os/exec"

// browserCommand runs the browser at path with args; outside Unix there is
// no umask to set (see command_unix.go).
func browserCommand(path string, args []string) *exec.Cmd {
	return exec.Command(path, args...)
}
