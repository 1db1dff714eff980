package domtree

import (
	"testing"
	"unsafe"
)

// mustAdd returns a function that unwraps a builder call, failing t on error.
func mustAdd(t *testing.T) func(int, error) int {
	return func(i int, err error) int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
}

func TestBuilderLinksAndOrder(t *testing.T) {
	b := NewBuilder(0)
	must := mustAdd(t)
	html := must(b.AddElement(0, "HTML", nil, ElementInfo{Display: DisplayBlock}))
	body := must(b.AddElement(html, "body", nil, ElementInfo{Display: DisplayBlock}))
	p := must(b.AddElement(body, "p", []Attr{{"ID", "x"}}, ElementInfo{Display: DisplayBlock}))
	must(b.AddText(p, "hi", 0))
	p2 := must(b.AddElement(body, "p", []Attr{{"id", "x"}}, ElementInfo{Display: DisplayBlock}))
	if _, err := b.AddText(p, "late", 0); err == nil {
		t.Fatal("adding under a closed subtree must fail")
	}
	tr := b.Build()
	if tr.Len() != 6 {
		t.Fatalf("len %d", tr.Len())
	}
	if got, _ := tr.ElementByID("x"); got.Index() != p {
		t.Fatalf("id index picked %d, want first %d", got.Index(), p)
	}
	if tr.At(html).Name() != "html" {
		t.Fatal("name not lower-cased")
	}
	if !tr.At(body).Contains(tr.At(p2)) || tr.At(p).Contains(tr.At(p2)) {
		t.Fatal("Contains wrong")
	}
	var order []int
	for n := range tr.All() {
		order = append(order, n.Index())
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("walk order %v", order)
		}
	}
	if tr.At(p2).PrevSibling().Index() != p || tr.At(p).NextSibling().Index() != p2 {
		t.Fatal("sibling links wrong")
	}
}

func TestSecretRuleInBuilder(t *testing.T) {
	b := NewBuilder(0)
	must := mustAdd(t)
	in := must(b.AddElement(0, "input", []Attr{{"value", "CANARY"}, {"type", "text"}}, ElementInfo{}))
	btn := must(b.AddElement(0, "input", []Attr{{"value", "Go"}, {"TYPE", "Submit"}}, ElementInfo{}))
	ta := must(b.AddElement(0, "textarea", nil, ElementInfo{}))
	txt := must(b.AddText(ta, "CANARY", 0))
	tr := b.Build()
	if tr.At(in).HasAttr("value") {
		t.Fatal("text input kept its value")
	}
	if v, _ := tr.At(btn).Attr("value"); v != "Go" {
		t.Fatal("submit input lost its caption")
	}
	if tr.At(txt).Data() != "" || tr.At(txt).Kind() != Text {
		t.Fatal("textarea text kept")
	}
}

func TestExclusion(t *testing.T) {
	b := NewBuilder(0)
	must := mustAdd(t)
	det := must(b.AddElement(0, "details", nil, ElementInfo{Display: DisplayBlock}))
	sum := must(b.AddElement(det, "summary", nil, ElementInfo{Display: DisplayBlock}))
	sumText := must(b.AddText(sum, "s", 0))
	loose := must(b.AddText(det, "x", 0))
	sum2 := must(b.AddElement(det, "summary", nil, ElementInfo{Display: DisplayBlock}))
	ah := must(b.AddElement(0, "div", []Attr{{"aria-hidden", "TRUE"}}, ElementInfo{Display: DisplayBlock}))
	inner := must(b.AddElement(ah, "span", nil, ElementInfo{}))
	vh := must(b.AddElement(0, "div", nil, ElementInfo{Display: DisplayBlock, Visibility: Hidden}))
	vhText := must(b.AddText(vh, "t", 0))
	vis := must(b.AddElement(vh, "span", nil, ElementInfo{}))
	tr := b.Build()
	for _, c := range []struct {
		i        int
		excluded bool
		visible  bool
	}{{sum, false, true}, {sumText, false, true}, {loose, true, false}, {sum2, true, false},
		{ah, true, false}, {inner, true, false}, {vh, false, false}, {vhText, false, false}, {vis, false, true}} {
		n := tr.At(c.i)
		if n.Excluded() != c.excluded || n.Visible() != c.visible {
			t.Errorf("node %d: excluded %v visible %v, want %v %v", c.i, n.Excluded(), n.Visible(), c.excluded, c.visible)
		}
	}
}

// TestSetStyle: a source may settle an element's display and visibility
// after adding it, until the tree is built; exclusion follows the final
// value, and anything but an element is left alone.
func TestSetStyle(t *testing.T) {
	b := NewBuilder(0)
	b.ReserveAttrs(3)
	div, _ := b.AddElement(0, "div", []Attr{{Name: "id", Value: "a"}}, ElementInfo{Display: DisplayBlock})
	txt, _ := b.AddText(div, "x", 0)
	span, _ := b.AddElement(div, "span", nil, ElementInfo{Display: DisplayInline})
	b.SetStyle(span, DisplayNone, Hidden)
	b.SetStyle(txt, DisplayNone, Hidden) // not an element: no change
	b.SetStyle(99, DisplayNone, Hidden)  // out of range: no change
	tr := b.Build()
	b.SetStyle(div, DisplayNone, Hidden) // built: no change
	d, s := tr.At(div), tr.At(span)
	if d.Display() != DisplayBlock || d.Visibility() != Visible || d.Excluded() {
		t.Errorf("div: %v %v excluded %t", d.Display(), d.Visibility(), d.Excluded())
	}
	if s.Display() != DisplayNone || s.Visibility() != Hidden || !s.Excluded() {
		t.Errorf("span: %v %v excluded %t", s.Display(), s.Visibility(), s.Excluded())
	}
	if x := tr.At(txt); x.Excluded() {
		t.Errorf("text excluded")
	}
	if v, _ := d.Attr("id"); v != "a" {
		t.Errorf("id %q", v)
	}
}

// TestRecordSize: the tree's per-node cost is its record (plus text and
// attributes); first child and next sibling are derived, not stored.
func TestRecordSize(t *testing.T) {
	if s := unsafe.Sizeof(record{}); unsafe.Sizeof(uintptr(0)) == 8 && s != 48 {
		t.Errorf("record is %d bytes, want 48", s)
	}
}
