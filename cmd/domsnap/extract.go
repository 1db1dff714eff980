package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/aria"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/domsnap/domsnap/typed"
)

// extractFlags are the parsed flags of "domsnap extract". The live commands
// (live_cmds.go) receive them too.
type extractFlags struct {
	Kind        string
	Index       int
	Fields      fieldList
	Rows        int
	RequestFile string
	Format      string
	Charset     string
	Live        string
	Observation bool
	ModelBytes  int
	Chrome      string
	Wait        *waitFlags
	// Input is the INPUT argument, "" with --live.
	Input string
	// set records which flags the command line named.
	set map[string]bool
}

// fieldList collects repeated --field flags.
type fieldList []string

func (f *fieldList) String() string     { return strings.Join(*f, ",") }
func (f *fieldList) Set(v string) error { *f = append(*f, v); return nil }

func newExtractFlagSet(f *extractFlags, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&f.Kind, "kind", "", "collection kind: table, list or form")
	fs.IntVar(&f.Index, "index", 0, "zero-based visible index of the collection, 0 to 15")
	fs.Var(&f.Fields, "field", "a typed column, name:column:type[:required] (repeatable)")
	fs.IntVar(&f.Rows, "rows", limits.DefaultRowLimit, "rows returned, 1 to 50")
	fs.StringVar(&f.RequestFile, "request", "", "a JSON extract request file (instead of --kind, --index, --field, --rows)")
	fs.StringVar(&f.Format, "format", "json", "output format: json or table")
	fs.StringVar(&f.Charset, "charset", "", "decode HTML input with this charset instead of sniffing it")
	fs.StringVar(&f.Live, "live", "", "capture this URL in Chromium instead of reading INPUT")
	fs.BoolVar(&f.Observation, "observation", false, "print the observation (inventory and extraction)")
	fs.IntVar(&f.ModelBytes, "model-bytes", limits.ModelBytes, "print the observation's model projection within this many bytes")
	fs.StringVar(&f.Chrome, "chrome", "", "the Chromium binary (default $DOMSNAP_CHROME, then the usual paths)")
	f.Wait = addWaitFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(out, "usage: domsnap extract [flags] INPUT|--live URL")
		fs.PrintDefaults()
	}
	return fs
}

func (c *cli) extract(args []string) int {
	var f extractFlags
	fs := newExtractFlagSet(&f, c.stderr)
	pos, err := parseInterleaved(fs, args)
	if err == flag.ErrHelp {
		return exitOK
	}
	if err != nil {
		return exitUsage // flag has printed the problem and the usage
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })

	if f.Format != "json" && f.Format != "table" {
		return c.usage("--format must be json or table, got " + errcode.Quote(f.Format))
	}
	if f.set["request"] {
		for _, other := range []string{"kind", "index", "field", "rows"} {
			if f.set[other] {
				return c.usage("--request cannot be combined with --" + other)
			}
		}
	}
	switch {
	case f.Live != "" && len(pos) > 0:
		return c.usage("--live takes no INPUT")
	case f.Live == "" && len(pos) != 1:
		return c.usage("extract needs exactly one INPUT (a file, or - for standard input)")
	case f.Live == "":
		f.Input = pos[0]
		if n := waitFlagSet(f.set); n != "" {
			return c.usage("--" + n + " needs --live")
		}
	}
	if f.set["request"] && f.RequestFile == "-" && f.Input == "-" {
		return c.usage("standard input cannot be both the request and the INPUT")
	}

	// The request is read and checked before the input: an invalid request
	// is refused before anything is read (SPEC section 3).
	wantsObservation := f.Observation || f.set["model-bytes"]
	var req *domsnap.Request
	if f.set["request"] || f.set["kind"] || len(f.Fields) > 0 || !wantsObservation {
		r, err := c.buildRequest(&f)
		if err != nil {
			return c.fail(err)
		}
		req = &r
	}

	if f.Live != "" {
		return runExtractLive(c, &f, req)
	}
	data, err := c.readInput(f.Input)
	if err != nil {
		return c.fail(err)
	}
	in, err := snapshot.Load(data, snapshot.LoadOptions{Charset: f.Charset})
	if err != nil {
		return c.fail(err)
	}
	if wantsObservation {
		return runExtractObservation(c, &f, req, in)
	}
	res, err := domsnap.Extract(in.Tree, in.Revision, *req)
	if err != nil {
		return c.fail(err)
	}
	if f.Format == "table" {
		writeTable(c.stdout, res, *req)
		return exitOK
	}
	out := res.Canonical()
	if _, err := c.stdout.Write(append(out, '\n')); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// buildRequest makes the request from --request, or from the other flags.
// Either way it is validated, so an invalid one is an invalid_request error
// with the JSON-pointer path the value would have in a request file.
func (c *cli) buildRequest(f *extractFlags) (domsnap.Request, error) {
	if f.set["request"] {
		data, err := c.readInput(f.RequestFile)
		if err != nil {
			return domsnap.Request{}, err
		}
		return domsnap.DecodeRequest(data)
	}
	if !f.set["kind"] {
		return domsnap.Request{}, &usageError{"extract needs --kind (with --field) or --request"}
	}
	kind, ok := aria.ParseKind(f.Kind)
	if !ok || kind == aria.KindNone {
		return domsnap.Request{}, errcode.New(errcode.InvalidRequest, "domsnap", "/kind",
			"kind must be table, list or form, got "+errcode.Quote(f.Kind))
	}
	r := domsnap.Request{Kind: kind, Index: f.Index, RowLimit: f.Rows}
	if f.Rows == 0 {
		// In Go a zero row limit means the default; on the command line it
		// is a value out of range like any other.
		return domsnap.Request{}, errcode.New(errcode.InvalidRequest, "domsnap", "/row_limit",
			"row_limit must be "+strconv.Itoa(limits.MinRowLimit)+" to "+strconv.Itoa(limits.MaxRowLimit)+", got 0")
	}
	for i, spec := range f.Fields {
		fld, err := parseField(i, spec)
		if err != nil {
			return domsnap.Request{}, err
		}
		r.Fields = append(r.Fields, fld)
	}
	return r, r.Validate()
}

// parseField reads name:column:type[:required]. A spec of the wrong shape is
// a usage error; a value out of range is left to Validate, and an unknown
// type is an invalid_request at the field's type.
func parseField(i int, spec string) (domsnap.Field, error) {
	parts := strings.Split(spec, ":")
	bad := func() (domsnap.Field, error) {
		return domsnap.Field{}, &usageError{"--field " + errcode.Quote(spec) + " is not name:column:type[:required]"}
	}
	if len(parts) < 3 || len(parts) > 4 || len(parts) == 4 && parts[3] != "required" {
		return bad()
	}
	col, err := strconv.Atoi(parts[1])
	if err != nil || parts[1] == "" || parts[1][0] == '+' {
		return bad()
	}
	t, ok := typed.ParseType(parts[2])
	if !ok {
		return domsnap.Field{}, errcode.New(errcode.InvalidRequest, "domsnap", "/fields/"+strconv.Itoa(i)+"/type",
			"type must be string, integer, number or boolean, got "+errcode.Quote(parts[2]))
	}
	return domsnap.Field{Name: parts[0], Column: col, Type: t, Required: len(parts) == 4}, nil
}
