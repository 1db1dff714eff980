package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// Exit statuses (SPEC section 14).
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = 2
	exitRevision = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// cli carries the streams of one run, so tests can run the real command
// in-process.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

const usageText = `usage:
  domsnap extract [flags] INPUT|--live URL
  domsnap inventory INPUT|--live URL
  domsnap capture URL -o FILE
  domsnap parity FILE...
  domsnap mcp [flags]
  domsnap version
Run "domsnap extract -h" for the extract flags.
`

// run is the whole command: it parses args, does the work and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	switch args[0] {
	case "extract":
		return c.extract(args[1:])
	case "inventory":
		return runInventory(c, args[1:])
	case "capture":
		return runCapture(c, args[1:])
	case "parity":
		return runParity(c, args[1:])
	case "mcp":
		return runMCP(c, args[1:])
	case "version":
		return c.version(args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usageText)
		return exitOK
	}
	return c.usage("unknown command " + errcode.Quote(args[0]))
}

// usageError is a mistake in the command line itself.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usage reports a usage error and returns its status.
func (c *cli) usage(msg string) int {
	fmt.Fprintf(c.stderr, "usage: %s\n%s", msg, usageText)
	return exitUsage
}

// fail prints err on standard error and returns the exit status its code
// calls for.
func (c *cli) fail(err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		return c.usage(ue.msg)
	}
	fmt.Fprintln(c.stderr, errorLine(err))
	return exitStatus(err)
}

// exitStatus maps an error's code to the exit status of SPEC section 14.
func exitStatus(err error) int {
	switch errcode.CodeOf(err) {
	case errcode.InvalidRequest:
		return exitUsage
	case errcode.ForeignRevision, errcode.NavigatedRevision, errcode.StaleRevision:
		return exitRevision
	}
	return exitFailure
}

// errorLine renders err as "<code>: <path>: <message>". The package prefix
// of the Error's own text is left out: the code is what a reader and a
// script look for first. A path holding anything but printable ASCII, or
// longer than errcode quotes, is printed quoted, since it may come from a
// request's unknown key.
func errorLine(err error) string {
	var e *errcode.Error
	if !errors.As(err, &e) {
		return "error: " + err.Error()
	}
	s := string(e.Code)
	if e.Path != "" {
		s += ": " + printablePath(e.Path)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func printablePath(p string) string {
	if len(p) > limits.QuoteBytes {
		return errcode.Quote(p)
	}
	for i := 0; i < len(p); i++ {
		if p[i] < 0x21 || p[i] > 0x7e {
			return errcode.Quote(p)
		}
	}
	return p
}

// parseInterleaved parses flags that may come before or after positional
// arguments, as SPEC section 14 allows, and returns the positional ones. A
// "--" ends the flags; everything after it is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// flag stops at the first positional argument, or after "--".
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// readInput reads a named file, or standard input for "-".
func (c *cli) readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(c.stdin)
	}
	if strings.HasPrefix(name, "-") {
		return nil, &usageError{"unknown flag " + errcode.Quote(name)}
	}
	return os.ReadFile(name)
}
