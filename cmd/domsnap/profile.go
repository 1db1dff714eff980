package main

// "domsnap profile": the persistent profiles a person signs in with
// (package profile), for extract --live, inventory --live and mcp to read
// pages behind a sign-in. Nothing here reads a profile's browser files: no
// cookie, storage value or password is ever printed.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/mcp"
	"github.com/domsnap/domsnap/profile"
)

// stateDirUsage describes --state-dir of the profile commands.
const stateDirUsage = "the state folder holding profiles/ (default $XDG_STATE_HOME/domsnap, else ~/.local/state/domsnap)"

// Bounds of the sign-in window's wait.
const (
	defaultLoginTimeout = time.Hour
	maxLoginTimeout     = 24 * time.Hour
)

// runProfile is "domsnap profile login|list|remove".
func runProfile(c *cli, args []string) int {
	if len(args) == 0 {
		return c.usage("profile needs a subcommand: login, list or remove")
	}
	switch args[0] {
	case "-h", "-help", "--help":
		// login's flags are the others' and more.
		return runProfileLogin(c, []string{"-h"})
	case "login":
		return runProfileLogin(c, args[1:])
	case "list":
		return runProfileList(c, args[1:])
	case "remove":
		return runProfileRemove(c, args[1:])
	}
	return c.usage("unknown profile subcommand " + domsnap.Quote(args[0]) + suggestion(args[0], []string{"login", "list", "remove"}, ""))
}

// openProfiles opens the profiles of the state folder dir, or of the
// default one when dir is empty.
func openProfiles(dir string) (*profile.Store, error) {
	if dir == "" {
		var err error
		if dir, err = mcp.DefaultStateDir(); err != nil {
			return nil, err
		}
	}
	return profile.Open(dir)
}

// runProfileLogin is "domsnap profile login NAME URL [--origin O]...".
func runProfileLogin(c *cli, args []string) int {
	fs, chrome := browserFlags(c, "profile", "")
	dir := fs.String("state-dir", "", stateDirUsage)
	var origins originList
	fs.Var(&origins, "origin", "another scheme://host[:port] the profile may be used on, besides URL's (repeatable)")
	timeout := fs.Duration("timeout", defaultLoginTimeout, "the most the window may stay open (at most "+maxLoginTimeout.String()+")")
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) != 2 {
		return c.usage("profile login needs NAME and URL")
	}
	name, url := pos[0], pos[1]
	if err := profile.CheckName(name); err != nil {
		return c.fail(err)
	}
	first, err := profile.URLOrigin(url)
	if err != nil {
		return c.fail(err)
	}
	bound := []string{first}
	for _, o := range origins {
		co, err := profile.ParseOrigin(o)
		if err != nil {
			return c.fail(err)
		}
		bound = append(bound, co)
	}
	if *timeout <= 0 || *timeout > maxLoginTimeout {
		return c.usage("--timeout must be more than 0 and at most " + maxLoginTimeout.String())
	}
	if !live.HasDisplay() {
		return c.usage("profile login opens a window for a person to sign in, and there is no display (DISPLAY and WAYLAND_DISPLAY are unset); run it in a desktop session, or over ssh -X")
	}
	store, err := openProfiles(*dir)
	if err != nil {
		return c.fail(err)
	}
	_, existed := store.Get(name)
	p, err := store.Create(name, bound)
	if err != nil {
		return c.fail(err)
	}
	lease, err := p.Lease()
	if err != nil {
		return c.fail(err)
	}
	ctx, stop, interrupted := liveContext(*timeout)
	defer stop()
	fmt.Fprintf(c.stderr, "sign in in the window that opens, then close it; profile %s is bound to %s\n", name, strings.Join(p.Origins, " "))
	err = live.Login(ctx, live.LoginOptions{Path: *chrome, Profile: p.Folder, URL: url, Lock: lease.File()})
	lease.Close()
	if err != nil {
		if existed != nil && errors.Is(err, live.ErrNoBrowser) {
			// A browser that never started signed nothing in: a profile
			// made for it goes again.
			_ = store.Remove(name)
		}
		return c.fail(err)
	}
	if interrupted() {
		return c.fail(errInterrupted())
	}
	fmt.Fprintf(c.stdout, "profile %s saved (%s)\n", name, strings.Join(p.Origins, " "))
	return exitOK
}

// runProfileList is "domsnap profile list": name, origins and last use.
func runProfileList(c *cli, args []string) int {
	fs := c.flagSet("profile", "")
	dir := fs.String("state-dir", "", stateDirUsage)
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) != 0 {
		return c.usage("profile list takes no operands")
	}
	store, err := openProfiles(*dir)
	if err != nil {
		return c.fail(err)
	}
	list, err := store.List()
	if err != nil {
		return c.fail(err)
	}
	for _, p := range list {
		last := "never used"
		if !p.LastUse.IsZero() {
			last = "last used " + p.LastUse.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(c.stdout, "%s\t%s\t%s\n", p.Name, strings.Join(p.Origins, " "), last)
	}
	return exitOK
}

// runProfileRemove is "domsnap profile remove NAME".
func runProfileRemove(c *cli, args []string) int {
	fs := c.flagSet("profile", "")
	dir := fs.String("state-dir", "", stateDirUsage)
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		return c.usage("profile remove needs NAME")
	}
	store, err := openProfiles(*dir)
	if err != nil {
		return c.fail(err)
	}
	if err := store.Remove(pos[0]); err != nil {
		return c.fail(err)
	}
	fmt.Fprintf(c.stdout, "profile %s removed\n", pos[0])
	return exitOK
}
