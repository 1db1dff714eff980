package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"time"

	"github.com/mafredri/cdp/protocol/accessibility"

	"github.com/domsnap/domsnap/devtools/internal/htmlfiles"
	"github.com/domsnap/domsnap/devtools/internal/rawcapture"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/livehook"
	"github.com/domsnap/domsnap/internal/testkit/axcompare"
	"github.com/domsnap/domsnap/live"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// maxValue bounds every value printed from a page.
const maxValue = 64

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("axfidelity", flag.ContinueOnError)
	fl.SetOutput(stderr)
	chrome := fl.String("chrome", "", "the Chromium binary (default: $"+live.EnvChrome+" or the usual places)")
	limit := fl.Int("limit", 0, "check at most this many pages (0: all)")
	timeout := fl.Duration("timeout", 30*time.Second, "deadline of each page")
	detail := fl.Bool("detail", false, "print each disagreement with both names, cut to 64 bytes")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: axfidelity [-chrome PATH] [-limit N] [-timeout D] [-detail] DIR...")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 || *limit < 0 || *timeout <= 0 {
		fl.Usage()
		return 2
	}
	var pages []string
	for _, dir := range fl.Args() {
		p, err := htmlfiles.Find(dir, ".html", ".htm")
		if err != nil {
			fmt.Fprintln(stderr, "axfidelity:", err)
			return 2
		}
		pages = append(pages, p...)
	}
	if *limit > 0 && len(pages) > *limit {
		pages = pages[:*limit]
	}
	if len(pages) == 0 {
		fmt.Fprintln(stderr, "axfidelity: no .html or .htm file")
		return 2
	}
	launch := func() (*live.Browser, error) { return live.Launch(ctx, live.Options{Path: *chrome}) }
	b, err := launch()
	if err != nil {
		fmt.Fprintln(stderr, "axfidelity:", err)
		return 2
	}
	defer func() {
		if b != nil {
			b.Close()
		}
	}()
	var tally axcompare.Tally
	errs := 0
	for _, path := range pages {
		if ctx.Err() != nil {
			break
		}
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stdout, "%s: error %s\n", path, codeOf(err))
			errs++
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, *timeout)
		cs, err := controls(pctx, b, data)
		cancel()
		if err != nil {
			fmt.Fprintf(stdout, "%s: error %s\n", path, codeOf(err))
			errs++
			b.Close()
			if b, err = launch(); err != nil {
				fmt.Fprintln(stderr, "axfidelity:", err)
				return 2
			}
			continue
		}
		tally.Add(cs)
		if *detail {
			for _, c := range cs {
				if c.RoleAgrees() && c.NameAgrees() {
					continue
				}
				ignored := ""
				if c.Ignored {
					ignored = " (ignored)"
				}
				fmt.Fprintf(stdout, "%s: [%s] role %s/%s%s name %s/%s from %s\n", path, axcompare.Classify(c),
					c.Role, c.AXRole, ignored, cut(c.Name), cut(c.AXName), c.AXNameFrom)
			}
		}
	}
	fmt.Fprintf(stdout, "pages %d, errors %d, %s\n", len(pages)-errs, errs, tally.String())
	var classes []string
	for k := range tally.Classes {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	for _, k := range classes {
		name := k
		if name == "" {
			name = "unexplained"
		}
		fmt.Fprintf(stdout, "  %s: %d\n", name, tally.Classes[k])
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "axfidelity: interrupted")
		return 1
	}
	return 0
}

// cut keeps at most maxValue bytes of s, on a rune boundary, quoted.
func cut(s string) string {
	s = axcompare.Normalize(s)
	if len(s) <= maxValue {
		return strconv.Quote(s)
	}
	n := maxValue
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return strconv.Quote(s[:n]) + "..."
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

// controls loads data in a fresh tab of b, captures it as a live session
// does, asks for Chromium's accessibility tree of the same tab, and pairs the
// two (axcompare.Compare).
func controls(ctx context.Context, b *live.Browser, data []byte) ([]axcompare.Control, error) {
	var cs []axcompare.Control
	err := rawcapture.Tab(ctx, b, rawcapture.AnyPort, data, "", func(p *live.Page) error {
		raw, err := rawcapture.Page(ctx, p)
		if err != nil {
			return err
		}
		ax, err := livehook.Client(p).Accessibility.GetFullAXTree(ctx, accessibility.NewGetFullAXTreeArgs())
		if err != nil {
			return err
		}
		cs, err = axcompare.Compare(data, raw, ax.Nodes)
		return err
	})
	return cs, err
}
