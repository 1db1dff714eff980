package collect

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// rowD is a comparable digest of a Row: labels instead of cursors.
type rowD struct {
	El     string
	Header bool
	Span   bool
	Cells  []string
}

func rowDigests(b built, rs []Row) []rowD {
	out := []rowD{}
	for _, r := range rs {
		d := rowD{El: b.name(r.Element), Header: r.Header, Span: r.Structure == UnsupportedSpan}
		for _, c := range r.Cells {
			d.Cells = append(d.Cells, b.name(c))
		}
		out = append(out, d)
	}
	return out
}

type rowCase struct {
	name string
	kind aria.Kind
	page string
	want []rowD
	// visited, when not zero, is the row scan's expected node count.
	visited int
}

func runRowCases(t *testing.T, cases []rowCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := buildTree(t, c.page)
			col := Find(b.tree, c.kind, 0)
			if !col.Found {
				t.Fatalf("collection not found: %+v", col)
			}
			got := ScanRows(col)
			if diff := cmp.Diff(c.want, rowDigests(b, got.Rows)); diff != "" {
				t.Fatalf("rows (-want +got)\n%s", diff)
			}
			if !got.Complete || got.Scan.Exhausted || got.Scan.Limit != limits.RowScanNodes {
				t.Fatalf("small page scan: complete %v, %+v", got.Complete, got.Scan)
			}
			if c.visited != 0 && got.Scan.Visited != c.visited {
				t.Fatalf("visited %d, want %d", got.Scan.Visited, c.visited)
			}
		})
	}
}

func TestNativeTableRows(t *testing.T) {
	runRowCases(t, []rowCase{
		{name: "thead first, tfoot last, loose rows and bodies in tree order", kind: aria.Table, page: `
table
  caption
    "cap"
  tfoot @foot
    tr @f
      td @fc
  tr @loose
    td @lc
  tbody
    tr @b1
      td @b1a
      "  "
      # between cells
      td @b1b
  thead
    tr @h
      td @hc
`, want: []rowD{
			{El: "h", Header: true, Cells: []string{"hc"}},
			{El: "loose", Cells: []string{"lc"}},
			{El: "b1", Cells: []string{"b1a", "b1b"}},
			{El: "f", Cells: []string{"fc"}},
		}, visited: 15},
		{name: "second thead and tfoot are bodies", kind: aria.Table, page: `
table
  thead
    tr @h1
      th @h1c
  thead
    tr @h2
      td @h2c
  tfoot
    tr @f1
      td @f1c
  tfoot
    tr @f2
      td @f2c
  tbody
    tr @b
      td @bc
`, want: []rowD{
			{El: "h1", Header: true, Cells: []string{"h1c"}},
			{El: "h2", Cells: []string{"h2c"}},
			{El: "f2", Cells: []string{"f2c"}},
			{El: "b", Cells: []string{"bc"}},
			{El: "f1", Cells: []string{"f1c"}},
		}},
		{name: "an invisible thead is a body and its visible rows count", kind: aria.Table, page: `
table
  tbody
    tr @b
      td @bc
  thead !hidden
    tr @hidden
      td @hiddenc
    tr !visible @h1
      td @h1c
  thead
    tr @h2
      td @h2c
`, want: []rowD{
			{El: "h2", Header: true, Cells: []string{"h2c"}},
			{El: "b", Cells: []string{"bc"}},
			{El: "h1", Cells: []string{"h1c"}},
		}},
		{name: "an excluded thead is not entered and not first", kind: aria.Table, page: `
table
  thead !none
    tr
      td
  thead aria-hidden=true
    tr
      td
  thead
    tr @h
      td @hc
`, want: []rowD{{El: "h", Header: true, Cells: []string{"hc"}}}, visited: 5},
		{name: "header rows: all th, at least one cell", kind: aria.Table, page: `
table
  tbody
    tr @allth
      th @a
      th @b
    tr @mixed
      th @c
      td @d
    tr @empty
      "text only"
    tr @thHiddenTd
      th @e
      td !hidden
`, want: []rowD{
			{El: "allth", Header: true, Cells: []string{"a", "b"}},
			{El: "mixed", Cells: []string{"c", "d"}},
			{El: "empty"},
			{El: "thHiddenTd", Header: true, Cells: []string{"e"}},
		}},
		{name: "invisible and excluded rows and cells are skipped", kind: aria.Table, page: `
table
  tbody
    tr !hidden
      td !visible
    tr !none
      td
    tr @r
      td !hidden
      td aria-hidden=true
      td @c
      div @notcell
`, want: []rowD{{El: "r", Cells: []string{"c"}}}, visited: 8},
		{name: "only children of the table and its sections are rows", kind: aria.Table, page: `
table
  colgroup
    col
  div
    tr
      td
  tbody
    div
      tr
        td
    tr @r
      td @c
        table
          tr
            td
`, want: []rowD{{El: "r", Cells: []string{"c"}}}, visited: 6},
		{name: "an invisible tbody is entered", kind: aria.Table, page: `
table
  tbody !hidden
    tr !visible @r
      td @c
`, want: []rowD{{El: "r", Cells: []string{"c"}}}},
	})
}

