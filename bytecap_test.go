package domsnap

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

// wideTable is a table of n rows of limits.MaxFields cells of 200 letters;
// the last row's cells hold pad letters between them (at least one each).
func wideTable(n, pad int) []nd {
	var rows []nd
	for i := range n {
		var texts []string
		for c := range limits.MaxFields {
			l := 200
			if i == n-1 {
				l = pad / limits.MaxFields
				if c < pad%limits.MaxFields {
					l++
				}
			}
			texts = append(texts, strings.Repeat(string(rune('a'+c)), l))
		}
		rows = append(rows, tr("td", texts...))
	}
	return page(E("table", E("tbody", rows)))
}

func wideRequest() Request {
	r := Request{Kind: aria.Table, RowLimit: limits.MaxRowLimit}
	for c := range limits.MaxFields {
		r.Fields = append(r.Fields, Field{Name: "column_" + string(rune('a'+c)), Column: c})
	}
	return r
}

// TestByteCap builds pages whose complete result is one byte under, exactly
// at, and one byte over limits.ExtractionBytes, and checks that only the
// last lands over the cap and loses exactly its last row, whole.
func TestByteCap(t *testing.T) {
	minPad, maxPad := limits.MaxFields, limits.MaxFields*limits.CellUnits
	extract := func(n, pad int) *Result {
		t.Helper()
		res, err := Extract(build(t, wideTable(n, pad)...), fileRev, wideRequest())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// Find a row count whose size can be tuned across the cap by the pad.
	n, base := 0, 0
	for k := 2; k <= limits.MaxRowLimit; k++ {
		res := extract(k, minPad)
		if res.Coverage.RowsOmittedByBytes != 0 {
			t.Fatalf("%d rows at the minimum pad are already over the cap", k)
		}
		size := len(res.Canonical())
		if size-minPad+maxPad > limits.ExtractionBytes+1 {
			n, base = k, size-minPad
			break
		}
	}
	if n == 0 {
		t.Fatal("no row count reaches the cap")
	}
	var under *Result
	for _, target := range []int{limits.ExtractionBytes - 1, limits.ExtractionBytes, limits.ExtractionBytes + 1} {
		res := extract(n, target-base)
		out := res.Canonical()
		if !json.Valid(out) {
			t.Fatalf("target %d: invalid JSON", target)
		}
		if len(out) > limits.ExtractionBytes {
			t.Fatalf("target %d: %d bytes exceed the cap", target, len(out))
		}
		if got := digestOf(out); got != res.Digest {
			t.Errorf("target %d: digest %s, recomputed %s", target, res.Digest, got)
		}
		c := res.Coverage
		if target <= limits.ExtractionBytes {
			if len(out) != target || c.RowsOmittedByBytes != 0 || c.RowsReturned != n || len(res.Rows) != n {
				t.Errorf("target %d: %d bytes, coverage %+v", target, len(out), c)
			}
			under = res
			continue
		}
		if c.RowsOmittedByBytes != 1 || c.RowsReturned != n-1 || len(res.Rows) != n-1 {
			t.Errorf("target %d: coverage %+v", target, c)
		}
		if diff := cmp.Diff(under.Rows[:n-1], res.Rows); diff != "" {
			t.Errorf("kept rows differ from the same rows under the cap (-want +got)\n%s", diff)
		}
		if bytes.Contains(out, []byte(`"position":`+itoa(n-1)+`,`)) {
			t.Error("the dropped row is still printed")
		}
	}
}

// TestByteCapManyRows drops many rows and counts them, with truncated cells
// counted only among the rows kept.
func TestByteCapManyRows(t *testing.T) {
	var rows []nd
	for range limits.MaxRowLimit {
		var texts []string
		for range limits.MaxFields {
			texts = append(texts, strings.Repeat("\u2028", limits.CellUnits+1))
		}
		rows = append(rows, tr("td", texts...))
	}
	res, err := Extract(build(t, page(E("table", rows))...), fileRev, wideRequest())
	if err != nil {
		t.Fatal(err)
	}
	out := res.Canonical()
	c := res.Coverage
	if len(out) > limits.ExtractionBytes || c.RowsReturned+c.RowsOmittedByBytes != limits.MaxRowLimit ||
		c.RowsOmittedByBytes == 0 || c.RowsReturned != len(res.Rows) || c.TruncatedCells != c.RowsReturned*limits.MaxFields {
		t.Fatalf("%d bytes, coverage %+v", len(out), c)
	}
}

// TestSealKeepsTheMostRows checks on synthetic rows that seal keeps the
// largest number of rows that fits: the kept rows fit, one more would not.
func TestSealKeepsTheMostRows(t *testing.T) {
	for _, width := range []int{1, 100, 1000, 1200, 5000, 20000, 70000} {
		mk := func(n int) *Result {
			r := &Result{SchemaVersion: SchemaVersion, Trust: Trust, Revision: fileRev,
				Collection: CollectionInfo{Found: true, Kind: aria.Table}}
			for i := range n {
				r.Rows = append(r.Rows, Row{Valid: true, Cells: []Cell{{Name: "a", Value: strings.Repeat("x", width+i)}}})
			}
			return r
		}
		all := mk(limits.MaxRowLimit)
		all.seal(0)
		k := all.Coverage.RowsReturned
		if len(all.Canonical()) > limits.ExtractionBytes || k+all.Coverage.RowsOmittedByBytes != limits.MaxRowLimit {
			t.Fatalf("width %d: %d bytes, coverage %+v", width, len(all.Canonical()), all.Coverage)
		}
		if k < limits.MaxRowLimit {
			more := mk(k + 1)
			more.setCounts(k+1, k+1)
			more.Revision, more.Collection.Evidence = all.Revision, all.Collection.Evidence
			for i := range more.Rows {
				more.Rows[i].Position, more.Rows[i].Evidence = i, EvidenceRef(0, i+2)
			}
			if len(more.appendJSON(nil, k+1, all.Digest, true)) <= limits.ExtractionBytes {
				t.Errorf("width %d: %d rows would have fitted, kept %d", width, k+1, k)
			}
		}
	}
}

func itoa(i int) string { return string(appendValue(nil, int64(i))) }
