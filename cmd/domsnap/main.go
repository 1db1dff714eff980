package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// Exit statuses (docs/reference.md#command-line).
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
// in-process, and the command being run, whose usage line a usage error
// prints.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// maxInput, when positive, replaces limits.MaxInputBytes, so tests can
	// probe the bound without reading 256 MiB.
	maxInput int64
	cmd      *command
}

// run is the whole command: it parses args, does the work and returns the
// exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		writeOverview(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(c, args[1:])
	case "--version", "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	if cmd := findCommand(args[0]); cmd != nil {
		c.cmd = cmd
		return cmd.run(c, args[1:])
	}
	return c.usage("unknown command " + domsnap.Quote(args[0]) + suggestion(args[0], commandNames(), ""))
}

// usageError is a mistake in the command line itself.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usage reports a usage error, with the usage line of the command being
// run (or the list of commands), and returns its status.
func (c *cli) usage(msg string) int {
	fmt.Fprintf(c.stderr, "usage: %s\n", msg)
	if c.cmd != nil {
		writeCommandPointer(c.stderr, c.cmd)
	} else {
		writeOverview(c.stderr)
	}
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

// exitStatus maps an error's code to the exit status of docs/reference.md#command-line.
func exitStatus(err error) int {
	switch domsnap.CodeOf(err) {
	case domsnap.InvalidRequest:
		return exitUsage
	case domsnap.ForeignRevision, domsnap.NavigatedRevision, domsnap.StaleRevision:
		return exitRevision
	}
	return exitFailure
}

// errorLine renders err as "<code>: <path>: <message>". The package prefix
// of the Error's own text is left out: the code is what a reader and a
// script look for first. A path holding anything but printable ASCII, or
// longer than domsnap.Quote quotes, is printed quoted, since it may come from a
// request's unknown key.
func errorLine(err error) string {
	var e *domsnap.Error
	if !errors.As(err, &e) {
		return "error: " + err.Error()
	}
	s := string(e.Code)
	if e.Path != "" {
		s += ": " + printablePath(e.Path)
	}
	if d := e.Detail(); d != "" {
		s += ": " + d
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func printablePath(p string) string {
	if len(p) > limits.QuoteBytes {
		return domsnap.Quote(p)
	}
	for i := 0; i < len(p); i++ {
		if p[i] < 0x21 || p[i] > 0x7e {
			return domsnap.Quote(p)
		}
	}
	return p
}

// parseInterleaved parses flags that may come before or after positional
// arguments, as docs/reference.md#command-line allows, and returns the positional ones. A
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

// readInput reads an INPUT: a named file, or standard input for "-",
// bounded by limits.MaxInputBytes as the bytes arrive.
func (c *cli) readInput(name string) ([]byte, error) {
	data, err := c.readBounded(name, c.inputLimit(), "input", snapshot.CheckHead)
	// An input that cannot be opened or read is unsupported_input, so its
	// error line carries a code like every other (docs/reference.md#exit-codes);
	// the path is not repeated, the person or the JSON line already has it.
	var pe *fs.PathError
	if err != nil && errors.As(err, &pe) && !errors.As(err, new(*domsnap.Error)) {
		return nil, &domsnap.Error{Code: domsnap.UnsupportedInput, Msg: "cannot " + pe.Op + " the input", Err: pe.Err}
	}
	return data, err
}

// inputLimit is the most bytes one input may hold.
func (c *cli) inputLimit() int64 {
	if c.maxInput > 0 {
		return c.maxInput
	}
	return limits.MaxInputBytes
}

// readRequest reads a --request file, bounded by limits.MaxRequestBytes.
func (c *cli) readRequest(name string) ([]byte, error) {
	return c.readBounded(name, limits.MaxRequestBytes, "request", nil)
}

// readBounded reads a named file, or standard input for "-", refusing more
// than limit bytes without holding them. A directory is refused, and a
// named pipe is opened without blocking (readbound says why).
func (c *cli) readBounded(name string, limit int64, what string, check readbound.Check) ([]byte, error) {
	if name == "-" {
		// Standard input redirected from a regular file tells its size:
		// too large is refused at once, and the rest is read in one buffer.
		var hint int64
		if f, ok := c.stdin.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
				if st.Size() > limit {
					return nil, readbound.TooLarge(what, limit)
				}
				hint = max(st.Size(), 1)
			}
		}
		return readbound.AllChecked(c.stdin, limit, hint, what, check)
	}
	if strings.HasPrefix(name, "-") {
		return nil, &usageError{"unknown flag " + domsnap.Quote(name)}
	}
	return readbound.FileChecked(name, limit, what, check)
}
