package collect

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

var (
	genNames = []string{"div", "span", "table", "thead", "tbody", "tfoot", "tr", "td", "th",
		"caption", "ul", "ol", "li", "form", "input", "button", "select", "textarea", "p",
		"menu", "details", "summary", "script"}
	genRoles = []string{"row", "cell", "rowgroup", "table", "grid", "list",
		"listitem", "none", "form", "button", "columnheader", "gridcell", "bogus row", "group"}
	genSpans = []string{"0", "1", "2", "2;", "x", " 3"}
	// genCounts are aria-rowcount and aria-colcount values, each with the
	// count it declares (0: none).
	genCounts = map[string]int{"1001": 1001, "-1": -1, "0": 0, "2": 2, "x": 0, " 3;": 3, "-5": 0, "+1": 1}
	// genRowIndex are aria-rowindex values, each with the position it gives
	// a row of an ARIA table (0: none).
	genRowIndex = map[string]int{"1": 1, "2": 2, "3": 3, "0": 0, "x": 0, " 2;": 2, "10": 10, "-1": 0}
	// genChildren biases the drawn names towards real structure, so rows,
	// cells and items are common rather than rare.
	genChildren = map[string][]string{
		"":      {"table", "ul", "form", "div", "body"},
		"body":  {"table", "ul", "form", "div"},
		"table": {"thead", "tbody", "tfoot", "tr", "caption"},
		"thead": {"tr"}, "tbody": {"tr"}, "tfoot": {"tr"},
		"tr": {"td", "th"},
		"ul": {"li", "div"}, "ol": {"li"}, "menu": {"li"},
		"form": {"input", "div", "select", "table"},
		"div":  {"div", "span", "li", "tr", "td", "input"},
	}
)

// genTree draws a random tree of about maxNodes generated nodes, shaped by
// genChildren so that rows, cells and items are common. With pad set, it
// may also add a long run of text nodes under one element, so the real
// budgets are reached.
func genTree(t *rapid.T, maxNodes int, pad bool) *domtree.Tree {
	g := &treeGen{t: t, b: domtree.NewBuilder(0), left: rapid.IntRange(maxNodes/4, maxNodes).Draw(t, "nodes")}
	if pad {
		g.padAt = rapid.IntRange(0, g.left).Draw(t, "padAt")
		g.padLen = rapid.SampledFrom([]int{0, limits.RowScanNodes - 2, limits.RowScanNodes,
			limits.RowScanNodes + 1, limits.CollectionScanNodes - 3, limits.CollectionScanNodes,
			limits.CollectionScanNodes + 2}).Draw(t, "padLen")
	} else {
		g.padAt = -1
	}
	for g.left > 0 {
		g.children(0, "", domtree.Visible, 0)
	}
	return g.b.Build()
}

// genMaxDepth bounds the generated nesting; the generator recurses, which
// is fine for a tree it makes itself.
const genMaxDepth = 5

type treeGen struct {
	t             *rapid.T
	b             *domtree.Builder
	left          int
	padAt, padLen int
}

