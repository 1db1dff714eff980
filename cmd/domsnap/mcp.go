package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
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
// output, or with --http over streamable HTTP. It ends when the client
// closes standard input (stdio), or on SIGINT or SIGTERM, and leaves no
// browser behind.
func runMCP(c *cli, args []string) int {
	fs, chrome := browserFlags(c, "mcp", "usage: domsnap mcp [flags]")
	var origins originList
	fs.Var(&origins, "allow-origin", "scheme://host[:port] the browser's main frame may open (repeatable; default any http or https origin)")
	stateDir := fs.String("state-dir", "", "the artifact store's folder (default $XDG_STATE_HOME/domsnap, else ~/.local/state/domsnap)")
	maxStore := fs.Int64("max-store-bytes", mcp.DefaultMaxStoreBytes, "the artifact store's size bound; the least recently used artifacts go first")
	modelBytes := fs.Int("model-bytes", limits.ModelBytes, "the byte budget of every answer; a call may only lower it")
	readOnly := fs.Bool("read-only", false, "serve no browser_act: the server never sends input to a page")
	root := fs.String("root", "", "the folder snapshot_observe may read below (without it the tool is not offered)")
	uploadRoot := fs.String("upload-root", "", "the folder browser_act's upload may take files from (without it every upload is refused)")
	maxUpload := fs.Int64("max-upload-bytes", mcp.DefaultMaxUploadBytes, "the largest file an upload may take")
	maxDownload := fs.Int64("max-download-bytes", mcp.DefaultMaxDownloadBytes, "the largest download a session saves; a bigger one is cancelled")
	httpAddr := fs.String("http", "", "serve streamable HTTP at /mcp on this host:port instead of stdio (loopback unless --allow-remote)")
	tokenFile := fs.String("token-file", "", "with --http: the file holding the bearer token every request must carry (mode 600; required; SIGHUP reads it again)")
	allowRemote := fs.Bool("allow-remote", false, "with --http: allow an address that is not loopback")
	maxSessions := fs.Int("max-sessions", mcp.DefaultMaxSessions, "with --http: the most sessions alive at once (1 to "+strconv.Itoa(mcp.MaxMaxSessions)+")")
	idle := fs.Duration("idle-timeout", mcp.DefaultIdleTimeout, "with --http: end a session this long after its last call ("+mcp.IdleTimeoutRange()+")")
	profName := fs.String("profile", "", "browse with this profile a person signed in with (domsnap profile login): a session at a time, only its origins")
	principals := fs.String("principals", "", "with --http, instead of --token-file: the file of callers, their token digests and what each may use (mode 600; SIGHUP reads it again)")
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if len(pos) != 0 {
		return c.usage("mcp takes no operands")
	}
	if *maxUpload < 1 || *maxDownload < 1 {
		return c.usage("--max-upload-bytes and --max-download-bytes must be at least 1")
	}
	var hosted *mcp.HostedConfig
	var token []byte
	if *principals != "" && (*tokenFile != "" || *profName != "") {
		return c.usage("--principals replaces --token-file, and names each caller's profile itself: give it without --token-file and --profile")
	}
	if *httpAddr != "" {
		// Zero means the default to the library; on the command line it is
		// out of bounds like any other value below the least.
		if *maxSessions < 1 {
			return c.usage("--max-sessions must be 1 to " + strconv.Itoa(mcp.MaxMaxSessions))
		}
		if *idle < mcp.MinIdleTimeout {
			return c.usage("--idle-timeout must be " + mcp.IdleTimeoutRange())
		}
		hosted = &mcp.HostedConfig{Addr: *httpAddr, AllowRemote: *allowRemote, MaxSessions: *maxSessions, IdleTimeout: *idle, Log: c.stderr}
		if err := hosted.Check(); err != nil {
			return c.fail(err)
		}
		var err error
		if *principals != "" {
			if hosted.Principals, err = mcp.ReadPrincipals(*principals); err != nil {
				return c.fail(err)
			}
		} else if token, err = mcp.ReadToken(*tokenFile); err != nil {
			return c.fail(err)
		}
	} else if name := hostedOnly(fs); name != "" {
		return c.usage("--" + name + " needs --http")
	}
	srv, err := mcp.New(mcp.Config{
		Chrome:           *chrome,
		AllowOrigins:     origins,
		StateDir:         *stateDir,
		MaxStoreBytes:    *maxStore,
		ModelBytes:       *modelBytes,
		Root:             *root,
		UploadRoot:       *uploadRoot,
		MaxUploadBytes:   *maxUpload,
		MaxDownloadBytes: *maxDownload,
		ReadOnly:         *readOnly,
		Version:          moduleVersion(),
		Profile:          *profName,
	})
	if err != nil {
		return c.fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if hosted != nil {
		ln, err := mcp.Listen(hosted)
		if err != nil {
			srv.Close()
			return c.fail(err)
		}
		// SIGHUP reads the principals or the token file again, so that a
		// proxy's start script can pass one on to every host.
		reload := func() error { return srv.ReloadToken(*tokenFile) }
		if hosted.Principals != nil {
			reload = func() error { return srv.ReloadPrincipals(*principals) }
		}
		stopReload := reloadOnHangup(c, reload)
		defer stopReload()
		err = srv.Serve(ctx, ln, *hosted, token)
		clear(token)
		if err != nil {
			fmt.Fprintln(c.stderr, errorLine(err))
			return exitFailure
		}
		return exitOK
	}
	if err := srv.Run(ctx, &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(c.stderr, errorLine(err))
		return exitFailure
	}
	return exitOK
}

// hostedOnly names a flag that only --http uses when it was given without
// it, "" when none was.
func hostedOnly(fs *flag.FlagSet) string {
	name := ""
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "token-file", "allow-remote", "max-sessions", "idle-timeout", "principals":
			if name == "" {
				name = f.Name
			}
		}
	})
	return name
}

// reloadOnHangup calls reload (which reads the principals or the token
// file again) on every SIGHUP, until the returned function is called. A
// file that cannot be read leaves what was in force, and says why on
// standard error.
func reloadOnHangup(c *cli, reload func() error) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				if err := reload(); err != nil {
					fmt.Fprintln(c.stderr, errorLine(err))
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}

// moduleVersion is the module's version as built, for the MCP handshake.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return orDevel(bi.Main.Version)
	}
	return "(devel)"
}
