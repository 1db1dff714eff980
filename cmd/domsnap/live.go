package main

// The commands that drive Chromium: capture, parity, extract --live, and the
// browser line of version. Each launches its own headless browser with a
// throw-away profile and closes it before returning.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// liveContext ends on an interrupt, so a Ctrl-C still kills the browser and
// removes its profile.
func liveContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// browserFlags starts the flag set of a command that launches Chromium:
// its errors and usage go to standard error, the usage line first, and it
// has the --chrome flag, whose value is returned.
func browserFlags(c *cli, name, usage string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	chrome := fs.String("chrome", "", "the Chromium binary (default $"+live.EnvChrome+", then the usual paths)")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, usage)
		fs.PrintDefaults()
	}
	return fs, chrome
}

// parseCommand parses a command's flags and operands. When done is set the
// command returns code at once: exitOK after -h (the usage was printed),
// exitUsage after a bad flag (the flag package explained it).
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

	ctx, stop := liveContext()
	defer stop()
	s, cond, closeAll, err := openLive(ctx, c, *chrome, pos[0], w)
	defer closeAll()
	if err != nil {
		return c.fail(err)
	}
	snap, err := s.CaptureWhen(ctx, cond)
	if err != nil {
		return c.fail(err)
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
func runExtractLive(c *cli, f *extractFlags, req *domsnap.Request) int {
	w, err := f.Wait.parse()
	if err != nil {
		return c.fail(err)
	}
	ctx, stop := liveContext()
	defer stop()
	s, cond, closeAll, err := openLive(ctx, c, f.Chrome, f.Live, w)
	defer closeAll()
	if err != nil {
		return c.fail(err)
	}
	if f.Observation || f.set["model-bytes"] {
		obs, _, err := s.ObserveOnce(ctx, req, cond)
		if err != nil {
			return c.fail(err)
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
	res, _, err := s.ExtractOnce(ctx, *req, cond)
	if err != nil {
		return c.fail(err)
	}
	if f.Format == "table" {
		writeTable(c.stdout, res, *req)
		return exitOK
	}
	return c.writeJSON(res.Canonical())
}

func (c *cli) writeJSON(out []byte) int {
	if _, err := c.stdout.Write(append(out, '\n')); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// runParity is "domsnap parity FILE...": each HTML file analyzed offline
// and live, with the requests of <name>.requests.json beside it when there
// is one, else live.DefaultParityRequests. Every difference is printed; the
// exit status is 1 when any file differs.
func runParity(c *cli, args []string) int {
	fs, chrome := browserFlags(c, "parity", "usage: domsnap parity FILE...")
	files, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(files) == 0 {
		return c.usage("parity needs at least one HTML file")
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

	ctx, stop := liveContext()
	defer stop()
	b, err := live.Launch(ctx, live.Options{Path: *chrome})
	if err != nil {
		return c.fail(err)
	}
	defer b.Close()
	differ := 0
	for _, in := range inputs {
		rep, err := live.Parity(ctx, b, in.data, in.reqs)
		if err != nil {
			return c.fail(err)
		}
		for _, i := range in.skipped {
			fmt.Fprintf(c.stdout, "%s: request %d: not a valid request, not compared\n", in.name, i)
		}
		n := 0
		for _, r := range append(rep.Results, rep.Inventory) {
			what := "request " + strconv.Itoa(r.Request)
			if r.Request < 0 {
				what = "inventory"
			}
			for _, d := range r.Differences {
				fmt.Fprintf(c.stdout, "%s: %s: %s: offline %s, live %s\n", in.name, what, pathOrRoot(d.Path), d.Offline, d.Live)
				n++
			}
		}
		if n == 0 {
			fmt.Fprintf(c.stdout, "%s: offline and live agree (%d requests and the inventory, charset %s, %s)\n", in.name, len(rep.Results), rep.Charset, b.Version())
		} else {
			differ++
		}
	}
	if differ > 0 {
		fmt.Fprintf(c.stderr, "parity: %d of %d files differ\n", differ, len(inputs))
		return exitFailure
	}
	return exitOK
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
		return live.DefaultParityRequests(), nil, nil
	}
	path := strings.TrimSuffix(htmlFile, filepath.Ext(htmlFile)) + ".requests.json"
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return live.DefaultParityRequests(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, nil, errcode.Wrap(errcode.InvalidRequest, "domsnap", "", errcode.Quote(path)+" is not a JSON array of requests", err)
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
	ctx, stop := liveContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	b, err := live.Launch(ctx, live.Options{})
	if err != nil {
		return "", false
	}
	defer b.Close()
	return b.Version() + " (protocol " + b.ProtocolVersion() + ")", true
}
