package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
)

// defaultMaxWidth bounds one cell in the table format, in terminal columns,
// quotes and ellipsis included, so a row of a few fields fits a terminal;
// the JSON format always prints cells whole. minMaxWidth leaves room for a
// status name and a few characters of evidence.
const (
	defaultMaxWidth = 42
	minMaxWidth     = 10
)

// writeTable renders a result for people: one line per row, one column per
// field, and each cell's status visible. An ok cell shows its value, strings
// quoted; any other status shows its name, with the evidence text quoted
// after it. Quoting escapes control characters and other non-printable runes,
// so page text cannot drive the terminal. Cells wider than maxWidth terminal
// columns are cut (0: never). The footer states every omission.
func writeTable(w io.Writer, res *domsnap.Result, req domsnap.Request, maxWidth int) {
	col := res.Collection
	if !col.Found {
		fmt.Fprintf(w, "%s %d not found: %s\n", col.Kind, col.Index, col.Reason)
	} else {
		fmt.Fprintf(w, "%s %d (%s)\n", col.Kind, col.Index, col.Source)
		head := []string{"#", "row", "valid"}
		for _, f := range req.Fields {
			head = append(head, f.Name+" ("+f.Type.String()+")")
		}
		lines := [][]string{head}
		for _, r := range res.Rows {
			line := []string{strconv.Itoa(r.Position), "data", yesNo(r.Valid)}
			if r.Header {
				line[1] = "header"
			}
			if r.Structure != domsnap.StructureOK {
				// Placeholders under the other fields keep every line the
				// same number of columns.
				line = append(line, "("+r.Structure.String()+": no cells)")
				for range max(len(req.Fields)-1, 0) {
					line = append(line, "-")
				}
			}
			for _, c := range r.Cells {
				line = append(line, showCell(c, maxWidth))
			}
			lines = append(lines, line)
		}
		writeAligned(w, lines)
	}
	writeFooter(w, res)
	cv := res.Coverage
	fmt.Fprintf(w, "scans: collection %d of %d nodes%s, rows %d of %d nodes%s\n",
		cv.CollectionScan.Visited, cv.CollectionScan.Limit, exhausted(cv.CollectionScan),
		cv.RowScan.Visited, cv.RowScan.Limit, exhausted(cv.RowScan))
	fmt.Fprintf(w, "revision %s, digest %s; content is %s\n", res.Revision, res.Digest, res.Trust)
}

// omissions lists, one phrase each, every way rows of the collection are
// missing from res.Rows, with the count where one is known.
func omissions(res *domsnap.Result) []string {
	cv := res.Coverage
	var out []string
	if cv.RowsOmittedByLimit > 0 {
		out = append(out, fmt.Sprintf("%d %s omitted by the row limit of %d", cv.RowsOmittedByLimit, plural(cv.RowsOmittedByLimit, "row"), cv.RowLimit))
	}
	if cv.RowsOmittedByBytes > 0 {
		out = append(out, fmt.Sprintf("%d %s omitted by the byte cap of %d bytes", cv.RowsOmittedByBytes, plural(cv.RowsOmittedByBytes, "row"), limits.ExtractionBytes))
	}
	if !cv.RowsComplete {
		switch {
		case !res.Collection.Found:
			out = append(out, fmt.Sprintf("the collection may lie beyond the collection scan of %d nodes", cv.CollectionScan.Limit))
		case cv.RowScan.Exhausted:
			out = append(out, fmt.Sprintf("an unknown number of rows beyond the row scan of %d nodes", cv.RowScan.Limit))
		}
		// A table may declare more than its document holds: a grid a
		// script draws a window of.
		switch {
		case cv.RowsDeclared == -1:
			out = append(out, "rows the page says the table has beyond its document, not how many")
		case cv.RowsDeclared > 0:
			out = append(out, fmt.Sprintf("rows the page says the table has beyond its document: %d in all", cv.RowsDeclared))
		}
		switch {
		case cv.ColumnsDeclared == -1:
			out = append(out, "columns the page says the table has beyond its rows' cells, not how many")
		case cv.ColumnsDeclared > 0:
			out = append(out, fmt.Sprintf("columns the page says the table has beyond its rows' cells: %d in all", cv.ColumnsDeclared))
		}
	}
	return out
}