func (g *treeGen) children(parent int, name string, vis domtree.Visibility, depth int) {
	t := g.t
	most := 5
	switch name {
	case "td", "th", "li", "input", "button", "select", "textarea", "script", "caption", "span":
		most = 1 // content the row scans never enter: keep it small
	}
	// rapid favours small draws, so the likelier outcomes come first.
	n := min(most, rapid.SampledFrom([]int{3, 2, 4, 1, 5, 0}).Draw(t, "children"))
	for k := 0; k < n && g.left > 0; k++ {
		g.left--
		if g.left == g.padAt {
			for range g.padLen {
				if _, err := g.b.AddText(parent, "p", 0); err != nil {
					t.Fatal(err)
				}
			}
		}
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 4:
			if _, err := g.b.AddText(parent, "t", 0); err != nil {
				t.Fatal(err)
			}
			continue
		case 5:
			if _, err := g.b.AddComment(parent, "c", 0); err != nil {
				t.Fatal(err)
			}
			continue
		}
		child := rapid.SampledFrom(genNames).Draw(t, "name")
		if likely := genChildren[name]; likely != nil && rapid.IntRange(0, 3).Draw(t, "unbiased") != 3 {
			child = rapid.SampledFrom(likely).Draw(t, "likely")
		}
		var attrs []domtree.Attr
		role := ""
		if rapid.IntRange(0, 5).Draw(t, "hasRole") == 5 {
			role = rapid.SampledFrom(genRoles).Draw(t, "role")
			attrs = append(attrs, domtree.Attr{Name: "role", Value: role})
		}
		if rapid.IntRange(0, 7).Draw(t, "hasSpan") == 7 {
			a := rapid.SampledFrom([]string{"colspan", "rowspan", "aria-rowspan", "aria-colspan"}).Draw(t, "span")
			attrs = append(attrs, domtree.Attr{Name: a, Value: rapid.SampledFrom(genSpans).Draw(t, "spanValue")})
		}
		if rapid.IntRange(0, 7).Draw(t, "hasCount") == 7 {
			a := rapid.SampledFrom([]string{"aria-rowcount", "aria-colcount"}).Draw(t, "count")
			v := rapid.SampledFrom([]string{"1001", "-1", "0", "2", "x", " 3;", "-5", "+1"}).Draw(t, "countValue")
			attrs = append(attrs, domtree.Attr{Name: a, Value: v})
		}
		// Rows of ARIA tables are rare in a random tree: give them an index
		// more often than other elements.
		if (role == "row" && rapid.IntRange(0, 3).Draw(t, "rowHasIndex") != 0) || rapid.IntRange(0, 7).Draw(t, "hasRowIndex") == 7 {
			v := rapid.SampledFrom([]string{"1", "2", "3", "0", "x", " 2;", "10", "-1"}).Draw(t, "rowIndex")
			attrs = append(attrs, domtree.Attr{Name: "aria-rowindex", Value: v})
		}
		info := domtree.ElementInfo{Display: domtree.DisplayBlock, Visibility: vis}
		switch rapid.IntRange(0, 23).Draw(t, "state") {
		case 20:
			info.Display = domtree.DisplayNone
		case 21:
			attrs = append(attrs, domtree.Attr{Name: "aria-hidden", Value: "true"})
		case 22:
			info.Visibility = domtree.Hidden
		case 23:
			info.Visibility = domtree.Visible
		}
		i, err := g.b.AddElement(parent, child, attrs, info)
		if err != nil {
			t.Fatal(err)
		}
		if depth < genMaxDepth {
			g.children(i, child, info.Visibility, depth+1)
		}
	}
}

// referenceFind is the unbounded brute force: the index-th visible collection
// of kind in tree order, and the number of nodes a scan reaches up to and
// including it (or in the whole document when there is none).
func referenceFind(t *domtree.Tree, kind aria.Kind, index int) (domtree.Node, int) {
	count, reach := 0, 0
	for n := range t.All() {
		if n.Index() != 0 && n.Parent().Excluded() {
			continue // inside an excluded element: never reached
		}
		reach++
		if n.IsElement() && n.Visible() {
			if k, _, ok := aria.Collection(n); ok && k == kind {
				if count == index {
					return n, reach
				}
				count++
			}
		}
	}
	return domtree.Node{}, reach
}

var genKinds = []aria.Kind{aria.Table, aria.List, aria.Form}

func checkFind(t *rapid.T, tr *domtree.Tree, kind aria.Kind, index, limit int) Collection {
	got := find(tr, kind, index, limit)
	if again := find(tr, kind, index, limit); !cmp.Equal(got, again, cmp.Comparer(func(a, b domtree.Node) bool { return a == b })) {
		t.Fatal("collection scan is not deterministic")
	}
	if got.Scan.Visited > limit || got.Scan.Limit != limit {
		t.Fatalf("scan %+v over limit %d", got.Scan, limit)
	}
	want, reach := referenceFind(tr, kind, index)
	switch {
	case want.Valid() && reach <= limit:
		if !got.Found || got.Element != want || got.Scan.Visited != reach || got.Scan.Exhausted {
			t.Fatalf("got %+v, want node %d reached at %d", got, want.Index(), reach)
		}
	case reach <= limit: // absent, whole document scanned
		if got.Found || got.Reason != Absent || got.Scan.Visited != reach || got.Scan.Exhausted {
			t.Fatalf("got %+v, want absent after %d", got, reach)
		}
	default: // the budget runs out with nodes left
		if got.Found || got.Reason != ScanLimit || got.Scan.Visited != limit || !got.Scan.Exhausted {
			t.Fatalf("got %+v, want scan_limit (reference reach %d)", got, reach)
		}
	}
	return got
}

