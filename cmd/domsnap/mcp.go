package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/mcp"
)

// originList collects repeated --allow-origin flags.
type originList []string

func (o *originList) String() string     { return strings.Join(*o, ",") }
func (o *originList) Set(v string) error { *o = append(*o, v); return nil }

// runMCP is "domsnap mcp": the agent tool server over standard input and
// output. It ends when the client closes standard input, or on SIGINT or
// SIGTERM, and leaves no browser behind.
func runMCP(c *cli, args []string) int {
	fs, chrome := browserFlags(c, "mcp", "usage: domsnap mcp [flags]")
	var origins originList
	fs.Var(&origins, "allow-origin", "scheme://host[:port] the browser's main frame may open (repeatable; default any http or https origin)")
	stateDir := fs.String("state-dir", "", "the artifact store's folder (default $XDG_STATE_HOME/domsnap, else ~/.local/state/domsnap)")
	maxStore := fs.Int64("max-store-bytes", mcp.DefaultMaxStoreBytes, "the artifact store's size bound; the least recently used artifacts go first")
	modelBytes := fs.Int("model-bytes", limits.ModelBytes, "the byte budget of every answer; a call may only lower it")
	root := fs.String("root", "", "the folder snapshot_observe may read below (without it the tool is not offered)")
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) != 0 {
		return c.usage("mcp takes no operands")
	}
	srv, err := mcp.New(mcp.Config{
		Chrome:        *chrome,
		AllowOrigins:  origins,
		StateDir:      *stateDir,
		MaxStoreBytes: *maxStore,
		ModelBytes:    *modelBytes,
		Root:          *root,
		Version:       moduleVersion(),
	})
	if err != nil {
		return c.fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Run(ctx, &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(c.stderr, errorLine(err))
		return exitFailure
	}
	return exitOK
}

// moduleVersion is the module's version as built, for the MCP handshake.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return orDevel(bi.Main.Version)
	}
	return "(devel)"
}
