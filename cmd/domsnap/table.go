package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/collect"
	"github.com/domsnap/domsnap/typed"
)

// maxShownRunes bounds one cell in the table format, so a row fits a
// terminal; the JSON format always prints cells whole.
const maxShownRunes = 40

// writeTable renders a result for people: one line per row, one column per
// field, and each cell's status visible. An ok cell shows its value, strings
// quoted; any other status shows its name, with the evidence text quoted
// after it. Quoting escapes control characters and other non-printable runes,
// so page text cannot drive the terminal.
func writeTable(w io.Writer, res *domsnap.Result, req domsnap.Request) {
	col := res.Collection
	if !col.Found {
		fmt.Fprintf(w, "%s %d not found: %s\n", col.Kind, col.Index, col.Reason)
	} else {
		fmt.Fprintf(w, "%s %d (%s)\n", col.Kind, col.Index, col.Source)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := []string{"#", "row", "valid"}
		for _, f := range req.Fields {
			head = append(head, f.Name+" ("+f.Type.String()+")")
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, r := range res.Rows {
			line := []string{strconv.Itoa(r.Position), "data", yesNo(r.Valid)}
			if r.Header {
				line[1] = "header"
			}
			if r.Structure != collect.StructureOK {
				// Empty cells under the other fields keep this line in the
				// tabwriter's column blocks, so the rows after it stay aligned.
				line = append(line, "("+r.Structure.String()+": no cells)")
				for range max(len(req.Fields)-1, 0) {
					line = append(line, "-")
				}
			}
			for _, c := range r.Cells {
				line = append(line, showCell(c))
			}
			fmt.Fprintln(tw, strings.Join(line, "\t"))
		}
		tw.Flush()
	}
	cv := res.Coverage
	fmt.Fprintf(w, "rows: %d returned, %d omitted by the row limit of %d, %d omitted by the byte cap; rows complete: %s; truncated cells: %d\n",
		cv.RowsReturned, cv.RowsOmittedByLimit, cv.RowLimit, cv.RowsOmittedByBytes, yesNo(cv.RowsComplete), cv.TruncatedCells)
	fmt.Fprintf(w, "scans: collection %d of %d nodes%s, rows %d of %d nodes%s\n",
		cv.CollectionScan.Visited, cv.CollectionScan.Limit, exhausted(cv.CollectionScan),
		cv.RowScan.Visited, cv.RowScan.Limit, exhausted(cv.RowScan))
	fmt.Fprintf(w, "revision %s, digest %s; content is %s\n", res.Revision, res.Digest, res.Trust)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func exhausted(s domsnap.Scan) string {
	if s.Exhausted {
		return " (budget exhausted)"
	}
	return ""
}

// showCell renders one cell with its status.
func showCell(c domsnap.Cell) string {
	switch c.Status {
	case typed.OK:
		if s, ok := c.Value.(string); ok {
			return quoteShort(s)
		}
		v, err := json.Marshal(c.Value)
		if err != nil {
			return "ok"
		}
		return string(v)
	case typed.Invalid:
		return "invalid " + quoteShort(c.Text)
	case typed.Truncated:
		return "truncated(" + c.Truncation.String() + ") " + quoteShort(c.Text)
	}
	return c.Status.String()
}

// quoteShort quotes s with Go escapes for anything non-printable, shortened
// to maxShownRunes runes with an ellipsis.
func quoteShort(s string) string {
	if utf8.RuneCountInString(s) > maxShownRunes {
		n := 0
		for i := range s {
			if n == maxShownRunes {
				return strconv.Quote(s[:i]) + "…"
			}
			n++
		}
	}
	return strconv.Quote(s)
}
