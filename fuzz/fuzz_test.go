package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// seedRequests are valid and nearly valid requests; the committed corpus
// adds the hostile ones.
var seedRequests = []string{
	`{"kind":"table","index":0,"fields":[{"name":"product","column":0,"type":"string","required":true},{"name":"price","column":2,"type":"number"}]}`,
	`{"kind":"list","index":0,"fields":[{"name":"item","column":0,"type":"string"}],"row_limit":1}`,
	`{"kind":"form","index":0,"fields":[{"name":"label","column":0,"type":"string"},{"name":"role","column":1,"type":"string"},{"name":"disabled","column":2,"type":"boolean"},{"name":"checked","column":3,"type":"boolean"},{"name":"required","column":4,"type":"boolean"}],"row_limit":50}`,
	`{"expected_revision":"r1.a.n1.o1","kind":"table","index":15,"fields":[{"name":"n","column":15,"type":"integer"}]}`,
	`{"kind":"table","index":-0,"fields":[]}`,
	`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}trailing`,
}

var seedPages = []string{
	`<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2.5e3</td></tr><tr><td colspan=2>x</td></tr></table>`,
	`<ul><li>one<li>two<ol><li>nested</ol></ul>`,
	`<form><label for=a>Name</label><input id=a value=CANARY required><input type=checkbox checked aria-label=ok></form>`,
	`<div role=grid><div role=row><span role=gridcell>x</span></div></div>`,
	`<style>td{visibility:hidden}</style><table><tr><td>hidden<b style="visibility:visible">shown</b></td></tr></table>`,
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range seedRequests {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := domsnap.DecodeRequest(data)
		// DecodeChecked skips Validate because its reader applied the
		// rules: it must agree with DecodeRequest on every input.
		q, qerr := domsnap.DecodeChecked(data)
		if (err == nil) != (qerr == nil) || err != nil && err.Error() != qerr.Error() {
			t.Fatalf("DecodeRequest: %v; DecodeChecked: %v", err, qerr)
		}
		if err == nil && !reflect.DeepEqual(q.Request(), r) {
			t.Fatalf("DecodeChecked holds %+v, DecodeRequest gave %+v", q.Request(), r)
		}
		if err != nil {
			var e *domsnap.Error
			if !errors.As(err, &e) || e.Code != errcode.InvalidRequest {
				t.Fatalf("%v is not invalid_request", err)
			}
			if len(e.Msg) > 4*limits.QuoteBytes+100 {
				t.Fatalf("message of %d bytes", len(e.Msg))
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("accepted a document encoding/json calls invalid: %q", data)
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("decoded request does not validate: %v", err)
		}
		again, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		r2, err := domsnap.DecodeRequest(again)
		if err != nil {
			t.Fatalf("re-encoded request refused: %v", err)
		}
		again2, _ := r2.MarshalJSON()
		if !bytes.Equal(again, again2) {
			t.Fatalf("round trip differs:\n%s\n%s", again, again2)
		}
	})
}

func FuzzExtract(f *testing.F) {
	for i, p := range seedPages {
		f.Add([]byte(p), []byte(seedRequests[i%3]))
	}
	f.Fuzz(func(t *testing.T, page, request []byte) {
		req, err := domsnap.DecodeRequest(request)
		if err != nil {
			return
		}
		tree, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
		if err != nil {
			if !errors.Is(err, domsnap.ErrUnsupportedInput) {
				t.Fatalf("ParseHTML: %v", err)
			}
			return
		}
		const rev = "r1.file.0123456789abcdef"
		res, err := domsnap.Extract(tree, rev, req)
		if err != nil {
			if req.ExpectedRevision != "" && req.ExpectedRevision != rev && errors.Is(err, domsnap.ErrForeignRevision) {
				return
			}
			t.Fatalf("Extract: %v", err)
		}
		out := res.Canonical()
		if !json.Valid(out) {
			t.Fatalf("invalid JSON: %s", out)
		}
		if len(out) > limits.ExtractionBytes {
			t.Fatalf("%d bytes over the cap", len(out))
		}
		res2, err := domsnap.Extract(tree, rev, req)
		if err != nil || !bytes.Equal(out, res2.Canonical()) {
			t.Fatalf("not deterministic: %v", err)
		}
		if len(res.Rows) > req.RowLimit {
			t.Fatalf("%d rows over the limit %d", len(res.Rows), req.RowLimit)
		}
	})
}

