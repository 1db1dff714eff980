package domsnap

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/domsnap/domsnap/limits"
)

// TestCheckedIsNotCheckedAgain shows the request is checked once: a
// *Checked answers Check with itself, so Extract, Observe and a live
// session handed one run no rule again.
func TestCheckedIsNotCheckedAgain(t *testing.T) {
	q, err := productRequest().Check()
	if err != nil {
		t.Fatal(err)
	}
	again, err := q.Check()
	if err != nil || again != q {
		t.Fatalf("Check on a *Checked gave %p, %v; want %p itself", again, err, q)
	}
	viaPackage, err := Check(q)
	if err != nil || viaPackage != q {
		t.Fatalf("Check(q) gave %p, %v; want %p itself", viaPackage, err, q)
	}
}

// TestDecodedCheckedOnce counts rule runs: a request decoded with
// DecodeChecked is held to the rules once, by the reader, and Extract and
// Observe add no run; decoding with DecodeRequest and then checking runs
// them twice, and a Request handed to Extract is checked there, once.
func TestDecodedCheckedOnce(t *testing.T) {
	tree := build(t, productTable()...)
	data, err := productRequest().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	runs := func(f func()) uint64 {
		t.Helper()
		before := ruleRuns.Load()
		f()
		return ruleRuns.Load() - before
	}
	var q *Checked
	if n := runs(func() { q, err = DecodeChecked(data) }); err != nil || n != 1 {
		t.Fatalf("DecodeChecked: %d rule runs, %v; want 1, nil", n, err)
	}
	if n := runs(func() { _, err = Extract(tree, fileRev, q) }); err != nil || n != 0 {
		t.Fatalf("Extract of a decoded *Checked: %d rule runs, %v; want 0, nil", n, err)
	}
	if n := runs(func() { _, err = Observe(tree, fileRev, q) }); err != nil || n != 0 {
		t.Fatalf("Observe of a decoded *Checked: %d rule runs, %v; want 0, nil", n, err)
	}
	var r Request
	if n := runs(func() {
		if r, err = DecodeRequest(data); err == nil {
			_, err = r.Check()
		}
	}); err != nil || n != 2 {
		t.Fatalf("DecodeRequest then Check: %d rule runs, %v; want 2, nil", n, err)
	}
	if n := runs(func() { _, err = Extract(tree, fileRev, r) }); err != nil || n != 1 {
		t.Fatalf("Extract of a Request: %d rule runs, %v; want 1, nil", n, err)
	}
	if got := q.Request(); !reflect.DeepEqual(got, r) {
		t.Fatalf("DecodeChecked holds %+v, DecodeRequest gave %+v", got, r)
	}
}

// TestDecodeCheckedErrors shows DecodeChecked refuses what DecodeRequest
// refuses, with the very same error.
func TestDecodeCheckedErrors(t *testing.T) {
	for _, in := range []string{
		``,
		`{"kind":"table","index":0,"fields":[]}`,
		`{"kind":"list","index":0,"fields":[{"name":"a","column":1,"type":"string"}]}`,
		`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}],"row_limit":0}`,
		`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]} x`,
	} {
		_, want := DecodeRequest([]byte(in))
		q, got := DecodeChecked([]byte(in))
		if want == nil || q != nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%q: DecodeChecked gave %v, %v; DecodeRequest %v", in, q, got, want)
		}
	}
}

// TestCheckedSameResult shows a Request and its *Checked give the same
// extraction and the same observation, byte for byte.
func TestCheckedSameResult(t *testing.T) {
	tree := build(t, productTable()...)
	req := productRequest()
	q, err := req.Check()
	if err != nil {
		t.Fatal(err)
	}
	a, err := Extract(tree, fileRev, req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Extract(tree, fileRev, q)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Canonical(), b.Canonical()) {
		t.Fatalf("Request and *Checked differ:\n%s\n%s", a.Canonical(), b.Canonical())
	}
	oa, err := Observe(tree, fileRev, &req)
	if err != nil {
		t.Fatal(err)
	}
	ob, err := Observe(tree, fileRev, q)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(oa.Canonical(), ob.Canonical()) {
		t.Fatalf("observations differ:\n%s\n%s", oa.Canonical(), ob.Canonical())
	}
	if !bytes.Equal(oa.Extraction.Canonical(), a.Canonical()) {
		t.Fatal("an observation's extraction differs from Extract's result")
	}
}

// TestCheckedKeepsItsOwnCopy: changing the Request after Check changes
// nothing the checked request holds, so the rules cannot be dodged.
func TestCheckedKeepsItsOwnCopy(t *testing.T) {
	req := productRequest()
	q, err := req.Check()
	if err != nil {
		t.Fatal(err)
	}
	req.Fields[0].Name = "NOT A NAME"
	req.Fields[1].Column = -1
	if got := q.Request().Fields; got[0].Name != "product" || got[1].Column != 2 {
		t.Fatalf("the checked request changed with the caller's: %+v", got)
	}
	r := q.Request()
	r.Fields[0].Name = "x"
	if q.Request().Fields[0].Name != "product" {
		t.Fatal("Request() handed out the checked request's own fields")
	}
	if q.Request().RowLimit != limits.DefaultRowLimit {
		t.Fatalf("row limit not resolved: %d", q.Request().RowLimit)
	}
}

