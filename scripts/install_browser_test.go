package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// standIn writes an executable shell script called name into dir.
func standIn(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runInstall runs install-browser.sh with a PATH holding only the stand-ins:
// an apt-get that records each call (its arguments and DEBIAN_FRONTEND) and
// exits with aptExit, and chromium, node, npm, Xvfb, xdotool and haproxy for those
// present. It returns apt-get's calls, one per line, and the script's error.
func runInstall(t *testing.T, present []string, aptExit string) ([]string, error) {
	t.Helper()
	bin := t.TempDir()
	log := filepath.Join(t.TempDir(), "apt.log")
	// The shell's own echo and redirection: the PATH has no other commands.
	standIn(t, bin, "apt-get", `echo "$* frontend=${DEBIAN_FRONTEND:-}" >>"$APT_LOG"`+"\nexit "+aptExit+"\n")
	for _, name := range present {
		standIn(t, bin, name, "echo "+name+" 1.0\n")
	}
	script, err := filepath.Abs("install-browser.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", script)
	cmd.Env = []string{"PATH=" + bin, "APT_LOG=" + log}
	out, runErr := cmd.CombinedOutput()
	t.Logf("script output:\n%s", out)
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil, runErr
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n"), runErr
}

// TestInstallBrowserAsksOnlyForMissing runs the script for every mix of
// chromium, node, npm, Xvfb, xdotool and haproxy present or absent: apt is asked for exactly the
// missing packages (node's is nodejs), after one apt-get update, and is not
// called at all when nothing is missing. A node from another packager bundles
// npm and conflicts with Debian's, so asking for all three whenever one is
// missing would fail on such a machine.
func TestInstallBrowserAsksOnlyForMissing(t *testing.T) {
	pkgOf := map[string]string{"chromium": "chromium", "node": "nodejs", "npm": "npm", "Xvfb": "xvfb", "xdotool": "xdotool", "haproxy": "haproxy"}
	commands := []string{"chromium", "node", "npm", "Xvfb", "xdotool", "haproxy"}
	for mask := 0; mask < 1<<len(commands); mask++ {
		var present, want []string
		for i, c := range commands {
			if mask&(1<<i) != 0 {
				present = append(present, c)
			} else {
				want = append(want, pkgOf[c])
			}
		}
		t.Run("present="+strings.Join(present, "+"), func(t *testing.T) {
			calls, err := runInstall(t, present, "0")
			if err != nil {
				t.Fatalf("script failed: %v", err)
			}
			if len(want) == 0 {
				if len(calls) != 0 {
					t.Fatalf("apt-get called with nothing missing: %q", calls)
				}
				return
			}
			wantCalls := []string{
				"update frontend=",
				"install -y " + strings.Join(want, " ") + " frontend=noninteractive",
			}
			if !slices.Equal(calls, wantCalls) {
				t.Fatalf("apt-get calls:\n got %q\nwant %q", calls, wantCalls)
			}
		})
	}
}

// TestInstallBrowserFailsWithApt holds the script to apt's verdict: when
// apt-get fails, so does the script (and so `make install-browser check`
// stops before any test runs), and install is not tried after a failed update.
func TestInstallBrowserFailsWithApt(t *testing.T) {
	calls, err := runInstall(t, []string{"node", "npm", "Xvfb", "xdotool", "haproxy"}, "100")
	if err == nil {
		t.Fatal("script succeeded although apt-get failed")
	}
	if want := []string{"update frontend="}; !slices.Equal(calls, want) {
		t.Fatalf("apt-get calls: got %q, want %q", calls, want)
	}
}

// TestMakefileRunsInstallScript keeps `make install-browser` (README's test
// command is `make install-browser check`, which .ci/run calls) on the script
// tested here rather than a copy of its logic.
func TestMakefileRunsInstallScript(t *testing.T) {
	out, err := exec.Command("make", "-C", "..", "-n", "install-browser").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n install-browser: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "scripts/install-browser.sh") {
		t.Fatalf("make install-browser does not run scripts/install-browser.sh:\n%s", out)
	}
}
