package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"
	"time"

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
	Timeout     time.Duration
	MaxWidth    int
	// Styles is --computed-styles, split; nil when not given.
	Styles []string
	Wait   *waitFlags
	// Input is the INPUT argument, "" with --live or several inputs.
	Input string
	// Many are the flags of the many-inputs mode (many.go).
	Many *manyFlags
	// set records which flags the command line named.
	set map[string]bool
}

// fieldList collects repeated --field flags.
type fieldList []string

func (f *fieldList) String() string     { return strings.Join(*f, ",") }
func (f *fieldList) Set(v string) error { *f = append(*f, v); return nil }

func newExtractFlagSet(c *cli, f *extractFlags) *flag.FlagSet {
	fs := c.flagSet("extract", "")
	fs.StringVar(&f.Kind, "kind", "", "collection kind: table, list or form")
	fs.IntVar(&f.Index, "index", 0, "zero-based visible index of the collection, 0 to 15")
	fs.Var(&f.Fields, "field", "a typed column, name:column:type[:required] (repeatable)")
	fs.IntVar(&f.Rows, "rows", limits.DefaultRowLimit, "rows returned, 1 to 50")
	fs.StringVar(&f.RequestFile, "request", "", "a JSON extract request file (instead of --kind, --index, --field, --rows)")
	fs.StringVar(&f.Format, "format", "json", "output format: json, table (aligned, for people) or csv (values only)")
	fs.IntVar(&f.MaxWidth, "max-width", defaultMaxWidth, "with --format table: the widest a cell is shown, in terminal columns (0: never cut)")
	fs.Func("computed-styles", "the computed styles a bare capture asked for, in order (default display,visibility)", f.setStyles)
	fs.StringVar(&f.Charset, "charset", "", "decode HTML input with this charset instead of sniffing it")
	fs.StringVar(&f.Live, "live", "", "capture this URL in Chromium instead of reading INPUT")
	fs.BoolVar(&f.Observation, "observation", false, "print the observation (inventory and extraction)")
	fs.IntVar(&f.ModelBytes, "model-bytes", limits.ModelBytes, "print the observation's model projection within this many bytes")
	fs.StringVar(&f.Chrome, "chrome", "", "the Chromium binary (default $DOMSNAP_CHROME, then the usual paths)")
	fs.DurationVar(&f.Timeout, "timeout", limits.LiveTimeout, "with --live, the most the whole live operation may take, browser launch included (at most "+limits.MaxLiveTimeout.String()+")")
	f.Wait = addWaitFlags(fs)
	f.Many = addManyFlags(fs)
	return fs
}

// setStyles reads --computed-styles: names separated by commas, which must
// include display and visibility, each once.
func (f *extractFlags) setStyles(v string) error {
	styles, err := parseStyles(v)
	f.Styles = styles
	return err
}

func parseStyles(v string) ([]string, error) {
	var styles []string
	seen := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" || seen[s] {
			return nil, errors.New("want comma-separated style names, each once, such as display,visibility")
		}
		seen[s] = true
		styles = append(styles, s)
	}
	if !seen["display"] || !seen["visibility"] {
		return nil, errors.New("the styles must include display and visibility")
	}
	return styles, nil
}

func (c *cli) extract(args []string) int {
	var f extractFlags
	fs := newExtractFlagSet(c, &f)
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })

	if f.Format != "json" && f.Format != "table" && f.Format != "csv" {
		return c.usage("--format must be json, table or csv, got " + errcode.Quote(f.Format) + suggestion(f.Format, []string{"json", "table", "csv"}, ""))
	}
	if f.MaxWidth != 0 && f.MaxWidth < minMaxWidth {
		return c.usage("--max-width must be 0 (never cut) or at least " + strconv.Itoa(minMaxWidth) + ", got " + strconv.Itoa(f.MaxWidth))
	}
	if f.set["max-width"] && f.Format != "table" {
		return c.usage("--max-width applies to --format table only")
	}
	if f.Format == "csv" && (f.Observation || f.set["model-bytes"]) {
		return c.usage("--format csv prints an extraction's rows; it cannot be combined with --observation or --model-bytes")
	}
	if f.set["request"] {
		for _, other := range []string{"kind", "index", "field", "rows"} {
			if f.set[other] {
				return c.usage("--request cannot be combined with --" + other)
			}
		}
	}
	stdinUser := ""
	if f.set["request"] && f.RequestFile == "-" {
		stdinUser = "request"
	}
	many, err := c.manyMode(fs, f.Many, f.set, pos, f.Format, stdinUser)
	if err != nil {
		return c.fail(err)
	}
	switch {
	case f.Live != "" && len(pos) > 0:
		return c.usage("--live takes no INPUT")
	case many:
	case f.Live == "" && len(pos) != 1:
		return c.usage("extract needs an INPUT (a file, or - for standard input), several, or --inputs FILE")
	case f.Live == "":
		f.Input = pos[0]
		if err := c.refuseURL(fs, f.Input); err != nil {
			return c.fail(err)
		}
		if n := waitFlagSet(f.set); n != "" {
			return c.usage("--" + n + " needs --live")
		}
	}
	if err := checkTimeout(f.Timeout); err != nil {
		return c.fail(err)
	}
	if f.set["request"] && f.RequestFile == "-" && f.Input == "-" {
		return c.usage("standard input cannot be both the request and the INPUT")
	}

	// The request is read and checked before the input: an invalid request
	// is refused before anything is read (docs/reference.md#the-request).
	wantsObservation := f.Observation || f.set["model-bytes"]
	var req *domsnap.Request
	if f.set["request"] || f.set["kind"] || len(f.Fields) > 0 || !wantsObservation {
		r, err := c.buildRequest(&f)
		if err != nil {
			return c.fail(err)
		}
		req = &r
	}

	// A wrong label is a wrong request, whatever the input turns out to be.
	if err := snapshot.CheckCharset(f.Charset); err != nil {
		return c.fail(err)
	}
	if f.Live != "" {
		return runExtractLive(c, &f, req)
	}
	if many {
		return c.extractMany(fs, &f, req, pos)
	}
	data, err := c.readInput(f.Input)
	if err != nil {
		return c.fail(err)
	}
	in, err := snapshot.Load(data, snapshot.LoadOptions{Charset: f.Charset, ComputedStyles: f.Styles})
	if err != nil {
		return c.fail(err)
	}
	c.warnInput(in)
	if wantsObservation {
		return runExtractObservation(c, &f, req, in)
	}
	res, err := domsnap.Extract(in.Tree, in.Revision, *req)
	if err != nil {
		return c.fail(err)
	}
	return c.writeResult(&f, res, *req)
}

// writeResult prints an extraction result in the format asked for.
func (c *cli) writeResult(f *extractFlags, res *domsnap.Result, req domsnap.Request) int {
	switch f.Format {
	case "table":
		writeTable(c.stdout, res, req, f.MaxWidth)
		return exitOK
	case "csv":
		if err := writeCSV(c.stdout, c.stderr, res, req); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	return c.writeJSON(res.Canonical())
}

// buildRequest makes the request from --request, or from the other flags.
// Either way it is validated, so an invalid one is an invalid_request error
// with the JSON-pointer path the value would have in a request file.
func (c *cli) buildRequest(f *extractFlags) (domsnap.Request, error) {
	if f.set["request"] {
		data, err := c.readRequest(f.RequestFile)
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
