package collect

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// found is a comparable digest of a Collection.
type found struct {
	Found   bool
	Element string
	Source  string
	Reason  string
	Scan    limits.Scan
}

func digest(b built, c Collection) found {
	f := found{Found: c.Found, Reason: c.Reason.String(), Scan: c.Scan}
	if c.Found {
		f.Element, f.Source = b.name(c.Element), c.Source.String()
	}
	return f
}

func TestFind(t *testing.T) {
	const page = `
html
  head
    title
      "t"
  body
    table role=presentation @layout
      tr
        td
          table @t0
            tr
              td
    ul role=menu @menu
    ul @l0
      li
        ol @l1
    div role=list @l2
    table role=grid @t1
    div role="bogus grid" @t2
    div role=GRID @t3
    div !none
      table @gone
    div aria-hidden=true
      table @ahidden
    table !hidden @hidden
    div !hidden
      table !visible @revealed
    form @f0
    div role=form @f1
    menu @l3
`
	b := buildTree(t, page)
	// The page's nodes in tree order: 1 html, 2 head (excluded, not entered),
	// 3 body, ...; visited counts below follow from that.
	for _, c := range []struct {
		name  string
		kind  aria.Kind
		index int
		want  string
		src   string
	}{
		{"nested table inside a presentation table counts first", aria.Table, 0, "t0", "native"},
		{"table role=grid stays native", aria.Table, 1, "t1", "native"},
		{"unknown role tokens are skipped", aria.Table, 2, "t2", "aria"},
		{"roles compare case-insensitively", aria.Table, 3, "t3", "aria"},
		{"visible table under an invisible div", aria.Table, 4, "revealed", "native"},
		{"no sixth table: excluded and invisible ones do not count", aria.Table, 5, "", ""},
		{"ul role=menu is not a list", aria.List, 0, "l0", "native"},
		{"nested list counts", aria.List, 1, "l1", "native"},
		{"role list", aria.List, 2, "l2", "aria"},
		{"menu element is a list", aria.List, 3, "l3", "native"},
		{"form", aria.Form, 0, "f0", "native"},
		{"role form", aria.Form, 1, "f1", "aria"},
		{"no third form", aria.Form, 2, "", ""},
		{"negative index never matches", aria.Table, -1, "", ""},
		{"no kind never matches", aria.KindNone, 0, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Find(b.tree, c.kind, c.index)
			if got.Kind != c.kind || got.Index != c.index {
				t.Errorf("kind/index %v/%d, want %v/%d", got.Kind, got.Index, c.kind, c.index)
			}
			if c.want == "" {
				if got.Found || got.Reason != Absent || got.Scan.Exhausted {
					t.Fatalf("got %+v, want absent", digest(b, got))
				}
				if got.Element.Valid() {
					t.Fatal("not found but Element is set")
				}
				return
			}
			want := b.node(t, c.want)
			if !got.Found || got.Element != want || got.Source.String() != c.src || got.Reason != ReasonNone {
				t.Fatalf("got %+v, want %s (%s)", digest(b, got), c.want, c.src)
			}
			// The scan stops on the element: it visited exactly the nodes
			// before it that are not inside an excluded element, and itself.
			if got.Scan.Visited != reachableUpTo(b.tree, want) || got.Scan.Exhausted {
				t.Fatalf("scan %+v, want visited %d", got.Scan, reachableUpTo(b.tree, want))
			}
		})
	}
	// Absent scans the whole document except excluded subtrees' insides.
	got := Find(b.tree, aria.Table, 9)
	if want := reachableUpTo(b.tree, b.tree.At(b.tree.Len()-1)); got.Scan.Visited != want {
		t.Fatalf("absent scan visited %d, want %d", got.Scan.Visited, want)
	}
	if got.Scan.Limit != limits.CollectionScanNodes {
		t.Fatalf("limit %d", got.Scan.Limit)
	}
}

// reachableUpTo counts the nodes up to and including last that a scan from
// the document reaches: those with no excluded ancestor. Exclusion is
// inherited, so that is the document and every node whose parent is not
// excluded.
func reachableUpTo(t *domtree.Tree, last domtree.Node) int {
	n := 0
	for m := range t.All() {
		if last.Before(m) {
			break
		}
		if m.Index() == 0 || !m.Parent().Excluded() {
			n++
		}
	}
	return n
}

