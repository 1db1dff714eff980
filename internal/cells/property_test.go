package cells

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
	"pgregory.net/rapid"
)

// chooser draws the generator's decisions: from rapid in the property test,
// from fuzz bytes in the fuzz target, so both check the same property.
type chooser interface{ intn(n int) int }

type rapidChooser struct{ t *rapid.T }

func (c rapidChooser) intn(n int) int { return rapid.IntRange(0, n-1).Draw(c.t, "c") }

// byteChooser reads one decision per byte and answers 0 once the bytes run out.
type byteChooser struct{ b []byte }

func (c *byteChooser) intn(n int) int {
	if len(c.b) == 0 {
		return 0
	}
	v := int(c.b[0])
	c.b = c.b[1:]
	return v % n
}

var (
	pieces   = []string{"a", "é", " ", "\t", "\n", "\u00a0", "\U0001F600", "xyz", "  ", "\r\f", "\u3000", "b"}
	elements = []string{"div", "span", "b", "br", "p", "td", "table", "ul", "li", "label", "input",
		"select", "option", "textarea", "button", "details", "summary", "form"}
	ceValues = []string{"", "true", "False", "plaintext-only", "x", "TRUE"}
	genIDs   = []string{"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9", "nope"}
	roles    = []string{"list", "grid", "presentation", "button", "none", "table form"}
)

// maxGenNodes bounds a generated tree: comfortably past CellNodes, small
// enough that checking every control stays fast.
const maxGenNodes = 3 * limits.CellNodes

func genText(ch chooser) string {
	var b strings.Builder
	for range ch.intn(8) {
		b.WriteString(pieces[ch.intn(len(pieces))])
	}
	if ch.intn(4) == 0 {
		return strings.Repeat(b.String(), 50+ch.intn(300))
	}
	return b.String()
}

// genSpec generates one node. Every editable element gets the canary
// inside it, so the property can check it never comes out.
//
// left is the number of nodes the tree may still grow by; it keeps repeated
// subtrees from multiplying out of all proportion.
func genSpec(ch chooser, depth int, left *int) spec {
	*left--
	switch k := ch.intn(10); {
	case *left <= 0:
		return T(genText(ch))
	case k < 4:
		return T(genText(ch))
	case k == 4:
		return C(genText(ch))
	}
	s := E(elements[ch.intn(len(elements))])
	s.display = displayMark(ch.intn(4))
	if s.display == DisplayNone && ch.intn(2) == 0 {
		s.display = defaultDisplay
	}
	s.hidden = visMark(ch.intn(5) % 3)
	if ch.intn(8) == 0 {
		s.attrs = append(s.attrs, domtree.Attr{Name: "aria-hidden", Value: "true"})
	}
	if ch.intn(6) == 0 {
		s.attrs = append(s.attrs, domtree.Attr{Name: "contenteditable", Value: ceValues[ch.intn(len(ceValues))]})
	}
	if ch.intn(8) == 0 {
		s.attrs = append(s.attrs, domtree.Attr{Name: "role", Value: roles[ch.intn(len(roles))]})
	}
	// Label sources, so label resolution meets every rule too.
	if ch.intn(3) == 0 {
		s.attrs = append(s.attrs, domtree.Attr{Name: "id", Value: genIDs[ch.intn(len(genIDs))]})
	}
	if ch.intn(4) == 0 {
		var ids []string
		for range ch.intn(12) {
			ids = append(ids, genIDs[ch.intn(len(genIDs))])
		}
		s.attrs = append(s.attrs, domtree.Attr{Name: "aria-labelledby", Value: strings.Join(ids, " ")})
	}
	if s.name == "label" && ch.intn(2) == 0 {
		s.attrs = append(s.attrs, domtree.Attr{Name: "for", Value: genIDs[ch.intn(len(genIDs))]})
	}
	for _, name := range []string{"aria-label", "title", "placeholder"} {
		if ch.intn(8) == 0 {
			s.attrs = append(s.attrs, domtree.Attr{Name: name, Value: genText(ch)})
		}
	}
	if depth < 6 {
		for range ch.intn(5) {
			s.kids = append(s.kids, genSpec(ch, depth+1, left))
		}
		if ch.intn(10) == 0 {
			before := *left
			kid := genSpec(ch, depth+1, left)
			size := max(before-*left, 1)
			for range min(100+ch.intn(250), *left/size) {
				s.kids = append(s.kids, kid)
				*left -= size
			}
		}
	}
	if isEditableSpec(s) {
		s.kids = append(s.kids, T(canary), E("option", canary))
	}
	return s
}

// genCell generates a td cell with generated content.
func genCell(ch chooser) spec {
	left := maxGenNodes
	cell := E("td")
	for range 1 + ch.intn(6) {
		cell.kids = append(cell.kids, genSpec(ch, 1, &left))
	}
	return cell
}

func isEditableSpec(s spec) bool {
	switch s.name {
	case "input", "select", "textarea":
		return true
	}
	for _, a := range s.attrs {
		if a.Name == "contenteditable" {
			v := strings.ToLower(a.Value)
			return v == "" || v == "true" || v == "plaintext-only"
		}
	}
	return false
}