// orderKey is a row's rank in output order by an independent reading of
// docs/reference.md#rows: for a native table, rows of the first visible thead child,
// then everything else, then rows of the first visible tfoot child; within
// each, tree order. For an ARIA table, rows by aria-rowindex, those without
// one first, then tree order.
func orderKey(c Collection, r Row) [2]int {
	if c.Kind == aria.Table && !(c.Source == aria.Native && c.Element.Is("table")) {
		return [2]int{genRowIndex[r.Element.AttrValue("aria-rowindex")], r.Element.Index()}
	}
	if c.Source != aria.Native || c.Kind != aria.Table {
		return [2]int{1, r.Element.Index()}
	}
	var head, foot domtree.Node
	for ch := range c.Element.ChildElements() {
		if !head.Valid() && ch.Is("thead") && ch.Visible() {
			head = ch
		}
		if !foot.Valid() && ch.Is("tfoot") && ch.Visible() {
			foot = ch
		}
	}
	switch p := r.Element.Parent(); {
	case head.Valid() && p == head:
		return [2]int{0, r.Element.Index()}
	case foot.Valid() && p == foot:
		return [2]int{2, r.Element.Index()}
	}
	return [2]int{1, r.Element.Index()}
}

func checkRows(t *rapid.T, c Collection, limit int) {
	got := scanRows(c, limit)
	again := scanRows(c, limit)
	nodeEq := cmp.Comparer(func(a, b domtree.Node) bool { return a == b })
	if !cmp.Equal(got, again, nodeEq) {
		t.Fatal("row scan is not deterministic")
	}
	if got.Scan.Visited > limit || got.Scan.Limit != limit {
		t.Fatalf("scan %+v, limit %d", got.Scan, limit)
	}
	// A table's declared counts are its attributes' as genCounts reads
	// them; it is complete when the scan was not cut and it declares no
	// more rows than it saw and no more columns than its widest row has.
	wantRows, wantCols, widest := 0, 0, 0
	if c.Kind == aria.Table {
		wantRows, wantCols = genCounts[c.Element.AttrValue("aria-rowcount")], genCounts[c.Element.AttrValue("aria-colcount")]
		for _, r := range got.Rows {
			widest = max(widest, len(r.Cells))
		}
	}
	// Only a count saying more than was seen is kept.
	if wantRows != -1 && wantRows <= len(got.Rows) {
		wantRows = 0
	}
	if wantCols != -1 && wantCols <= got.Columns {
		wantCols = 0
	}
	if got.DeclaredRows != wantRows || got.DeclaredColumns != wantCols || got.Columns < widest || (c.Kind != aria.Table && got.Columns != 0) {
		t.Fatalf("declared %d rows, %d columns, %d columns held; want %d, %d and at least %d",
			got.DeclaredRows, got.DeclaredColumns, got.Columns, wantRows, wantCols, widest)
	}
	more := wantRows != 0 || wantCols != 0
	if got.Complete != (!got.Scan.Exhausted && !more) {
		t.Fatalf("complete %v, exhausted %v, declared more %v", got.Complete, got.Scan.Exhausted, more)
	}
	full := scanRows(c, math.MaxInt32)
	if got.Scan.Exhausted != (full.Scan.Visited > limit) {
		t.Fatalf("exhausted %v, but the unbounded scan visits %d of limit %d", got.Scan.Exhausted, full.Scan.Visited, limit)
	}
	if !got.Scan.Exhausted {
		if got.Scan.Visited != full.Scan.Visited || !cmp.Equal(got.Rows, full.Rows, nodeEq) {
			t.Fatalf("complete scan differs from the unbounded one")
		}
	} else if got.Scan.Visited != limit {
		t.Fatalf("exhausted at %d of %d", got.Scan.Visited, limit)
	}
	// Seen rows are unique, in output order, and each is the unbounded
	// scan's row for the same element: a bound only drops whole rows.
	seen := map[int]bool{}
	j := 0
	for i, r := range got.Rows {
		if seen[r.Element.Index()] {
			t.Fatalf("row %d repeated", r.Element.Index())
		}
		seen[r.Element.Index()] = true
		if i > 0 {
			a, b := orderKey(c, got.Rows[i-1]), orderKey(c, r)
			if a[0] > b[0] || (a[0] == b[0] && a[1] >= b[1]) {
				t.Fatalf("rows out of order: %v then %v", a, b)
			}
		}
		for j < len(full.Rows) && full.Rows[j].Element != r.Element {
			j++
		}
		if j == len(full.Rows) || !cmp.Equal(full.Rows[j], r, nodeEq) {
			t.Fatalf("row %d is not the unbounded scan's row, or out of its order", r.Element.Index())
		}
		if !c.Element.Contains(r.Element) || r.Element == c.Element || !r.Element.Visible() {
			t.Fatalf("row %d is not a visible descendant of the collection", r.Element.Index())
		}
		for _, cell := range r.Cells {
			if !cell.Visible() || !r.Element.Contains(cell) {
				t.Fatalf("cell %d of row %d", cell.Index(), r.Element.Index())
			}
		}
		if r.Structure == UnsupportedSpan && r.Cells != nil {
			t.Fatal("an unsupported row reports cells")
		}
	}
}

