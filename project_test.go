package domsnap

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

// maxRevision is the longest revision there is: a session part of
// MaxSessionChars characters and both counters at their largest.
func maxRevision(t testing.TB) string {
	t.Helper()
	const maxU64 = ^uint64(0)
	r, err := LiveRevision(strings.Repeat("z", MaxSessionChars), maxU64, maxU64)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// bigPage holds MaxInventoryPerKind collections of each kind with long
// names full of characters that JSON escapes, and a first table of rows
// more than MaxRowLimit rows.
func bigPage(rows int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><body>")
	name := func(kind string, i int) string {
		return kind + strconv.Itoa(i) + strings.Repeat(`&quot;\&lt;`, limits.CellUnits/4)
	}
	b.WriteString(`<table aria-label="` + name("table", 0) + `">`)
	for i := 0; i < rows; i++ {
		b.WriteString("<tr><td>item " + strconv.Itoa(i) + `</td><td>` + strconv.Itoa(i*3) + `</td><td>"quoted"\</td></tr>`)
	}
	b.WriteString("</table>")
	for i := 1; i < limits.MaxInventoryPerKind; i++ {
		b.WriteString(`<table aria-label="` + name("table", i) + `"><tr><td>x</td></tr></table>`)
	}
	for i := 0; i < limits.MaxInventoryPerKind; i++ {
		b.WriteString(`<ul aria-label="` + name("list", i) + `"><li>a</li><li>b</li></ul>`)
		b.WriteString(`<form aria-label="` + name("form", i) + `"><input aria-label="q"></form>`)
	}
	return b.String()
}

func bigRequest() *Request {
	return &Request{Kind: aria.Table, RowLimit: limits.MaxRowLimit, Fields: []Field{
		{Name: "item", Column: 0, Type: typed.String, Required: true},
		{Name: "count", Column: 1, Type: typed.Integer},
		{Name: "note", Column: 2, Type: typed.String},
	}}
}

func observeBig(t testing.TB, rev string) *Observation {
	t.Helper()
	o, err := Observe(obsParse(t, bigPage(limits.MaxRowLimit+10)), rev, bigRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Inventory) != 3*limits.MaxInventoryPerKind || len(o.Extraction.Rows) != limits.MaxRowLimit {
		t.Fatalf("the big page gave %d entries and %d rows", len(o.Inventory), len(o.Extraction.Rows))
	}
	return o
}

// TestProjectMinModelBytesAlwaysEnough proves the spec's promise on the
// worst case: the longest revision, the most inventory entries and rows (so
// the omitted counts are as long as they get), and an extraction too big to
// keep. The smallest projection is well under limits.MinModelBytes, and the
// budgets just under, at and over it behave.
func TestProjectMinModelBytesAlwaysEnough(t *testing.T) {
	o := observeBig(t, maxRevision(t))
	p, err := Project(o, limits.MinModelBytes)
	if err != nil {
		t.Fatalf("MinModelBytes refused: %v", err)
	}
	if n := len(p.Canonical()); n > limits.MinModelBytes {
		t.Fatalf("projection of %d bytes over the budget", n)
	}
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision, Artifact: o.Artifact()}, o: o}
	smallest := f.size(0, 0, omitted)
	if smallest > limits.MinModelBytes {
		t.Fatalf("the smallest projection is %d bytes, over MinModelBytes", smallest)
	}
	t.Logf("smallest projection on the worst case: %d bytes", smallest)

	if _, err := Project(o, smallest-1); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("budget %d under the smallest projection: error %v, want invalid_request", smallest-1, err)
	}
	at, err := Project(o, smallest)
	if err != nil {
		t.Fatalf("budget at the smallest projection refused: %v", err)
	}
	want := `{"schema_version":"1.4.0","trust":"external-untrusted","revision":"` + o.Revision + `","artifact":"` + o.Artifact() +
		`","inventory":[],"extraction_omitted":true,"omitted":{"inventory":48,"rows":50}}`
	if diff := cmp.Diff(want, string(at.Canonical())); diff != "" {
		t.Errorf("smallest projection (-want +got):\n%s", diff)
	}
	if _, err := Project(o, smallest+1); err != nil {
		t.Errorf("budget over the smallest projection refused: %v", err)
	}
	for _, b := range []int{0, -1} {
		if _, err := Project(o, b); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("budget %d: error %v, want invalid_request", b, err)
		}
	}
	if _, err := Project(nil, limits.ModelBytes); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("nil observation: error %v, want invalid_request", err)
	}
}

