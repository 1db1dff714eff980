package main

// The flags every live read shares (capture, extract --live, inventory
// --live): what to wait for before the snapshot, and what the main
// document's HTTP status means.

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/live"
)

// defaultLiveDeadline bounds a live read whose context has no deadline of
// its own.
const defaultLiveDeadline = 30 * time.Second

// waitFlags are the raw values of the wait flags.
type waitFlags struct {
	until    string
	waitFor  string
	settle   time.Duration
	failHTTP bool
}

// addWaitFlags defines the wait flags on fs.
func addWaitFlags(fs *flag.FlagSet) *waitFlags {
	w := &waitFlags{}
	// Left empty, the wait is load but ends LoadGrace after dom_ready: a
	// page whose load event never comes is read then, not at the deadline.
	fs.StringVar(&w.until, "wait-until", "", "the navigation event to wait for: load, dom_ready or network_idle (no request in flight for "+live.NetworkIdleQuiet.String()+"); unset, load but at most "+live.LoadGrace.String()+" after dom_ready")
	fs.StringVar(&w.waitFor, "wait-for", "", "KIND[:INDEX]: retake the snapshot until that visible collection is in the inventory, or the deadline passes")
	fs.DurationVar(&w.settle, "settle", 0, "extra time to wait before the snapshot, at most "+live.MaxSettle.String())
	fs.BoolVar(&w.failHTTP, "fail-http", false, "make a main-document HTTP status of "+strconv.Itoa(minErrorStatus)+" or more an error (http_error) before any analysis")
	return w
}

// liveWait is the checked form of the wait flags.
type liveWait struct {
	until    live.Until
	forKind  domsnap.Kind
	forIndex int
	hasFor   bool
	settle   time.Duration
	failHTTP bool
}

// parse checks the flags; a bad value is a usage error.
func (w *waitFlags) parse() (liveWait, error) {
	var lw liveWait
	lw.until = live.UntilLoadOrGrace
	if w.until != "" {
		u, ok := live.ParseUntil(w.until)
		if !ok {
			return lw, &usageError{"--wait-until must be load, dom_ready or network_idle, got " + domsnap.Quote(w.until)}
		}
		lw.until = u
	}
	if w.settle < 0 || w.settle > live.MaxSettle {
		return lw, &usageError{"--settle must be 0 to " + live.MaxSettle.String() + ", got " + w.settle.String()}
	}
	lw.settle = w.settle
	lw.failHTTP = w.failHTTP
	if w.waitFor != "" {
		k, idx, err := parseWaitFor(w.waitFor)
		if err != nil {
			return lw, err
		}
		lw.forKind, lw.forIndex, lw.hasFor = k, idx, true
	}
	return lw, nil
}

// parseWaitFor reads KIND[:INDEX].
func parseWaitFor(s string) (domsnap.Kind, int, error) {
	kindPart, indexPart, hasIndex := strings.Cut(s, ":")
	k, ok := domsnap.ParseKind(kindPart)
	bad := &usageError{"--wait-for must be KIND[:INDEX] with KIND table, list or form and INDEX 0 to " +
		strconv.Itoa(limits.MaxCollectionIndex) + ", got " + domsnap.Quote(s)}
	if !ok {
		return 0, 0, bad
	}
	idx := 0
	if hasIndex {
		n, err := strconv.Atoi(indexPart)
		if err != nil || indexPart == "" || indexPart[0] == '+' || indexPart[0] == '-' || n > limits.MaxCollectionIndex {
			return 0, 0, bad
		}
		idx = n
	}
	return k, idx, nil
}

// anySet reports whether a wait flag was named on the command line.
func waitFlagSet(set map[string]bool) string {
	for _, n := range []string{"wait-until", "wait-for", "settle", "fail-http"} {
		if set[n] {
			return n
		}
	}
	return ""
}

// liveDeadline is ctx's deadline, else defaultLiveDeadline from now.
func liveDeadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(defaultLiveDeadline)
}

// openFresh launches a headless Chromium with a throw-away profile and
// opens a tab.
func openFresh(ctx context.Context, chrome string) (*live.Browser, *live.Page, func(), error) {
	b, err := live.Launch(ctx, live.Options{Path: chrome})
	if err != nil {
		return nil, nil, func() {}, err
	}
	p, err := b.NewPage(ctx)
	if err != nil {
		b.Close()
		return nil, nil, func() {}, err
	}
	return b, p, func() {
		p.Close()
		b.Close()
	}, nil
}

// minErrorStatus is the least HTTP status of the main document that is
// warned about, and that --fail-http makes an error: the client and server
// error classes.
const minErrorStatus = 400

// openLive launches Chromium, opens a tab, loads url and waits as w says,
// and opens a session on the tab, whose condition for the snapshot it
// returns (nil without --wait-for). The main document's status is reported
// on standard error when it is 400 or more, or the navigation failed; with
// --fail-http a status of 400 or more is http_error. A snapshot about to be
// taken before the load event is reported there too, as load_complete
// false: standard output stays the observation alone. closeAll must be
// called whatever happened. With a profile (prof not nil) the browser runs
// on the profile's folder under its lease, and its main frame may go only
// to the profile's origins (liveProfile.open).
func openLive(ctx context.Context, c *cli, chrome, url string, w liveWait, prof *liveProfile) (s *live.Session, cond *live.Condition, closeAll func(), err error) {
	closeAll = func() {}
	var b *live.Browser
	var p *live.Page
	if prof != nil {
		b, p, closeAll, err = prof.open(ctx, chrome, url)
	} else {
		b, p, closeAll, err = openFresh(ctx, chrome)
	}
	if err != nil {
		return nil, nil, closeAll, err
	}
	deadline := liveDeadline(ctx)
	nav, err := p.Goto(ctx, url, w.until, deadline)
	if err != nil {
		return nil, nil, closeAll, err
	}
	if prof != nil && p.Refused() != 0 {
		return nil, nil, closeAll, &domsnap.Error{Code: domsnap.NavigationRefused, Msg: "the page was redirected to an origin the profile is not bound to"}
	}
	switch {
	case nav.ErrorText != "":
		fmt.Fprintf(c.stderr, "warning: navigation failed: %s\n", domsnap.Quote(nav.ErrorText))
	case nav.Status >= minErrorStatus && w.failHTTP:
		return nil, nil, closeAll, &domsnap.Error{Code: domsnap.HTTPError, Msg: "the main document answered HTTP " + strconv.Itoa(nav.Status)}
	case nav.Status >= minErrorStatus:
		fmt.Fprintf(c.stderr, "warning: HTTP %d\n", nav.Status)
	}
	if nav.ErrorText == "" && !nav.LoadComplete {
		fmt.Fprintln(c.stderr, "warning: load_complete false: the page's load event had not come when the wait ended")
	}
	if err := live.Settle(ctx, w.settle, deadline); err != nil {
		return nil, nil, closeAll, err
	}
	if w.hasFor {
		cond = &live.Condition{Kind: w.forKind, Index: w.forIndex, Deadline: deadline}
	}
	s, err = live.NewSession(p, live.SessionOptions{Browser: b.Version()})
	return s, cond, closeAll, err
}
