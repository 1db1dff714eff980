package view_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/domsnap/domsnap/internal/view"
	"github.com/domsnap/domsnap/limits"
)

// prologue is a page's fixed part: document, doctype, html, head (excluded,
// not entered) and body cost 5 nodes.
const prologue = "<!doctype html><html><head></head><body>"

const prologueNodes = 5

// TestViewScanBound runs the scan over pages of just under, exactly and
// just over ViewScanNodes nodes: only the last is exhausted, and none
// visits more than the limit.
func TestViewScanBound(t *testing.T) {
	for _, c := range []struct {
		nodes     int
		exhausted bool
	}{
		{limits.ViewScanNodes - 1, false},
		{limits.ViewScanNodes, false},
		{limits.ViewScanNodes + 1, true},
	} {
		page := prologue + strings.Repeat("<b></b>", c.nodes-prologueNodes)
		v := scanHTML(t, page)
		if v.Scan.Limit != limits.ViewScanNodes || v.Scan.Visited != min(c.nodes, limits.ViewScanNodes) || v.Scan.Exhausted != c.exhausted {
			t.Errorf("%d nodes: scan %+v, want visited %d, exhausted %v", c.nodes, v.Scan, min(c.nodes, limits.ViewScanNodes), c.exhausted)
		}
		if v.TextTruncated != c.exhausted {
			t.Errorf("%d nodes: text truncated %v: a scan that ran out leaves text unknown", c.nodes, v.TextTruncated)
		}
	}
}

func TestMaxControls(t *testing.T) {
	for _, n := range []int{limits.MaxControls - 1, limits.MaxControls, limits.MaxControls + 1} {
		var b strings.Builder
		for i := range n {
			b.WriteString(`<a href="/` + strconv.Itoa(i) + `">L` + strconv.Itoa(i) + `</a>`)
		}
		v := scanHTML(t, prologue+b.String())
		if len(v.Controls) != min(n, limits.MaxControls) || v.ControlsOmitted != n-min(n, limits.MaxControls) {
			t.Errorf("%d links: %d controls, %d omitted", n, len(v.Controls), v.ControlsOmitted)
		}
		if last := v.Controls[len(v.Controls)-1].Name.Text; last != "L"+strconv.Itoa(len(v.Controls)-1) {
			t.Errorf("%d links: the last listed is %q: not the first ones in tree order", n, last)
		}
	}
}

func TestMaxRegions(t *testing.T) {
	for _, n := range []int{limits.MaxRegions - 1, limits.MaxRegions, limits.MaxRegions + 1} {
		v := scanHTML(t, prologue+strings.Repeat("<h2>H</h2>", n)+`<section aria-label="late">x</section><section>unnamed</section>`)
		listed := min(n+1, limits.MaxRegions)
		if len(v.Regions) != listed || v.RegionsOmitted != n+1-listed {
			t.Errorf("%d headings and a named section: %d regions, %d omitted", n, len(v.Regions), v.RegionsOmitted)
		}
	}
}

func TestMaxOptions(t *testing.T) {
	for _, n := range []int{limits.MaxOptions - 1, limits.MaxOptions, limits.MaxOptions + 1} {
		var b strings.Builder
		b.WriteString(prologue + `<select aria-label=s>`)
		for i := range n {
			b.WriteString(`<option>o` + strconv.Itoa(i) + `</option>`)
		}
		b.WriteString(`</select>`)
		v := scanHTML(t, b.String())
		c := v.Controls[0]
		if !c.Select || len(c.Options) != min(n, limits.MaxOptions) || c.OptionsOmitted != n-min(n, limits.MaxOptions) {
			t.Errorf("%d options: %d listed, %d omitted", n, len(c.Options), c.OptionsOmitted)
		}
		if c.Options[0] != "o0" {
			t.Errorf("%d options: first %q", n, c.Options[0])
		}
	}
}

func units(s string) int { return len(utf16.Encode([]rune(s))) }

func TestProseUnits(t *testing.T) {
	pair := "\U0001F600"
	for _, c := range []struct {
		name      string
		text      string
		want      int
		truncated bool
	}{
		{"under", strings.Repeat("x", limits.ProseUnits-1), limits.ProseUnits - 1, false},
		{"at", strings.Repeat("x", limits.ProseUnits), limits.ProseUnits, false},
		{"over", strings.Repeat("x", limits.ProseUnits+1), limits.ProseUnits, true},
		{"a pair straddling the bound is dropped whole", strings.Repeat("x", limits.ProseUnits-1) + pair, limits.ProseUnits - 1, true},
		{"trailing whitespace is no text", strings.Repeat("x", limits.ProseUnits) + "   ", limits.ProseUnits, false},
	} {
		v := scanHTML(t, prologue+"<p>"+c.text+"</p>")
		if units(v.Text) != c.want || v.TextTruncated != c.truncated {
			t.Errorf("%s: %d units, truncated %v; want %d, %v", c.name, units(v.Text), v.TextTruncated, c.want, c.truncated)
		}
	}
}

