package main

// The many-inputs mode of extract and inventory
// (docs/reference.md#many-inputs): several INPUTs, or an --inputs list, each
// analysed on its own and printed as one JSON line, in input order.
//
// Memory is bounded by --jobs inputs: an input takes a slot before it is
// read and gives it back only once its line is written, so the inputs being
// analysed and the finished ones waiting for an earlier input to be written
// are at most --jobs together. The reorder buffer is therefore the slots
// themselves, and a slow input holds the ones after it back rather than
// letting finished results pile up.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// manyFlags are the flags of the many-inputs mode, shared by extract and
// inventory.
type manyFlags struct {
	// list is --inputs: a file of paths, or "-" for standard input.
	list string
	// jobs is --jobs; 0 means the number of CPUs.
	jobs int
}

func addManyFlags(fs *flag.FlagSet) *manyFlags {
	m := &manyFlags{}
	fs.StringVar(&m.list, "inputs", "", "read the INPUTs from this file, one path a line (- for standard input), and print one JSON line per input")
	fs.IntVar(&m.jobs, "jobs", 0, "with several inputs: how many are analysed at once, 1 to "+strconv.Itoa(limits.MaxJobs)+" (default: the number of CPUs)")
	return m
}

// jobCount is --jobs, or else the number of CPUs the process may use,
// within limits.MaxJobs. GOMAXPROCS is that number: it follows a
// container's CPU limit, where the machine's CPU count would overcommit a
// pod that may use two cores of sixty-four.
func (m *manyFlags) jobCount() int {
	if m.jobs > 0 {
		return m.jobs
	}
	return min(max(runtime.GOMAXPROCS(0), 1), limits.MaxJobs)
}

// manyMode reports whether the command runs in the many-inputs mode (with
// --inputs, or with more than one INPUT) and refuses, as usage errors, the
// combinations that mode cannot honour. format is the --format value,
// which must be json when set; stdinUser names another flag that already
// reads standard input ("" for none).
func (c *cli) manyMode(fs *flag.FlagSet, m *manyFlags, set map[string]bool, pos []string, format, stdinUser string) (bool, error) {
	if set["jobs"] && (m.jobs < 1 || m.jobs > limits.MaxJobs) {
		return false, &usageError{"--jobs must be 1 to " + strconv.Itoa(limits.MaxJobs) + ", got " + strconv.Itoa(m.jobs)}
	}
	if set["live"] {
		if set["inputs"] || set["jobs"] {
			return false, &usageError{"--live reads one page; --inputs and --jobs are for files"}
		}
		return false, nil
	}
	if !set["inputs"] && len(pos) < 2 {
		return false, nil
	}
	switch {
	case set["inputs"] && len(pos) > 0:
		return false, &usageError{"--inputs cannot be combined with INPUT arguments: put every path in the list"}
	case set["inputs"] && m.list == "":
		return false, &usageError{"--inputs needs a file of paths, or - for standard input"}
	case set["format"] && format != "json":
		return false, &usageError{"several inputs print one JSON line each; --format " + format + " prints a single input"}
	}
	if n := waitFlagSet(set); n != "" {
		return false, &usageError{"--" + n + " needs --live"}
	}
	readers := 0
	if stdinUser != "" {
		readers++
	}
	if m.list == "-" {
		readers++
	}
	for _, p := range pos {
		if p == "-" {
			readers++
		}
		if err := c.refuseURL(fs, p); err != nil {
			return false, err
		}
	}
	if readers > 1 {
		return false, &usageError{"standard input can be read only once (by --inputs, --request or one INPUT)"}
	}
	return true, nil
}

// manyBody is what one input gave: its canonical JSON, or the error, and
// the warnings to print on standard error before its line.
type manyBody struct {
	json     []byte
	warnings []string
	err      error
}

// manyRunner analyses a stream of inputs, --jobs at a time, and writes one
// line per input in input order.
type manyRunner struct {
	jobs int
	// key names the body in each line: result, observation or projection.
	key string
	// work analyses one input; it runs on its own goroutine, so it must
	// not write anything itself.
	work           func(name string) manyBody
	stdout, stderr io.Writer
	// acquired, when set, is called after input i took its slot and
	// before its work starts: tests hold inputs back with it.
	acquired func(i int)

	mu sync.Mutex
	// held is the number of inputs that have a slot: being analysed, or
	// finished and waiting for an earlier one to be written.
	held, maxHeld int
	// inputs and failed count the lines written, and those with an error.
	inputs, failed int
}

