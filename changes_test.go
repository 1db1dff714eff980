package domsnap

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// observeHTML observes page under a live revision, numbering its records
// by num.
func observeHTML(t *testing.T, page, rev string, num Numbering) *Observation {
	t.Helper()
	tree, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := ObserveNumbered(tree, rev, nil, nil, num)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// byID numbers each record by its element's id attribute, a number: what
// a live session's book does with the browser's ids.
func byID(controls, regions []domtree.Node) ([]int, []int, error) {
	read := func(ns []domtree.Node) []int {
		out := make([]int, len(ns))
		for i, n := range ns {
			for _, c := range n.AttrValue("id") {
				out[i] = out[i]*10 + int(c-'0')
			}
		}
		return out
	}
	return read(controls), read(regions), nil
}

func TestObserveNumbered(t *testing.T) {
	o := observeHTML(t, `<h2 id=40>T</h2><a id=7 href=/a>A</a><button id=300>B</button>`, "r1.ab.n1.o5", byID)
	if o.Controls[0].Ref != "a5.7" || o.Controls[1].Ref != "a5.300" || o.Regions[0].Ref != "g5.40" {
		t.Fatalf("refs %s %s %s", o.Controls[0].Ref, o.Controls[1].Ref, o.Regions[0].Ref)
	}
	if at, err := o.ActionTarget("a5.300"); err != nil || at.Role != "button" {
		t.Fatalf("a5.300: %+v %v", at, err)
	}
	for _, ref := range []string{"a5.1", "a5.2", "a5.8"} {
		if _, err := o.ActionTarget(ref); errcode.CodeOf(err) != errcode.UnknownReference {
			t.Errorf("%s: %v", ref, err)
		}
	}
	if err := o.CheckRegion("g5.40"); err != nil {
		t.Fatal(err)
	}
	if err := o.CheckRegion("g5.1"); errcode.CodeOf(err) != errcode.UnknownReference {
		t.Fatalf("g5.1: %v", err)
	}
	// Without a numbering, records are numbered from 1 in order.
	o = observeHTML(t, `<a id=7 href=/a>A</a><button id=300>B</button>`, "r1.ab.n1.o5", nil)
	if o.Controls[0].Ref != "a5.1" || o.Controls[1].Ref != "a5.2" {
		t.Fatalf("refs %s %s", o.Controls[0].Ref, o.Controls[1].Ref)
	}
	tree, _, _ := snapshot.ParseHTML([]byte(`<a href=/a>A</a><a href=/b>B</a>`), snapshot.HTMLOptions{})
	for name, num := range map[string]Numbering{
		"too few": func(c, r []domtree.Node) ([]int, []int, error) { return []int{1}, []int{}, nil },
		"twice":   func(c, r []domtree.Node) ([]int, []int, error) { return []int{3, 3}, []int{}, nil },
		"zero":    func(c, r []domtree.Node) ([]int, []int, error) { return []int{0, 1}, []int{}, nil },
		"past 2^31": func(c, r []domtree.Node) ([]int, []int, error) {
			return []int{1, limits.MaxRecordNumber + 1}, []int{}, nil
		},
	} {
		if _, err := ObserveNumbered(tree, "r1.ab.n1.o1", nil, nil, num); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("%s: %v", name, err)
		}
	}
}

const (
	pageBefore = `<nav aria-label=Main id=1><a id=2 href=/a>Home</a></nav><h2 id=3>Items</h2>` +
		`<button id=4>Delete</button><button id=5>Keep</button><input id=6 type=checkbox aria-label="Pick"><p>Three items.</p>`
	// The Keep button is gone, the checkbox is checked, a confirmation
	// button and heading came.
	pageAfter = `<nav aria-label=Main id=1><a id=2 href=/a>Home</a></nav><h2 id=3>Items</h2>` +
		`<button id=4>Delete</button><input id=6 type=checkbox aria-label="Pick" checked><h2 id=7>Sure?</h2><button id=8>Yes</button><p>Three items.</p>`
)

