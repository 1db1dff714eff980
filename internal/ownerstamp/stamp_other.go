//go:build !linux

package ownerstamp

// Without /proc a process cannot be named in a way that survives pid reuse,
// so no folder is marked and none is swept.

// Stamp is "" here.
func Stamp() string { return "" }

// StampOf is "" here.
func StampOf(int) string { return "" }

// Gone is false here.
func Gone(string) bool { return false }
