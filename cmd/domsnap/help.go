package main

// The command table, help text, and the answers to mistakes: a mistyped
// command or flag gets the closest known name, and a URL given where a file
// was expected gets a hint. A new command is one more entry in commands.

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/mcp"
	"github.com/domsnap/domsnap/profile"
	"github.com/domsnap/domsnap/snapshot"
)

// command is one entry of the command table: what "domsnap help NAME" and
// "domsnap NAME -h" print, and how the command runs.
type command struct {
	name string
	// synopsis is the usage line, without "usage: ".
	synopsis string
	// summary is the one line shown in the list of commands.
	summary string
	// about is the help text between the usage line and the flags.
	about string
	// examples are command lines, each with a comment after "#".
	examples []string
	// urlHint answers an INPUT that is a URL when the command has no --live
	// flag to suggest; empty when the command takes no INPUT.
	urlHint string
	run     func(c *cli, args []string) int
}

// commands is filled in init: entries refer to run functions that print
// help from this same table. A bound the help states is spelled from the
// constant that sets it; the few numbers written out in the prose are
// tied to theirs by TestHelpNumbersNameTheirLimits.
var commands []command

func init() {
	commands = []command{
		{
			name:     "extract",
			synopsis: "domsnap extract [flags] INPUT...|--inputs FILE|--live URL",
			summary:  "pull one visible table, list or form out of a page, as typed rows",
			about: `INPUT is an .html file, a saved snapshot (gzip or not), a bare captureSnapshot
result, or - for standard input; the format is read from the bytes, not the name.
Flags may come before or after INPUT. Several INPUTs, or --inputs FILE (one path
a line, - for standard input), print one JSON line per input in input order,
{"input":PATH,"result":{...}} or {"input":PATH,"error":{"code":...,"message":...}},
analysing --jobs inputs at once; the exit status is then 1 when any input failed.

A request names the collection (--kind and --index: the index-th visible
table, list or form, from 0) and up to ` + strconv.Itoa(limits.MaxFields) + ` fields. Each field reads one column:
  table  column k is the k-th visible cell of a row (td, th, or a cell role), from 0;
         rows with a spanning cell are reported as unsupported_span, never guessed
  list   column ` + strconv.Itoa(limits.MaxListColumn) + ` is the item's text (the only column)
  form   each control is a row: 0 label, 1 role, 2 disabled, 3 checked, 4 required
and converts its text to a type:
  string   any non-empty text
  integer  -?(0|[1-9][0-9]*), within plus or minus 2^53-1
  number   a JSON number (no separators, currency or units)
  boolean  exactly true or false
A cell is ok (typed value), missing, invalid (text kept as evidence) or
truncated (text cut by a bound). See docs/reference.md for every key.

Exit status: 0 a result was printed (found or not), 2 usage or invalid_request,
3 expected revision refused, 1 anything else.`,
			examples: []string{
				"domsnap extract --kind table --index 0 --field product:0:string:required --field price:2:number page.html   # typed product table",
				"domsnap extract --kind list --field item:0:string --inputs pages.txt --jobs 4 > items.jsonl   # one JSON line per page",
				"domsnap extract --request request.json --format table --live https://example.test/   # a live page, for people",
			},
			run: (*cli).extract,
		},
		{
			name:     "inventory",
			synopsis: "domsnap inventory [flags] INPUT...|--inputs FILE|--live URL",
			summary:  "list the visible tables, lists and forms: which --index to ask for",
			about: `INPUT is read as by extract; --live URL opens the page in Chromium instead and
takes exactly one snapshot, after the wait flags (--wait-until, --wait-for,
--settle) and within --timeout. The table shows each visible collection's kind,
index, source (native element or ARIA role), rows seen and name; --format json
prints the canonical observation, with the input's revision. Several INPUTs, or
--inputs FILE, print one JSON line per input, {"input":PATH,"observation":{...}},
as extract does.`,
			examples: []string{
				"domsnap inventory page.html                    # which index to ask for",
				"domsnap inventory saved/*.html saved/*.json.gz > inventory.jsonl   # one JSON line per page",
				"domsnap inventory --live https://example.test/ --wait-until network_idle --wait-for table",
			},
			run: runInventory,
		},
		{
			name:     "capture",
			synopsis: "domsnap capture [flags] URL -o FILE",
			summary:  "save a live page as a snapshot file that extract and inventory read offline",
			about: `Opens URL in a fresh headless Chromium, takes one DOM snapshot and writes it in a
` + snapshot.FormatName + ` envelope that keeps its revision. Form values are scrubbed
from the file. Chromium is found through --chrome, $DOMSNAP_CHROME, then the
usual install paths.`,
			examples: []string{
				"domsnap capture https://example.test/ -o page.snapshot.json",
				"domsnap capture https://example.test/ -o page.snapshot.json.gz   # gzip-compressed",
			},
			run: runCapture,
		},
		{
			name:     "parity",
			synopsis: "domsnap parity [flags] FILE...",
			summary:  "compare the offline analysis of HTML files with Chromium's",
			about: `Each HTML file is analysed offline and live (its exact bytes served to Chromium,
scripts blocked), with the requests of NAME.requests.json beside it when there
is one, and the inventory. Every difference is printed. The exit status is 1
when a file differs in a way --known does not list.`,
			examples: []string{
				"domsnap parity page.html",
				"domsnap parity --known docs/divergences.md testdata/html/*.html   # listed divergences are expected",
			},
			urlHint: "parity reads local HTML files",
			run:     runParity,
		},
		{
			name:     "mcp",
			synopsis: "domsnap mcp [flags]",
			summary:  "serve the agent tools (Model Context Protocol) over stdio, or over HTTP with --http",
			about: `Serves browser_navigate, browser_observe, browser_artifact,
browser_act and browser_download (snapshot_observe too with --root; no
browser_act with --read-only) to one MCP client over stdio. Chromium starts on
the first navigation; every answer fits --model-bytes; complete observations
are kept in the artifact store (--state-dir) and can be read back, also after a
restart. Page content in answers is untrusted data. See docs/agents.md.

With --http ADDR it serves streamable HTTP at /mcp instead, to several
sessions at once, each with its own browser context in one Chromium. Every
request needs "Authorization: Bearer <token>" with the token of --token-file
(a file only its owner may read; required). ADDR must be loopback unless
--allow-remote; put your own reverse proxy in front for remote clients.
At most --max-sessions sessions live at once; one idle for --idle-timeout is
ended. GET /healthz answers without a token. SIGTERM lets calls in flight
finish for up to ` + mcp.DrainTimeout.String() + `, then cancels them.`,
			examples: []string{
				"domsnap mcp                                           # any http or https page",
				"domsnap mcp --allow-origin https://example.test --root ./pages   # one origin, and offline files below ./pages",
				"domsnap mcp --http 127.0.0.1:8931 --token-file ~/.config/domsnap/token   # hosted, behind your reverse proxy",
			},
			run: runMCP,
		},
		{
			name:     "profile",
			synopsis: "domsnap profile login NAME URL [--origin ORIGIN]... | list | remove NAME",
			summary:  "keep a browser profile a person signs in with, for pages behind a sign-in",
			about: `login opens a visible Chromium window on URL with the persistent profile NAME
(<state dir>/profiles/NAME, the owner's alone) for a person to sign in, and
returns when the window is closed. The profile is bound to URL's origin and
each --origin, exactly: extract --live, inventory --live and mcp with
--profile NAME may open only those. It needs a display (DISPLAY or
WAYLAND_DISPLAY); without one it exits with status 2. NAME is 1 to ` + strconv.Itoa(profile.MaxNameBytes) + `
characters of a-z, 0-9, '.', '_' and '-', not starting with a dot. Signing
in again rebinds the profile to the origins given then.

list prints each profile's name, origins and last use; remove deletes one
(not while a session uses it: profile_busy). No command prints a cookie, a
storage value or a password. See docs/agents.md, "Pages behind a sign-in".`,
			examples: []string{
				"domsnap profile login intranet https://intranet.example/login --origin https://sso.example   # a window opens",
				"domsnap profile list",
				"domsnap mcp --profile intranet   # the agent reads pages behind the sign-in",
			},
			run: runProfile,
		},
		{
			name:     "version",
			synopsis: "domsnap version [--browser]",
			summary:  "print the module, Go and dependency versions (and the browser's with --browser)",
			about:    `Prints at once; --browser also starts Chromium to ask its version, which takes seconds.`,
			examples: []string{
				"domsnap version",
				"domsnap version --browser",
			},
			run: (*cli).version,
		},
	}
}