func TestChangesSince(t *testing.T) {
	prev := observeHTML(t, pageBefore, "r1.ab.n1.o1", byID)
	cur := observeHTML(t, pageAfter, "r1.ab.n1.o2", byID)
	c, err := cur.ChangesSince(prev)
	if err != nil {
		t.Fatal(err)
	}
	got := string(c.appendJSON(nil))
	want := `{"since":"r1.ab.n1.o1","controls":[{"ref":"a2.6","role":"checkbox","name":"Pick","checked":true},{"ref":"a2.8","role":"button","name":"Yes"}],` +
		`"controls_removed":[5],"regions":[{"ref":"g2.7","role":"heading","name":"Sure?","level":2}],"regions_removed":[],"text":"` + jsonText(cur.Text) + `"}`
	if got != want {
		t.Fatalf("changes\n got %s\nwant %s", got, want)
	}
	// Nothing changed: empty lists and no text.
	same := observeHTML(t, pageAfter, "r1.ab.n1.o3", byID)
	c, _ = same.ChangesSince(cur)
	if got := string(c.appendJSON(nil)); got != `{"since":"r1.ab.n1.o2","controls":[],"controls_removed":[],"regions":[],"regions_removed":[]}` {
		t.Fatalf("no changes: %s", got)
	}
	for name, pair := range map[string][2]*Observation{
		"no earlier":       {cur, nil},
		"a later one":      {prev, cur},
		"itself":           {cur, cur},
		"another document": {observeHTML(t, pageAfter, "r1.ab.n2.o4", byID), prev},
		"another session":  {observeHTML(t, pageAfter, "r1.cd.n1.o4", byID), prev},
		"a file":           {observeHTML(t, pageAfter, "r1.file.0123456789abcdef", byID), prev},
	} {
		if _, err := pair[0].ChangesSince(pair[1]); errcode.CodeOf(err) != errcode.InvalidRequest {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func TestProjectView(t *testing.T) {
	prev := observeHTML(t, pageBefore, "r1.ab.n1.o1", byID)
	cur := observeHTML(t, pageAfter, "r1.ab.n1.o2", byID)
	c, _ := cur.ChangesSince(prev)
	keys := func(p *Projection) string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(p.Canonical(), &m); err != nil {
			t.Fatal(err)
		}
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		// Key order is the bytes', checked by the goldens; here what is
		// there.
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	full, err := ProjectView(cur, limits.ModelBytes, ViewFull, c)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := Project(cur, limits.ModelBytes); string(p.Canonical()) != string(full.Canonical()) {
		t.Fatal("the full view is not Project's")
	}
	ch, err := ProjectView(cur, limits.ModelBytes, ViewChanges, c)
	if err != nil {
		t.Fatal(err)
	}
	if ch.View != ViewChanges || keys(ch) != "artifact,changes,controls_omitted,inventory,omitted,regions_omitted,revision,schema_version,text_truncated,trust,view_scan" {
		t.Fatalf("changes: %s", ch.Canonical())
	}
	if !strings.Contains(string(ch.Canonical()), `,"view_scan":{"limit":8192,"visited":`) ||
		!strings.Contains(string(ch.Canonical()), `},"changes":{"since":"r1.ab.n1.o1",`) ||
		!strings.HasSuffix(string(ch.Canonical()), `,"controls_omitted":0,"regions_omitted":0,"text_truncated":false,"omitted":{"text":0,"regions":0,"inventory":0,"controls":0,"rows":0}}`) {
		t.Fatalf("changes bytes: %s", ch.Canonical())
	}
	if len(ch.Canonical()) >= len(full.Canonical()) {
		t.Fatalf("changes %d bytes, full %d", len(ch.Canonical()), len(full.Canonical()))
	}
	none, err := ProjectView(cur, limits.ModelBytes, ViewNone, c)
	if err != nil {
		t.Fatal(err)
	}
	if keys(none) != "artifact,inventory,omitted,revision,schema_version,trust,view_scan" {
		t.Fatalf("none: %s", none.Canonical())
	}
	// Without changes, or when they are larger than the view, the view is
	// given whole.
	for name, changes := range map[string]*Changes{
		"none":   nil,
		"larger": {Since: c.Since, Controls: append(append([]Control{}, cur.Controls...), cur.Controls...), TextChanged: true, Text: cur.Text},
	} {
		p, err := ProjectView(cur, limits.ModelBytes, ViewChanges, changes)
		if err != nil || p.View != ViewFull || string(p.Canonical()) != string(full.Canonical()) {
			t.Errorf("%s: %v %s", name, err, p.Canonical())
		}
	}
	// Changes that cannot fit the budget whole give way to the full view,
	// cut as it always is.
	big := &Changes{Since: c.Since, TextChanged: true, Text: strings.Repeat("x", 1500)}
	bigCur := *cur
	bigCur.Text = strings.Repeat("y", 2000)
	p, err := ProjectView(&bigCur, limits.MinModelBytes, ViewChanges, big)
	if err != nil || p.View != ViewFull || p.Omitted.Text != 1 || len(p.Canonical()) > limits.MinModelBytes {
		t.Fatalf("changes over budget: %v %s", err, p.Canonical())
	}
}

func TestParseView(t *testing.T) {
	for _, v := range []View{ViewFull, ViewChanges, ViewNone} {
		if got, ok := ParseView(v.String()); !ok || got != v {
			t.Errorf("%v: %v %v", v, got, ok)
		}
	}
	if _, ok := ParseView("Full"); ok {
		t.Error("Full parsed")
	}
}
