package live

import (
	"os"
	"path/filepath"
	"runtime"
)

// Chromium makes temporary files and folders in $TMPDIR (else /tmp) that
// outlive a browser that is killed or crashes: above all the folder of the
// socket that makes a profile single-instance
// (org.chromium.Chromium.XXXXXX, see singleton.go), and the shared memory
// files of --disable-dev-shm-usage. Each browser is therefore given a
// temporary folder of its own as TMPDIR, one that goes with the browser
// whatever ends it: for a throw-away profile the profile folder itself,
// which Close, or the next launch's sweep of stale profiles, removes whole;
// for a persistent profile, which stays, a throw-away folder of its own,
// marked with its owner as a profile is, removed by Close or swept the same
// way.
//
// The socket's path must fit a Unix socket address (107 bytes and a NUL):
// a longer one stops Chromium at start ("Socket path too long"). A folder
// whose path would not fit is not used: a folder of its own under /tmp is
// tried instead, and when no folder fits, the browser gets no TMPDIR of its
// own, as before.

// singletonSuffix is what Chromium appends to its temporary folder for the
// singleton socket.
const singletonSuffix = "/org.chromium.Chromium.XXXXXX/SingletonSocket"

// maxSocketPath is the longest path a Unix socket address holds on Linux
// (sun_path is 108 bytes, the last a NUL); other systems allow less, 103
// on the BSDs and macOS.
func maxSocketPath() int {
	if runtime.GOOS == "linux" {
		return 107
	}
	return 103
}

// tempFits reports whether dir is short enough to be the browser's TMPDIR.
func tempFits(dir string) bool {
	return len(dir)+len(singletonSuffix) <= maxSocketPath()
}

// randomDigits is the longest name os.MkdirTemp adds to its pattern: a
// random uint32 in decimal.
const randomDigits = "4294967295"

// browserTemp returns the folder the browser at profile is given as
// TMPDIR, and whether it is a folder of its own that Close must remove
// (else it is the profile itself, or "" for none). base is where
// throw-away profiles are made ("" for the system's temporary folder), and
// throwAway says the profile is one.
func browserTemp(base, profile string, throwAway bool) (dir string, own bool) {
	if throwAway && tempFits(profile) {
		return profile, false
	}
	if base == "" {
		base = os.TempDir()
	}
	bases := []string{base}
	if runtime.GOOS != "windows" && filepath.Clean(base) != "/tmp" {
		bases = append(bases, "/tmp")
	}
	for i, b := range bases {
		if !tempFits(filepath.Join(b, profilePrefix+randomDigits)) {
			continue
		}
		if i > 0 {
			// The launch swept base already; this one may hold the
			// folders of killed browsers too.
			sweepStaleProfiles(b)
		}
		d, err := os.MkdirTemp(b, profilePrefix)
		if err != nil {
			continue
		}
		markOwner(d)
		return d, true
	}
	return "", false
}
