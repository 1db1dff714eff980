package main

// The commands that drive Chromium: capture, parity, extract --live, and the
// browser line of version. Each launches its own headless browser with a
// throw-away profile and closes it before returning.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/domsnap/domsnap/parity"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// stopSignals are the signals that stop a live command: Ctrl-C, a polite
// kill, and the terminal going away. Each cancels the operation, so the
// browser is killed and its profile removed before the command exits.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// liveContext is the context of one live operation: it ends when timeout
// passes (the whole operation, browser launch included) or a stop signal
// arrives. interrupted reports whether a signal ended it, so a command that
// got one exits with an error even when its work was already done. stop must
// be called once everything is closed: until then a second signal is caught
// too, rather than killing the command before it has cleaned up.
func liveContext(timeout time.Duration) (ctx context.Context, stop func(), interrupted func() bool) {
	sig, stopSig := signal.NotifyContext(context.Background(), stopSignals...)
	ctx, cancel := context.WithTimeout(sig, timeout)
	return ctx, func() { cancel(); stopSig() }, func() bool { return sig.Err() != nil }
}

// errInterrupted is the error of a live command stopped by a signal. The
// command itself saw the signal, so the error is its own: coded, and
// labelled by no package.
func errInterrupted() error {
	return &domsnap.Error{Code: domsnap.Cancelled, Msg: "stopped by a signal"}
}

// timeoutFlag adds --timeout to a live command's flags.
func timeoutFlag(fs *flag.FlagSet) *time.Duration {
	return fs.Duration("timeout", limits.LiveTimeout, "the most the whole live operation may take, browser launch included (at most "+limits.MaxLiveTimeout.String()+")")
}

// checkTimeout refuses a --timeout that is not positive or is longer than
// limits.MaxLiveTimeout.
func checkTimeout(d time.Duration) error {
	if d <= 0 || d > limits.MaxLiveTimeout {
		return &usageError{"--timeout must be more than 0 and at most " + limits.MaxLiveTimeout.String() + ", got " + d.String()}
	}
	return nil
}

// browserFlags starts the flag set of a command that launches Chromium
// (see cli.flagSet; usage is the usage line when the command table does not
// list name), with the --chrome flag, whose value is returned.
func browserFlags(c *cli, name, usage string) (*flag.FlagSet, *string) {
	fs := c.flagSet(name, usage)
	chrome := fs.String("chrome", "", "the Chromium binary (default $"+live.EnvChrome+", then the usual paths)")
	return fs, chrome
}

// parseCommand parses a command's flags and operands. When done is set the
// command returns code at once: exitOK after -h (the help was printed),
// exitUsage after a bad flag (the flag set explained it).
func parseCommand(fs *flag.FlagSet, args []string) (pos []string, code int, done bool) {
	pos, err := parseInterleaved(fs, args)
	if err == flag.ErrHelp {
		return nil, exitOK, true
	}
	if err != nil {
		return nil, exitUsage, true
	}
	return pos, exitOK, false
}

// runCapture is "domsnap capture URL -o FILE".
func runCapture(c *cli, args []string) int {
	fs, chrome := browserFlags(c, "capture", "usage: domsnap capture URL -o FILE")
	timeout := timeoutFlag(fs)
	out := fs.String("o", "", "the snapshot file to write (- for standard output)")
	gz := fs.Bool("gzip", false, "gzip the snapshot (the default when FILE ends in .gz)")
	wf := addWaitFlags(fs)
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		return c.usage("capture needs exactly one URL")
	}
	if *out == "" {
		return c.usage("capture needs -o FILE")
	}
	w, err := wf.parse()
	if err != nil {
		return c.fail(err)
	}
	zip := *gz || strings.HasSuffix(*out, ".gz")
	if err := checkTimeout(*timeout); err != nil {
		return c.fail(err)
	}

	ctx, stop, interrupted := liveContext(*timeout)
	defer stop()
	s, cond, closeAll, err := openLive(ctx, c, *chrome, pos[0], w, nil)
	defer closeAll()
	if err != nil {
		return c.fail(err)
	}
	snap, err := s.Capture(ctx, live.ReadOptions{When: cond})
	if err != nil {
		return c.fail(err)
	}
	if interrupted() {
		return c.fail(errInterrupted())
	}
	if *out == "-" {
		if err := snapshot.WriteSnapshot(c.stdout, snap.Envelope(), zip); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	// Written beside the target and renamed, so a failed capture never
	// leaves half a snapshot under the name.
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".domsnap-capture-*")
	if err != nil {
		return c.fail(err)
	}
	defer os.Remove(tmp.Name())
	if err := snapshot.WriteSnapshot(tmp, snap.Envelope(), zip); err != nil {
		tmp.Close()
		return c.fail(err)
	}
	if err := tmp.Close(); err != nil {
		return c.fail(err)
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		return c.fail(err)
	}
	fmt.Fprintf(c.stderr, "captured %s (%d nodes) into %s\n", snap.Revision, snap.Tree.Len(), *out)
	return exitOK
}

