package live

import (
	"os"

	"github.com/domsnap/domsnap/internal/ownerstamp"
)

// profilePrefix starts the name of every throw-away profile folder.
const profilePrefix = "domsnap-chrome-"

// maxSweep bounds how many stale profile folders one launch removes, so a
// folder full of them costs the next launches a little each rather than one
// launch a lot.
const maxSweep = 16

// markOwner records the launching process in a fresh profile folder.
func markOwner(profile string) { ownerstamp.Mark(profile) }

// sweepStaleProfiles removes, from dir, profile folders whose launching
// process has ended. Close removes a profile on every path that runs Go code;
// a program that exits without Close, or is killed, cannot, and its browser
// dies with it (see setProcessGroup) but the folder stays. The next launch in
// the same folder removes it, with the singleton folder it points to
// (package ownerstamp says which folders go). It returns how many folders it
// removed.
func sweepStaleProfiles(dir string) int {
	if dir == "" {
		dir = os.TempDir()
	}
	return ownerstamp.Sweep(dir, profilePrefix, maxSweep, func(p string) { removeSingletonDir(p) })
}
