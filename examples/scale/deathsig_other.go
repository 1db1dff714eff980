//go:build !linux

package main

import "os/exec"

// setDeathSignal does nothing where the kernel cannot tie a child's life to
// its parent's; the shard timeout still ends domsnap.
func setDeathSignal(*exec.Cmd) {}
