package main

// This file is a placeholder: the commands that need a browser or an
// observation are built in their own files, which replace it.

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

// runCapture is "domsnap capture URL -o FILE".
func runCapture(c *cli, args []string) int {
	return notAvailable(c, errcode.UnsupportedAdapter, "capture")
}

// runParity is "domsnap parity FILE...".
func runParity(c *cli, args []string) int {
	return notAvailable(c, errcode.UnsupportedAdapter, "parity")
}

// runExtractLive is "domsnap extract --live URL": req is nil when only an
// observation was asked for.
func runExtractLive(c *cli, f *extractFlags, req *domsnap.Request) int {
	return notAvailable(c, errcode.UnsupportedAdapter, "live extraction")
}

// runExtractObservation is "domsnap extract --observation" or
// "--model-bytes N" over a loaded input: req is nil when no request was given.
func runExtractObservation(c *cli, f *extractFlags, req *domsnap.Request, in *snapshot.Input) int {
	return notAvailable(c, errcode.UnsupportedInput, "the observation output")
}

// browserVersion reports the browser's version for "domsnap version".
func browserVersion(c *cli) (string, bool) { return "", false }
