package view_test

import (
	"html"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/internal/view"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// canary marks what a person typed or a page pre-filled; it may appear in
// no name, no text and no option list.
const canary = "CANARY"

// genPage draws a page of controls, regions, text, collections and
// editable controls holding the canary.
func genPage(t *rapid.T) string {
	word := func(label string) string {
		return html.EscapeString(rapid.SampledFrom([]string{"", "a", "Go", " x y ", "é\u00a0", "\U0001F600", `"q"`}).Draw(t, label))
	}
	var b strings.Builder
	b.WriteString("<!doctype html><body>")
	for i := rapid.IntRange(0, 40).Draw(t, "parts"); i > 0; i-- {
		switch rapid.IntRange(0, 14).Draw(t, "part") {
		case 0:
			b.WriteString(`<a href=x>` + word("link") + `</a>`)
		case 1:
			b.WriteString(`<h2>` + word("heading") + `</h2>`)
		case 2:
			b.WriteString(`<nav aria-label="` + word("nav") + `">`) // left open: the parser closes it
		case 3:
			b.WriteString(`<label>` + word("label") + ` <input value="` + canary + `1"></label>`)
		case 4:
			b.WriteString(`<textarea aria-label=t>` + canary + `2</textarea>`)
		case 5:
			b.WriteString(`<div contenteditable>` + canary + `3<a href=y>in</a></div>`)
		case 6:
			b.WriteString(`<select aria-label=s><option>` + word("opt") + `</option><option selected>` + word("opt") + `</option></select>`)
		case 7:
			b.WriteString(`<table><tr><td>` + word("cell") + `<button>` + word("b") + `</button></td></tr></table>`)
		case 8:
			b.WriteString(`<ul><li>` + word("item") + `<a href=z>` + word("l") + `</a></li></ul>`)
		case 9:
			b.WriteString(`<p>` + word("p") + `</p>`)
		case 10:
			b.WriteString(`<div hidden><a href=h>` + word("h") + `</a></div>`)
		case 11:
			b.WriteString(`<div style="visibility:hidden"><a href=v>v</a><span style="visibility:visible">` + word("s") + `</span></div>`)
		case 12:
			b.WriteString(`<div role=checkbox aria-checked=mixed>` + word("c") + `</div>`)
		case 13:
			b.WriteString(`<form aria-label="` + word("form") + `"><input type=checkbox checked aria-label=c>`)
		default:
			b.WriteString(`<br>`)
		}
	}
	return b.String()
}

// flat is a view without its node cursors, to compare two scans.
type flat struct {
	Controls []ctl
	Regions  []reg
	Text     string
}

func flatten(v view.View) flat { return flat{controls(v), regions(v), v.Text} }

func TestViewProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		page := genPage(rt)
		tree := parse(t, page)
		rows := view.RowsOf(collect.Inventory(tree))
		full := view.ScanLimit(tree, rows, tree.Len()+1)
		// Excluded subtrees are not entered, so the whole walk may visit
		// fewer nodes than the tree has.
		nodes := full.Scan.Visited
		if full.Scan.Exhausted || nodes > tree.Len() {
			rt.Fatalf("an unbounded scan visited %d of %d nodes", nodes, tree.Len())
		}
		limit := rapid.IntRange(1, nodes+1).Draw(rt, "limit")
		v := view.ScanLimit(tree, rows, limit)
		again := view.ScanLimit(tree, rows, limit)
		if diff := cmp.Diff(flatten(v), flatten(again)); diff != "" {
			rt.Fatalf("two scans differ:\n%s", diff)
		}
		if v.Scan.Visited != min(limit, nodes) || v.Scan.Exhausted != (limit < nodes) {
			rt.Fatalf("limit %d over %d nodes: scan %+v", limit, nodes, v.Scan)
		}
		// What a bounded scan lists is what the whole scan lists first.
		fv, ff := flatten(v), flatten(full)
		if len(fv.Controls) > len(ff.Controls) || len(fv.Regions) > len(ff.Regions) ||
			!cmp.Equal(fv.Controls, ff.Controls[:len(fv.Controls)], cmpopts.EquateEmpty()) ||
			!cmp.Equal(fv.Regions, ff.Regions[:len(fv.Regions)], cmpopts.EquateEmpty()) ||
			!strings.HasPrefix(ff.Text, fv.Text) {
			rt.Fatalf("the scan cut at %d is no prefix of the whole:\n%s", limit, cmp.Diff(ff, fv))
		}
		if !v.Scan.Exhausted && !cmp.Equal(fv, ff, cmpopts.EquateEmpty()) {
			rt.Fatalf("a scan that was not exhausted differs from the whole")
		}
		if strings.Contains(v.Text, canary) {
			rt.Fatalf("the text carries a value: %q", v.Text)
		}
		for _, c := range v.Controls {
			if strings.Contains(c.Name.Text, canary) || strings.Contains(strings.Join(c.Options, "|"), canary) {
				rt.Fatalf("control %s carries a value: %+v", c.Role, c)
			}
		}
		for _, r := range v.Regions {
			if strings.Contains(r.Name, canary) {
				rt.Fatalf("region %s carries a value", r.Role)
			}
		}
	})
}