// runExtractLive is "domsnap extract --live URL": req is nil when only an
// observation was asked for. It is a one-shot read: a fresh session, one
// snapshot (more only while --wait-for retakes it), no revision to check. A
// request that names its own expected revision keeps it, and is refused as
// another session's.
func runExtractLive(c *cli, f *extractFlags, req *domsnap.Checked) int {
	w, err := f.Wait.parse()
	if err != nil {
		return c.fail(err)
	}
	ctx, stop, interrupted := liveContext(f.Timeout)
	defer stop()
	s, cond, closeAll, err := openLive(ctx, c, f.Chrome, f.Live, w, f.profile())
	defer closeAll()
	if err != nil {
		return c.fail(err)
	}
	if f.Observation || f.set["model-bytes"] {
		obs, _, err := s.Observe(ctx, live.ReadOptions{Query: req, When: cond, Once: true})
		if err != nil {
			return c.fail(err)
		}
		if interrupted() {
			return c.fail(errInterrupted())
		}
		out := obs.Canonical()
		if f.set["model-bytes"] {
			proj, err := domsnap.Project(obs, f.ModelBytes)
			if err != nil {
				return c.fail(err)
			}
			out = proj.Canonical()
		}
		return c.writeJSON(out)
	}
	res, _, err := s.Extract(ctx, live.ReadOptions{Query: req, When: cond, Once: true})
	if err != nil {
		return c.fail(err)
	}
	if interrupted() {
		return c.fail(errInterrupted())
	}
	return c.writeResult(f, res, req.Request())
}

func (c *cli) writeJSON(out []byte) int {
	if _, err := c.stdout.Write(append(out, '\n')); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// runParity is "domsnap parity [--known TABLE] FILE...": each HTML file
// analyzed offline and live, with the requests of <name>.requests.json
// beside it when there is one, else parity.DefaultRequests. Every
// difference is printed. With --known, a difference on a page and request
// the divergence table lists is expected: it is marked as listed, the rows
// seen are summed up, and only unlisted differences fail the command.
func runParity(c *cli, args []string) int {
	fs, chrome := browserFlags(c, "parity", "usage: domsnap parity FILE...")
	timeout := timeoutFlag(fs)
	knownFile := fs.String("known", "", "a divergence table (such as docs/divergences.md): differences it lists are expected")
	files, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(files) == 0 {
		return c.usage("parity needs at least one HTML file")
	}
	if err := checkTimeout(*timeout); err != nil {
		return c.fail(err)
	}
	var known []parity.Divergence
	if *knownFile != "" {
		f, err := os.Open(*knownFile)
		if err != nil {
			return c.fail(err)
		}
		known, err = parity.ReadDivergences(f)
		f.Close()
		if err != nil {
			return c.fail(err)
		}
	}
	type input struct {
		name    string
		data    []byte
		reqs    []domsnap.Request
		skipped []int
	}
	// Every file and request is read before the browser starts, so a typo
	// costs no launch.
	var inputs []input
	for _, name := range files {
		if err := c.refuseURL(fs, name); err != nil {
			return c.fail(err)
		}
		data, err := c.readInput(name)
		if err != nil {
			return c.fail(err)
		}
		reqs, skipped, err := parityRequests(name)
		if err != nil {
			return c.fail(err)
		}
		inputs = append(inputs, input{name, data, reqs, skipped})
	}

	// The timeout covers the whole run, every file together.
	ctx, stop, interrupted := liveContext(*timeout)
	defer stop()
	b, err := live.Launch(ctx, live.Options{Path: *chrome})
	if err != nil {
		return c.fail(err)
	}
	defer b.Close()
	differ, listedOnly := 0, 0
	seen := make([]bool, len(known))
	for _, in := range inputs {
		rep, err := parity.Check(ctx, b, in.data, in.reqs)
		if err != nil {
			return c.fail(err)
		}
		for _, i := range in.skipped {
			fmt.Fprintf(c.stdout, "%s: request %d: not a valid request, not compared\n", in.name, i)
		}
		fixture := strings.TrimSuffix(filepath.Base(in.name), filepath.Ext(in.name))
		unlisted, listed := 0, 0
		for _, r := range append(rep.Results, rep.Inventory) {
			if len(r.Differences) == 0 {
				continue
			}
			what := "request " + strconv.Itoa(r.Request)
			if r.Request < 0 {
				what = "inventory"
			}
			mark := ""
			if row := coveringRow(known, fixture, r.Request); row >= 0 {
				seen[row] = true
				mark = " (listed: " + known[row].Fixture + " " + known[row].RequestName() + ")"
				listed++
			} else {
				unlisted++
			}
			for _, d := range r.Differences {
				fmt.Fprintf(c.stdout, "%s: %s: %s: offline %s, live %s%s\n", in.name, what, pathOrRoot(d.Path), d.Offline, d.Live, mark)
			}
		}
		switch {
		case unlisted > 0:
			differ++
		case listed > 0:
			listedOnly++
		default:
			fmt.Fprintf(c.stdout, "%s: offline and live agree (%d requests and the inventory, charset %s, %s)\n", in.name, len(rep.Results), rep.Charset, b.Version())
		}
	}
	if interrupted() {
		return c.fail(errInterrupted())
	}
	if *knownFile != "" {
		writeKnownSummary(c, *knownFile, known, seen, fixtureNames(files))
	}
	if differ > 0 {
		how := ""
		if *knownFile != "" {
			how = " in ways " + *knownFile + " does not list"
		}
		fmt.Fprintf(c.stderr, "parity: %d of %d files differ%s\n", differ, len(inputs), how)
		return exitFailure
	}
	if listedOnly > 0 {
		fmt.Fprintf(c.stderr, "parity: %d of %d files differ, every difference listed in %s\n", listedOnly, len(inputs), *knownFile)
	}
	return exitOK
}

// coveringRow returns the index of the first row of known that lists
// request req of fixture, or -1.
func coveringRow(known []parity.Divergence, fixture string, req int) int {
	for i, d := range known {
		if d.Covers(fixture, req) {
			return i
		}
	}
	return -1
}

// fixtureNames are the names the divergence table gives the files: the
// base name without its extension.
func fixtureNames(files []string) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		out[strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))] = true
	}
	return out
}

