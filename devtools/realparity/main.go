package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/domsnap/domsnap/devtools/internal/htmlfiles"
	"github.com/domsnap/domsnap/devtools/internal/rawcapture"
	"github.com/domsnap/domsnap/parity"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/treediff"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// maxValue bounds every value printed from a page.
const maxValue = 64

// firstDiffs is how many differing nodes a page line names.
const firstDiffs = 3

// run is the command: arguments without the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("realparity", flag.ContinueOnError)
	fl.SetOutput(stderr)
	chrome := fl.String("chrome", "", "the Chromium binary (default: $"+live.EnvChrome+" or the usual places)")
	limit := fl.Int("limit", 0, "check at most this many pages (0: all)")
	timeout := fl.Duration("timeout", 30*time.Second, "deadline of each page")
	detail := fl.Bool("detail", false, "add the differing nodes' descriptions and values, cut to 64 bytes")
	bounded := fl.Bool("bounded", false, "compare live bounded observations with the whole snapshot instead of offline with live")
	budget := fl.Int("budget", 64, "with -bounded: the small first budget compared besides the default one")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: realparity [-chrome PATH] [-limit N] [-timeout D] [-detail | -bounded [-budget N]] DIR")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() != 1 || *limit < 0 || *timeout <= 0 || *budget < 1 || (*bounded && *detail) {
		fl.Usage()
		return 2
	}
	dir := fl.Arg(0)
	pages, err := findPages(dir)
	if err != nil {
		fmt.Fprintln(stderr, "realparity:", err)
		return 2
	}
	if *limit > 0 && len(pages) > *limit {
		pages = pages[:*limit]
	}
	if len(pages) == 0 {
		fmt.Fprintln(stderr, "realparity: no .html or .htm file under", dir)
		return 2
	}
	launch := func() (*live.Browser, error) { return live.Launch(ctx, live.Options{Path: *chrome}) }
	b, err := launch()
	if err != nil {
		fmt.Fprintln(stderr, "realparity:", err)
		return 2
	}
	defer func() {
		if b != nil {
			b.Close()
		}
	}()
	var sum summary
	var bsum boundedSummary
	for _, rel := range pages {
		if ctx.Err() != nil {
			break
		}
		var line, failed string
		if *bounded {
			res := checkBounded(ctx, b, filepath.Join(dir, rel), *timeout, []int{0, *budget})
			bsum.add(res)
			line, failed = res.line(), res.err
		} else {
			res := checkPage(ctx, b, filepath.Join(dir, rel), *timeout)
			sum.add(res)
			line, failed = res.line(*detail), res.err
		}
		fmt.Fprintf(stdout, "%s: %s\n", filepath.ToSlash(rel), line)
		if failed != "" && ctx.Err() == nil {
			// The browser may be what failed: go on with a fresh one.
			b.Close()
			if b, err = launch(); err != nil {
				fmt.Fprintln(stderr, "realparity:", err)
				fmt.Fprintln(stdout, summaryLine(*bounded, sum, bsum))
				return 2
			}
		}
	}
	fmt.Fprintln(stdout, summaryLine(*bounded, sum, bsum))
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "realparity: interrupted")
		return 1
	}
	return 0
}

func summaryLine(bounded bool, sum summary, bsum boundedSummary) string {
	if bounded {
		return bsum.String()
	}
	return sum.String()
}

