package domsnap

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

// obsParse parses an HTML page offline, as a caller of the library would.
func obsParse(t testing.TB, page string) *domtree.Tree {
	t.Helper()
	tree, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

const obsPage = `<!doctype html><html><head><title>T</title></head><body>
<nav><ul aria-label="  Main
  menu "><li>Home</li><li>Shop</li></ul></nav>
<h2 id="h">Stock</h2><h3 id="sub">list</h3>
<table aria-labelledby="h missing sub h"><caption>ignored caption</caption>
 <tr><th>Product</th><th>Price</th></tr>
 <tr><td>Widget</td><td>4.5</td></tr>
 <tr><td>Gadget</td><td>7</td></tr>
</table>
<table><caption>Prices <b>2026</b></caption><tr><td>a</td></tr></table>
<div role="grid" aria-label=""><div role="row"><div role="gridcell">x</div></div></div>
<table hidden><tr><td>hidden</td></tr></table>
<form aria-label="Search"><input name="q" value="CANARY-VALUE"><button>Go</button></form>
<ol></ol>
</body></html>`

func TestObserveInventory(t *testing.T) {
	o, err := Observe(obsParse(t, obsPage), fileRev, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []InventoryEntry{
		{Kind: aria.List, Index: 0, Source: aria.Native, Name: "Main menu", Rows: 2, RowsComplete: true},
		{Kind: aria.Table, Index: 0, Source: aria.Native, Name: "Stock list", Rows: 3, RowsComplete: true},
		{Kind: aria.Table, Index: 1, Source: aria.Native, Name: "Prices 2026", Rows: 1, RowsComplete: true},
		{Kind: aria.Table, Index: 2, Source: aria.ARIA, Rows: 1, RowsComplete: true},
		{Kind: aria.Form, Index: 0, Source: aria.Native, Name: "Search", Rows: 2, RowsComplete: true},
		{Kind: aria.List, Index: 1, Source: aria.Native, Rows: 0, RowsComplete: true},
	}
	if diff := cmp.Diff(want, o.Inventory); diff != "" {
		t.Errorf("inventory (-want +got):\n%s", diff)
	}
	if o.Extraction != nil {
		t.Error("an observation without a request has an extraction")
	}
	got := string(o.Canonical())
	wantJSON := `{"schema_version":"1.4.0","trust":"external-untrusted","revision":"` + fileRev + `","inventory":[` +
		`{"kind":"list","index":0,"source":"native","name":"Main menu","rows":2,"rows_complete":true},` +
		`{"kind":"table","index":0,"source":"native","name":"Stock list","rows":3,"rows_complete":true},` +
		`{"kind":"table","index":1,"source":"native","name":"Prices 2026","rows":1,"rows_complete":true},` +
		`{"kind":"table","index":2,"source":"aria","rows":1,"rows_complete":true},` +
		`{"kind":"form","index":0,"source":"native","name":"Search","rows":2,"rows_complete":true},` +
		`{"kind":"list","index":1,"source":"native","rows":0,"rows_complete":true}],` +
		`"view_scan":{"limit":8192,"visited":66,"exhausted":false},` +
		`"controls":[{"ref":"a0.1","role":"textbox","name":"","in":{"kind":"form","index":0,"position":0}},` +
		`{"ref":"a0.2","role":"button","name":"Go","in":{"kind":"form","index":0,"position":1}}],"controls_omitted":0,` +
		`"regions":[{"ref":"g0.1","role":"navigation","name":""},{"ref":"g0.2","role":"heading","name":"Stock","level":2},` +
		`{"ref":"g0.3","role":"heading","name":"list","level":3},{"ref":"g0.4","role":"form","name":"Search"}],"regions_omitted":0,` +
		`"text":"Home Shop Stock list ignored caption Product Price Widget 4.5 Gadget 7 Prices 2026 a x Go","text_truncated":false}`
	if diff := cmp.Diff(wantJSON, got); diff != "" {
		t.Errorf("canonical (-want +got):\n%s", diff)
	}
	if strings.Contains(got, "CANARY") {
		t.Error("a form value reached the observation")
	}
}

func TestObserveKeyOrder(t *testing.T) {
	req := productRequest()
	o, err := Observe(build(t, productTable()...), fileRev, &req)
	if err != nil {
		t.Fatal(err)
	}
	data := o.Canonical()
	if !json.Valid(data) {
		t.Fatalf("not JSON: %s", data)
	}
	got := keyOrder(t, data)
	want := []string{"schema_version", "trust", "revision", "inventory"}
	if got := got[:4]; !cmp.Equal(want, got) {
		t.Errorf("leading keys %v, want %v", got, want)
	}
	if !strings.Contains(string(data), `,"extraction":{"schema_version"`) || !strings.HasSuffix(string(data), "}}") {
		t.Errorf("the extraction must be the last member: %s", data)
	}
	res, err := Extract(build(t, productTable()...), fileRev, req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"extraction":`+string(res.Canonical())+"}") {
		t.Error("the observation's extraction is not byte-identical to Extract's result")
	}
	if b, _ := json.Marshal(o); string(b) != string(data) {
		t.Error("MarshalJSON differs from Canonical")
	}
}

func TestObserveErrors(t *testing.T) {
	tree := build(t, productTable()...)
	bad := productRequest()
	bad.Index = limits.MaxCollectionIndex + 1
	wrongRev := productRequest()
	wrongRev.ExpectedRevision = "r1.file.ffffffffffffffff"
	same := productRequest()
	same.ExpectedRevision = fileRev
	for _, c := range []struct {
		name string
		tree *domtree.Tree
		rev  string
		req  *Request
		code errcode.Code
	}{
		{"invalid request first", tree, "nonsense", &bad, errcode.InvalidRequest},
		{"malformed revision", tree, "nonsense", nil, errcode.MalformedSnapshot},
		{"no tree", nil, fileRev, nil, errcode.MalformedSnapshot},
		{"another file", tree, fileRev, &wrongRev, errcode.ForeignRevision},
		{"same file", tree, fileRev, &same, ""},
	} {
		o, err := Observe(c.tree, c.rev, c.req)
		if got := errcode.CodeOf(err); got != c.code {
			t.Errorf("%s: code %q, want %q (%v)", c.name, got, c.code, err)
		}
		if (err == nil) != (o != nil) {
			t.Errorf("%s: observation %v with error %v", c.name, o != nil, err)
		}
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Errorf("%s: error %T is not an *Error", c.name, err)
		}
	}
}

func TestObservePerKindBound(t *testing.T) {
	for _, n := range []int{limits.MaxInventoryPerKind - 1, limits.MaxInventoryPerKind, limits.MaxInventoryPerKind + 1} {
		var b strings.Builder
		b.WriteString("<body>")
		for i := 0; i < n; i++ {
			b.WriteString(`<table aria-label="t` + strconv.Itoa(i) + `"><tr><td>x</td></tr></table><ul><li>y</li></ul>`)
		}
		o, err := Observe(obsParse(t, b.String()), fileRev, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := min(n, limits.MaxInventoryPerKind)
		var tables, lists int
		for _, e := range o.Inventory {
			switch e.Kind {
			case aria.Table:
				if e.Index != tables || e.Name != "t"+strconv.Itoa(tables) {
					t.Errorf("n=%d: table entry %+v out of order", n, e)
				}
				tables++
			case aria.List:
				lists++
			}
		}
		if tables != want || lists != want {
			t.Errorf("n=%d: %d tables and %d lists, want %d each", n, tables, lists, want)
		}
	}
}

// repeatUnits is s repeated to exactly n UTF-16 units (s is one unit long).
func repeatUnits(s string, n int) string { return strings.Repeat(s, n) }

func TestCollectionNameBounds(t *testing.T) {
	x := func(n int) string { return repeatUnits("x", n) }
	pair := "\U0001F600" // two UTF-16 units
	for _, c := range []struct {
		name, page, want string
	}{
		{"aria-label under the unit bound", `<ul aria-label="` + x(limits.CellUnits-1) + `"></ul>`, x(limits.CellUnits - 1)},
		{"aria-label at the unit bound", `<ul aria-label="` + x(limits.CellUnits) + `"></ul>`, x(limits.CellUnits)},
		{"aria-label over the unit bound", `<ul aria-label="` + x(limits.CellUnits+1) + `"></ul>`, x(limits.CellUnits)},
		{"a pair straddling the bound is dropped whole", `<ul aria-label="` + x(limits.CellUnits-1) + pair + `"></ul>`, x(limits.CellUnits - 1)},
		{"a pair ending at the bound is kept", `<ul aria-label="` + x(limits.CellUnits-2) + pair + `"></ul>`, x(limits.CellUnits-2) + pair},
		{"a space left at the bound is trimmed", `<ul aria-label="` + x(limits.CellUnits-1) + ` yy"></ul>`, x(limits.CellUnits - 1)},
		{"whitespace-only aria-label falls through to the caption", `<table aria-label=" &#9;"><caption> Cap </caption></table>`, "Cap"},
		{"U+00A0 is text", `<ul aria-label="&#160;"></ul>`, "\u00a0"},
		{"labelledby over aria-label", `<p id=a>A</p><ul aria-labelledby="a" aria-label="L"></ul>`, "A"},
		{"empty labelledby falls through", `<p id=a></p><ul aria-labelledby="a nope" aria-label="L"></ul>`, "L"},
		{"a referenced element's aria-label wins over its text", `<p id=a aria-label="AL">text</p><ul aria-labelledby="a"></ul>`, "AL"},
		{"hidden and invisible references contribute nothing", `<p id=a hidden>H</p><p id=b style="visibility:hidden">V</p><p id=c>C</p><ul aria-labelledby="a b c"></ul>`, "C"},
		{"editable references contribute nothing", `<input id=a value="CANARY" aria-label="inp"><textarea id=b>CANARY</textarea><div contenteditable id=c>CANARY</div><select><option id=d>CANARY</option></select><ul aria-labelledby="a b c d"></ul>`, ""},
		{"an element named twice contributes once", `<p id=a>A</p><p id=b>B</p><ul aria-labelledby="a b a"></ul>`, "A B"},
		{"the first caption only, of a native table only", `<table><caption>One</caption><caption>Two</caption></table><div role=table><caption>No</caption></div>`, "One"},
		{"no source", `<table><tr><td>x</td></tr></table>`, ""},
	} {
		tree := obsParse(t, "<body>"+c.page)
		o, err := Observe(tree, fileRev, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Inventory) == 0 {
			t.Fatalf("%s: no collection", c.name)
		}
		if got := o.Inventory[0].Name; got != c.want {
			t.Errorf("%s: name %q, want %q", c.name, got, c.want)
		}
		// A select's options are what the page offers, and the page view
		// lists them (never which one is chosen); everywhere else the
		// canary must be absent.
		for i := range o.Controls {
			o.Controls[i].Options = nil
		}
		if strings.Contains(string(o.Canonical()), "CANARY") {
			t.Errorf("%s: a form value reached the observation", c.name)
		}
	}
}

func TestCollectionNameLabelBound(t *testing.T) {
	for _, n := range []int{limits.MaxLabels - 1, limits.MaxLabels, limits.MaxLabels + 1} {
		var b strings.Builder
		var ids, want []string
		b.WriteString("<body>")
		for i := 0; i < n; i++ {
			id := "l" + strconv.Itoa(i)
			b.WriteString(`<p id="` + id + `">` + id + `</p>`)
			ids = append(ids, id)
			if i < limits.MaxLabels {
				want = append(want, id)
			}
		}
		b.WriteString(`<ul aria-labelledby="` + strings.Join(ids, " ") + `"></ul>`)
		o, err := Observe(obsParse(t, b.String()), fileRev, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := o.Inventory[0].Name; got != strings.Join(want, " ") {
			t.Errorf("%d labels: name %q, want %q", n, got, strings.Join(want, " "))
		}
	}
}

func TestCollectionNameIDCharsBound(t *testing.T) {
	// The second ID starts at unit MaxIDChars-len+... : place it so that it
	// ends under, at, and over the bound.
	for _, shift := range []int{-1, 0, 1} {
		id := "b"
		pad := limits.MaxIDChars - 1 - len(id) + shift // "a" + pad spaces + id
		value := "a" + strings.Repeat(" ", pad) + id
		page := `<body><p id=a>A</p><p id=b>B</p><ul aria-labelledby="` + value + `"></ul>`
		o, err := Observe(obsParse(t, page), fileRev, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := "A B"
		if shift > 0 {
			want = "A" // the bound cuts "b": dropped
		}
		if got := o.Inventory[0].Name; got != want {
			t.Errorf("id ending %+d around the bound: name %q, want %q", shift, got, want)
		}
	}
}

func TestObserveDeterministic(t *testing.T) {
	req := productRequest()
	var first []byte
	for i := 0; i < 3; i++ {
		o, err := Observe(obsParse(t, obsPage), fileRev, &req)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = o.Canonical()
		} else if got := o.Canonical(); string(got) != string(first) {
			t.Fatalf("run %d differs:\n%s", i, cmp.Diff(string(first), string(got)))
		}
	}
}

// liveRev is a live revision of one session at a given sequence.
func liveRev(t testing.TB, seq uint64) string {
	t.Helper()
	r, err := LiveRevision("s3ss10n", 2, seq)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReplayDigests(t *testing.T) {
	req := Request{Kind: aria.Table, Fields: []Field{
		{Name: "product", Column: 0, Type: typed.String, Required: true},
		{Name: "price", Column: 1, Type: typed.Number},
	}}
	observe := func(page, rev string) *Observation {
		o, err := Observe(obsParse(t, page), rev, &req)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	a := observe(obsPage, liveRev(t, 1))
	b := observe(obsPage, liveRev(t, 2))

	// Fresh revision and evidence, the same digests.
	if a.Revision == b.Revision || a.Extraction.Collection.Evidence == b.Extraction.Collection.Evidence ||
		a.Extraction.Rows[0].Evidence == b.Extraction.Rows[0].Evidence {
		t.Fatal("two observations must differ in revision and evidence references")
	}
	if a.Artifact() == b.Artifact() {
		t.Error("two observations share an artifact: the artifact must name the full observation")
	}
	if a.Extraction.Digest != b.Extraction.Digest {
		t.Error("an unchanged page gave two extraction digests")
	}
	if a.Digest() != b.Digest() {
		t.Error("an unchanged page gave two observation digests")
	}
	for _, d := range []string{a.Digest(), a.Artifact(), a.Extraction.Digest} {
		if len(d) != len(DigestPrefix)+64 || !strings.HasPrefix(d, DigestPrefix) {
			t.Errorf("malformed digest %q", d)
		}
	}

	// One changed cell changes both digests.
	c := observe(strings.Replace(obsPage, "<td>4.5</td>", "<td>4.6</td>", 1), liveRev(t, 3))
	if c.Extraction.Digest == a.Extraction.Digest || c.Digest() == a.Digest() {
		t.Error("a changed cell left a digest unchanged")
	}
	// A changed name changes the observation's digest but not the extraction's.
	d := observe(strings.Replace(obsPage, "Main\n  menu", "Main menus", 1), liveRev(t, 4))
	if d.Extraction.Digest != a.Extraction.Digest || d.Digest() == a.Digest() {
		t.Error("a changed inventory name must change the observation digest only")
	}
}

func TestCollectionNameCaptionBound(t *testing.T) {
	// The caption is looked for among the table's first CellNodes children:
	// as the last of them it names the table, one further it does not.
	for _, before := range []int{limits.CellNodes - 2, limits.CellNodes - 1, limits.CellNodes} {
		page := "<body><table>" + strings.Repeat("<!--c-->", before) + "<caption>Cap</caption><tr><td>x</td></tr></table>"
		o, err := Observe(obsParse(t, page), fileRev, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := "Cap"
		if before >= limits.CellNodes {
			want = ""
		}
		if got := o.Inventory[0].Name; got != want {
			t.Errorf("caption after %d children: name %q, want %q", before, got, want)
		}
	}
}

// TestSummarizeText: text handed over outside a document is bounded as a
// cell summary: whitespace runs made one space and trimmed, cut at
// CellUnits UTF-16 units without splitting a surrogate pair.
func TestSummarizeText(t *testing.T) {
	if got, cut := SummarizeText("  Delete\n\t report  Q3? "); got != "Delete report Q3?" || cut {
		t.Errorf("%q %v", got, cut)
	}
	long := strings.Repeat("a", limits.CellUnits-1) + "😀b"
	if got, cut := SummarizeText(long); got != strings.Repeat("a", limits.CellUnits-1) || !cut {
		t.Errorf("cut at %d bytes, truncated %v", len(got), cut)
	}
	if got, cut := SummarizeText(strings.Repeat("x", limits.CellUnits)); len(got) != limits.CellUnits || cut {
		t.Errorf("exactly the bound: %d, %v", len(got), cut)
	}
}
