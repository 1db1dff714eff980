package main

import (
	"encoding/json"
	"errors"
	"flag"
	"strconv"
	"strings"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
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
	// Profile and StateDir are --profile and --state-dir (liveprofile.go).
	Profile, StateDir *string
	MaxWidth          int
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
	fs.IntVar(&f.Index, "index", 0, "zero-based visible index of the collection, 0 to "+strconv.Itoa(limits.MaxCollectionIndex))
	fs.Var(&f.Fields, "field", "a typed column, name:column:type[:required] (repeatable)")
	fs.IntVar(&f.Rows, "rows", limits.DefaultRowLimit, "rows returned, "+strconv.Itoa(limits.MinRowLimit)+" to "+strconv.Itoa(limits.MaxRowLimit))
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
	f.Profile, f.StateDir = addProfileFlags(fs)
	f.Wait = addWaitFlags(fs)
	f.Many = addManyFlags(fs)
	return fs
}

// profile is the --profile of a live extraction, nil without one.
func (f *extractFlags) profile() *liveProfile {
	if f.Profile == nil || *f.Profile == "" {
		return nil
	}
	return &liveProfile{name: *f.Profile, stateDir: *f.StateDir}
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
	if msg := checkProfileFlags(f.set, f.Live != ""); msg != "" {
		return c.usage(msg)
	}

	if f.Format != "json" && f.Format != "table" && f.Format != "csv" {
		return c.usage("--format must be json, table or csv, got " + domsnap.Quote(f.Format) + suggestion(f.Format, []string{"json", "table", "csv"}, ""))
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
	var req *domsnap.Checked
	if f.set["request"] || f.set["kind"] || len(f.Fields) > 0 || !wantsObservation {
		var err error
		if req, err = c.buildRequest(&f); err != nil {
			return c.fail(err)
		}
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
	res, err := domsnap.Extract(in.Tree, in.Revision, req)
	if err != nil {
		return c.fail(err)
	}
	return c.writeResult(&f, res, req.Request())
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

// buildRequest makes the checked request from --request, or from the other
// flags. The flags are another spelling of the request's JSON form, so they
// are written as that JSON and decoded by the same strict reader: every
// value out of range is an invalid_request error with the JSON-pointer path
// the value has in a request file, in the root's words. Only a --field that
// is not name:column:type[:required] at all is a usage error.
func (c *cli) buildRequest(f *extractFlags) (*domsnap.Checked, error) {
	var data []byte
	if f.set["request"] {
		var err error
		if data, err = c.readRequest(f.RequestFile); err != nil {
			return nil, err
		}
	} else {
		if !f.set["kind"] {
			return nil, &usageError{"extract needs --kind (with --field) or --request"}
		}
		var err error
		if data, err = flagRequest(f); err != nil {
			return nil, err
		}
	}
	return domsnap.DecodeChecked(data)
}

// flagRequest writes the request the flags spell as JSON. A row limit of 0
// is written as given: in Go it means the default, on the command line it
// is out of range like any other value.
func flagRequest(f *extractFlags) ([]byte, error) {
	type field struct {
		Name     string `json:"name"`
		Column   int    `json:"column"`
		Type     string `json:"type"`
		Required bool   `json:"required,omitempty"`
	}
	req := struct {
		Kind     string  `json:"kind"`
		Index    int     `json:"index"`
		Fields   []field `json:"fields"`
		RowLimit int     `json:"row_limit"`
	}{Kind: f.Kind, Index: f.Index, Fields: []field{}, RowLimit: f.Rows}
	for _, spec := range f.Fields {
		parts := strings.Split(spec, ":")
		if len(parts) < 3 || len(parts) > 4 || len(parts) == 4 && parts[3] != "required" {
			return nil, badField(spec)
		}
		col, err := strconv.Atoi(parts[1])
		if err != nil || parts[1] == "" || parts[1][0] == '+' {
			return nil, badField(spec)
		}
		req.Fields = append(req.Fields, field{Name: parts[0], Column: col, Type: parts[2], Required: len(parts) == 4})
	}
	return json.Marshal(req)
}

func badField(spec string) error {
	return &usageError{"--field " + domsnap.Quote(spec) + " is not name:column:type[:required]"}
}
