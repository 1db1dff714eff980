package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// runInventory is "domsnap inventory [--format table|json]
// [--collections-only] [--charset C] [--computed-styles A,B] INPUT": the
// observation without a request, which lists the collections a request may
// name and the page view (controls and regions). The table format is for
// people; the JSON format is the canonical observation, one line.
func runInventory(c *cli, args []string) int {
	fs := c.flagSet("inventory", "")
	format := fs.String("format", "table", "output format: table or json")
	collectionsOnly := fs.Bool("collections-only", false, "with --format table: list the collections only, not the page's controls and regions")
	charset := fs.String("charset", "", "decode HTML input with this charset instead of sniffing it")
	var styles []string
	fs.Func("computed-styles", "the computed styles a bare capture asked for, in order (default display,visibility)", func(v string) (err error) {
		styles, err = parseStyles(v)
		return err
	})
	liveURL := fs.String("live", "", "capture this URL in Chromium instead of reading INPUT")
	chrome := fs.String("chrome", "", "the Chromium binary (default $DOMSNAP_CHROME, then the usual paths)")
	timeout := timeoutFlag(fs)
	profName, stateDir := addProfileFlags(fs)
	wf := addWaitFlags(fs)
	mf := addManyFlags(fs)
	pos, code, done := parseCommand(fs, args)
	if done {
		return code
	}
	if *format != "table" && *format != "json" {
		return c.usage("--format must be table or json, got " + domsnap.Quote(*format) + suggestion(*format, []string{"table", "json"}, ""))
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if msg := checkProfileFlags(set, *liveURL != ""); msg != "" {
		return c.usage(msg)
	}
	var prof *liveProfile
	if *profName != "" {
		prof = &liveProfile{name: *profName, stateDir: *stateDir}
	}
	if *collectionsOnly && *format != "table" {
		return c.usage("--collections-only shapes the table; --format json prints the whole observation")
	}
	many, err := c.manyMode(fs, mf, set, pos, *format, "")
	if err != nil {
		return c.fail(err)
	}
	var o *domsnap.Observation
	switch {
	case *liveURL != "" && len(pos) > 0:
		return c.usage("--live takes no INPUT")
	case many:
		if err := snapshot.CheckCharset(*charset); err != nil {
			return c.fail(err)
		}
		return c.inventoryMany(fs, mf, pos, manyLoad{*charset, styles})
	case *liveURL != "":
		w, err := wf.parse()
		if err != nil {
			return c.fail(err)
		}
		if err := checkTimeout(*timeout); err != nil {
			return c.fail(err)
		}
		if o, err = inventoryLive(c, *chrome, *liveURL, w, *timeout, prof); err != nil {
			return c.fail(err)
		}
	case len(pos) != 1:
		return c.usage("inventory needs an INPUT (a file, or - for standard input), several, or --inputs FILE")
	default:
		if n := waitFlagSet(set); n != "" {
			return c.usage("--" + n + " needs --live")
		}
		if err := snapshot.CheckCharset(*charset); err != nil {
			return c.fail(err)
		}
		if err := c.refuseURL(fs, pos[0]); err != nil {
			return c.fail(err)
		}
		data, err := c.readInput(pos[0])
		if err != nil {
			return c.fail(err)
		}
		in, err := snapshot.Load(data, snapshot.LoadOptions{Charset: *charset, ComputedStyles: styles})
		if err != nil {
			return c.fail(err)
		}
		c.warnInput(in)
		if o, err = domsnap.Observe(in.Tree, in.Revision, nil); err != nil {
			return c.fail(err)
		}
	}
	if *format == "json" {
		return c.writeJSON(o.Canonical())
	}
	writeInventory(c.stdout, o)
	if !*collectionsOnly {
		writeView(c.stdout, o)
	}
	return exitOK
}

// inventoryLive is the one-shot observation of a live page, without a
// request: one snapshot (more only while --wait-for retakes it).
func inventoryLive(c *cli, chrome, url string, w liveWait, timeout time.Duration, prof *liveProfile) (*domsnap.Observation, error) {
	ctx, stop, interrupted := liveContext(timeout)
	defer stop()
	s, cond, closeAll, err := openLive(ctx, c, chrome, url, w, prof)
	defer closeAll()
	if err != nil {
		return nil, err
	}
	o, _, err := s.Observe(ctx, live.ReadOptions{When: cond, Once: true})
	if err == nil && interrupted() {
		err = errInterrupted()
	}
	return o, err
}

// runExtractObservation is "domsnap extract --observation" or
// "--model-bytes N" over a loaded input: req is nil when no request was
// given. --model-bytes prints the projection, which is JSON only; otherwise
// the observation is printed as canonical JSON, or with --format table as
// the inventory table followed by the extraction's table.
func runExtractObservation(c *cli, f *extractFlags, req *domsnap.Checked, in *snapshot.Input) int {
	if f.set["model-bytes"] && f.Format == "table" {
		return c.usage("--model-bytes prints the JSON projection; it cannot be combined with --format table")
	}
	o, err := domsnap.Observe(in.Tree, in.Revision, req)
	if err != nil {
		return c.fail(err)
	}
	if f.set["model-bytes"] {
		p, err := domsnap.Project(o, f.ModelBytes)
		if err != nil {
			return c.fail(err)
		}
		return c.writeJSON(p.Canonical())
	}
	if f.Format == "table" {
		writeInventory(c.stdout, o)
		writeView(c.stdout, o)
		if o.Extraction != nil {
			fmt.Fprintln(c.stdout)
			writeTable(c.stdout, o.Extraction, req.Request(), f.MaxWidth)
		}
		return exitOK
	}
	return c.writeJSON(o.Canonical())
}

// writeInventory renders an observation's inventory as an aligned table, one
// collection a line in tree order. Names are quoted and shortened like cells
// in the extraction table, so page text cannot drive the terminal.
func writeInventory(w io.Writer, o *domsnap.Observation) {
	fmt.Fprintf(w, "revision %s; content is %s\n", o.Revision, o.Trust)
	if len(o.Inventory) == 0 {
		fmt.Fprintln(w, "no visible table, list or form in the part of the page the scan read")
		return
	}
	lines := [][]string{{"kind", "index", "source", "rows", "name"}}
	for _, e := range o.Inventory {
		rows := rowsText(e)
		name := "-"
		if e.Name != "" {
			name = quoteShort(e.Name, defaultMaxWidth)
		}
		lines = append(lines, []string{e.Kind.String(), strconv.Itoa(e.Index), e.Source.String(), rows, name})
	}
	writeAligned(w, lines)
}

// rowsText is an inventory entry's rows for a person: the count, then the
// larger count the table declares ("22 of 1001"), or "or more" when the row
// scan stopped short; columns the table declares beyond its rows' cells are
// said too, since they also make it incomplete.
func rowsText(e domsnap.InventoryEntry) string {
	rows := strconv.Itoa(e.Rows)
	switch {
	case e.RowsDeclared > 0:
		rows += " of " + strconv.Itoa(e.RowsDeclared)
	case e.RowsDeclared == -1:
		rows += " of an unknown number"
	case !e.RowsComplete && e.ColumnsDeclared == 0:
		rows += " or more"
	}
	switch {
	case e.ColumnsDeclared > 0:
		rows += ", of " + strconv.Itoa(e.ColumnsDeclared) + " columns"
	case e.ColumnsDeclared == -1:
		rows += ", of more columns"
	}
	return rows
}

// writeView renders an observation's page view after its inventory: the
// view scan's coverage, then the controls and the regions as aligned
// tables, each row naming the reference to act on or expand. Names are
// quoted and shortened as inventory names are; the page's text is left to
// the JSON, where it is whole.
func writeView(w io.Writer, o *domsnap.Observation) {
	v := o.ViewScan
	fmt.Fprintf(w, "\nview scan: %d of %d nodes visited", v.Visited, v.Limit)
	if v.Region != "" {
		fmt.Fprintf(w, " from region %s", v.Region)
	}
	if v.Exhausted {
		fmt.Fprint(w, "; the rest of the page was not read")
	}
	fmt.Fprintln(w)
	if len(o.Controls) == 0 {
		fmt.Fprintln(w, "no controls")
	} else {
		lines := [][]string{{"ref", "role", "name", "state", "in"}}
		for _, c := range o.Controls {
			lines = append(lines, []string{c.Ref, c.Role, quoteShort(c.Name, defaultMaxWidth), controlState(c), controlIn(c)})
		}
		writeAligned(w, lines)
	}
	if o.ControlsOmitted > 0 {
		fmt.Fprintf(w, "%d more controls not listed\n", o.ControlsOmitted)
	}
	fmt.Fprintln(w)
	if len(o.Regions) == 0 {
		fmt.Fprintln(w, "no regions")
	} else {
		lines := [][]string{{"ref", "role", "level", "name"}}
		for _, r := range o.Regions {
			level := "-"
			if r.Level > 0 {
				level = strconv.Itoa(r.Level)
			}
			name := "-"
			if r.Name != "" {
				name = quoteShort(r.Name, defaultMaxWidth)
			}
			lines = append(lines, []string{r.Ref, r.Role, level, name})
		}
		writeAligned(w, lines)
	}
	if o.RegionsOmitted > 0 {
		fmt.Fprintf(w, "%d more regions not listed\n", o.RegionsOmitted)
	}
}

// controlState is a control's states in a few words, "-" for none.
func controlState(c domsnap.Control) string {
	var parts []string
	if c.Disabled {
		parts = append(parts, "disabled")
	}
	if c.Required {
		parts = append(parts, "required")
	}
	if c.Checked != "" {
		parts = append(parts, "checked="+c.Checked)
	}
	if c.Expanded != "" {
		parts = append(parts, "expanded="+c.Expanded)
	}
	if c.Selected {
		parts = append(parts, "selected")
	}
	if c.Sort != "" {
		parts = append(parts, "sort="+c.Sort)
	}
	if c.Options != nil {
		n := len(c.Options) + c.OptionsOmitted
		parts = append(parts, strconv.Itoa(n)+" options")
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// controlIn names the inventory row a control lies in, "-" for none.
func controlIn(c domsnap.Control) string {
	if c.In == nil {
		return "-"
	}
	return c.In.Kind.String() + " " + strconv.Itoa(c.In.Index) + " row " + strconv.Itoa(c.In.Position)
}