// counts is what a projection shows.
func shownCounts(p *Projection) (inv, rows int) {
	if p.Extraction != nil {
		rows = len(p.Extraction.Rows)
	}
	return len(p.Inventory), rows
}

func TestProjectPreferenceOrder(t *testing.T) {
	o := observeBig(t, liveRev(t, 7))
	full := len(o.Canonical())
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision, Artifact: o.Artifact()}, o: o}
	nInv, nRows := len(o.Inventory), len(o.Extraction.Rows)
	allOf := f.size(nInv, nRows, shown)
	noInv := f.size(0, nRows, shown)
	noRows := f.size(0, 0, shown)
	noExt := f.size(0, 0, omitted)
	if !(noExt < noRows && noRows < noInv && noInv < allOf) {
		t.Fatalf("sizes out of order: %d %d %d %d", noExt, noRows, noInv, allOf)
	}
	for _, c := range []struct {
		name               string
		budget             int
		inv, rows          int
		extraction, omitEx bool
	}{
		{"everything fits", allOf, nInv, nRows, true, false},
		{"well over", full * 2, nInv, nRows, true, false},
		{"one byte short drops an entry", allOf - 1, nInv - 1, nRows, true, false},
		{"exactly every row and no entry", noInv, 0, nRows, true, false},
		{"one byte short of every row drops a row", noInv - 1, 0, nRows - 1, true, false},
		{"exactly no rows", noRows, 0, 0, true, false},
		{"one byte short of no rows omits the extraction", noRows - 1, -1, 0, false, true},
		{"exactly the omitted extraction", noExt, 0, 0, false, true},
	} {
		p, err := Project(o, c.budget)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		data := p.Canonical()
		if len(data) > c.budget || !json.Valid(data) {
			t.Errorf("%s: %d bytes for a budget of %d, valid JSON %v", c.name, len(data), c.budget, json.Valid(data))
		}
		inv, rows := shownCounts(p)
		if (c.inv >= 0 && inv != c.inv) || rows != c.rows || (p.Extraction != nil) != c.extraction || p.ExtractionOmitted != c.omitEx {
			t.Errorf("%s: %d entries, %d rows, extraction %v, omitted %v; want %d, %d, %v, %v",
				c.name, inv, rows, p.Extraction != nil, p.ExtractionOmitted, c.inv, c.rows, c.extraction, c.omitEx)
		}
		if p.Omitted.Inventory+inv != nInv || p.Omitted.Rows+rows != nRows {
			t.Errorf("%s: counts %+v do not add up", c.name, p.Omitted)
		}
		if p.Extraction != nil && p.Extraction.Coverage != o.Extraction.Coverage {
			t.Errorf("%s: coverage changed:\n%s", c.name, cmp.Diff(o.Extraction.Coverage, p.Extraction.Coverage))
		}
	}
}

func TestProjectWithoutExtraction(t *testing.T) {
	o, err := Observe(obsParse(t, bigPage(3)), fileRev, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Project(o, limits.ModelBytes)
	if err != nil {
		t.Fatal(err)
	}
	data := string(p.Canonical())
	if strings.Contains(data, `"extraction`) {
		t.Errorf("a projection of an observation without extraction mentions one: %s", data)
	}
	if !strings.HasSuffix(data, `,"omitted":{"inventory":`+strconv.Itoa(p.Omitted.Inventory)+`,"rows":0}}`) || p.Omitted.Inventory == 0 {
		t.Errorf("expected a trimmed inventory: %s", data[max(0, len(data)-80):])
	}
}

func TestProjectKeepsCanonicalBytes(t *testing.T) {
	o := observeBig(t, fileRev)
	p, err := Project(o, limits.ModelBytes)
	if err != nil {
		t.Fatal(err)
	}
	first := p.Canonical()
	first[0] = 'X' // the caller's copy
	if got := p.Canonical(); got[0] != '{' {
		t.Error("Canonical returned the projection's own bytes")
	}
	// encoding/json re-escapes <, > and & in a Marshaler's output unless
	// told not to; with HTML escaping off the bytes pass through unchanged.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil || buf.String() != string(p.Canonical())+"\n" {
		t.Errorf("MarshalJSON differs from Canonical (%v)", err)
	}
	keys := keyOrder(t, p.Canonical())
	want := []string{"schema_version", "trust", "revision", "artifact", "inventory"}
	if !cmp.Equal(want, keys[:len(want)]) {
		t.Errorf("leading keys %v, want %v", keys[:len(want)], want)
	}
}