// run reads inputs from next until it reports none (ok false) or an error,
// and writes their lines. It returns the list's error, or the first error
// writing standard output, after every input already started has finished.
func (r *manyRunner) run(next func() (name string, ok bool, err error)) error {
	type pending struct {
		name string
		done chan manyBody
	}
	slots := make(chan struct{}, r.jobs)
	// The queue holds at most as many entries as there are slots, so a
	// send on it never blocks once a slot is taken.
	queue := make(chan *pending, r.jobs)
	var writeErr error
	var stopped atomic.Bool
	written := make(chan struct{})
	go func() {
		defer close(written)
		for p := range queue {
			b := <-p.done
			if writeErr == nil {
				if writeErr = r.write(p.name, b); writeErr != nil {
					stopped.Store(true)
				}
			}
			r.mu.Lock()
			r.held--
			r.mu.Unlock()
			<-slots
		}
	}()
	var listErr error
	for i := 0; !stopped.Load(); i++ {
		name, ok, err := next()
		if err != nil {
			listErr = err
			break
		}
		if !ok {
			break
		}
		slots <- struct{}{}
		r.mu.Lock()
		r.held++
		r.maxHeld = max(r.maxHeld, r.held)
		r.mu.Unlock()
		if r.acquired != nil {
			r.acquired(i)
		}
		p := &pending{name: name, done: make(chan manyBody, 1)}
		queue <- p
		go func() { p.done <- r.work(name) }()
	}
	close(queue)
	<-written
	if writeErr != nil {
		return writeErr
	}
	return listErr
}

// write prints one input's warnings on standard error and its line on
// standard output.
func (r *manyRunner) write(name string, b manyBody) error {
	for _, w := range b.warnings {
		fmt.Fprintf(r.stderr, "domsnap: warning: input %s: %s\n", domsnap.Quote(name), w)
	}
	line := append([]byte(`{"input":`), jsonString(name)...)
	if b.err != nil {
		code, msg := lineError(b.err)
		line = append(line, `,"error":{"code":`...)
		line = append(line, jsonString(code)...)
		line = append(line, `,"message":`...)
		line = append(line, jsonString(msg)...)
		line = append(line, "}}\n"...)
	} else {
		line = append(line, `,"`+r.key+`":`...)
		line = append(line, b.json...)
		line = append(line, "}\n"...)
	}
	r.mu.Lock()
	r.inputs++
	if b.err != nil {
		r.failed++
	}
	r.mu.Unlock()
	_, err := r.stdout.Write(line)
	return err
}

// jsonString encodes s as a JSON string the way the canonical encoders do:
// HTML characters as they are, invalid UTF-8 as U+FFFD.
func jsonString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// A string always encodes.
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// lineError gives an error's code and message for its JSON line. The
// message is what standard error would show after "<code>: ". An error
// without a code (a file that cannot be opened) is unsupported_input, and
// an operating-system error names its cause without repeating the path,
// which the line already holds.
func lineError(err error) (code, msg string) {
	var e *domsnap.Error
	if errors.As(err, &e) {
		return string(e.Code), strings.TrimPrefix(errorLine(err), string(e.Code)+": ")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return string(domsnap.UnsupportedInput), "cannot " + pe.Op + " the input: " + pe.Err.Error()
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return string(domsnap.UnsupportedInput), ue.msg
	}
	return string(domsnap.UnsupportedInput), err.Error()
}

// runMany runs the many-inputs mode over pos, or over the --inputs list,
// with work analysing one loaded input, and returns the exit status.
func (c *cli) runMany(fs *flag.FlagSet, m *manyFlags, pos []string, key string, load manyLoad, work func(*snapshot.Input) ([]byte, error)) int {
	next, closeList, err := c.inputSource(m, pos)
	if err != nil {
		return c.fail(err)
	}
	defer closeList()
	fromList := m.list != ""
	r := &manyRunner{
		jobs: m.jobCount(), key: key, stdout: c.stdout, stderr: c.stderr,
		work: func(name string) manyBody {
			in, warnings, err := c.loadOne(fs, name, fromList, load)
			if err != nil {
				return manyBody{err: err}
			}
			out, err := work(in)
			return manyBody{json: out, warnings: warnings, err: err}
		},
	}
	if err := r.run(next); err != nil {
		return c.fail(err)
	}
	if r.failed > 0 {
		return exitFailure
	}
	return exitOK
}

// manyLoad is how each input is loaded: the flags --charset and
// --computed-styles.
type manyLoad struct {
	charset string
	styles  []string
}