// drawTarget picks what to look for: usually a collection the tree has (so
// that rows are scanned often), sometimes any kind and index.
func drawTarget(t *rapid.T, tr *domtree.Tree) (aria.Kind, int) {
	type target struct {
		kind  aria.Kind
		index int
	}
	var have []target
	counts := map[aria.Kind]int{}
	for n := range tr.All() {
		if n.Index() != 0 && n.Parent().Excluded() || !n.IsElement() || !n.Visible() {
			continue
		}
		if k, _, ok := aria.Collection(n); ok {
			have = append(have, target{k, counts[k]})
			counts[k]++
		}
	}
	if len(have) > 0 && rapid.IntRange(0, 3).Draw(t, "anyTarget") != 3 {
		tg := rapid.SampledFrom(have).Draw(t, "target")
		return tg.kind, tg.index
	}
	return rapid.SampledFrom(genKinds).Draw(t, "kind"), rapid.IntRange(0, 3).Draw(t, "index")
}

// drawLimit picks a budget: usually within a few nodes of need, the cost of
// the unbounded scan, where the cut positions are; sometimes anywhere.
func drawLimit(t *rapid.T, need int, label string) int {
	if rapid.Bool().Draw(t, label+"Near") {
		return max(1, need+rapid.IntRange(-4, 2).Draw(t, label+"Delta"))
	}
	return rapid.IntRange(1, need+2).Draw(t, label)
}

// propSmallBudgets runs the scans with small budgets over small random
// trees, so every cut position is reached often.
func propSmallBudgets(t *rapid.T) {
	tr := genTree(t, 150, false)
	kind, index := drawTarget(t, tr)
	_, reach := referenceFind(tr, kind, index)
	c := checkFind(t, tr, kind, index, drawLimit(t, reach, "find"))
	if !c.Found {
		c = find(tr, kind, index, math.MaxInt32)
	}
	if c.Found {
		full := scanRows(c, math.MaxInt32)
		checkRows(t, c, drawLimit(t, full.Scan.Visited, "rows"))
	}
}

func TestPropertySmallBudgets(t *testing.T) { rapid.Check(t, propSmallBudgets) }

// FuzzScans drives the same property from the fuzzer's bytes.
func FuzzScans(f *testing.F) {
	for _, seed := range [][]byte{nil, {0}, {1, 2, 3, 4, 5, 6, 7, 8}, []byte("table rows and cells")} {
		f.Add(seed)
	}
	f.Fuzz(rapid.MakeFuzz(propSmallBudgets))
}

// TestPropertyRealBudgets runs the exported functions with the real budgets
// over random trees padded around the bounds.
func TestPropertyRealBudgets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTree(t, 100, true)
		kind, index := drawTarget(t, tr)
		c := checkFind(t, tr, kind, index, limits.CollectionScanNodes)
		if got := Find(tr, kind, index); !cmp.Equal(got, c, cmp.Comparer(func(a, b domtree.Node) bool { return a == b })) {
			t.Fatal("Find differs from find at the real budget")
		}
		if c.Found {
			checkRows(t, c, limits.RowScanNodes)
		}
		// The inventory agrees with Find for every listed entry.
		inv := Inventory(tr)
		if !cmp.Equal(inv, Inventory(tr), cmp.Comparer(func(a, b domtree.Node) bool { return a == b })) {
			t.Fatal("inventory is not deterministic")
		}
		// It lists exactly the first MaxInventoryPerKind visible collections
		// of each kind that a scan of CollectionScanNodes reaches.
		var want, got []int
		per := map[aria.Kind]int{}
		reach := 0
		for n := range tr.All() {
			if n.Index() != 0 && n.Parent().Excluded() {
				continue
			}
			if reach++; reach > limits.CollectionScanNodes {
				break
			}
			if k, _, ok := aria.Collection(n); ok && n.Visible() && per[k] < limits.MaxInventoryPerKind {
				per[k]++
				want = append(want, n.Index())
			}
		}
		for _, e := range inv {
			got = append(got, e.Element.Index())
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("inventory elements (-want +got)\n%s", diff)
		}
		for _, e := range inv {
			f := Find(tr, e.Kind, e.Index)
			if !f.Found || f.Element != e.Element || f.Source != e.Source {
				t.Fatalf("inventory entry %v/%d at %d, Find gives %+v", e.Kind, e.Index, e.Element.Index(), f)
			}
			r := ScanRows(f)
			if r.Complete != e.RowsComplete || len(r.Rows) != e.Rows {
				t.Fatalf("inventory rows %d/%v, ScanRows %d/%v", e.Rows, e.RowsComplete, len(r.Rows), r.Complete)
			}
		}
	})
}
