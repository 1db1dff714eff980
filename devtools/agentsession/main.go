package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/domsnap/domsnap/internal/pageserve"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed page.html
var page []byte

func main() {
	bin := flag.String("domsnap", "bin/domsnap", "the command to serve the tools with")
	flag.Parse()
	if err := run(*bin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agentsession:", err)
		os.Exit(1)
	}
}

func run(bin string, out io.Writer) error {
	tmp, err := os.MkdirTemp("", "agentsession-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	procTmp := filepath.Join(tmp, "tmp")
	if err := os.Mkdir(procTmp, 0o700); err != nil {
		return err
	}
	srv, err := pageserve.Serve(page, "utf-8")
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--state-dir", filepath.Join(tmp, "state"))
	cmd.Env = append(os.Environ(), "TMPDIR="+procTmp)
	client := sdk.NewClient(&sdk.Implementation{Name: "agentsession", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()

	nav, err := call(ctx, cs, out, "browser_navigate", map[string]any{"url": srv.URL()})
	if err != nil {
		return err
	}
	var first struct {
		Revision string
		Regions  []struct{ Ref, Name string }
	}
	if err := json.Unmarshal(nav, &first); err != nil {
		return err
	}
	region := ""
	for _, r := range first.Regions {
		if r.Name == "Stock" {
			region = r.Ref
		}
	}
	if region == "" {
		return errors.New("the page view lists no region named Stock")
	}
	exp, err := call(ctx, cs, out, "browser_observe", map[string]any{
		"expand": map[string]any{"expected_revision": first.Revision, "region": region}})
	if err != nil {
		return err
	}
	var second struct{ Revision string }
	if err := json.Unmarshal(exp, &second); err != nil {
		return err
	}
	_, err = call(ctx, cs, out, "browser_observe", map[string]any{"extract": map[string]any{
		"expected_revision": second.Revision, "kind": "table", "index": 0,
		"fields": []any{
			map[string]any{"name": "product", "column": 0, "type": "string", "required": true},
			map[string]any{"name": "price", "column": 1, "type": "number"},
		}},
		"model_bytes": 2048})
	return err
}

// call runs one tool, prints the call and its answer as docs/agents.md
// shows them, and returns the answer's text.
func call(ctx context.Context, cs *sdk.ClientSession, out io.Writer, name string, args map[string]any) ([]byte, error) {
	req, err := json.Marshal(map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(res.Content) == 0 {
		return nil, fmt.Errorf("%s: an answer without content", name)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return nil, fmt.Errorf("%s: an answer that is not text", name)
	}
	note := ""
	if res.IsError {
		note = ", isError"
	}
	fmt.Fprintf(out, "// call\n%s\n// answer (%d bytes%s)\n%s\n\n", req, len(tc.Text), note, tc.Text)
	if res.IsError {
		return nil, fmt.Errorf("%s answered an error", name)
	}
	return []byte(tc.Text), nil
}
