package leftover

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// Process is one process that holds the marker.
type Process struct {
	PID int
	// Cmdline is its command line, arguments joined by spaces.
	Cmdline string
}

// Processes lists the live processes, other than the caller, whose command
// line or environment contains marker. Zombies, whose memory is gone, are
// not listed: they hold nothing and vanish once reaped. Processes of other
// users, which cannot be read, are skipped.
func Processes(marker string) ([]Process, error) {
	if runtime.GOOS != "linux" {
		return nil, errors.New("leftover: reading processes needs /proc (Linux)")
	}
	if marker == "" {
		return nil, errors.New("leftover: empty marker")
	}
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return nil, err
	}
	self := os.Getpid()
	m := []byte(marker)
	var out []Process
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		env, _ := os.ReadFile(filepath.Join(d, "environ"))
		if bytes.Contains(cmd, m) || bytes.Contains(env, m) {
			out = append(out, Process{PID: pid, Cmdline: string(bytes.ReplaceAll(bytes.TrimRight(cmd, "\x00"), []byte{0}, []byte{' '}))})
		}
	}
	return out, nil
}

// WaitGone polls until no process holds marker or wait passes, and returns
// what is left then (nothing on success). A process killed a moment ago may
// need that moment to exit; a leftover does not go away by waiting.
func WaitGone(marker string, wait time.Duration) ([]Process, error) {
	deadline := time.Now().Add(wait)
	for {
		ps, err := Processes(marker)
		if err != nil || len(ps) == 0 || time.Now().After(deadline) {
			return ps, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}
