package live

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/ownerstamp"
)

// TestSweepStaleProfiles: only profile folders whose owner mark names a
// process that has ended are removed: not the folder of a live owner, not
// one whose mark is missing or unreadable, not a folder of another name.
// A mark whose pid is alive but started at another time (the pid was
// reused) counts as ended.
func TestSweepStaleProfiles(t *testing.T) {
	dir := t.TempDir()
	// A process that has ended, with the stamp it had while it ran.
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadStamp := ownerstamp.StampOf(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	if deadStamp == "" {
		t.Fatal("no stamp for a running process")
	}
	self := ownerstamp.Stamp()
	pid, start, _ := strings.Cut(self, " ")
	n, _ := strconv.Atoi(start)
	reused := pid + " " + strconv.Itoa(n+1)

	mkProfile := func(name, mark string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(p, "Default"), 0o700); err != nil {
			t.Fatal(err)
		}
		if mark != "" {
			if err := os.WriteFile(filepath.Join(p, ownerstamp.File), []byte(mark), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	gone := []string{mkProfile(profilePrefix+"dead", deadStamp), mkProfile(profilePrefix+"reused", reused)}
	// The dead owner's browser was killed with it, so its singleton folder
	// outside the profile (singleton.go) is still there; the live owner's
	// is in use.
	singleton := func(profile, name string) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "SingletonSocket"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(d, "SingletonSocket"), filepath.Join(profile, "SingletonSocket")); err != nil {
			t.Fatal(err)
		}
		return d
	}
	gone = append(gone, singleton(gone[0], "org.chromium.Chromium.dead"))
	liveProfile := mkProfile(profilePrefix+"live", self)
	kept := []string{
		liveProfile,
		singleton(liveProfile, "org.chromium.Chromium.live"),
		mkProfile(profilePrefix+"unmarked", ""),
		mkProfile(profilePrefix+"garbled", "not a stamp"),
		mkProfile("other-dead", deadStamp),
	}
	if got := sweepStaleProfiles(dir); got != len(gone)-1 { // profiles only
		t.Errorf("removed %d, want %d", got, len(gone))
	}
	for _, p := range gone {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s stayed", filepath.Base(p))
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
}

// TestSweepBound: one sweep removes at most maxSweep folders; the next
// takes the rest.
func TestSweepBound(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dead := ownerstamp.StampOf(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	for _, total := range []int{maxSweep - 1, maxSweep, maxSweep + 1} {
		for i := 0; i < total; i++ {
			p := filepath.Join(dir, profilePrefix+strconv.Itoa(i))
			os.Mkdir(p, 0o700)
			os.WriteFile(filepath.Join(p, ownerstamp.File), []byte(dead), 0o600)
		}
		first := sweepStaleProfiles(dir)
		second := sweepStaleProfiles(dir)
		if first != min(total, maxSweep) || first+second != total {
			t.Errorf("%d stale folders: swept %d then %d", total, first, second)
		}
	}
}
