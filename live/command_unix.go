//go:build unix

package live

import (
	"os"
	"os/exec"
)

// ownerOnlyShell starts the browser under umask 077 (see browserCommand):
// the shell sets the mask and then is replaced by the browser, which keeps
// its process id, its process group and the descriptors it was handed.
const ownerOnlyShell = `umask 077 && exec "$0" "$@"`

// browserCommand is the command that runs the browser at path with args
// under umask 077, so that every file and folder it creates is its
// owner's alone from the moment it is written: Chromium writes its
// profile's files with the mode the umask leaves (0644 and 0755 under the
// usual 022), and a persistent profile holds a person's sign-in, which must
// never be readable by others, not even for the time between the browser
// writing a file and the lease's end making it the owner's (package
// profile's Restrict), nor after a launcher killed before that end. The
// process's own umask cannot be changed for the child alone: it is shared
// by every thread of this program, so a short shell sets it in between.
// Without /bin/sh the browser starts directly, with the inherited mask.
func browserCommand(path string, args []string) *exec.Cmd {
	if fi, err := os.Stat("/bin/sh"); err != nil || fi.IsDir() {
		return exec.Command(path, args...)
	}
	return exec.Command("/bin/sh", append([]string{"-c", ownerOnlyShell, path}, args...)...)
}
