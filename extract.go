package domsnap

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
)

// Extract runs one extraction over tree, whose current revision is revision
// (docs/reference.md#revisions, #finding-the-collection, #rows, #cell-text,
// #form-columns, #types and #the-result). In order it checks req (once: a
// [*Checked] is not checked again), checks its expected revision against
// revision when it names one, finds the collection, scans its rows, keeps
// the first row limit of the seen rows, summarises and converts each
// requested cell, and seals the result under the byte cap with its evidence
// references and digest.
//
// A collection that is not found is a result (found false, with a reason),
// not an error. Errors are an invalid or absent request (invalid_request), a
// rejected revision (foreign_revision, navigated_revision, stale_revision),
// and a missing tree or malformed current revision (malformed_snapshot).
//
// Extract requires no expected revision; a live caller that must insist on
// one checks that before calling.
func Extract(t *domtree.Tree, revision string, req Query) (*Result, error) {
	q, err := Check(req)
	if err != nil {
		return nil, err
	}
	if q == nil {
		return nil, errNoRequest()
	}
	o, err := analyze(t, revision, q, false, nil, nil)
	if err != nil {
		return nil, err
	}
	return o.Extraction, nil
}

// analyze is the one analysis behind Extract and Observe, for a request
// already checked (q nil for none). It reads the current revision once, then
// compares the expected revision with it and checks the tree, in the order
// docs/reference.md#errors gives, and only then computes: the inventory when
// asked for, and q's extraction.
func analyze(t *domtree.Tree, revision string, q *Checked, withInventory bool, ex *Expansion, num Numbering) (*Observation, error) {
	cur, err := ParseRevision(revision)
	if err != nil {
		return nil, malformedRevision(revision)
	}
	if q != nil {
		if err := q.CheckRevision(cur); err != nil {
			return nil, err
		}
	}
	var anchor regionAnchor
	if ex != nil {
		if anchor, err = ex.check(cur); err != nil {
			return nil, err
		}
	}
	if !t.Root().Valid() {
		return nil, errcode.New(errcode.MalformedSnapshot, pkgName, "", "no tree to analyze")
	}
	start := t.Root()
	if ex != nil {
		if start, err = anchor.find(t, ex.Region); err != nil {
			return nil, err
		}
	}
	o := &Observation{SchemaVersion: SchemaVersion, Trust: Trust, Revision: revision}
	if withInventory {
		entries := collect.Inventory(t)
		o.Inventory = inventory(entries)
		if err := o.pageView(t, start, ex == nil, entries, sequenceOf(cur), num); err != nil {
			return nil, err
		}
		if ex != nil {
			o.ViewScan.Region = ex.Region
		}
	}
	if q != nil {
		o.Extraction = extract(t, revision, cur, &q.req)
	}
	return o, nil
}

// extract computes the extraction of a checked request over a checked tree.
func extract(t *domtree.Tree, revision string, cur Revision, req *Request) *Result {
	c := collect.Find(t, req.Kind, req.Index)
	res := &Result{
		SchemaVersion: SchemaVersion,
		Trust:         Trust,
		Revision:      revision,
		Collection:    CollectionInfo{Found: c.Found, Kind: req.Kind, Index: req.Index},
		Rows:          []Row{},
		Coverage: Coverage{
			CollectionScan: c.Scan,
			RowScan:        Scan{Limit: limits.RowScanNodes},
			RowLimit:       req.rowLimit(),
		},
	}
	if !c.Found {
		res.Collection.Reason = c.Reason
		if c.Reason == collect.ReasonNone {
			// The scan's own verdict decides when it gave no reason: content
			// beyond a spent budget is unknown, never absent.
			res.Collection.Reason = collect.Absent
			if c.Scan.Exhausted {
				res.Collection.Reason = collect.ScanLimit
			}
		}
		res.Coverage.RowsComplete = res.Collection.Reason == collect.Absent
		res.seal(sequenceOf(cur))
		return res
	}
	res.Collection.Source = c.Source

	rows := collect.ScanRows(c)
	res.Coverage.RowScan = rows.Scan
	res.Coverage.RowsComplete = rows.Complete
	res.Coverage.RowsDeclared, res.Coverage.ColumnsDeclared = rows.DeclaredRows, rows.DeclaredColumns
	n := min(len(rows.Rows), req.rowLimit())
	res.Coverage.RowsOmittedByLimit = len(rows.Rows) - n
	res.Rows = make([]Row, 0, n)
	for _, row := range rows.Rows[:n] {
		res.Rows = append(res.Rows, buildRow(row, req))
	}
	res.seal(sequenceOf(cur))
	return res
}

// buildRow turns one seen row into typed cells and decides its validity
// (docs/reference.md#types). Position and evidence are set by seal.
func buildRow(row collect.Row, req *Request) Row {
	out := Row{Header: row.Header, Structure: row.Structure, Cells: []Cell{}}
	if row.Structure != collect.StructureOK {
		// Spans are never guessed: no cells, and never valid.
		return out
	}
	valid := true
	out.Cells = make([]Cell, 0, len(req.Fields))
	for _, f := range req.Fields {
		s := summary(row, req.Kind, f.Column)
		tc := typed.Convert(s.Text, s.Truncated, f.Type)
		cell := Cell{Name: f.Name, Status: tc.Status, Value: tc.Value, Text: tc.Text}
		switch tc.Status {
		case typed.Missing:
			if f.Required {
				valid = false
			}
		case typed.Invalid:
			valid = false
		case typed.Truncated:
			valid = false
			cell.Truncation = s.Why
		}
		if tc.Status != typed.OK {
			cell.Value = nil
		}
		out.Cells = append(out.Cells, cell)
	}
	out.Valid = valid
	return out
}

// summary reads one column of a row: the column-th cell of a table row
// (missing when the row has fewer cells), the item itself for a list, and
// the fixed form columns for a form control.
func summary(row collect.Row, kind aria.Kind, column int) cells.Summary {
	switch kind {
	case aria.Table:
		if column < len(row.Cells) {
			return cells.Summarize(row.Cells[column])
		}
	case aria.List:
		if column == 0 {
			return cells.Summarize(row.Element)
		}
	case aria.Form:
		return cells.FormCell(row.Element, column)
	}
	return cells.Summary{}
}