// writeFooter states what the table holds and everything it leaves out, so
// a table with rows missing never reads as complete.
func writeFooter(w io.Writer, res *domsnap.Result) {
	cv := res.Coverage
	fmt.Fprintf(w, "rows: %d returned; truncated cells: %d\n", cv.RowsReturned, cv.TruncatedCells)
	om := omissions(res)
	for _, o := range om {
		fmt.Fprintf(w, "omitted: %s\n", o)
	}
	switch {
	case len(om) == 0:
		fmt.Fprintln(w, "complete: yes, no rows omitted")
	case onlyColumnsMissing(cv):
		fmt.Fprintln(w, "complete: no, columns are missing from this table")
	default:
		fmt.Fprintln(w, "complete: no, rows are missing from this table")
	}
}

// onlyColumnsMissing reports whether every row is here and only the columns
// a table declares beyond its rows' cells are not.
func onlyColumnsMissing(cv domsnap.Coverage) bool {
	return cv.ColumnsDeclared != 0 && cv.RowsDeclared == 0 && !cv.RowScan.Exhausted &&
		cv.RowsOmittedByLimit == 0 && cv.RowsOmittedByBytes == 0
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// writeAligned prints lines with their columns padded to the widest cell by
// display width, two spaces apart, and no padding at the end of a line.
func writeAligned(w io.Writer, lines [][]string) {
	var widths []int
	for _, l := range lines {
		for i, cell := range l {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(cell))
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.Reset()
		for i, cell := range l {
			b.WriteString(cell)
			if i < len(l)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(cell)+2))
			}
		}
		b.WriteByte('\n')
		io.WriteString(w, b.String())
	}
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

// showCell renders one cell with its status, within maxWidth columns.
func showCell(c domsnap.Cell, maxWidth int) string {
	switch c.Status {
	case domsnap.OK:
		if s, ok := c.Value.(string); ok {
			return quoteShort(s, maxWidth)
		}
		v, err := json.Marshal(c.Value)
		if err != nil {
			return "ok"
		}
		return string(v)
	case domsnap.Invalid:
		return withEvidence("invalid ", c.Text, maxWidth)
	case domsnap.Truncated:
		return withEvidence("truncated("+c.Truncation.String()+") ", c.Text, maxWidth)
	}
	return c.Status.String()
}

// withEvidence is a status label followed by the quoted evidence text, the
// two together within maxWidth columns when the label leaves room.
func withEvidence(label, text string, maxWidth int) string {
	if maxWidth == 0 {
		return label + quoteShort(text, 0)
	}
	return label + quoteShort(text, max(maxWidth-displayWidth(label), minMaxWidth/2))
}

// quoteShort quotes s with Go escapes for anything non-printable; when the
// quoted text is wider than maxWidth columns (and maxWidth is not 0) it
// keeps the longest prefix whose quoted form and a trailing ellipsis fit.
// A rune is never split, and an escape stays whole because whole runes
// are quoted.
func quoteShort(s string, maxWidth int) string {
	q := strconv.Quote(s)
	if maxWidth == 0 || displayWidth(q) <= maxWidth {
		return q
	}
	// The quoted prefix grows with each rune, so the last one that fits,
	// with the ellipsis's one column, is the answer.
	w := 2 // the quotes
	end := 0
	for end < len(s) {
		_, size := utf8.DecodeRuneInString(s[end:])
		rw := displayWidth(strconv.Quote(s[end:end+size])) - 2
		if w+rw+1 > maxWidth {
			break
		}
		w += rw
		end += size
	}
	return strconv.Quote(s[:end]) + "…"
}
