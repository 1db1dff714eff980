package domtree

import (
	"strings"
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
	if s := unsafe.Sizeof(record{}); unsafe.Sizeof(uintptr(0)) == 8 && s != 36 {
		t.Errorf("record is %d bytes, want 36", s)
	}
}

// TestTextBlock: names and contents read back from the one text block as
// they went in, a name shared by many elements is stored once, each node's
// attributes end where the next node's begin (elements without any, text
// in between, the last node), and the text's bound holds just under, at
// and just over it.
func TestTextBlock(t *testing.T) {
	b := NewBuilder(0)
	must := mustAdd(t)
	body := must(b.AddElement(0, "body", nil, ElementInfo{}))
	d1 := must(b.AddElement(body, "DIV", []Attr{{"a", "1"}, {"b", "2"}}, ElementInfo{}))
	tx := must(b.AddText(d1, "héllo", 0))
	d2 := must(b.AddElement(body, "div", nil, ElementInfo{}))
	ta := must(b.AddElement(d2, "textarea", []Attr{{"c", "3"}}, ElementInfo{}))
	must(b.AddText(ta, "secret", 0))
	cm := must(b.AddComment(body, "", 0))
	last := must(b.AddElement(body, "span", []Attr{{"d", "4"}}, ElementInfo{}))
	if n := len(b.buf); n != len("body"+"div"+"héllo"+"textarea"+"span") {
		t.Errorf("text block %d bytes: a repeated name was stored again", n)
	}
	tr := b.Build()
	for _, c := range []struct {
		i          int
		name, data string
		attrs      int
	}{{body, "body", "", 0}, {d1, "div", "", 2}, {tx, "", "héllo", 0}, {d2, "div", "", 0}, {ta, "textarea", "", 1}, {ta + 1, "", "", 0}, {cm, "", "", 0}, {last, "span", "", 1}} {
		n := tr.At(c.i)
		if n.Name() != c.name || n.Data() != c.data || len(n.Attrs()) != c.attrs {
			t.Errorf("node %d: name %q data %q, %d attributes; want %q %q %d", c.i, n.Name(), n.Data(), len(n.Attrs()), c.name, c.data, c.attrs)
		}
	}
	if v, _ := tr.At(last).Attr("d"); v != "4" || tr.At(d1).AttrValue("b") != "2" || tr.At(d1).HasAttr("c") {
		t.Error("attributes leak across node boundaries")
	}

	// Many small texts fill several chunks; texts over a quarter of a
	// chunk, one of them longer than a chunk, take slots of their own
	// between them; all read back intact and in place.
	b = NewBuilder(0)
	p := must(b.AddElement(0, "p", nil, ElementInfo{}))
	var want []string
	for i := range 30000 {
		s := strings.Repeat(string(rune('a'+i%26)), i%7+1)
		switch i {
		case 100:
			s = strings.Repeat("x", chunkSize/4+1)
		case 20000:
			s = strings.Repeat("y", 3*chunkSize+5)
		case 20001:
			s = strings.Repeat("z", chunkSize/4) // small enough to copy
		}
		must(b.AddText(p, s, 0))
		want = append(want, s)
	}
	tr = b.Build()
	if len(tr.text) < 6 {
		t.Errorf("%d slots, want several chunks and the long texts' own", len(tr.text))
	}
	for i, s := range want {
		if got := tr.At(p + 1 + i).Data(); got != s {
			t.Fatalf("text %d: %d bytes back, want %d", i, len(got), len(s))
		}
	}

	// The text buffer grows with the text instead of starting at a
	// whole chunk, and never past one.
	b = NewBuilder(0)
	p = must(b.AddElement(0, "p", nil, ElementInfo{}))
	must(b.AddText(p, "a small page", 0))
	if c := cap(b.buf); c != firstChunkCap {
		t.Errorf("a small tree's text buffer holds %d bytes, want %d", c, firstChunkCap)
	}
	for range chunkSize / 100 * 3 {
		must(b.AddText(p, strings.Repeat("t", 100), 0))
		if c := cap(b.buf); c > chunkSize {
			t.Fatalf("the text buffer grew to %d bytes, past a chunk (%d)", c, chunkSize)
		}
	}
	if c := cap(b.buf); c != chunkSize {
		t.Errorf("after three chunks of text the buffer holds %d bytes, want a chunk (%d)", c, chunkSize)
	}

	// The slot bound: just under, at and just over it.
	defer func(old int) { maxSlots = old }(maxSlots)
	for _, c := range []struct {
		limit int
		ok    bool
	}{{4, true}, {3, true}, {2, false}} {
		maxSlots = c.limit
		b := NewBuilder(0)
		p, err := b.AddElement(0, "p", nil, ElementInfo{}) // slot 0
		if err != nil {
			t.Fatal(err)
		}
		long := strings.Repeat("q", chunkSize+1) // slots 1 and 2
		_, err = b.AddText(p, long, 0)
		if (err == nil) != c.ok {
			t.Errorf("limit %d: error %v", c.limit, err)
		}
		if err == nil {
			if got := b.Build().At(p + 1).Data(); got != long {
				t.Errorf("limit %d: the text came back as %d bytes", c.limit, len(got))
			}
		}
	}
}