// reference is an unbounded, recursive statement of the text of docs/reference.md#cell-text,
// before normalisation. Generated trees are shallow, so recursion is fine.
func reference(n, start domtree.Node) string {
	switch n.Kind() {
	case domtree.Text:
		if n.Visible() {
			return n.Data()
		}
		return ""
	case domtree.Document:
	case domtree.Element:
		if n.Excluded() {
			return ""
		}
	default:
		return ""
	}
	var b strings.Builder
	block := n.IsElement() && n.Display() != domtree.DisplayInline
	if block || (n.Is("br") && !n.Invisible()) {
		b.WriteByte(' ')
	}
	if !editable(n) && (n == start || !nestedCollection(n)) {
		for c := range n.Children() {
			b.WriteString(reference(c, start))
		}
	}
	if block {
		b.WriteByte(' ')
	}
	return b.String()
}

func normalize(s string) string {
	return strings.Join(domtree.Fields(s), " ")
}

func units(s string) int { return len(utf16.Encode([]rune(s))) }

// checkSummary states the invariants every summary keeps.
func checkSummary(t interface{ Fatalf(string, ...any) }, s Summary) {
	if units(s.Text) > limits.CellUnits {
		t.Fatalf("%d units", units(s.Text))
	}
	if !utf8.ValidString(s.Text) {
		t.Fatalf("invalid UTF-8 %q", s.Text)
	}
	if s.Text != "" && (domtree.IsASCIISpace(s.Text[0]) || domtree.IsASCIISpace(s.Text[len(s.Text)-1])) {
		t.Fatalf("untrimmed %q", s.Text)
	}
	if strings.Contains(s.Text, "  ") || strings.ContainsAny(s.Text, "\t\n\f\r") {
		t.Fatalf("uncollapsed %q", s.Text)
	}
	if s.Truncated != (s.Why != None) {
		t.Fatalf("truncated %v why %v", s.Truncated, s.Why)
	}
	if strings.Contains(s.Text, canary) {
		t.Fatalf("canary in %q", s.Text)
	}
}

// checkCell runs the whole property on one generated cell.
func checkCell(t interface {
	Fatalf(string, ...any)
	Helper()
}, tr *domtree.Tree) {
	t.Helper()
	cell := first(tr)
	w := newWalker()
	w.walk(cell)
	got := w.summary()
	checkSummary(t, got)
	if w.budget.Visited() > limits.CellNodes {
		t.Fatalf("visited %d", w.budget.Visited())
	}
	if again := Summarize(cell); again != got {
		t.Fatalf("not deterministic: %+v then %+v", got, again)
	}
	want := normalize(reference(cell, cell))
	switch got.Why {
	case None:
		if got.Text != want {
			t.Fatalf("complete summary %q, reference %q", got.Text, want)
		}
		if w.budget.Visited() != min(visitsNeeded(cell), limits.CellNodes) {
			t.Fatalf("visited %d of %d", w.budget.Visited(), visitsNeeded(cell))
		}
	case TruncText:
		if !strings.HasPrefix(want, got.Text) || units(want) <= limits.CellUnits {
			t.Fatalf("text-truncated %q is no cut of %q", got.Text, want)
		}
	case TruncNodes:
		if !strings.HasPrefix(want, got.Text) || visitsNeeded(cell) <= limits.CellNodes {
			t.Fatalf("node-truncated %q (needs %d nodes) is no cut of %q", got.Text, visitsNeeded(cell), want)
		}
	default:
		t.Fatalf("summary truncated by %v", got.Why)
	}
	// Labels: every element of the tree as a control, within the same bounds.
	checked := 0
	for n := range tr.All() {
		if !n.IsElement() || checked == 40 {
			continue
		}
		checked++
		for col := ColumnLabel; col <= ColumnRequired; col++ {
			s := FormCell(n, col)
			if strings.Contains(s.Text, canary) {
				t.Fatalf("FormCell(%s %v, %d)", n.Name(), n.Attrs(), col)
			}
			checkSummary(t, s)
			if s != FormCell(n, col) {
				t.Fatalf("FormCell not deterministic")
			}
		}
	}
}

// visitsNeeded counts the nodes an unbounded walk would visit.
func visitsNeeded(start domtree.Node) int {
	count := 0
	for n := start; n.Valid(); {
		count++
		enter := n.Kind() == domtree.Document ||
			(n.IsElement() && !n.Excluded() && !editable(n) && (n == start || !nestedCollection(n)))
		n = n.Next(start, enter)
	}
	return count
}

func TestSummaryProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cell := genCell(rapidChooser{rt})
		checkCell(rt, build(rt, cell))
	})
}

func FuzzSummary(f *testing.F) {
	f.Add([]byte{5, 5, 0, 1, 2, 3, 4, 0, 1})
	f.Add([]byte{9, 2, 1, 0, 0, 4, 0, 0, 9, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1})
	f.Add([]byte("a long seed that draws many decisions from its bytes, with texts and repeats"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cell := genCell(&byteChooser{data})
		checkCell(t, build(t, cell))
	})
}
