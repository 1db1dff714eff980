package domsnap

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
)

const fileRev = "r1.file.0c1d2e3f4a5b6c7d"

func productTable() []nd {
	return page(
		E("ul", E("li", T("Home")), E("li", T("Shop"))),
		E("table",
			E("thead", tr("th", "Product", "Stock", "Price")),
			E("tbody",
				tr("td", "Widget", "yes", "4.5"),
				tr("td", "Gadget", "no", "sold out"),
				tr("td", "", "yes", "7"),
				E("tr", E("td", A("colspan", "2"), T("Bundle")), E("td", T("9"))),
				tr("td", "Short"),
			)),
	)
}

func productRequest() Request {
	return Request{Kind: aria.Table, Fields: []Field{
		{Name: "product", Column: 0, Type: typed.String, Required: true},
		{Name: "price", Column: 2, Type: typed.Number},
	}}
}

func TestExtractTable(t *testing.T) {
	tree := build(t, productTable()...)
	res, err := Extract(tree, fileRev, productRequest())
	if err != nil {
		t.Fatal(err)
	}
	ok := func(name string, v any) Cell { return Cell{Name: name, Status: typed.OK, Value: v} }
	missing := func(name string) Cell { return Cell{Name: name, Status: typed.Missing} }
	invalid := func(name, text string) Cell { return Cell{Name: name, Status: typed.Invalid, Text: text} }
	want := []Row{
		{Position: 0, Evidence: "e0.2", Header: true, Valid: false, Cells: []Cell{ok("product", "Product"), invalid("price", "Price")}},
		{Position: 1, Evidence: "e0.3", Valid: true, Cells: []Cell{ok("product", "Widget"), ok("price", 4.5)}},
		{Position: 2, Evidence: "e0.4", Valid: false, Cells: []Cell{ok("product", "Gadget"), invalid("price", "sold out")}},
		{Position: 3, Evidence: "e0.5", Valid: false, Cells: []Cell{missing("product"), ok("price", 7.0)}},
		{Position: 4, Evidence: "e0.6", Structure: collect.UnsupportedSpan, Valid: false, Cells: []Cell{}},
		{Position: 5, Evidence: "e0.7", Valid: true, Cells: []Cell{ok("product", "Short"), missing("price")}},
	}
	if diff := cmp.Diff(want, res.Rows); diff != "" {
		t.Errorf("rows (-want +got)\n%s", diff)
	}
	wantColl := CollectionInfo{Found: true, Kind: aria.Table, Index: 0, Source: aria.Native, Evidence: "e0.1"}
	if diff := cmp.Diff(wantColl, res.Collection); diff != "" {
		t.Errorf("collection (-want +got)\n%s", diff)
	}
	c := res.Coverage
	if c.RowLimit != limits.DefaultRowLimit || c.RowsReturned != 6 || c.RowsOmittedByLimit != 0 ||
		c.RowsOmittedByBytes != 0 || !c.RowsComplete || c.TruncatedCells != 0 {
		t.Errorf("coverage %+v", c)
	}
	if c.CollectionScan.Limit != limits.CollectionScanNodes || c.CollectionScan.Visited == 0 || c.CollectionScan.Exhausted {
		t.Errorf("collection scan %+v", c.CollectionScan)
	}
	if c.RowScan.Limit != limits.RowScanNodes || c.RowScan.Visited == 0 || c.RowScan.Exhausted {
		t.Errorf("row scan %+v", c.RowScan)
	}
	out := string(res.Canonical())
	for _, s := range []string{
		`{"schema_version":"1.4.0","trust":"external-untrusted","revision":"r1.file.0c1d2e3f4a5b6c7d","collection":{"found":true,"kind":"table","index":0,"source":"native","evidence":"e0.1"},"rows":[`,
		`{"position":0,"evidence":"e0.2","header":true,"structure":"ok","valid":false,"cells":[{"name":"product","status":"ok","value":"Product"},{"name":"price","status":"invalid","value":null,"text":"Price"}]}`,
		`{"name":"price","status":"ok","value":4.5}`,
		`{"name":"product","status":"missing","value":null}`,
		`{"position":4,"evidence":"e0.6","header":false,"structure":"unsupported_span","valid":false,"cells":[]}`,
		`"row_limit":20,"rows_returned":6,"rows_omitted_by_limit":0,"rows_omitted_by_bytes":0,"rows_complete":true,"truncated_cells":0},"digest":"sha256:`,
	} {
		if !strings.Contains(out, s) {
			t.Errorf("canonical output lacks %s\n%s", s, out)
		}
	}
}

