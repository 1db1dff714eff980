package hosted_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartRefusals: start.sh refuses, with exit status 1, a message that
// says what to fix, and nothing started or left in its temporary folder,
// an environment it cannot serve: no token or principals file, both, a
// bad number of hosts, port or idle timeout, no domsnap.
func TestStartRefusals(t *testing.T) {
	script, err := filepath.Abs("start.sh")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	for _, name := range []string{"domsnap", "haproxy"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	token := filepath.Join(t.TempDir(), "token")
	ok := []string{"TOKEN_FILE=" + token, "DOMSNAP=" + filepath.Join(bin, "domsnap"), "HAPROXY=" + filepath.Join(bin, "haproxy")}
	for _, c := range []struct {
		env  []string
		want string
	}{
		{[]string{"DOMSNAP=" + filepath.Join(bin, "domsnap"), "HAPROXY=" + filepath.Join(bin, "haproxy")}, "set TOKEN_FILE"},
		{append([]string{"PRINCIPALS=" + token}, ok...), "not both"},
		{append([]string{"HOSTS=0"}, ok...), "HOSTS must be from 1 to 64"},
		{append([]string{"HOSTS=65"}, ok...), "HOSTS must be from 1 to 64"},
		{append([]string{"HOSTS=two"}, ok...), "HOSTS must be a number"},
		{append([]string{"PORT=70000"}, ok...), "PORT must be from 1 to 65535"},
		{append([]string{"IDLE_TIMEOUT=1h30m"}, ok...), "IDLE_TIMEOUT must be"},
		{append([]string{"IDLE_TIMEOUT=soon"}, ok...), "IDLE_TIMEOUT must be"},
		{append([]string{"LOG_REQUESTS=yes"}, ok...), "LOG_REQUESTS must be 0 or 1"},
		{[]string{"TOKEN_FILE=" + token, "DOMSNAP=" + filepath.Join(bin, "none"), "HAPROXY=" + filepath.Join(bin, "haproxy")}, "domsnap not found"},
	} {
		tmp := t.TempDir()
		cmd := exec.Command("/bin/sh", script)
		cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "TMPDIR=" + tmp}, c.env...)
		out, err := cmd.CombinedOutput()
		if ee, isExit := err.(*exec.ExitError); !isExit || ee.ExitCode() != 1 || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: %v: %s, want exit 1 saying %q", c.env, err, out, c.want)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%v: left %v", c.env, left)
		}
	}
}