func TestFindExcludedCostsOne(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("body\n  div aria-hidden=true\n")
	for range limits.CollectionScanNodes * 2 {
		sb.WriteString("    p\n")
	}
	sb.WriteString("  table @t\n")
	b := buildTree(t, sb.String())
	got := Find(b.tree, aria.Table, 0)
	want := found{Found: true, Element: "t", Source: "native", Reason: "",
		Scan: limits.Scan{Limit: limits.CollectionScanNodes, Visited: 4}}
	if diff := cmp.Diff(want, digest(b, got)); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}

func TestFindNilTree(t *testing.T) {
	got := Find(nil, aria.Table, 0)
	if got.Found || got.Reason != Absent || got.Scan.Visited != 0 || got.Scan.Exhausted {
		t.Fatalf("%+v", got)
	}
	if r := ScanRows(got); !r.Complete || len(r.Rows) != 0 || r.Scan.Visited != 0 {
		t.Fatalf("%+v", r)
	}
}

// flatPage builds a document whose nodes are: the document, body, filler
// text nodes, then a table; the table is the pos-th visited node. When
// trailing is set, one more text node follows the table.
func flatPage(t testing.TB, pos int, trailing bool) *domtree.Tree {
	b := domtree.NewBuilder(pos + 2)
	body, err := b.AddElement(0, "body", nil, domtree.ElementInfo{Display: domtree.DisplayBlock})
	if err != nil {
		t.Fatal(err)
	}
	for range pos - 3 {
		if _, err := b.AddText(body, "x", 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.AddElement(body, "table", nil, domtree.ElementInfo{Display: domtree.DisplayBlock}); err != nil {
		t.Fatal(err)
	}
	if trailing {
		if _, err := b.AddText(body, "y", 0); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func TestFindBound(t *testing.T) {
	const L = limits.CollectionScanNodes
	for _, c := range []struct {
		name     string
		pos      int
		trailing bool
		kind     aria.Kind
		want     Collection
	}{
		{"found as node L-1", L - 1, true, aria.Table,
			Collection{Found: true, Scan: limits.Scan{Limit: L, Visited: L - 1, Exhausted: false}}},
		{"found as node L is not exhausted", L, true, aria.Table,
			Collection{Found: true, Scan: limits.Scan{Limit: L, Visited: L, Exhausted: false}}},
		{"node L+1 is beyond the budget", L + 1, true, aria.Table,
			Collection{Reason: ScanLimit, Scan: limits.Scan{Limit: L, Visited: L, Exhausted: true}}},
		{"document of L-1 nodes scanned whole", L - 1, false, aria.List,
			Collection{Reason: Absent, Scan: limits.Scan{Limit: L, Visited: L - 1, Exhausted: false}}},
		{"document of exactly L nodes scanned whole", L, false, aria.List,
			Collection{Reason: Absent, Scan: limits.Scan{Limit: L, Visited: L, Exhausted: false}}},
		{"document of L+1 nodes: the last is unknown", L + 1, false, aria.List,
			Collection{Reason: ScanLimit, Scan: limits.Scan{Limit: L, Visited: L, Exhausted: true}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := flatPage(t, c.pos, c.trailing)
			got := Find(tr, c.kind, 0)
			if got.Found {
				if got.Element.Index() != c.pos-1 || !got.Element.Is("table") {
					t.Fatalf("found %d %s, want the table at index %d", got.Element.Index(), got.Element.Name(), c.pos-1)
				}
			}
			gotD := Collection{Found: got.Found, Reason: got.Reason, Scan: got.Scan}
			if diff := cmp.Diff(c.want, gotD, cmp.Comparer(func(a, b domtree.Node) bool { return a == b })); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestReasonAndStructureStrings(t *testing.T) {
	for _, c := range []struct {
		got  interface{ String() string }
		want string
	}{
		{ReasonNone, ""}, {Absent, "absent"}, {ScanLimit, "scan_limit"}, {Reason(9), "invalid"},
		{StructureOK, "ok"}, {UnsupportedSpan, "unsupported_span"}, {Structure(9), "invalid"},
	} {
		if c.got.String() != c.want {
			t.Errorf("%#v: %q, want %q", c.got, c.got.String(), c.want)
		}
	}
	if b, _ := ScanLimit.MarshalText(); string(b) != "scan_limit" {
		t.Errorf("MarshalText %q", b)
	}
	if b, _ := UnsupportedSpan.MarshalText(); string(b) != "unsupported_span" {
		t.Errorf("MarshalText %q", b)
	}
}
