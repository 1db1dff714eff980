package main

import (
	"context"
	"flag"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/mcp"
)

// liveProfile is --profile of extract --live and inventory --live: the
// profile to read the page with, in the state folder stateDir ("" for the
// default).
type liveProfile struct {
	name, stateDir string
}

// addProfileFlags adds --profile and --state-dir to a live command.
func addProfileFlags(fs *flag.FlagSet) (name, stateDir *string) {
	name = fs.String("profile", "", "with --live: read the page with this profile a person signed in with (domsnap profile login); only its origins may be opened")
	stateDir = fs.String("state-dir", "", "with --profile: "+stateDirUsage)
	return name, stateDir
}

// open leases the profile and starts a browser on its folder, with a tab
// whose main frame may go only to the profile's origins, redirects
// included. url must be one of them: navigation_refused before anything
// starts, as unknown_profile and profile_busy are. closeAll closes the tab
// and the browser and only then ends the lease.
func (lp *liveProfile) open(ctx context.Context, chrome, url string) (b *live.Browser, p *live.Page, closeAll func(), err error) {
	closeAll = func() {}
	store, err := openProfiles(lp.stateDir)
	if err != nil {
		return nil, nil, closeAll, err
	}
	prof, err := store.Get(lp.name)
	if err != nil {
		return nil, nil, closeAll, err
	}
	policy, err := mcp.NewPolicy(prof.Origins)
	if err != nil {
		return nil, nil, closeAll, err
	}
	if !policy.Allow(url) {
		return nil, nil, closeAll, &domsnap.Error{Code: domsnap.NavigationRefused, Msg: "the URL's origin is not one the profile is bound to"}
	}
	lease, err := prof.Lease()
	if err != nil {
		return nil, nil, closeAll, err
	}
	b, err = live.LaunchProfile(ctx, live.Options{Path: chrome}, prof.Folder, lease.File())
	if err != nil {
		lease.Close()
		return nil, nil, closeAll, err
	}
	closeAll = func() {
		if p != nil {
			p.Close()
		}
		b.Close()
		lease.Close()
	}
	if p, err = b.NewPage(ctx); err != nil {
		return nil, nil, closeAll, err
	}
	if err := p.Guard(ctx, policy.Allow); err != nil {
		return nil, nil, closeAll, err
	}
	return b, p, closeAll, nil
}

// checkProfileFlags refuses --profile without --live, and --state-dir
// without --profile.
func checkProfileFlags(set map[string]bool, live bool) string {
	switch {
	case set["profile"] && !live:
		return "--profile needs --live"
	case set["state-dir"] && !set["profile"]:
		return "--state-dir needs --profile"
	}
	return ""
}