func TestNativeTableSpans(t *testing.T) {
	runRowCases(t, []rowCase{
		{name: "colspan values", kind: aria.Table, page: `
table
  tbody
    tr @c0
      td colspan=0 @a
    tr @c1
      td colspan=1 @b
    tr @cx
      td colspan=x @c
    tr @c2semi
      td colspan="2;" @d
    tr @cneg
      td colspan=-1 @e
    tr @cneg0
      td colspan=-0 @f
    tr @cplus
      td colspan=+1 @g
    tr @cspace
      td colspan=" 2" @h
    tr @cbig
      td colspan=99999999999999999999 @i
`, want: []rowD{
			{El: "c0", Cells: []string{"a"}},
			{El: "c1", Cells: []string{"b"}},
			{El: "cx", Cells: []string{"c"}},
			{El: "c2semi", Span: true},
			{El: "cneg", Cells: []string{"e"}},
			{El: "cneg0", Cells: []string{"f"}},
			{El: "cplus", Cells: []string{"g"}},
			{El: "cspace", Span: true},
			{El: "cbig", Span: true},
		}},
		{name: "rowspan covers later rows of the same group only", kind: aria.Table, page: `
table
  tbody
    tr @r1
      td rowspan=2
      td
    tr @r2
      td @r2c
    tr @r3
      td @r3c
  tbody
    tr @s1
      td rowspan=5
    tr @s2
      td
  tbody
    tr @t1
      td @t1c
`, want: []rowD{
			{El: "r1", Span: true},
			{El: "r2", Span: true},
			{El: "r3", Cells: []string{"r3c"}},
			{El: "s1", Span: true},
			{El: "s2", Span: true},
			{El: "t1", Cells: []string{"t1c"}},
		}},
		{name: "rowspan=0 spans to the end of its group", kind: aria.Table, page: `
table
  thead
    tr @h
      th @hc
  tbody
    tr @r1
      td
      td rowspan=0
    tr @r2
      td
    tr @r3
      td
  tfoot
    tr @f
      td @fc
`, want: []rowD{
			{El: "h", Header: true, Cells: []string{"hc"}},
			{El: "r1", Span: true},
			{El: "r2", Span: true},
			{El: "r3", Span: true},
			{El: "f", Cells: []string{"fc"}},
		}},
		{name: "rowspan unparsable or 1 is 1", kind: aria.Table, page: `
table
  tbody
    tr @r1
      td rowspan=abc @a
      td rowspan=1 @b
      td rowspan=-3 @c
    tr @r2
      td @d
`, want: []rowD{
			{El: "r1", Cells: []string{"a", "b", "c"}},
			{El: "r2", Cells: []string{"d"}},
		}},
		{name: "rowspan 3; reaches two more rows", kind: aria.Table, page: `
table
  tbody
    tr @r1
      th rowspan="3;" 
    tr @r2
      td
    tr @r3
      td
    tr @r4
      td @c
`, want: []rowD{
			{El: "r1", Header: true, Span: true},
			{El: "r2", Span: true},
			{El: "r3", Span: true},
			{El: "r4", Cells: []string{"c"}},
		}},
		{name: "loose rows form the table's group", kind: aria.Table, page: `
table
  tr @l1
    td rowspan=3
  tbody
    tr @b1
      td @b1c
  tr @l2
    td
  tr @l3
    td @l3c
`, want: []rowD{
			{El: "l1", Span: true},
			{El: "b1", Cells: []string{"b1c"}},
			{El: "l2", Span: true},
			{El: "l3", Span: true},
		}},
		{name: "aria spans mark their row; on a native table aria-rowspan covers nothing", kind: aria.Table, page: `
table
  tbody
    tr @r1
      td aria-colspan=2
    tr @r2
      td aria-rowspan=3
    tr @r3
      td @r3c
    tr @r4
      td aria-colspan=1 @a
      td aria-rowspan=0 @b
      td aria-colspan=" 2 " @c
      td aria-colspan=2; @d
      td aria-colspan=+2 @e
`, want: []rowD{
			{El: "r1", Span: true},
			{El: "r2", Span: true},
			{El: "r3", Cells: []string{"r3c"}},
			{El: "r4", Cells: []string{"a", "b", "c", "d", "e"}},
		}},
		{name: "spans of invisible and excluded cells are ignored", kind: aria.Table, page: `
table
  tbody
    tr @r1
      td colspan=2 !hidden
      td rowspan=2 !none
      td aria-colspan=4 aria-hidden=true
      td @a
    tr @r2
      td @b
`, want: []rowD{
			{El: "r1", Cells: []string{"a"}},
			{El: "r2", Cells: []string{"b"}},
		}},
	})
}