// viewPages are seeds for the page view: every kind of control and region,
// values planted where none may be read, and structures that stress the
// scan.
var viewPages = []string{
	`<header><nav aria-label=Main><a href=/>Home <img alt=logo></a></nav></header><main><h1>T</h1><section aria-label=S><h4 aria-level=9>x</h4></section></main><footer>f</footer>`,
	`<form aria-label=Login><label>User <input autocomplete=username value=CANARY></label><input type=password value=CANARY><select><option>a<option selected>CANARY-CHOSEN</select><textarea>CANARY</textarea></form>`,
	`<div contenteditable>CANARY<a href=x>in</a></div><div role=tab aria-selected=TRUE aria-expanded=false>t</div><div role=menuitemcheckbox aria-checked=mixed>m</div>`,
	`<table><tr><td><a href=1>Details</a></td></tr><tr><td><button disabled>Buy</button></td></tr></table>`,
}

// FuzzObserveView observes any page the HTML parser accepts: the page view
// keeps its bounds, is identical when repeated, writes valid JSON, and every
// action and region reference it publishes resolves; no canary value
// reaches a name or the text of a seed.
func FuzzObserveView(f *testing.F) {
	for _, p := range append(append([]string{}, seedPages...), viewPages...) {
		f.Add([]byte(p))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		tree, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
		if err != nil {
			return
		}
		rev := snapshot.FileRevision(page)
		o, err := domsnap.Observe(tree, rev, nil)
		if err != nil {
			t.Fatal(err)
		}
		again, err := domsnap.Observe(tree, rev, nil)
		if err != nil || !bytes.Equal(o.Canonical(), again.Canonical()) {
			t.Fatal("two observations of one tree differ")
		}
		if !json.Valid(o.Canonical()) {
			t.Fatal("not JSON")
		}
		if o.ViewScan.Visited > limits.ViewScanNodes || len(o.Controls) > limits.MaxControls || len(o.Regions) > limits.MaxRegions {
			t.Fatalf("a bound was passed: %+v, %d controls, %d regions", o.ViewScan, len(o.Controls), len(o.Regions))
		}
		for _, c := range o.Controls {
			if _, err := o.ActionTarget(c.Ref); err != nil {
				t.Fatalf("published %s does not resolve: %v", c.Ref, err)
			}
			if len(c.Options) > limits.MaxOptions {
				t.Fatalf("%d options", len(c.Options))
			}
		}
		for _, r := range o.Regions {
			x, err := domsnap.ObserveExpanded(tree, rev, nil, domsnap.Expansion{From: o, Region: r.Ref})
			if err != nil {
				t.Fatalf("published %s does not expand: %v", r.Ref, err)
			}
			if x.ViewScan.Region != r.Ref || x.ViewScan.Visited > limits.ViewScanNodes {
				t.Fatalf("expansion scan %+v", x.ViewScan)
			}
		}
		if !seeded[string(page)] {
			return
		}
		// In the seeds every CANARY is a value: it may reach no name, no
		// option list but a select's, and not the text.
		names := o.Text
		for _, c := range o.Controls {
			names += c.Name
		}
		for _, r := range o.Regions {
			names += r.Name
		}
		if strings.Contains(names, "CANARY") {
			t.Fatalf("a planted value reached a name or the text")
		}
	})
}

// seeded holds the page view seeds whose every CANARY is a value.
var seeded = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range viewPages {
		m[p] = true
	}
	return m
}()