// findCommand returns the command named name, or nil.
func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// writeOverview prints the list of commands.
func writeOverview(w io.Writer) {
	fmt.Fprintln(w, "usage: domsnap COMMAND [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	width := len("help")
	for _, cmd := range commands {
		width = max(width, len(cmd.name))
	}
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "  %-*s  %s\n", width, "help", "print a command's flags and examples: domsnap help COMMAND")
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "domsnap help COMMAND" for its flags and examples; docs/reference.md explains every output key.`)
}

// runHelp is "domsnap help [COMMAND]".
func runHelp(c *cli, args []string) int {
	switch len(args) {
	case 0:
		writeOverview(c.stdout)
		return exitOK
	case 1:
		if args[0] == "help" {
			writeOverview(c.stdout)
			return exitOK
		}
		if cmd := findCommand(args[0]); cmd != nil {
			c.cmd = cmd
			return cmd.run(c, []string{"-h"})
		}
		return c.usage("unknown command " + domsnap.Quote(args[0]) + suggestion(args[0], commandNames(), ""))
	}
	return c.usage("help takes at most one COMMAND")
}

func commandNames() []string {
	names := []string{"help"}
	for _, cmd := range commands {
		names = append(names, cmd.name)
	}
	return names
}

// flagSet makes the flag set of a command. Asked for help (-h), it prints
// the command's help on standard output; given a flag it does not know, or a
// value it cannot parse, it prints the problem on standard error with the
// closest known flag and the usage line. synopsis is the usage line of a
// command the table does not list.
func (c *cli) flagSet(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package writes its complaint to the output and then calls
	// Usage; after -h it calls Usage alone. An empty buffer therefore means
	// help was asked for.
	var complaint bytes.Buffer
	fs.SetOutput(&complaint)
	fs.Usage = func() {
		cmd := findCommand(name)
		if cmd == nil {
			cmd = &command{name: name, synopsis: strings.TrimPrefix(synopsis, "usage: ")}
		}
		if complaint.Len() == 0 {
			writeCommandHelp(c.stdout, cmd, fs)
			return
		}
		msg := strings.TrimSpace(complaint.String())
		complaint.Reset()
		if bad, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			var known []string
			fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
			msg = "unknown flag " + domsnap.Quote(bad) + suggestion(strings.TrimLeft(bad, "-"), known, "--")
		}
		fmt.Fprintf(c.stderr, "usage: %s\n", msg)
		writeCommandPointer(c.stderr, cmd)
	}
	return fs
}

// writeCommandHelp prints a command's whole help: usage, text, flags,
// examples.
func writeCommandHelp(w io.Writer, cmd *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n", cmd.synopsis)
	if cmd.about != "" {
		fmt.Fprintf(w, "\n%s\n", cmd.about)
	}
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nflags:")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	if len(cmd.examples) > 0 {
		fmt.Fprintln(w, "\nexamples:")
		for _, e := range cmd.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// writeCommandPointer follows a usage error: the command's usage line and
// where its help is.
func writeCommandPointer(w io.Writer, cmd *command) {
	fmt.Fprintf(w, "%s\nRun \"domsnap help %s\" for its flags and examples.\n", cmd.synopsis, cmd.name)
}

// suggestion returns "; did you mean PREFIX+NAME?" for the known name
// closest to got, or "" when none is close enough to be a likely typo: at
// most two edits, and fewer than half of got's length.
func suggestion(got string, known []string, prefix string) string {
	best, bestDist := "", -1
	for _, k := range known {
		d := editDistance(strings.ToLower(got), k)
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist < 0 || bestDist > 2 || 2*bestDist >= len(got) {
		return ""
	}
	return "; did you mean " + prefix + best + "?"
}

// editDistance is the Levenshtein distance between a and b, counted in
// bytes: names are ASCII. Inputs are command-line words, so the quadratic
// cost is bounded by what a person types; longer words are not compared.
func editDistance(a, b string) int {
	const maxWord = 64
	if len(a) > maxWord || len(b) > maxWord {
		return maxWord
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// urlScheme matches the start of an absolute URL.
var urlScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)

// refuseURL refuses an INPUT that is a URL rather than a file, with a hint:
// to add --live when the command's flag set fs has it, else the command's
// own. A file that exists under such a name is read.
func (c *cli) refuseURL(fs *flag.FlagSet, input string) error {
	if !urlScheme.MatchString(input) {
		return nil
	}
	if _, err := os.Stat(input); err == nil {
		return nil
	}
	hint := "INPUT must be a file or -"
	switch {
	case fs.Lookup("live") != nil:
		hint = "add --live to capture it in Chromium: domsnap " + fs.Name() + " --live URL [flags]"
	case c.cmd != nil && c.cmd.urlHint != "":
		hint = c.cmd.urlHint
	}
	return &usageError{domsnap.Quote(input) + " is a URL, not a file: " + hint}
}