func TestARIATableRows(t *testing.T) {
	runRowCases(t, []rowCase{
		{name: "rows through role-less and rowgroup elements", kind: aria.Table, page: `
div role=grid
  div
    div role=row @r1
      span role=columnheader @h1
      div
        span role=rowheader @h2
  div role=rowgroup
    div role=row @r2
      div role=gridcell @c1
      div role=button
        div role=cell
      div role=cell @c2
  div role=group
    div role=row
  span role=none
    div role=row @r3
      td @c3
  ul
    li role=row
`, want: []rowD{
			{El: "r1", Header: true, Cells: []string{"h1", "h2"}},
			{El: "r2", Cells: []string{"c1", "c2"}},
			{El: "r3", Cells: []string{"c3"}},
		}},
		{name: "invisible rows are not entered, invisible wrappers are", kind: aria.Table, page: `
div role=table
  div role=row !hidden
    div role=cell !visible
  div !hidden
    div role=row !visible @r
      div role=cell @c
      div role=cell !hidden
  div role=row aria-hidden=true
    div role=cell
`, want: []rowD{{El: "r", Cells: []string{"c"}}}},
		{name: "nested collections are not entered", kind: aria.Table, page: `
div role=table
  div role=row @r
    div role=cell @c
    div
      div role=table
        div role=row
          div role=cell
  ul role=none
    li role=none
      div role=row @r2
        div role=cell @c2
  table role=none
    tr
      td
  table
    tr
      td
`, want: []rowD{{El: "r", Cells: []string{"c"}}, {El: "r2", Cells: []string{"c2"}}}},
		{name: "aria spans, groups are rowgroups or the table", kind: aria.Table, page: `
div role=table
  div role=rowgroup
    div role=row @g1
      div role=cell aria-rowspan=2
    div
      div role=row @g2
        div role=cell
    div role=row @g3
      div role=cell @g3c
  div role=row @t1
    div role=cell aria-rowspan=" 3"
  div role=rowgroup
    div role=row @g4
      div role=cell @g4c
  div role=row @t2
    div role=cell
  div role=row @t3
    div role=cell
  div role=row @t4
    div role=cell aria-colspan=1 @t4c
`, want: []rowD{
			{El: "g1", Span: true},
			{El: "g2", Span: true},
			{El: "g3", Cells: []string{"g3c"}},
			{El: "t1", Span: true},
			{El: "g4", Cells: []string{"g4c"}},
			{El: "t2", Span: true},
			{El: "t3", Span: true},
			{El: "t4", Cells: []string{"t4c"}},
		}},
	})
}