func TestExtractListAndForm(t *testing.T) {
	const canary = "CANARY-7f3e"
	tree := build(t, page(
		E("ol", E("li", T(" one ")), E("li", T("2")), E("li")),
		E("form",
			E("label", A("for", "n"), T("Name")),
			E("input", A("id", "n"), A("value", canary), A("required", "")),
			E("label", T("Agree "), E("input", A("type", "checkbox"), A("checked", ""), A("value", canary))),
			E("textarea", A("aria-label", "Notes"), T(canary)),
			E("input", A("type", "submit"), A("value", "Send")),
		),
	)...)
	list, err := Extract(tree, fileRev, Request{Kind: aria.List, Fields: []Field{{Name: "n", Type: typed.Integer, Required: true}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list.Rows {
		got = append(got, r.Cells[0].Status.String())
	}
	if diff := cmp.Diff([]string{"invalid", "ok", "missing"}, got); diff != "" {
		t.Errorf("list statuses (-want +got)\n%s", diff)
	}
	if list.Rows[1].Cells[0].Value != int64(2) || !list.Rows[1].Valid || list.Rows[2].Valid {
		t.Errorf("list rows %+v", list.Rows)
	}

	form, err := Extract(tree, fileRev, Request{Kind: aria.Form, Fields: []Field{
		{Name: "label", Column: 0, Type: typed.String},
		{Name: "role", Column: 1, Type: typed.String},
		{Name: "disabled", Column: 2, Type: typed.Boolean},
		{Name: "checked", Column: 3, Type: typed.Boolean},
		{Name: "required", Column: 4, Type: typed.Boolean},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for _, r := range form.Rows {
		var vals []any
		for _, c := range r.Cells {
			vals = append(vals, c.Value)
		}
		rows = append(rows, vals)
	}
	want := [][]any{
		{"Name", "textbox", false, nil, true},
		{"Agree", "checkbox", false, true, false},
		{"Notes", "textbox", false, nil, false},
		{"Send", "button", false, nil, false},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("form values (-want +got)\n%s", diff)
	}
	for _, res := range []*Result{list, form} {
		if bytes.Contains(res.Canonical(), []byte(canary)) {
			t.Fatalf("a form value reached the output: %s", res.Canonical())
		}
	}
}

func TestExtractNotFound(t *testing.T) {
	tree := build(t, productTable()...)
	res, err := Extract(tree, fileRev, Request{Kind: aria.Table, Index: 1, Fields: []Field{{Name: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Collection.Found || res.Collection.Reason != collect.Absent || !res.Coverage.RowsComplete ||
		len(res.Rows) != 0 || res.Coverage.RowScan != (Scan{Limit: limits.RowScanNodes}) ||
		res.Coverage.CollectionScan.Visited != tree.Len() {
		t.Errorf("absent: %s", res.Canonical())
	}
	if !strings.Contains(string(res.Canonical()), `"collection":{"found":false,"kind":"table","index":1,"reason":"absent"},"rows":[],`) {
		t.Errorf("canonical: %s", res.Canonical())
	}

	// A table beyond the collection scan budget is unknown, not absent.
	var filler []nd
	for range limits.CollectionScanNodes {
		filler = append(filler, E("p"))
	}
	far := build(t, page(append(filler, E("table", tr("td", "x")))...)...)
	res, err = Extract(far, fileRev, Request{Kind: aria.Table, Fields: []Field{{Name: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Collection.Found || res.Collection.Reason != collect.ScanLimit || res.Coverage.RowsComplete ||
		!res.Coverage.CollectionScan.Exhausted || res.Coverage.CollectionScan.Visited != limits.CollectionScanNodes {
		t.Errorf("scan limit: %s", res.Canonical())
	}
}

func TestExtractRowLimit(t *testing.T) {
	var rows []nd
	for i := range limits.MaxRowLimit + 2 {
		rows = append(rows, tr("td", strings.Repeat("r", i+1)))
	}
	tree := build(t, page(E("table", E("tbody", rows)))...)
	for _, lim := range []int{limits.MinRowLimit, limits.MaxRowLimit - 1, limits.MaxRowLimit} {
		res, err := Extract(tree, fileRev, Request{Kind: aria.Table, RowLimit: lim, Fields: []Field{{Name: "a"}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != lim || res.Coverage.RowsReturned != lim || res.Coverage.RowLimit != lim ||
			res.Coverage.RowsOmittedByLimit != len(rows)-lim {
			t.Errorf("limit %d: %d rows, coverage %+v", lim, len(res.Rows), res.Coverage)
		}
		if last := res.Rows[len(res.Rows)-1]; last.Position != lim-1 || last.Cells[0].Value != strings.Repeat("r", lim) {
			t.Errorf("limit %d: last row %+v", lim, last)
		}
	}
}

func TestExtractTruncatedCell(t *testing.T) {
	long := strings.Repeat("w ", limits.CellUnits)
	tree := build(t, page(E("table", tr("td", long, "1")))...)
	res, err := Extract(tree, fileRev, Request{Kind: aria.Table, Fields: []Field{
		{Name: "a", Type: typed.String}, {Name: "b", Column: 1, Type: typed.Integer}}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Rows[0].Cells[0]
	if c.Status != typed.Truncated || c.Truncation != cells.TruncText || c.Value != nil || c.Text == "" ||
		res.Rows[0].Valid || res.Coverage.TruncatedCells != 1 {
		t.Fatalf("truncated cell %+v, coverage %+v", c, res.Coverage)
	}
	if !strings.Contains(string(res.Canonical()), `"status":"truncated","value":null,"text":"w w`) ||
		!strings.Contains(string(res.Canonical()), `","truncation":"text"}`) {
		t.Errorf("canonical: %s", res.Canonical())
	}
}

func TestExtractErrors(t *testing.T) {
	tree := build(t, productTable()...)
	good := productRequest()
	bad := good
	bad.Index = limits.MaxCollectionIndex + 1
	if _, err := Extract(tree, fileRev, bad); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("invalid request: %v", err)
	}
	for _, c := range []struct {
		expected, current string
		want              error
	}{
		{"r1.file.0c1d2e3f4a5b6c7e", fileRev, ErrForeignRevision},
		{"r1.s.n1.o1", fileRev, ErrForeignRevision},
		{"r1.s.n1.o1", "r1.s.n2.o3", ErrNavigatedRevision},
		{"r1.s.n2.o1", "r1.s.n2.o3", ErrStaleRevision},
		{"r1.s.n2.o4", "r1.s.n2.o3", ErrForeignRevision},
		{"", "not a revision", ErrMalformedSnapshot},
	} {
		r := good
		r.ExpectedRevision = c.expected
		if _, err := Extract(tree, c.current, r); !errors.Is(err, c.want) {
			t.Errorf("%q against %q: %v, want %v", c.expected, c.current, err, c.want)
		}
	}
	r := good
	r.ExpectedRevision = fileRev
	if _, err := Extract(tree, fileRev, r); err != nil {
		t.Errorf("matching revision: %v", err)
	}
	if _, err := Extract(nil, fileRev, good); !errors.Is(err, ErrMalformedSnapshot) {
		t.Errorf("nil tree: %v", err)
	}
}

// keyOrder lists every object key of a JSON document in document order, with
// its nesting path, using the standard decoder.
func keyOrder(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj    bool
		expect bool // next string token in an object is a key
	}
	var stack []frame
	var keys []string
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top >= 0 && stack[top].obj {
					stack[top].expect = true
				}
				stack = append(stack, frame{obj: d == '{', expect: d == '{'})
			default:
				stack = stack[:top]
			}
			continue
		}
		if top >= 0 && stack[top].obj {
			if stack[top].expect {
				keys = append(keys, tok.(string))
				stack[top].expect = false
				continue
			}
			stack[top].expect = true
		}
	}
	return keys
}

func TestCanonicalKeyOrder(t *testing.T) {
	long := strings.Repeat("z", limits.CellUnits+1)
	tree := build(t, page(E("table", tr("th", "H"), tr("td", "x", long)))...)
	res, err := Extract(tree, "r1.s.n1.o5", Request{Kind: aria.Table, Fields: []Field{
		{Name: "a", Type: typed.Number}, {Name: "b", Column: 1}, {Name: "c", Column: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	cell := func(extra ...string) []string { return append([]string{"name", "status", "value"}, extra...) }
	row := []string{"position", "evidence", "header", "structure", "valid", "cells"}
	scan := []string{"limit", "visited", "exhausted"}
	var want []string
	want = append(want, "schema_version", "trust", "revision", "collection", "found", "kind", "index", "source", "evidence", "rows")
	want = append(want, row...)
	want = append(want, cell("text")...) // "H" is not a number
	want = append(want, cell()...)       // missing
	want = append(want, cell()...)       // missing
	want = append(want, row...)
	want = append(want, cell("text")...)               // "x" is not a number
	want = append(want, cell("text", "truncation")...) // 257 units
	want = append(want, cell()...)                     // missing
	want = append(want, "coverage", "collection_scan")
	want = append(want, scan...)
	want = append(want, "row_scan")
	want = append(want, scan...)
	want = append(want, "row_limit", "rows_returned", "rows_omitted_by_limit", "rows_omitted_by_bytes", "rows_complete", "truncated_cells", "digest")
	if diff := cmp.Diff(want, keyOrder(t, res.Canonical())); diff != "" {
		t.Errorf("key order (-want +got)\n%s", diff)
	}
	if !bytes.Contains(res.Canonical(), []byte(`"evidence":"e5.1"`)) || !bytes.Contains(res.Canonical(), []byte(`"evidence":"e5.3"`)) {
		t.Errorf("evidence not numbered under sequence 5: %s", res.Canonical())
	}
	if !json.Valid(res.Canonical()) {
		t.Error("not valid JSON")
	}
}

func TestCanonicalEscaping(t *testing.T) {
	text := "a\"b\\c<d>&e\u2028f\u2029g\u00a0h\U0001F600i\u007fj"
	tree := build(t, page(E("table", tr("td", text)))...)
	res, err := Extract(tree, fileRev, Request{Kind: aria.Table, Fields: []Field{{Name: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `"value":"a\"b\\c<d>&e\u2028f\u2029g` + "\u00a0h\U0001F600i\u007fj" + `"`
	if !strings.Contains(string(res.Canonical()), want) {
		t.Errorf("canonical lacks %s:\n%s", want, res.Canonical())
	}
}

// digestOf recomputes a digest from canonical bytes by deleting the members
// the digest leaves out, independently of the encoder.
func digestOf(canonical []byte) string {
	s := string(canonical)
	s = regexp.MustCompile(`,"revision":"[^"]*"`).ReplaceAllString(s, "")
	s = regexp.MustCompile(`,"evidence":"e[0-9]+\.[0-9]+"`).ReplaceAllString(s, "")
	s = regexp.MustCompile(`,"digest":"sha256:[0-9a-f]{64}"}$`).ReplaceAllString(s, "}")
	sum := sha256.Sum256([]byte(s))
	return DigestPrefix + hex.EncodeToString(sum[:])
}

func TestDigest(t *testing.T) {
	tree := build(t, productTable()...)
	a, err := Extract(tree, fileRev, productRequest())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Extract(build(t, productTable()...), "r1.abc.n4.o99", productRequest())
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest != b.Digest {
		t.Errorf("digest depends on revision or evidence: %s vs %s", a.Digest, b.Digest)
	}
	if bytes.Equal(a.Canonical(), b.Canonical()) {
		t.Error("different revisions gave identical bytes")
	}
	if got := digestOf(a.Canonical()); got != a.Digest {
		t.Errorf("digest %s, recomputed %s", a.Digest, got)
	}
	if got := digestOf(b.Canonical()); got != b.Digest {
		t.Errorf("digest %s, recomputed %s", b.Digest, got)
	}
	changed := productTable()
	changed[0].kids[0].kids[1].kids[1].kids[0].kids[0].kids[0].text = "Widget2"
	c, err := Extract(build(t, changed...), fileRev, productRequest())
	if err != nil {
		t.Fatal(err)
	}
	if c.Digest == a.Digest {
		t.Error("digest did not change with content")
	}
	req := productRequest()
	req.Fields[1].Type = typed.String
	d, _ := Extract(tree, fileRev, req)
	if d.Digest == a.Digest {
		t.Error("digest did not change with the request's types")
	}
}

func TestDeterminism(t *testing.T) {
	first, err := Extract(build(t, productTable()...), fileRev, productRequest())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, err := Extract(build(t, productTable()...), fileRev, productRequest())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Canonical(), again.Canonical()) {
			t.Fatalf("output differs:\n%s\n%s", first.Canonical(), again.Canonical())
		}
	}
}

// TestExtractConcurrent extracts from one tree on several goroutines; run
// with -race it shows that Extract only reads the tree.
func TestExtractConcurrent(t *testing.T) {
	tree := build(t, productTable()...)
	want, err := Extract(tree, fileRev, productRequest())
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			res, err := Extract(tree, fileRev, productRequest())
			if err == nil && !bytes.Equal(res.Canonical(), want.Canonical()) {
				err = errors.New("concurrent result differs")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