// writeKnownSummary says which listed rows the run saw differ, and which
// rows of the pages it compared did not differ: those rows may be stale.
// Rows of pages not compared are not mentioned.
func writeKnownSummary(c *cli, table string, known []parity.Divergence, seen []bool, compared map[string]bool) {
	var saw, quiet []string
	for i, d := range known {
		if !compared[d.Fixture] {
			continue
		}
		name := d.Fixture + " " + d.RequestName()
		if seen[i] {
			saw = append(saw, name)
		} else {
			quiet = append(quiet, name)
		}
	}
	fmt.Fprintf(c.stdout, "listed in %s and seen: %d rows", table, len(saw))
	if len(saw) > 0 {
		fmt.Fprintf(c.stdout, ": %s", strings.Join(saw, ", "))
	}
	fmt.Fprintln(c.stdout)
	if len(quiet) > 0 {
		fmt.Fprintf(c.stdout, "listed in %s but agreeing now: %s\n", table, strings.Join(quiet, ", "))
	}
}

func pathOrRoot(p string) string {
	if p == "" {
		return "(whole result)"
	}
	return p
}

// parityRequests reads the requests file beside an HTML file: the same name
// with .requests.json for its extension. Entries that are not valid requests
// are reported by position and not compared.
func parityRequests(htmlFile string) (reqs []domsnap.Request, skipped []int, err error) {
	if htmlFile == "-" {
		return parity.DefaultRequests(), nil, nil
	}
	path := strings.TrimSuffix(htmlFile, filepath.Ext(htmlFile)) + ".requests.json"
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return parity.DefaultRequests(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, nil, &domsnap.Error{Code: domsnap.InvalidRequest, Msg: domsnap.Quote(path) + " is not a JSON array of requests", Err: err}
	}
	for i, raw := range raws {
		req, err := domsnap.DecodeRequest(raw)
		if err != nil {
			skipped = append(skipped, i)
			continue
		}
		reqs = append(reqs, req)
	}
	return reqs, skipped, nil
}

// browserVersion reports the browser's version for "domsnap version": the
// browser found through $DOMSNAP_CHROME or the usual paths, launched once to
// ask it.
func browserVersion(c *cli) (string, bool) {
	ctx, stop, _ := liveContext(limits.LiveTimeout)
	defer stop()
	b, err := live.Launch(ctx, live.Options{})
	if err != nil {
		return "", false
	}
	defer b.Close()
	return b.Version() + " (protocol " + b.ProtocolVersion() + ")", true
}