func TestListRows(t *testing.T) {
	runRowCases(t, []rowCase{
		{name: "items through role-less elements, not items of nested lists", kind: aria.List, page: `
ul
  li @a
    ul
      li
  div
    li @b
  li !hidden
    li !visible
  li aria-hidden=true
  div role=group
    li
  ol
    li
  div role=listitem @c
  span role=none
    li @d
  li !hidden @e0
  li role=none
    li @f
`, want: []rowD{
			{El: "a", Cells: []string{"a"}},
			{El: "b", Cells: []string{"b"}},
			{El: "c", Cells: []string{"c"}},
			{El: "d", Cells: []string{"d"}},
			{El: "f", Cells: []string{"f"}},
		}},
	})
}

func TestFormRows(t *testing.T) {
	runRowCases(t, []rowCase{
		{name: "controls in tree order, layout tables and lists searched", kind: aria.Form, page: `
form
  input type=text @i1
  input type=hidden
  table
    tr
      td
        select @s
          option
        textarea @ta
  ul
    li
      button @btn
        input @inner
  div role=checkbox @cb
  span role="bogus switch" @sw
  div role=listbox @lb
  div role=link
  input !hidden
  div !none
    input
  div aria-hidden=true
    input
  form
    input
  div role=form
    input
  form role=none
    input @nf
  div !hidden
    input !visible @rv
  form !hidden
    input @hiddenform
    input !visible @inv
`, want: []rowD{
			{El: "i1"}, {El: "s"}, {El: "ta"}, {El: "btn"}, {El: "cb"}, {El: "sw"}, {El: "lb"},
			{El: "nf"}, {El: "rv"}, {El: "inv"},
		}},
	})
}

func TestScanRowsNotFound(t *testing.T) {
	for _, c := range []struct {
		reason   Reason
		complete bool
	}{{Absent, true}, {ScanLimit, false}} {
		got := ScanRows(Collection{Kind: aria.Table, Reason: c.reason})
		want := Rows{Complete: c.complete, Scan: limits.Scan{Limit: limits.RowScanNodes}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v: (-want +got)\n%s", c.reason, diff)
		}
	}
}

// TestRoleLessAgrees keeps the local shortcut in step with aria.RoleLess.
func TestRoleLessAgrees(t *testing.T) {
	b := buildTree(t, `
div
span role=none
span role=presentation
section
li
td
table role=none
  tr @tr
custom-element
p
div role="bogus"
div role=generic
`)
	for n := range b.tree.All() {
		if n.IsElement() && roleLess(aria.Role(n)) != aria.RoleLess(n) {
			t.Errorf("%s (role %q): roleLess %v, aria.RoleLess %v", n.Name(), aria.Role(n), roleLess(aria.Role(n)), aria.RoleLess(n))
		}
	}
}

