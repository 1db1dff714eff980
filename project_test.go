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
	// More regions and controls than a page view lists, and more text than
	// it keeps.
	for i := 0; i < limits.MaxRegions+2; i++ {
		b.WriteString(`<h2>Heading ` + strconv.Itoa(i) + `</h2>`)
	}
	for i := 0; i < limits.MaxControls+2; i++ {
		b.WriteString(`<a href="/` + strconv.Itoa(i) + `">link ` + strconv.Itoa(i) + `</a>`)
	}
	b.WriteString(`<p>` + strings.Repeat("prose ", limits.ProseUnits/4) + `</p>`)
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
	o.ViewScan.Region = RegionRef(^uint64(0), limits.MaxRegions) // as long as a view scan gets
	p, err = Project(o, limits.MinModelBytes)
	if err != nil {
		t.Fatalf("MinModelBytes refused: %v", err)
	}
	smallest := smallestProjection(o)
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
		`","inventory":[],"view_scan":{"limit":8192,"visited":` + strconv.Itoa(o.ViewScan.Visited) + `,"exhausted":false,"region":"` + o.ViewScan.Region +
		`"},"controls":[],"controls_omitted":18,"regions":[],"regions_omitted":18` +
		`,"extraction_omitted":true,"omitted":{"text":1,"regions":64,"inventory":48,"controls":256,"rows":50}}`
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

// shown is what a projection shows of each part.
func shown(p *Projection) [nParts]int {
	var k [nParts]int
	if p.TextShown {
		k[partText] = 1
	}
	k[partRegions], k[partInventory], k[partControls] = len(p.Regions), len(p.Inventory), len(p.Controls)
	if p.Extraction != nil {
		k[partRows], k[partExtraction] = len(p.Extraction.Rows), 1
	}
	return k
}

func TestProjectPreferenceOrder(t *testing.T) {
	o := observeBig(t, liveRev(t, 7))
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision,
		Artifact: o.Artifact(), ViewScan: o.ViewScan, ControlsOmitted: o.ControlsOmitted, RegionsOmitted: o.RegionsOmitted}, o: o}
	full := fullParts(o)
	// Each step drops one more part whole, in the order of
	// docs/reference.md#the-page-view.
	steps := []int{partText, partRegions, partInventory, partControls, partRows}
	k := full
	prev := f.size(k)
	if p, err := Project(o, prev); err != nil || shown(p) != full {
		t.Fatalf("everything at %d bytes: %v %v", prev, err, p)
	}
	for _, d := range steps {
		if full[d] == 0 {
			t.Fatalf("part %d is empty on the big page", d)
		}
		// One byte short of what is kept so far cuts part d by one
		// record (the text whole).
		p, err := Project(o, prev-1)
		if err != nil {
			t.Fatal(err)
		}
		want := k
		want[d] = full[d] - 1
		if got := shown(p); got != want {
			t.Errorf("part %d: one byte short of %d shows %v, want %v", d, prev, got, want)
		}
		k[d] = 0
		prev = f.size(k)
		if p, err := Project(o, prev); err != nil || shown(p) != k {
			t.Errorf("part %d gone: at %d bytes shows %v, want %v (%v)", d, prev, shown(p), k, err)
		}
	}
	// Short of the row-less extraction, the extraction is omitted and the
	// controls come back first.
	p, err := Project(o, prev-1)
	if err != nil {
		t.Fatal(err)
	}
	got := shown(p)
	if !p.ExtractionOmitted || got[partExtraction] != 0 || got[partControls] == 0 || got[partText] != 0 && got[partRegions] != full[partRegions] {
		t.Errorf("one byte short of the bare extraction shows %v, omitted %v", got, p.ExtractionOmitted)
	}
	if p.Omitted.Rows != full[partRows] {
		t.Errorf("omitted rows %d, want %d", p.Omitted.Rows, full[partRows])
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
	if !strings.HasSuffix(data, `,"inventory":`+strconv.Itoa(p.Omitted.Inventory)+`,"controls":0,"rows":0}}`) || p.Omitted.Inventory == 0 {
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
