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
	for i := rapid.IntRange(0, 12).Draw(t, "views"); i > 0; i-- {
		switch rapid.IntRange(0, 3).Draw(t, "view") {
		case 0:
			b.WriteString(`<a href="x">` + html.EscapeString(genText(t, "link")) + `</a>`)
		case 1:
			b.WriteString(`<h2>` + html.EscapeString(genText(t, "heading")) + `</h2>`)
		case 2:
			b.WriteString(`<nav aria-label="` + html.EscapeString(genText(t, "nav")) + `"><button>b</button></nav>`)
		default:
			b.WriteString(`<p>` + html.EscapeString(genText(t, "prose")) + `</p>`)
		}
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

// fullParts is how many of each part o holds, in a projection's terms.
func fullParts(o *Observation) [nParts]int {
	var full [nParts]int
	full[partText] = 1
	full[partRegions] = len(o.Regions)
	full[partInventory] = len(o.Inventory)
	full[partControls] = len(o.Controls)
	if o.Extraction != nil {
		full[partRows] = len(o.Extraction.Rows)
		full[partExtraction] = 1
	}
	return full
}

// checkProjection asserts every promise of docs/reference.md#the-observation
// and #the-page-view about p, a projection of o at budget.
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
		ViewScan          json.RawMessage `json:"view_scan"`
		Controls          []json.RawMessage
		Regions           []json.RawMessage
		Text              *string
		Extraction        *json.RawMessage
		ExtractionOmitted *bool `json:"extraction_omitted"`
		Omitted           struct{ Text, Regions, Inventory, Controls, Rows int }
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Revision != o.Revision || got.Artifact != o.Artifact() {
		t.Fatalf("revision %q artifact %q, want %q %q", got.Revision, got.Artifact, o.Revision, o.Artifact())
	}
	if want := o.ViewScan.appendJSON(nil, true); !bytes.Equal(got.ViewScan, want) {
		t.Fatalf("view scan %s, want %s", got.ViewScan, want)
	}

	// No record clipped: the shown records are the observation's first ones,
	// byte for byte.
	for i, raw := range got.Inventory {
		if want := o.Inventory[i].appendJSON(nil); !bytes.Equal(raw, want) {
			t.Fatalf("entry %d is %s, want %s", i, raw, want)
		}
	}
	for i, raw := range got.Controls {
		if want := o.Controls[i].appendJSON(nil, true); !bytes.Equal(raw, want) {
			t.Fatalf("control %d is %s, want %s", i, raw, want)
		}
	}
	for i, raw := range got.Regions {
		if want := o.Regions[i].appendJSON(nil, true); !bytes.Equal(raw, want) {
			t.Fatalf("region %d is %s, want %s", i, raw, want)
		}
	}
	var k [nParts]int
	if got.Text != nil {
		if *got.Text != o.Text {
			t.Fatal("the text was changed")
		}
		k[partText] = 1
	}
	k[partInventory], k[partControls], k[partRegions] = len(got.Inventory), len(got.Controls), len(got.Regions)
	switch {
	case o.Extraction == nil:
		if got.Extraction != nil || got.ExtractionOmitted != nil {
			t.Fatal("an extraction appeared from nowhere")
		}
	case got.Extraction != nil:
		if got.ExtractionOmitted != nil {
			t.Fatal("extraction both shown and omitted")
		}
		k[partExtraction] = 1
		k[partRows] = len(p.Extraction.Rows)
		// The shown extraction is the observation's with its leading rows:
		// same collection, coverage and digest, and whole rows.
		want := o.Extraction.appendJSON(nil, k[partRows], o.Extraction.Digest, true)
		if !bytes.Equal(*got.Extraction, want) {
			t.Fatalf("shown extraction is not the observation's first %d rows:\n%s\n%s", k[partRows], *got.Extraction, want)
		}
	default:
		if got.ExtractionOmitted == nil || !*got.ExtractionOmitted {
			t.Fatal("extraction neither shown nor omitted")
		}
	}
	full := fullParts(o)
	omitted := [nParts]int{partText: got.Omitted.Text, partRegions: got.Omitted.Regions,
		partInventory: got.Omitted.Inventory, partControls: got.Omitted.Controls, partRows: got.Omitted.Rows}
	for d := partText; d < partExtraction; d++ {
		if k[d]+omitted[d] != full[d] {
			t.Fatalf("part %d: shown %d and omitted %d do not add up to %d", d, k[d], omitted[d], full[d])
		}
	}

	// Preference and maximality.
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision,
		Artifact: o.Artifact(), ViewScan: o.ViewScan, ControlsOmitted: o.ControlsOmitted, RegionsOmitted: o.RegionsOmitted}, o: o}
	order := []int{partText, partRegions, partInventory, partControls, partRows}
	if o.Extraction != nil && k[partExtraction] == 0 {
		// Omitted only when no row-less extraction fits; then refilled
		// from the part kept longest.
		least := [nParts]int{partExtraction: 1}
		if f.size(least) <= budget {
			t.Fatal("the extraction was omitted but fits without rows or anything else")
		}
		order = []int{partText, partRegions, partInventory, partControls}
	}
	// A part is cut only when every part dropped before it is gone, and
	// one more of the last part cut would not have fitted.
	last := -1
	for i, d := range order {
		if k[d] == full[d] {
			continue
		}
		for _, e := range order[:i] {
			if k[e] != 0 {
				t.Fatalf("part %d kept %d while part %d was cut", e, k[e], d)
			}
		}
		last = d
	}
	if last >= 0 {
		more := k
		more[last]++
		if f.size(more) <= budget {
			t.Fatalf("part %d: %d shown but %d fit", last, k[last], k[last]+1)
		}
	}
}

// smallestProjection is the size of the least projection of o there is.
func smallestProjection(o *Observation) int {
	f := &fitter{p: &Projection{SchemaVersion: o.SchemaVersion, Trust: o.Trust, Revision: o.Revision,
		Artifact: o.Artifact(), ViewScan: o.ViewScan, ControlsOmitted: o.ControlsOmitted, RegionsOmitted: o.RegionsOmitted}, o: o}
	return f.size([nParts]int{})
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
