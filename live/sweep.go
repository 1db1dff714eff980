package live

import (
	"os"
	"path/filepath"
	"strings"
)

// profilePrefix starts the name of every throw-away profile folder.
const profilePrefix = "domsnap-chrome-"

// ownerFile, inside a profile folder, names the process that launched the
// browser (ownerStamp).
const ownerFile = "domsnap-owner"

// maxSweep bounds how many stale profile folders one launch removes, so a
// folder full of them costs the next launches a little each rather than one
// launch a lot.
const maxSweep = 16

// markOwner records the launching process in a fresh profile folder. A
// failure only means the folder cannot be swept later.
func markOwner(profile string) {
	if stamp := ownerStamp(); stamp != "" {
		_ = os.WriteFile(filepath.Join(profile, ownerFile), []byte(stamp), 0o600)
	}
}

// sweepStaleProfiles removes, from dir, profile folders whose launching
// process has ended. Close removes a profile on every path that runs Go code;
// a program that exits without Close, or is killed, cannot, and its browser
// dies with it (see setProcessGroup) but the folder stays. The next launch in
// the same folder removes it. A folder is removed only when it carries an
// owner mark naming a process that is gone, so the profiles of live programs,
// and folders of any other origin, are never touched. It returns how many
// folders it removed.
func sweepStaleProfiles(dir string) int {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	removed := 0
	for _, e := range entries {
		if removed == maxSweep {
			break
		}
		if !e.IsDir() || !strings.HasPrefix(e.Name(), profilePrefix) {
			continue
		}
		profile := filepath.Join(dir, e.Name())
		stamp, err := os.ReadFile(filepath.Join(profile, ownerFile))
		if err != nil || !ownerGone(string(stamp)) {
			continue
		}
		removeSingletonDir(profile)
		if os.RemoveAll(profile) == nil {
			removed++
		}
	}
	return removed
}