// findPages lists the .html and .htm files under dir, relative to it, sorted.
func findPages(dir string) ([]string, error) {
	found, err := htmlfiles.Find(dir, ".html", ".htm")
	if err != nil {
		return nil, err
	}
	out := make([]string, len(found))
	for i, path := range found {
		if out[i], err = filepath.Rel(dir, path); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pageResult is what one page gave.
type pageResult struct {
	// err is the error code when the page could not be checked.
	err string
	// requests lists each request whose results differ, with the first
	// differing JSON pointer: "request 3 at /rows/0".
	requests []string
	// nodes is the number of node pairs the tree walk compared.
	nodes int
	// diffs are the tree differences.
	diffs []treediff.Diff
}

func (r pageResult) line(detail bool) string {
	if r.err != "" {
		return "error " + r.err
	}
	var b strings.Builder
	if len(r.requests) == 0 {
		b.WriteString("agree")
	} else {
		fmt.Fprintf(&b, "differs in %d requests (%s)", len(r.requests), strings.Join(r.requests, ", "))
	}
	if len(r.diffs) == 0 {
		fmt.Fprintf(&b, ", trees equal (%d nodes)", r.nodes)
		return b.String()
	}
	fmt.Fprintf(&b, ", trees differ at %d of %d nodes, first: ", len(r.diffs), r.nodes)
	for i, d := range r.diffs {
		if i == firstDiffs {
			b.WriteString("; ...")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(describeDiff(d, detail))
	}
	return b.String()
}

// describeDiff names a tree difference by node paths and states, which hold
// no page text; with detail, also by the nodes' descriptions, cut short.
func describeDiff(d treediff.Diff, detail bool) string {
	switch d.What {
	case treediff.State:
		s := fmt.Sprintf("state %s: offline %s, live %s", treediff.Path(d.Offline), d.OfflineState, d.LiveState)
		if detail {
			s += " [" + cut(d.OfflineNode) + "]"
		}
		return s
	case treediff.LightChildren:
		return fmt.Sprintf("light-children %s: %d offline nodes", treediff.Path(d.Offline), d.Skipped)
	}
	s := fmt.Sprintf("node offline %s, live %s (walk ends)", treediff.Path(d.Offline), treediff.Path(d.Live))
	if detail {
		s += " [offline " + cut(d.OfflineNode) + ", live " + cut(d.LiveNode) + "]"
	}
	return s
}

// cut keeps at most maxValue bytes of s, on a rune boundary, quoted.
func cut(s string) string {
	if len(s) <= maxValue {
		return strconv.Quote(s)
	}
	n := maxValue
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return strconv.Quote(s[:n]) + "..."
}

func utf8Start(c byte) bool { return c&0xC0 != 0x80 }

// checkPage runs both comparisons on one file under its own deadline.
func checkPage(ctx context.Context, b *live.Browser, path string, timeout time.Duration) pageResult {
	data, err := os.ReadFile(path)
	if err != nil {
		return pageResult{err: codeOf(err)}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// One capture serves both comparisons: parity.CheckCapture is
	// parity.Check on it, and its tree is compared node by node.
	offline, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		return pageResult{err: codeOf(err)}
	}
	raw, err := rawcapture.HTML(ctx, b, rawcapture.AnyPort, data, info.Charset)
	if err != nil {
		return pageResult{err: codeOf(err)}
	}
	rep, err := parity.CheckCapture(data, raw, parity.DefaultRequests())
	if err != nil {
		return pageResult{err: codeOf(err)}
	}
	var res pageResult
	for _, r := range append(rep.Results, rep.Inventory) {
		if len(r.Differences) == 0 {
			continue
		}
		what := "request " + strconv.Itoa(r.Request)
		if r.Request < 0 {
			what = "inventory"
		}
		ptr := r.Differences[0].Path
		if ptr == "" {
			ptr = "/"
		}
		if len(ptr) > maxValue {
			ptr = ptr[:maxValue] + "..."
		}
		res.requests = append(res.requests, what+" at "+ptr)
	}
	liveTree, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
	if err != nil {
		return pageResult{err: codeOf(err)}
	}
	res.diffs, res.nodes = treediff.Compare(offline, liveTree)
	return res
}

// codeOf is an error's code, "timeout" for a page past its deadline.
func codeOf(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	if c := errcode.CodeOf(err); c != "" {
		return string(c)
	}
	return "unknown"
}

// summary counts the pages.
type summary struct {
	pages, agree, differ, treesEqual, treesDiffer, errors int
}

func (s *summary) add(r pageResult) {
	s.pages++
	if r.err != "" {
		s.errors++
		return
	}
	if len(r.requests) == 0 {
		s.agree++
	} else {
		s.differ++
	}
	if len(r.diffs) == 0 {
		s.treesEqual++
	} else {
		s.treesDiffer++
	}
}

func (s summary) String() string {
	return fmt.Sprintf("pages %d, agree on results %d, differ on results %d, trees equal %d, trees differ %d, errors %d",
		s.pages, s.agree, s.differ, s.treesEqual, s.treesDiffer, s.errors)
}
