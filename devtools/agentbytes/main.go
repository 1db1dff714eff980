package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/devtools/internal/htmlfiles"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("agentbytes", flag.ContinueOnError)
	fl.SetOutput(stderr)
	bin := fl.String("domsnap", "bin/domsnap", "the command to serve the tools with")
	limit := fl.Int("limit", 0, "measure at most this many pages (0: all)")
	timeout := fl.Duration("timeout", 60*time.Second, "deadline of each page's calls")
	playwright := fl.String("playwright", "", "Playwright MCP's cli.js: also measure its snapshot of each page")
	chromium := fl.String("chromium", "/usr/bin/chromium", "the browser Playwright MCP runs")
	perPage := fl.Bool("pages", false, "print one line per page")
	dump := fl.String("dump", "", "write each page's answers into this folder (page text: keep it outside the repository)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 || *limit < 0 || *timeout <= 0 {
		fmt.Fprintln(stderr, "usage: agentbytes [-domsnap BIN] [-limit N] [-timeout D] DIR...")
		return 2
	}
	var pages []string
	for _, dir := range fl.Args() {
		p, err := htmlfiles.Find(dir, ".html")
		if err != nil {
			fmt.Fprintln(stderr, "agentbytes:", err)
			return 2
		}
		pages = append(pages, p...)
	}
	if *limit > 0 && len(pages) > *limit {
		pages = pages[:*limit]
	}
	tmp, err := os.MkdirTemp("", "agentbytes-")
	if err != nil {
		fmt.Fprintln(stderr, "agentbytes:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	m := measurer{bin: *bin, tmp: tmp, timeout: *timeout, playwright: *playwright, chromium: *chromium, perPage: *perPage, dump: *dump}
	if err := m.measure(ctx, pages, stdout); err != nil {
		fmt.Fprintln(stderr, "agentbytes:", err)
		return 1
	}
	return 0
}

// measurer holds what a run measures with.
type measurer struct {
	bin, tmp   string
	timeout    time.Duration
	playwright string // Playwright MCP's cli.js, or "" to measure domsnap alone
	chromium   string
	perPage    bool
	dump       string // a folder for the answers, or ""
}

// connect starts a tool server and connects the SDK's client to it.
func connect(ctx context.Context, cmd *exec.Cmd) (*sdk.ClientSession, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "agentbytes", Version: "1"}, nil)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return client.Connect(cctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
}

func (m measurer) measure(ctx context.Context, pages []string, stdout io.Writer) error {
	state := filepath.Join(m.tmp, "state")
	procTmp := filepath.Join(m.tmp, "tmp")
	if err := os.Mkdir(procTmp, 0o700); err != nil {
		return err
	}
	cmd := exec.Command(m.bin, "mcp", "--state-dir", state)
	cmd.Env = append(os.Environ(), "TMPDIR="+procTmp)
	cs, err := connect(ctx, cmd)
	if err != nil {
		return err
	}
	defer cs.Close()
	var pw *sdk.ClientSession
	if m.playwright != "" {
		// Headless in a profile of its own, as actbench runs it; its
		// output folder is the run's, so it is removed with it.
		pcmd := exec.Command("node", m.playwright, "--headless", "--isolated", "--no-sandbox",
			"--executable-path", m.chromium, "--output-dir", filepath.Join(m.tmp, "pw"))
		pcmd.Env = append(os.Environ(), "TMPDIR="+procTmp)
		if pw, err = connect(ctx, pcmd); err != nil {
			return fmt.Errorf("playwright: %w", err)
		}
		defer pw.Close()
	}
	var navBytes, pwBytes []int
	var ratios []float64
	fits, errs := 0, map[string]int{}
	for _, path := range pages {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r, err := m.onePage(ctx, cs, pw, path)
		if err != nil {
			return err
		}
		if r.code != "" {
			errs[r.code]++
			if m.perPage {
				fmt.Fprintf(stdout, "%s: error %s\n", path, r.code)
			}
			continue
		}
		navBytes = append(navBytes, r.nav)
		if r.full <= limits.ModelBytes {
			fits++
		}
		line := fmt.Sprintf("%s: domsnap %d (full %d)", path, r.nav, r.full)
		if pw != nil {
			pwBytes = append(pwBytes, r.snap)
			ratios = append(ratios, float64(r.snap)/float64(r.nav))
			line += fmt.Sprintf(", playwright %d, %.2fx", r.snap, float64(r.snap)/float64(r.nav))
		}
		if m.perPage {
			fmt.Fprintln(stdout, line)
		}
	}
	n := len(navBytes)
	fmt.Fprintf(stdout, "pages %d, observed %d, errors %d", len(pages), n, len(pages)-n)
	if len(errs) > 0 {
		var codes []string
		for c, k := range errs {
			codes = append(codes, fmt.Sprintf("%s %d", c, k))
		}
		sort.Strings(codes)
		fmt.Fprintf(stdout, " (%s)", strings.Join(codes, ", "))
	}
	fmt.Fprintln(stdout)
	if n == 0 {
		return nil
	}
	slices.Sort(navBytes)
	over := 0
	for _, b := range navBytes {
		if b > limits.ModelBytes {
			over++
		}
	}
	fmt.Fprintf(stdout, "browser_navigate answer bytes: median %d, max %d, above %d (the default model budget): %d\n",
		navBytes[n/2], navBytes[n-1], limits.ModelBytes, over)
	fmt.Fprintf(stdout, "full observation within %d bytes: %d of %d pages (%.1f%%)\n",
		limits.ModelBytes, fits, n, 100*float64(fits)/float64(n))
	if pw != nil {
		slices.Sort(pwBytes)
		slices.Sort(ratios)
		fmt.Fprintf(stdout, "playwright browser_snapshot bytes: median %d, max %d; medians' ratio %.2fx, median of the pages' ratios %.2fx (lowest %.2fx)\n",
			pwBytes[n/2], pwBytes[n-1], float64(pwBytes[n/2])/float64(navBytes[n/2]), ratios[n/2], ratios[0])
	}
	return nil
}

