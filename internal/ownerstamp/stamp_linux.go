package ownerstamp

import (
	"os"
	"strconv"
	"strings"
)

// Stamp names the running process in a way that survives pid reuse: its
// pid and its start time in clock ticks since boot (field 22 of
// /proc/<pid>/stat). It is "" when /proc cannot be read.
func Stamp() string {
	return StampOf(os.Getpid())
}

// StampOf is the stamp of the process pid, "" when it has none.
func StampOf(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name in parentheses may hold spaces and parentheses;
	// the fields after the last ')' are plain numbers.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	// After the name come state (field 3) ... starttime (field 22).
	const startField = 22 - 3
	if len(f) <= startField {
		return ""
	}
	return strconv.Itoa(pid) + " " + f[startField]
}

// Gone reports whether the process a stamp names has ended: no process
// has its pid, or one that started at another time does.
func Gone(stamp string) bool {
	pidText, _, ok := strings.Cut(stamp, " ")
	if !ok {
		return false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	return StampOf(pid) != stamp
}
