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
	if err := measure(ctx, *bin, tmp, pages, *timeout, stdout); err != nil {
		fmt.Fprintln(stderr, "agentbytes:", err)
		return 1
	}
	return 0
}

func measure(ctx context.Context, bin, tmp string, pages []string, timeout time.Duration, stdout io.Writer) error {
	state := filepath.Join(tmp, "state")
	procTmp := filepath.Join(tmp, "tmp")
	if err := os.Mkdir(procTmp, 0o700); err != nil {
		return err
	}
	cmd := exec.Command(bin, "mcp", "--state-dir", state)
	cmd.Env = append(os.Environ(), "TMPDIR="+procTmp)
	client := sdk.NewClient(&sdk.Implementation{Name: "agentbytes", Version: "1"}, nil)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	cs, err := client.Connect(cctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	cancel()
	if err != nil {
		return err
	}
	defer cs.Close()
	var navBytes []int
	fits, errs := 0, map[string]int{}
	for _, path := range pages {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		nav, full, code, err := onePage(ctx, cs, path, timeout)
		if err != nil {
			return err
		}
		if code != "" {
			errs[code]++
			continue
		}
		navBytes = append(navBytes, nav)
		if full <= limits.ModelBytes {
			fits++
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
	return nil
}

// onePage serves one page, navigates to it and reads its artifact: the
// answer's bytes and the full observation's, or the error code the tool
// answered. A failure of the client itself is err.
func onePage(ctx context.Context, cs *sdk.ClientSession, path string, timeout time.Duration) (nav, full int, code string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, "", err
	}
	_, info, perr := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if perr != nil {
		return 0, 0, "parse", nil
	}
	srv, err := pageserve.Serve(data, info.Charset)
	if err != nil {
		return 0, 0, "", err
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	text, code, err := call(ctx, cs, "browser_navigate", map[string]any{"url": srv.URL()})
	if err != nil || code != "" {
		return 0, 0, code, err
	}
	var p struct {
		Artifact string `json:"artifact"`
	}
	if err := json.Unmarshal(text, &p); err != nil || p.Artifact == "" {
		return 0, 0, "", errors.New("a browser_navigate answer without an artifact")
	}
	obs, code, err := call(ctx, cs, "browser_artifact", map[string]any{"artifact": p.Artifact})
	if err != nil || code != "" {
		return 0, 0, code, err
	}
	return len(text), len(obs), "", nil
}

// call runs one tool and returns its answer's text, or the error code of a
// tool error.
func call(ctx context.Context, cs *sdk.ClientSession, name string, args map[string]any) ([]byte, string, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, "timeout", nil
		}
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	if len(res.Content) == 0 {
		return nil, "", fmt.Errorf("%s: an answer without content", name)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return nil, "", fmt.Errorf("%s: an answer that is not text", name)
	}
	if res.IsError {
		var e struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(tc.Text), &e) != nil || e.Error.Code == "" {
			return nil, "", fmt.Errorf("%s: an error answer without a code", name)
		}
		return nil, e.Error.Code, nil
	}
	return []byte(tc.Text), "", nil
}