// loadOne reads and loads one input of the many. A path from a list is
// always a file: "-" there names no file, and a URL is refused as on the
// command line.
func (c *cli) loadOne(fs *flag.FlagSet, name string, fromList bool, load manyLoad) (*snapshot.Input, []string, error) {
	var data []byte
	var err error
	switch {
	case name == "-" && fromList:
		err = &domsnap.Error{Code: domsnap.UnsupportedInput, Msg: `"-" in an --inputs list names no file; give standard input as an INPUT argument`}
	case name == "-":
		data, err = c.readInput(name)
	default:
		if err = c.refuseURL(fs, name); err == nil {
			data, err = readbound.FileChecked(name, c.inputLimit(), "input", snapshot.CheckHead)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	in, err := snapshot.Load(data, snapshot.LoadOptions{Charset: load.charset, ComputedStyles: load.styles})
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if in.StyleSheetsDropped {
		warnings = append(warnings, strings.TrimPrefix(sheetsDroppedWarning, "domsnap: warning: "))
	}
	return in, warnings, nil
}

// inputSource returns the inputs one at a time: the INPUT arguments, or the
// lines of the --inputs list, read as they are needed so a long list is
// never held whole.
func (c *cli) inputSource(m *manyFlags, pos []string) (next func() (string, bool, error), closeList func(), err error) {
	if m.list == "" {
		i := 0
		return func() (string, bool, error) {
			if i == len(pos) {
				return "", false, nil
			}
			i++
			return pos[i-1], true, nil
		}, func() {}, nil
	}
	var src io.Reader = c.stdin
	closeList = func() {}
	if m.list != "-" {
		f, err := os.Open(m.list)
		if err != nil {
			return nil, nil, err
		}
		src, closeList = f, func() { f.Close() }
	}
	lr := newListReader(src)
	return lr.next, closeList, nil
}

// listReader yields the paths of an --inputs list, one a line, holding one
// line at a time. Blank lines are skipped and a CR before the newline is
// dropped (a list written on Windows); a line longer than
// limits.MaxListLine ends the list with an error.
type listReader struct {
	r    *bufio.Reader
	line int
}

func newListReader(r io.Reader) *listReader {
	// Room for the longest line with its CR and LF.
	return &listReader{r: bufio.NewReaderSize(r, limits.MaxListLine+2)}
}

func (l *listReader) next() (string, bool, error) {
	for {
		b, err := l.r.ReadSlice('\n')
		l.line++
		if err != nil && err != io.EOF {
			if errors.Is(err, bufio.ErrBufferFull) {
				return "", false, l.tooLong()
			}
			return "", false, &domsnap.Error{Code: domsnap.UnsupportedInput, Msg: "cannot read the --inputs list", Err: err}
		}
		s := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		if len(s) > limits.MaxListLine {
			return "", false, l.tooLong()
		}
		if s != "" {
			return s, true, nil
		}
		if err == io.EOF {
			return "", false, nil
		}
	}
}

func (l *listReader) tooLong() error {
	return errcode.TooLarge("", "--inputs line "+strconv.Itoa(l.line)+" is longer than "+strconv.Itoa(limits.MaxListLine)+" bytes: a line holds one path")
}

// extractMany is the many-inputs mode of extract: each line holds the
// extraction result, or the observation or projection when asked for, as
// the single-input command would print it.
func (c *cli) extractMany(fs *flag.FlagSet, f *extractFlags, req *domsnap.Checked, pos []string) int {
	key := "result"
	work := func(in *snapshot.Input) ([]byte, error) {
		res, err := domsnap.Extract(in.Tree, in.Revision, req)
		if err != nil {
			return nil, err
		}
		return res.Canonical(), nil
	}
	if f.Observation || f.set["model-bytes"] {
		key = "observation"
		if f.set["model-bytes"] {
			key = "projection"
		}
		work = func(in *snapshot.Input) ([]byte, error) {
			o, err := domsnap.Observe(in.Tree, in.Revision, req)
			if err != nil {
				return nil, err
			}
			if !f.set["model-bytes"] {
				return o.Canonical(), nil
			}
			p, err := domsnap.Project(o, f.ModelBytes)
			if err != nil {
				return nil, err
			}
			return p.Canonical(), nil
		}
	}
	return c.runMany(fs, f.Many, pos, key, manyLoad{f.Charset, f.Styles}, work)
}

// inventoryMany is the many-inputs mode of inventory: each line holds the
// observation without a request, as --format json prints it.
func (c *cli) inventoryMany(fs *flag.FlagSet, m *manyFlags, pos []string, load manyLoad) int {
	return c.runMany(fs, m, pos, "observation", load, func(in *snapshot.Input) ([]byte, error) {
		o, err := domsnap.Observe(in.Tree, in.Revision, nil)
		if err != nil {
			return nil, err
		}
		return o.Canonical(), nil
	})
}
