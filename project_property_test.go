package domsnap

import (
	"bytes"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
	"pgregory.net/rapid"
)

// genText draws page text rich in what JSON escapes: quotes, backslashes,
// control characters, U+2028, HTML specials, and characters beyond the BMP.
func genText(t *rapid.T, label string) string {
	alphabet := []rune{'a', 'b', 'Z', '7', ' ', '"', '\\', '<', '>', '&', '\x01', '\x1f', '\u2028', 'é', '\u00a0', '\U0001F600'}
	runes := rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 40).Draw(t, label)
	return string(runes)
}

// genObservation draws a page of tables, lists and forms and observes it,
// with a request for one of its tables or none.
func genObservation(t *rapid.T) *Observation {
	var b strings.Builder
	b.WriteString("<!doctype html><body>")
	nTables := rapid.IntRange(0, limits.MaxInventoryPerKind+2).Draw(t, "tables")
	for i := 0; i < nTables; i++ {
		b.WriteString(`<table aria-label="` + html.EscapeString(genText(t, "tname")) + `">`)
		rows := rapid.IntRange(0, 8).Draw(t, "rows")
		if i == 0 {
			rows = rapid.IntRange(0, limits.MaxRowLimit+5).Draw(t, "firstRows")
		}
		for r := 0; r < rows; r++ {
			b.WriteString("<tr><td>" + html.EscapeString(genText(t, "cell")) + "</td><td>" +
				strconv.Itoa(rapid.IntRange(-1000, 1000).Draw(t, "num")) + "</td></tr>")
		}
		b.WriteString("</table>")
	}
	for i := rapid.IntRange(0, 6).Draw(t, "lists"); i > 0; i-- {
		b.WriteString(`<ul aria-label="` + html.EscapeString(genText(t, "lname")) + `"><li>` +
			html.EscapeString(genText(t, "item")) + `</li></ul>`)
	}
	for i := rapid.IntRange(0, 4).Draw(t, "forms"); i > 0; i-- {
		b.WriteString(`<form><input aria-label="` + html.EscapeString(genText(t, "label")) + `"></form>`)
	}
	tree, _, err := snapshot.ParseHTML([]byte(b.String()), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rev := fileRev
	if rapid.Bool().Draw(t, "live") {
		seq := rapid.Uint64().Draw(t, "seq")
		rev, err = LiveRevision(strings.Repeat("q", rapid.IntRange(1, MaxSessionChars).Draw(t, "session")), seq, seq)
		if err != nil {
			t.Fatal(err)
		}
	}
	var req *Request
	if rapid.Bool().Draw(t, "withRequest") {
		req = &Request{Kind: aria.Table, Index: rapid.IntRange(0, 2).Draw(t, "index"),
			RowLimit: rapid.IntRange(1, limits.MaxRowLimit).Draw(t, "rowLimit"),
			Fields: []Field{
				{Name: "text", Column: 0, Type: typed.String, Required: true},
				{Name: "num", Column: 1, Type: typed.Integer},
			}}
	}
	o, err := Observe(tree, rev, req)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// fataler is what checkProjection needs of a test: *testing.T and
// *rapid.T both are one.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// checkProjection asserts every promise of docs/reference.md#the-observation about p, a
// projection of o at budget.
func checkProjection(t fataler, o *Observation, p *Projection, budget int) {
	data := p.Canonical()
	if len(data) > budget {
		t.Fatalf("%d bytes over a budget of %d", len(data), budget)
	}
	if !json.Valid(data) {
		t.Fatalf("not JSON: %s", data)
	}
	var got struct {
		Revision          string
		Artifact          string
		Inventory         []json.RawMessage
		Extraction        *json.RawMessage
		ExtractionOmitted *bool `json:"extraction_omitted"`
		Omitted           struct{ Inventory, Rows int }
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Revision != o.Revision || got.Artifact != o.Artifact() {
		t.Fatalf("revision %q artifact %q, want %q %q", got.Revision, got.Artifact, o.Revision, o.Artifact())
	}

	// No record clipped: the shown entries are the observation's first ones,
	// byte for byte.
	for i, raw := range got.Inventory {
		if want := o.Inventory[i].appendJSON(nil); !bytes.Equal(raw, want) {
			t.Fatalf("entry %d is %s, want %s", i, raw, want)
		}
	}
	inv, rows := len(got.Inventory), 0
	switch {
	case o.Extraction == nil:
		if got.Extraction != nil || got.ExtractionOmitted != nil {
			t.Fatal("an extraction appeared from nowhere")
		}
	case got.Extraction != nil:
		if got.ExtractionOmitted != nil {
			t.Fatal("extraction both shown and omitted")
		}
		rows = len(p.Extraction.Rows)
		// The shown extraction is the observation's with its leading rows:
		// same collection, coverage and digest, and whole rows.
		want := o.Extraction.appendJSON(nil, rows, o.Extraction.Digest, true)
		if !bytes.Equal(*got.Extraction, want) {
			t.Fatalf("shown extraction is not the observation's first %d rows:\n%s\n%s", rows, *got.Extraction, want)
		}
	default:
		if got.ExtractionOmitted == nil || !*got.ExtractionOmitted {
			t.Fatal("extraction neither shown nor omitted")
		}
	}
	nRows := 0
	if o.Extraction != nil {
		nRows = len(o.Extraction.Rows)
	}
	if inv+got.Omitted.Inventory != len(o.Inventory) || rows+got.Omitted.Rows != nRows {
		t.Fatalf("shown %d+%d and omitted %+v do not add up to %d+%d", inv, rows, got.Omitted, len(o.Inventory), nRows)
	}

	// Preference and maximality: rows are dropped only once the inventory is
	// empty, the extraction is omitted only when no row-less extraction fits,
	// and whatever was dropped next in line would not have fitted.
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision, Artifact: o.Artifact()}, o: o}
	switch {
	case got.Extraction != nil && rows < nRows:
		if inv != 0 {
			t.Fatalf("%d inventory entries kept while %d rows were dropped", inv, nRows-rows)
		}
		if f.size(0, rows+1, shown) <= budget {
			t.Fatalf("row %d was dropped but fits", rows)
		}
	case got.Extraction != nil || o.Extraction == nil:
		if inv < len(o.Inventory) && f.size(inv+1, rows, modeOf(o)) <= budget {
			t.Fatalf("entry %d was dropped but fits", inv)
		}
	default:
		if f.size(0, 0, shown) <= budget {
			t.Fatal("the extraction was omitted but fits without rows")
		}
		if inv < len(o.Inventory) && f.size(inv+1, 0, omitted) <= budget {
			t.Fatalf("entry %d was dropped but fits beside the omitted extraction", inv)
		}
	}
}

func modeOf(o *Observation) extractionMode {
	if o.Extraction == nil {
		return absent
	}
	return shown
}

// smallestProjection is the size of the least projection of o there is.
func smallestProjection(o *Observation) int {
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision, Artifact: o.Artifact()}, o: o}
	mode := omitted
	if o.Extraction == nil {
		mode = absent
	}
	return f.size(0, 0, mode)
}

func TestProjectProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genObservation(t)
		lo := smallestProjection(o)
		if lo > limits.MinModelBytes {
			t.Fatalf("the smallest projection is %d bytes, over MinModelBytes", lo)
		}
		full := len(o.Canonical())
		budget := rapid.IntRange(lo-2, full+200).Draw(t, "budget")
		p, err := Project(o, budget)
		if budget < lo {
			if errcode.CodeOf(err) != errcode.InvalidRequest {
				t.Fatalf("budget %d under the smallest %d: %v, want invalid_request", budget, lo, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("budget %d (smallest %d): %v", budget, lo, err)
		}
		checkProjection(t, o, p, budget)
		again, err := Project(o, budget)
		if err != nil || !bytes.Equal(again.Canonical(), p.Canonical()) {
			t.Fatal("projecting twice gave different bytes")
		}
	})
}

// FuzzProject backs the property with arbitrary pages: any page the HTML
// parser accepts, observed with a table request, projected at any budget
// from one under the smallest projection up, keeps every promise.
func FuzzProject(f *testing.F) {
	f.Add([]byte(obsPage), 0)
	f.Add([]byte(bigPage(limits.MaxRowLimit+3)), 1500)
	f.Add([]byte(`<table aria-label="\u2028&quot;"><tr><td>1</td></tr></table>`), 80)
	f.Fuzz(func(t *testing.T, page []byte, extra int) {
		tree, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
		if err != nil {
			return // refused input is the parser's business
		}
		req := &Request{Kind: aria.Table, RowLimit: limits.MaxRowLimit, Fields: []Field{
			{Name: "a", Column: 0, Type: typed.String}, {Name: "b", Column: 1, Type: typed.Number}}}
		o, err := Observe(tree, fileRev, req)
		if err != nil {
			t.Fatal(err)
		}
		lo := smallestProjection(o)
		if lo > limits.MinModelBytes {
			t.Fatalf("the smallest projection is %d bytes", lo)
		}
		budget := lo - 1 + int(uint(extra)%uint(len(o.Canonical())+200))
		p, err := Project(o, budget)
		if budget < lo {
			if errcode.CodeOf(err) != errcode.InvalidRequest {
				t.Fatalf("budget %d under the smallest %d: %v", budget, lo, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkProjection(t, o, p, budget)
	})
}
