package domsnap

import (
	"os"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

const viewPage = `<!doctype html><body>
<header><nav aria-label="Main"><a href="/">Home</a><a href="/shop">Shop</a></nav></header>
<main>
<h1>Orders</h1>
<table><tr><th>Order</th><th></th></tr>
 <tr><td>A-1</td><td><a href="/o/1">Details</a></td></tr>
 <tr><td>B-2</td><td><a href="/o/2">Details</a></td></tr></table>
<section aria-label="Filters"><h2>Filter</h2>
 <form aria-label="Filter form">
  <label>Status <select name=s><option>open</option><option selected>CANARY-CHOSEN</option></select></label>
  <label>Note <input name=n value="CANARY-TYPED"></label>
  <label>Secret <input type=password value="CANARY-PW"></label>
  <input autocomplete="one-time-code" aria-label="Code">
  <label><input type=checkbox checked> Urgent</label>
  <textarea aria-label="Comment">CANARY-TEXTAREA</textarea>
  <div contenteditable aria-label="Rich">CANARY-EDITABLE</div>
  <button disabled>Apply</button>
 </form>
</section>
</main>
<footer>Footer text</footer>`

func observeView(t *testing.T, rev string) *Observation {
	t.Helper()
	o, err := Observe(obsParse(t, viewPage), rev, nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestPageView(t *testing.T) {
	o := observeView(t, liveRev(t, 7))
	type c struct{ Ref, Role, Name, In string }
	var got []c
	for _, x := range o.Controls {
		in := ""
		if x.In != nil {
			in = x.In.Kind.String()
		}
		got = append(got, c{x.Ref, x.Role, x.Name, in})
	}
	want := []c{
		{"a7.1", "link", "Home", ""}, {"a7.2", "link", "Shop", ""},
		{"a7.3", "link", "Details", "table"}, {"a7.4", "link", "Details", "table"},
		{"a7.5", "combobox", "Status", "form"}, {"a7.6", "textbox", "Note", "form"}, {"a7.7", "textbox", "Secret", "form"},
		{"a7.8", "textbox", "Code", "form"}, {"a7.9", "checkbox", "Urgent", "form"}, {"a7.10", "textbox", "Comment", "form"},
		{"a7.11", "button", "Apply", "form"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("controls (-want +got):\n%s", diff)
	}
	if in := o.Controls[3].In; *in != (ControlIn{Kind: aria.Table, Index: 0, Position: 2}) {
		t.Errorf("the second Details link is in %+v, want table 0 position 2", *in)
	}
	var regions []string
	for _, r := range o.Regions {
		regions = append(regions, r.Ref+" "+r.Role+" "+r.Name)
	}
	wantRegions := []string{"g7.1 banner ", "g7.2 navigation Main", "g7.3 main ", "g7.4 heading Orders", "g7.5 region Filters",
		"g7.6 heading Filter", "g7.7 form Filter form", "g7.8 contentinfo "}
	if diff := cmp.Diff(wantRegions, regions); diff != "" {
		t.Errorf("regions (-want +got):\n%s", diff)
	}
	// The select lists its choices, never which one is chosen: moving
	// "selected" changes nothing.
	other, err := Observe(obsParse(t, strings.Replace(viewPage, "<option>open</option><option selected>", "<option selected>open</option><option>", 1)), liveRev(t, 7), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(other.Canonical()) != string(o.Canonical()) {
		t.Error("the observation says which option is selected")
	}
	// Every planted value stays out: the chosen option's text appears only
	// among the select's options, as every option's does.
	for i := range o.Controls {
		o.Controls[i].Options = nil
	}
	if strings.Contains(string(o.Canonical()), "CANARY") {
		t.Errorf("a value reached the observation: %s", o.Canonical())
	}
}

// A sortable header is a control whose record says how the table is
// sorted by it, after selected and before required in key order, and whose
// target a click fits.
func TestSortableHeaderRecord(t *testing.T) {
	o, err := Observe(obsParse(t, `<table><tr><th aria-sort=ascending aria-required=true>Price</th><th aria-sort=none>Name</th><th>Notes</th></tr>`+
		`<tr><td>1</td><td>a</td><td>-</td></tr></table>`), liveRev(t, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := string(appendControls(nil, o.Controls, true))
	want := `[{"ref":"a3.1","role":"columnheader","name":"Price","sort":"ascending","required":true,"in":{"kind":"table","index":0,"position":0}},` +
		`{"ref":"a3.2","role":"columnheader","name":"Name","sort":"none","in":{"kind":"table","index":0,"position":0}}]`
	if got != want {
		t.Errorf("controls\n got %s\nwant %s", got, want)
	}
	if tg, err := o.ActionTarget("a3.1"); err != nil || tg.Role != "columnheader" {
		t.Errorf("header target %+v %v", tg, err)
	}
}

// A table declaring more rows or columns than its document holds is not
// complete, in the inventory and in the extraction's coverage alike, and the
// counts follow rows_complete; a count no larger than what was seen is not
// written.
func TestDeclaredCountsWritten(t *testing.T) {
	page := `<div role=grid aria-label=P aria-rowcount=1001 aria-colcount=5><div role=row><div role=gridcell>a</div></div>` +
		`<div role=row><div role=gridcell>b</div></div></div><table aria-rowcount=1 aria-colcount=-1><tr><td>x</td></tr></table>`
	req := Request{Kind: aria.Table, Fields: []Field{{Name: "a", Column: 0, Type: String}}}
	o, err := Observe(obsParse(t, page), liveRev(t, 3), &req)
	if err != nil {
		t.Fatal(err)
	}
	got := string(appendInventory(nil, o.Inventory))
	want := `[{"kind":"table","index":0,"source":"aria","name":"P","rows":2,"rows_complete":false,"rows_declared":1001,"columns_declared":5},` +
		`{"kind":"table","index":1,"source":"native","rows":1,"rows_complete":false,"columns_declared":-1}]`
	if got != want {
		t.Errorf("inventory\n got %s\nwant %s", got, want)
	}
	cov := string(o.Extraction.Coverage.appendJSON(nil))
	if !strings.Contains(cov, `"rows_complete":false,"rows_declared":1001,"columns_declared":5,"truncated_cells":0}`) {
		t.Errorf("coverage %s", cov)
	}
}

func TestActionTarget(t *testing.T) {
	o := observeView(t, liveRev(t, 7))
	sel, err := o.ActionTarget("a7.5")
	if err != nil {
		t.Fatal(err)
	}
	if sel.Role != "combobox" || !cmp.Equal(sel.Options, []string{"open", "CANARY-CHOSEN"}) || sel.HumanOnly || sel.BackendNodeID != 0 {
		t.Errorf("select target %+v", sel)
	}
	sel.Options[0] = "changed"
	if again, _ := o.ActionTarget("a7.5"); again.Options[0] != "open" {
		t.Error("ActionTarget handed out the observation's own options")
	}
	for ref, human := range map[string]bool{"a7.6": false, "a7.7": true, "a7.8": true} {
		if tg, err := o.ActionTarget(ref); err != nil || tg.HumanOnly != human || tg.Options != nil {
			t.Errorf("%s: %+v %v, want human only %v", ref, tg, err, human)
		}
	}
	if tg, _ := o.ActionTarget("a7.9"); tg.Checked != "true" || tg.Role != "checkbox" {
		t.Errorf("checkbox target %+v", tg)
	}
	if tg, _ := o.ActionTarget("a7.11"); !tg.Disabled {
		t.Errorf("disabled button target %+v", tg)
	}
	for _, c := range []struct {
		ref  string
		code errcode.Code
	}{
		{"e7.1", errcode.InvalidReference},
		{"g7.1", errcode.InvalidReference},
		{"a7", errcode.InvalidReference},
		{"a7.0", errcode.InvalidReference},
		{"a07.1", errcode.InvalidReference},
		{"a7.01", errcode.InvalidReference},
		{"A7.1", errcode.InvalidReference},
		{"a7.2147483648", errcode.InvalidReference},
		{"", errcode.InvalidReference},
		{"a7.257", errcode.UnknownReference},
		{"a7.2147483647", errcode.UnknownReference},
		{"a7.12", errcode.UnknownReference},
		{"a6.1", errcode.UnknownReference},
		{"a0.1", errcode.UnknownReference},
	} {
		if _, err := o.ActionTarget(c.ref); errcode.CodeOf(err) != c.code {
			t.Errorf("%q: %v, want %s", c.ref, err, c.code)
		}
	}
}

// A capture records the browser's node ids, and the action target carries
// the control's.
func TestActionTargetBackendID(t *testing.T) {
	data, err := os.ReadFile("testdata/captures/live-filled-form.json")
	if err != nil {
		t.Fatal(err)
	}
	in, err := snapshot.Load(data, snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Observe(in.Tree, in.Revision, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Controls) == 0 {
		t.Fatal("no controls in the filled form")
	}
	for _, c := range o.Controls {
		tg, err := o.ActionTarget(c.Ref)
		if err != nil || tg.BackendNodeID == 0 || tg.Role != c.Role {
			t.Errorf("%s: %+v %v", c.Ref, tg, err)
		}
	}
}

func TestRefParsers(t *testing.T) {
	for _, c := range []struct {
		s              string
		action, region bool
		evidence       bool
		seq            uint64
		n              int
	}{
		{"a0.1", true, false, false, 0, 1},
		{"g12.64", false, true, false, 12, 64},
		{"a18446744073709551615.256", true, false, false, ^uint64(0), 256},
		{"g1.65", false, true, false, 1, 65},
		{"a5.2147483647", true, false, false, 5, 2147483647},
		{"g5.2147483648", false, false, false, 0, 0},
		{"a5.99999999999999999999", false, false, false, 0, 0},
		{"e3.2", false, false, true, 3, 2},
		{"a1.", false, false, false, 0, 0},
		{"a.1", false, false, false, 0, 0},
		{"a1.1 ", false, false, false, 0, 0},
		{"a18446744073709551616.1", false, false, false, 0, 0},
	} {
		seq, n, ok := ParseActionRef(c.s)
		if ok != c.action || ok && (seq != c.seq || n != c.n) {
			t.Errorf("ParseActionRef(%q) = %d %d %v", c.s, seq, n, ok)
		}
		seq, n, ok = ParseRegionRef(c.s)
		if ok != c.region || ok && (seq != c.seq || n != c.n) {
			t.Errorf("ParseRegionRef(%q) = %d %d %v", c.s, seq, n, ok)
		}
		if _, _, ok := ParseEvidenceRef(c.s); ok != c.evidence {
			t.Errorf("ParseEvidenceRef(%q) = %v", c.s, ok)
		}
	}
	if ActionRef(3, 9) != "a3.9" || RegionRef(0, 1) != "g0.1" {
		t.Error("references render wrong")
	}
}

// Refreshing an unchanged page gives fresh references and the same digest.
func TestPageViewDigest(t *testing.T) {
	a, b := observeView(t, liveRev(t, 7)), observeView(t, liveRev(t, 8))
	if a.Digest() != b.Digest() {
		t.Error("an unchanged page changed its digest")
	}
	if a.Controls[0].Ref == b.Controls[0].Ref || a.Artifact() == b.Artifact() {
		t.Error("references were not fresh")
	}
	c, err := Observe(obsParse(t, strings.Replace(viewPage, "Shop", "Store", 1)), liveRev(t, 9), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Digest() == a.Digest() {
		t.Error("a renamed link left the digest unchanged")
	}
}

func TestObserveExpanded(t *testing.T) {
	tree := obsParse(t, viewPage)
	o, err := Observe(tree, fileRev, nil)
	if err != nil {
		t.Fatal(err)
	}
	// g0.5 is the "Filters" section.
	x, err := ObserveExpanded(tree, fileRev, nil, Expansion{From: o, Region: "g0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if x.ViewScan.Region != "g0.5" || x.ViewScan.Visited >= o.ViewScan.Visited || x.ViewScan.Exhausted {
		t.Errorf("expanded scan %+v, whole %+v", x.ViewScan, o.ViewScan)
	}
	if len(x.Regions) != 3 || x.Regions[0].Name != "Filters" || x.Regions[0].Ref != "g0.1" {
		t.Errorf("expanded regions %+v", x.Regions)
	}
	if len(x.Controls) != 7 || x.Controls[0].Name != "Status" || x.Controls[0].Ref != "a0.1" {
		t.Errorf("expanded controls %+v", x.Controls)
	}
	if !strings.HasPrefix(x.Text, "Filter Status") || strings.Contains(x.Text, "Orders") {
		t.Errorf("expanded text %q", x.Text)
	}
	if !cmp.Equal(x.Inventory, o.Inventory) {
		t.Error("the inventory depends on the expansion")
	}
	if !strings.Contains(string(x.Canonical()), `"view_scan":{"limit":8192,"visited":`) || !strings.Contains(string(x.Canonical()), `,"region":"g0.5"}`) {
		t.Errorf("view_scan does not name its region: %s", x.Canonical())
	}
	// With an extraction, which the expansion leaves alone.
	req := &Request{Kind: aria.Table, Fields: []Field{{Name: "order", Column: 0}}}
	xe, err := ObserveExpanded(tree, fileRev, req, Expansion{From: o, Region: "g0.5"})
	if err != nil || xe.Extraction == nil || len(xe.Extraction.Rows) != 3 {
		t.Fatalf("expansion with extraction: %v", err)
	}

	for _, c := range []struct {
		name string
		rev  string
		ex   Expansion
		code errcode.Code
	}{
		{"an evidence reference", fileRev, Expansion{From: o, Region: "e0.1"}, errcode.InvalidReference},
		{"an action reference", fileRev, Expansion{From: o, Region: "a0.1"}, errcode.InvalidReference},
		{"malformed", fileRev, Expansion{From: o, Region: "region 5"}, errcode.InvalidReference},
		{"not published", fileRev, Expansion{From: o, Region: "g0.9"}, errcode.UnknownReference},
		{"another sequence's", fileRev, Expansion{From: o, Region: "g3.1"}, errcode.UnknownReference},
		{"no observation", fileRev, Expansion{Region: "g0.1"}, errcode.InvalidRequest},
		{"another file", "r1.file.ffffffffffffffff", Expansion{From: o, Region: "g0.1"}, errcode.ForeignRevision},
	} {
		if _, err := ObserveExpanded(tree, c.rev, nil, c.ex); errcode.CodeOf(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}

	// Live: the session and navigation must match; a region is found again
	// in the next snapshot.
	live, err := Observe(tree, liveRev(t, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ObserveExpanded(tree, liveRev(t, 5), nil, Expansion{From: live, Region: "g4.5"}); err != nil {
		t.Errorf("the next live observation: %v", err)
	}
	navigated, _ := LiveRevision("s3ss10n", 3, 6)
	other, _ := LiveRevision("other", 2, 6)
	for rev, code := range map[string]errcode.Code{navigated: errcode.NavigatedRevision, other: errcode.ForeignRevision, liveRev(t, 3): errcode.ForeignRevision} {
		if _, err := ObserveExpanded(tree, rev, nil, Expansion{From: live, Region: "g4.5"}); errcode.CodeOf(err) != code {
			t.Errorf("expanding from %s at %s: %v, want %s", live.Revision, rev, err, code)
		}
	}
}

// In a capture the region is found again by the browser's node id, even
// where the new snapshot holds it at another place; a node id the snapshot
// no longer holds is unknown_reference.
func TestRegionAnchorByBackendID(t *testing.T) {
	data, err := os.ReadFile("testdata/captures/live-filled-form.json")
	if err != nil {
		t.Fatal(err)
	}
	in, err := snapshot.Load(data, snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !in.Tree.HasBackendIDs() {
		t.Fatal("the capture records no node ids")
	}
	var el = in.Tree.Root()
	for n := range in.Tree.All() {
		if n.IsElement() && n.BackendNodeID() != 0 && n.Index() > 3 {
			el = n
			break
		}
	}
	for _, a := range []regionAnchor{
		{index: el.Index(), id: elementID{id: el.BackendNodeID()}},
		{index: el.Index() + 1, id: elementID{id: el.BackendNodeID()}}, // moved
		{index: in.Tree.Len() + 5, id: elementID{id: el.BackendNodeID()}},
	} {
		got, err := a.find(in.Tree, "g1.1")
		if err != nil || got != el {
			t.Errorf("anchor %+v: %v, %v", a, got.Index(), err)
		}
	}
	if _, err := (regionAnchor{index: el.Index(), id: elementID{id: -7}}).find(in.Tree, "g1.1"); errcode.CodeOf(err) != errcode.UnknownReference {
		t.Errorf("a node id no longer held: %v", err)
	}
	// A tree without node ids (HTML) finds the region at its place.
	tree := obsParse(t, viewPage)
	if _, err := (regionAnchor{index: tree.Len()}).find(tree, "g0.1"); errcode.CodeOf(err) != errcode.UnknownReference {
		t.Errorf("an index past the tree: %v", err)
	}
}