// result is what one page measured: the bytes of domsnap's answer, of its
// full observation and of Playwright's snapshot, or the error code a tool
// answered.
type result struct {
	nav, full, snap int
	code            string
}

// onePage serves one page, navigates to it and reads its artifact, and,
// when pw is not nil, has Playwright navigate to the same address and take
// its snapshot. A failure of a client itself is err.
func (m measurer) onePage(ctx context.Context, cs, pw *sdk.ClientSession, path string) (result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return result{}, err
	}
	_, info, perr := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if perr != nil {
		return result{code: "parse"}, nil
	}
	srv, err := pageserve.Serve(data, info.Charset)
	if err != nil {
		return result{}, err
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	text, code, err := call(ctx, cs, "browser_navigate", map[string]any{"url": srv.URL()})
	if err != nil || code != "" {
		return result{code: code}, err
	}
	var p struct {
		Artifact string `json:"artifact"`
	}
	if err := json.Unmarshal(text, &p); err != nil || p.Artifact == "" {
		return result{}, errors.New("a browser_navigate answer without an artifact")
	}
	obs, code, err := call(ctx, cs, "browser_artifact", map[string]any{"artifact": p.Artifact})
	if err != nil || code != "" {
		return result{code: code}, err
	}
	r := result{nav: len(text), full: len(obs)}
	base := filepath.Base(path)
	if err := m.write(base+".domsnap.json", text); err != nil {
		return result{}, err
	}
	if pw == nil {
		return r, nil
	}
	if _, code, err = call(ctx, pw, "browser_navigate", map[string]any{"url": srv.URL()}); err != nil || code != "" {
		return result{code: "playwright " + code}, err
	}
	snap, code, err := call(ctx, pw, "browser_snapshot", map[string]any{})
	if err != nil || code != "" {
		return result{code: "playwright " + code}, err
	}
	r.snap = len(snap)
	return r, m.write(base+".playwright.txt", snap)
}

// write keeps one answer in the dump folder, when there is one.
func (m measurer) write(name string, data []byte) error {
	if m.dump == "" {
		return nil
	}
	return os.WriteFile(filepath.Join(m.dump, name), data, 0o600)
}

// call runs one tool and returns its answer's text (every text part, as an
// agent reads them), or the error code of a tool error; an error answer
// without one (Playwright's are prose) is "unstructured".
func call(ctx context.Context, cs *sdk.ClientSession, name string, args map[string]any) ([]byte, string, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, "timeout", nil
		}
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	var text []byte
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text = append(text, tc.Text...)
		}
	}
	if len(text) == 0 {
		return nil, "", fmt.Errorf("%s: an answer without text", name)
	}
	if res.IsError {
		var e struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(text, &e) != nil || e.Error.Code == "" {
			return nil, "unstructured", nil
		}
		return nil, e.Error.Code, nil
	}
	return text, "", nil
}