// TestNoRequest: Observe reads no request, in any nil form, as an
// observation without extraction; Extract refuses it as invalid_request.
func TestNoRequest(t *testing.T) {
	tree := build(t, productTable()...)
	for name, q := range map[string]Query{
		"nil":          nil,
		"nil *Request": (*Request)(nil),
		"nil *Checked": (*Checked)(nil),
	} {
		o, err := Observe(tree, fileRev, q)
		if err != nil || o.Extraction != nil || len(o.Inventory) == 0 {
			t.Errorf("%s: Observe gave %+v, %v; want an inventory without extraction", name, o, err)
		}
		if _, err := Extract(tree, fileRev, q); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%s: Extract gave %v, want invalid_request", name, err)
		}
	}
}

// TestCheckedLiteralRefused: a Checked written as a literal never passed
// the rules, so it is refused rather than analysed.
func TestCheckedLiteralRefused(t *testing.T) {
	tree := build(t, productTable()...)
	if _, err := Extract(tree, fileRev, &Checked{}); !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("Extract of a literal Checked: %v, want invalid_request", err)
	}
	if _, err := Observe(tree, fileRev, &Checked{}); !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("Observe of a literal Checked: %v, want invalid_request", err)
	}
}

// TestCheckedRevision: the expected revision is parsed once, and a
// malformed one is still reported after the snapshot's own revision, as
// before: a malformed current revision wins.
func TestCheckedRevision(t *testing.T) {
	req := productRequest()
	req.ExpectedRevision = "not a revision"
	q, err := req.Check()
	if err != nil {
		t.Fatalf("a malformed expected revision is refused by the comparison, not by Check: %v", err)
	}
	if _, ok := q.ExpectedRevision(); ok || !q.HasExpectedRevision() {
		t.Fatal("a malformed expected revision reported as usable, or as absent")
	}
	tree := build(t, productTable()...)
	if _, err := Extract(tree, "r1.bad", q); CodeOf(err) != MalformedSnapshot {
		t.Fatalf("malformed current and expected: got %v, want malformed_snapshot", err)
	}
	if _, err := Extract(tree, fileRev, q); CodeOf(err) != ForeignRevision {
		t.Fatalf("malformed expected: got %v, want foreign_revision", err)
	}
	cur := Revision{Session: "abc", Navigation: 2, Sequence: 5}
	for _, c := range []struct {
		expected string
		want     Code
	}{
		{"r1.abc.n2.o5", ""},
		{"r1.abc.n2.o4", StaleRevision},
		{"r1.abc.n1.o9", NavigatedRevision},
		{"r1.abc.n2.o6", ForeignRevision},
		{"r1.xyz.n2.o5", ForeignRevision},
		{fileRev, ForeignRevision},
	} {
		r := productRequest()
		r.ExpectedRevision = c.expected
		q, err := r.Check()
		if err != nil {
			t.Fatal(err)
		}
		got := q.CheckRevision(cur)
		if CodeOf(got) != c.want {
			t.Errorf("%s against %s: got %v, want %q", c.expected, cur, got, c.want)
		}
		// The string form compares the same way.
		if CodeOf(CheckRevision(c.expected, cur.String())) != c.want {
			t.Errorf("%s: CheckRevision disagrees with Checked.CheckRevision", c.expected)
		}
		if q.WithoutExpectedRevision().CheckRevision(cur) != nil || q.WithoutExpectedRevision().HasExpectedRevision() {
			t.Errorf("%s: WithoutExpectedRevision still checks a revision", c.expected)
		}
	}
	if err := q.CheckRevision(Revision{Session: "UPPER"}); CodeOf(err) != MalformedSnapshot {
		t.Fatalf("a current revision that is no revision: got %v, want malformed_snapshot", err)
	}
}

// TestCellAccessors: each accessor gives the value of an OK cell of its own
// type, and nothing for another type or another status.
func TestCellAccessors(t *testing.T) {
	s := Cell{Status: OK, Value: "x"}
	i := Cell{Status: OK, Value: int64(-3)}
	f := Cell{Status: OK, Value: 4.5}
	b := Cell{Status: OK, Value: true}
	if v, ok := s.StringValue(); !ok || v != "x" {
		t.Error("StringValue")
	}
	if v, ok := i.IntegerValue(); !ok || v != -3 {
		t.Error("IntegerValue")
	}
	if v, ok := f.NumberValue(); !ok || v != 4.5 {
		t.Error("NumberValue")
	}
	if v, ok := b.BooleanValue(); !ok || !v {
		t.Error("BooleanValue")
	}
	if _, ok := s.IntegerValue(); ok {
		t.Error("a string cell read as an integer")
	}
	if _, ok := f.IntegerValue(); ok {
		t.Error("a number cell read as an integer")
	}
	bad := Cell{Status: Invalid, Value: "left behind"}
	if _, ok := bad.StringValue(); ok {
		t.Error("a value read from a cell that is not OK")
	}
}

// TestParseWords: the parsers accept exactly the names a request spells,
// never the zero kind.
func TestParseWords(t *testing.T) {
	for _, s := range []string{"table", "list", "form"} {
		if k, ok := ParseKind(s); !ok || k.String() != s {
			t.Errorf("ParseKind(%q) = %v, %v", s, k, ok)
		}
	}
	for _, s := range []string{"", "Table", " table", "grid"} {
		if _, ok := ParseKind(s); ok {
			t.Errorf("ParseKind(%q) accepted", s)
		}
	}
	for _, s := range []string{"string", "integer", "number", "boolean"} {
		if ty, ok := ParseType(s); !ok || ty.String() != s {
			t.Errorf("ParseType(%q) = %v, %v", s, ty, ok)
		}
	}
	for _, s := range []string{"", "String", "float"} {
		if _, ok := ParseType(s); ok {
			t.Errorf("ParseType(%q) accepted", s)
		}
	}
}