// TestDeclaredCounts: a table that declares more rows or columns than its
// row scan saw (a grid virtualised by a script, drawing 2 of its 1,001 rows)
// is not complete, and the counts it declares are reported; a count no
// larger than what was seen changes nothing and is not reported.
func TestDeclaredCounts(t *testing.T) {
	grid := func(attrs string) string {
		return `
div role=grid ` + attrs + `
  div role=row
    div role=columnheader
    div role=columnheader
  div role=row
    div role=gridcell
    div role=gridcell
`
	}
	native := func(attrs string) string {
		return `
table ` + attrs + `
  tr
    td colspan=3
  tr
    td
    td
`
	}
	for _, c := range []struct {
		name       string
		kind       aria.Kind
		page       string
		rows, cols int
		complete   bool
	}{
		{"more rows declared", aria.Table, grid(`aria-rowcount=1001`), 1001, 0, false},
		{"as many rows as seen: kept out", aria.Table, grid(`aria-rowcount=2`), 0, 0, true},
		{"fewer rows than seen: kept out", aria.Table, grid(`aria-rowcount=1`), 0, 0, true},
		{"an unknown number of rows", aria.Table, grid(`aria-rowcount=-1`), Unknown, 0, false},
		{"more columns declared", aria.Table, grid(`aria-colcount=5`), 0, 5, false},
		{"as many columns as the widest row", aria.Table, grid(`aria-colcount=2 aria-rowcount="3;"`), 3, 0, false},
		{"an unknown number of columns", aria.Table, grid(`aria-colcount=-1`), 0, Unknown, false},
		{"no count: 0, below -1, unreadable", aria.Table, grid(`aria-rowcount=0 aria-colcount=-2`), 0, 0, true},
		{"unreadable", aria.Table, grid(`aria-rowcount=many aria-colcount=""`), 0, 0, true},
		{"beyond a safe integer", aria.Table, grid(`aria-rowcount=99999999999999999999`), limits.MaxSafeInteger, 0, false},
		// Columns are the cells of the widest row, a span counting as one
		// cell: spans are never guessed.
		{"a native table, cells counted without spans", aria.Table, native(`aria-colcount=3`), 0, 3, false},
		{"a native table with its row count", aria.Table, native(`aria-rowcount=2 aria-colcount=2`), 0, 0, true},
		{"a list declares nothing", aria.List, `
ul aria-rowcount=10
  li
`, 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := buildTree(t, c.page)
			col := Find(b.tree, c.kind, 0)
			if !col.Found {
				t.Fatalf("collection not found: %+v", col)
			}
			got := ScanRows(col)
			if got.DeclaredRows != c.rows || got.DeclaredColumns != c.cols || got.Complete != c.complete || got.Scan.Exhausted {
				t.Errorf("declared rows %d, columns %d, complete %v (scan %+v); want %d, %d, %v",
					got.DeclaredRows, got.DeclaredColumns, got.Complete, got.Scan, c.rows, c.cols, c.complete)
			}
			inv := Inventory(b.tree)
			if len(inv) != 1 || inv[0].DeclaredRows != c.rows || inv[0].DeclaredColumns != c.cols || inv[0].RowsComplete != c.complete {
				t.Errorf("inventory %+v", inv)
			}
		})
	}
}

// TestRowIndexOrder: an ARIA table's rows are read in the order of their
// aria-rowindex, the order a person sees after a script moved them on
// screen; rows without an index come first in tree order; a native table is
// drawn in its rows' order and keeps it.
func TestRowIndexOrder(t *testing.T) {
	runRowCases(t, []rowCase{
		{name: "a grid sorted on screen, its rows where they were made", kind: aria.Table, page: `
div role=grid
  div role=rowgroup
    div role=row aria-rowindex=1 @h
      div role=columnheader @hc
  div role=rowgroup
    div role=row aria-rowindex=4 @r4
      div role=gridcell @c4
    div role=row aria-rowindex=2 @r2
      div role=gridcell @c2
    div role=row aria-rowindex=3 @r3
      div role=gridcell @c3
`, want: []rowD{
			{El: "h", Header: true, Cells: []string{"hc"}},
			{El: "r2", Cells: []string{"c2"}},
			{El: "r3", Cells: []string{"c3"}},
			{El: "r4", Cells: []string{"c4"}},
		}},
		{name: "rows without an index first, equal indices in tree order", kind: aria.Table, page: `
div role=table
  div role=row @plain
    div role=cell @pc
  div role=row aria-rowindex=3 @a
    div role=cell @ac
  div role=row aria-rowindex=x @bad
    div role=cell @badc
  div role=row aria-rowindex="2;" @b
    div role=cell @bc
  div role=row aria-rowindex=3 @a2
    div role=cell @a2c
  div role=row aria-rowindex=0 @zero
    div role=cell @zc
`, want: []rowD{
			{El: "plain", Cells: []string{"pc"}},
			{El: "bad", Cells: []string{"badc"}},
			{El: "zero", Cells: []string{"zc"}},
			{El: "b", Cells: []string{"bc"}},
			{El: "a", Cells: []string{"ac"}},
			{El: "a2", Cells: []string{"a2c"}},
		}},
		{name: "a native table keeps the order it is drawn in", kind: aria.Table, page: `
table
  tr aria-rowindex=3 @n3
    td @n3c
  tr aria-rowindex=2 @n2
    td @n2c
`, want: []rowD{
			{El: "n3", Cells: []string{"n3c"}},
			{El: "n2", Cells: []string{"n2c"}},
		}},
	})
}
