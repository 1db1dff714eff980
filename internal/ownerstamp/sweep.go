package ownerstamp

import (
	"os"
	"path/filepath"
	"strings"
)

// File, inside a marked folder, holds the stamp of the process that made
// it.
const File = "domsnap-owner"

// Mark records the running process in the fresh folder dir. A failure
// only means the folder cannot be swept later.
func Mark(dir string) {
	if stamp := Stamp(); stamp != "" {
		_ = os.WriteFile(filepath.Join(dir, File), []byte(stamp), 0o600)
	}
}

// Sweep removes, from dir, at most max folders whose names start with
// prefix and whose stamp names a process that has ended, calling before
// (when set) on each just before it goes. It returns how many it removed.
// The bound makes a place full of stale folders cost each later process a
// little rather than one a lot.
func Sweep(dir, prefix string, max int, before func(path string)) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	removed := 0
	for _, e := range entries {
		if removed == max {
			break
		}
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		stamp, err := os.ReadFile(filepath.Join(p, File))
		if err != nil || !Gone(string(stamp)) {
			continue
		}
		if before != nil {
			before(p)
		}
		if os.RemoveAll(p) == nil {
			removed++
		}
	}
	return removed
}