// TestHostilePages answers pages built to make the view scan work hard,
// offline, and shows with the scan's own counters that the work stays
// within its bounds.
func TestHostilePages(t *testing.T) {
	mb := strings.Repeat("n", 1<<20)
	ids := func(n int) (string, string) {
		var els, refs strings.Builder
		for i := range n {
			id := "id" + strconv.Itoa(i)
			els.WriteString(`<span id="` + id + `">w</span>`)
			refs.WriteString(id + " ")
		}
		return els.String(), refs.String()
	}
	els, refs := ids(1000)
	for _, c := range []struct {
		name  string
		page  string
		check func(t *testing.T, v view.View)
	}{
		{"100,000 links", prologue + strings.Repeat(`<a href=x>go</a>`, 100_000), func(t *testing.T, v view.View) {
			// Each link is 2 nodes; the scan stops at its budget, right after
			// visiting the element of the last link it counts.
			if !v.Scan.Exhausted || len(v.Controls) != limits.MaxControls ||
				v.ControlsOmitted != (limits.ViewScanNodes-prologueNodes+1)/2-limits.MaxControls {
				t.Errorf("scan %+v, %d controls, %d omitted", v.Scan, len(v.Controls), v.ControlsOmitted)
			}
		}},
		{"10,000 headings", prologue + strings.Repeat(`<h3>t</h3>`, 10_000), func(t *testing.T, v view.View) {
			if !v.Scan.Exhausted || len(v.Regions) != limits.MaxRegions ||
				v.RegionsOmitted != (limits.ViewScanNodes-prologueNodes+1)/2-limits.MaxRegions {
				t.Errorf("scan %+v, %d regions, %d omitted", v.Scan, len(v.Regions), v.RegionsOmitted)
			}
		}},
		{"a select of 50,000 options", prologue + `<select aria-label=s>` + strings.Repeat(`<option>o</option>`, 50_000) + `</select>`, func(t *testing.T, v view.View) {
			c := v.Controls[0]
			// The options walk is a row scan: one node per option and
			// one per text node it does not enter.
			if len(c.Options) != limits.MaxOptions || c.OptionsOmitted != limits.RowScanNodes-limits.MaxOptions {
				t.Errorf("%d options, %d omitted", len(c.Options), c.OptionsOmitted)
			}
			if !v.Scan.Exhausted {
				t.Errorf("scan %+v", v.Scan)
			}
		}},
		{"an aria-labelledby of 1,000 IDs", prologue + els + `<a href=x aria-labelledby="` + refs + `">t</a>`, func(t *testing.T, v view.View) {
			n := v.Controls[0].Name
			if !n.Truncated || units(n.Text) > limits.CellUnits {
				t.Errorf("name %q truncated %v", n.Text, n.Truncated)
			}
		}},
		{"nested landmarks", prologue + strings.Repeat(`<nav aria-label=n>`, limits.MaxHTMLDepth-8) + "x", func(t *testing.T, v view.View) {
			if len(v.Regions) != limits.MaxRegions || v.RegionsOmitted != limits.MaxHTMLDepth-8-limits.MaxRegions {
				t.Errorf("%d regions, %d omitted", len(v.Regions), v.RegionsOmitted)
			}
		}},
		{"names of 1 MB", prologue + strings.Repeat(`<a href=x aria-label="`+mb+`">t</a><button>`+mb+`</button><h1>`+mb+`</h1>`, 4), func(t *testing.T, v view.View) {
			for _, c := range v.Controls {
				if !c.Name.Truncated || units(c.Name.Text) != limits.CellUnits {
					t.Errorf("%s name of %d units, truncated %v", c.Role, units(c.Name.Text), c.Name.Truncated)
				}
			}
			for _, r := range v.Regions {
				if units(r.Name) != limits.CellUnits {
					t.Errorf("region name of %d units", units(r.Name))
				}
			}
			if units(v.Text) != limits.ProseUnits || !v.TextTruncated {
				t.Errorf("text of %d units, truncated %v", units(v.Text), v.TextTruncated)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := scanHTML(t, c.page)
			if v.Scan.Visited > limits.ViewScanNodes || len(v.Controls) > limits.MaxControls || len(v.Regions) > limits.MaxRegions ||
				units(v.Text) > limits.ProseUnits {
				t.Fatalf("a bound was passed: scan %+v, %d controls, %d regions, %d units", v.Scan, len(v.Controls), len(v.Regions), units(v.Text))
			}
			c.check(t, v)
		})
	}
}
