package main

// This file is a placeholder for the offline observation commands, which
// are built in their own file and replace it. The browser commands are in
// live.go.

import (
	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

func notAvailable(c *cli, code errcode.Code, what string) int {
	return c.fail(errcode.New(code, "domsnap", "", what+" is not available in this build"))
}

// runInventory is "domsnap inventory INPUT".
func runInventory(c *cli, args []string) int {
	return notAvailable(c, errcode.UnsupportedInput, "inventory")
}

// runExtractObservation is "domsnap extract --observation" or
// "--model-bytes N" over a loaded input: req is nil when no request was given.
func runExtractObservation(c *cli, f *extractFlags, req *domsnap.Request, in *snapshot.Input) int {
	return notAvailable(c, errcode.UnsupportedInput, "the observation output")
}
