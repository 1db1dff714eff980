package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/domsnap/domsnap"
)

// writeCSV prints the returned rows as RFC 4180 CSV for spreadsheets: a
// header line of the field names, then one line per row with each ok
// cell's value (strings as they are, save the formula guard of
// csvformula.go; numbers and booleans as in the JSON)
// and every other cell empty. What CSV cannot carry (statuses, omitted
// rows) is summarised on summary, so a script reading only the CSV still
// gets values and a person sees what is missing.
func writeCSV(w, summary io.Writer, res *domsnap.Result, req domsnap.Request) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(req.Fields))
	for i, f := range req.Fields {
		head[i] = f.Name
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	counts := map[domsnap.Status]int{}
	spans, guarded := 0, 0
	for _, r := range res.Rows {
		// A row without cells (an unsupported span) is still a line, all
		// empty, so line n+1 is always row position n.
		line := make([]string, len(req.Fields))
		if len(r.Cells) == 0 {
			spans++
		}
		for i, c := range r.Cells {
			counts[c.Status]++
			if c.Status != domsnap.OK {
				continue
			}
			if s, ok := c.Value.(string); ok {
				var g bool
				if line[i], g = guardFormula(s); g {
					guarded++
				}
				continue
			}
			v, err := json.Marshal(c.Value)
			if err != nil {
				return err
			}
			line[i] = string(v)
		}
		if err := cw.Write(line); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}

	col := res.Collection
	if !col.Found {
		fmt.Fprintf(summary, "csv: %s %d not found: %s\n", col.Kind, col.Index, col.Reason)
	}
	var st []string
	for _, s := range []domsnap.Status{domsnap.OK, domsnap.Missing, domsnap.Invalid, domsnap.Truncated} {
		st = append(st, fmt.Sprintf("%d %s", counts[s], s))
	}
	fmt.Fprintf(summary, "csv: %d %s; cells: %s", len(res.Rows), plural(len(res.Rows), "row"), strings.Join(st, ", "))
	if spans > 0 {
		fmt.Fprintf(summary, "; %d %s with an unsupported span (no cells)", spans, plural(spans, "row"))
	}
	fmt.Fprintln(summary)
	if guarded > 0 {
		fmt.Fprintf(summary, "csv: %d %s began with =, +, -, @, a tab or a CR: prefixed with %s so a spreadsheet reads it as text, not a formula\n",
			guarded, plural(guarded, "cell"), formulaGuard)
	}
	for _, o := range omissions(res) {
		fmt.Fprintf(summary, "csv: omitted: %s\n", o)
	}
	return nil
}
