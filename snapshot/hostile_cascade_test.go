package snapshot

import (
	"bytes"
	"github.com/domsnap/domsnap/limits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"

	"github.com/domsnap/domsnap/internal/testkit/cascadehostile"
	"github.com/domsnap/domsnap/snapshot/internal/htmlsource"
	"github.com/domsnap/domsnap/snapshot/internal/style"
)

// TestHostileCascadeCommitted: the committed hostile pages are exactly what
// the generator makes, so the probes below and the files agree.
func TestHostileCascadeCommitted(t *testing.T) {
	for _, p := range cascadehostile.Committed() {
		got, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", p.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, p.HTML) {
			t.Errorf("%s differs from what cascadehostile generates; rewrite it with make devtools && bin/dev/cascadepages -out testdata/hostile", p.Name)
		}
	}
}

// TestHostileCascade runs each probe of the hostile cascade corpus through
// ParseHTML and checks the exact matching steps charged (never more than
// style.MatchSteps), whether the sheets were dropped, that the work done
// never exceeds the steps charged, and the probe element's style in the
// tree returned.
func TestHostileCascade(t *testing.T) {
	// deepHas is the cost of div:has(i) over d nested divs with an i at
	// the bottom: the k-th div from the top tests its two simple
	// selectors, then visits its 301-k descendants (d-k divs and the i),
	// trying the compound i once on each.
	deepHas := func(d int) int {
		s := 0
		for k := 1; k <= d; k++ {
			s += 2 + 2*(d+1-k)
		}
		return s
	}
	// striped is the cost of cascadehostile.StripedTable(rows).
	striped := func(rows int) int { return 3*rows + 1 }
	// positional is the cost of cascadehostile.ManyPositional.
	positional := func(parents, children, rules int) int {
		return parents*children*2*rules + parents*children
	}
	cases := []struct {
		name    string
		page    []byte
		steps   int
		dropped bool
		probe   string // the probe's style, as htmlStyleOf writes it
	}{
		// The only rule nests :has(), which Chromium rejects: no rule is left.
		{"nested :has 20 deep", cascadehostile.NestedHas(20, 45), 0, false, "inline"},
		{"deep :has at depth 300", cascadehostile.DeepHas(300), deepHas(300), false, "block hidden"},
		// html, head, body, table, tbody and 20 rows of tr and td match
		// the rule, at 1+2*100 steps each (style, under head's display:
		// none, is never styled).
		{"long compound, small", cascadehostile.LongCompound(100, 20), (5 + 2*20) * 201, false, "block hidden"},
		// 100,000 :not(.b) over 20,000 rows: about 168 elements exhaust
		// the budget, which is taken to the last step since every test
		// costs one.
		{"long compound of 100k over 20k rows", cascadehostile.LongCompound(100_000, 20_000), style.MatchSteps, true, "block"},
		{"class list of 100", cascadehostile.ClassTokens(100), 100, false, "block"},
		{"class list of 20k", cascadehostile.ClassTokens(20_000), 20_000, false, "block"},
		{"class list of 40k", cascadehostile.ClassTokens(40_000), 40_000, false, "block"},
		// Each row tests two simple selectors, tr and :nth-child(even); the
		// first test numbers the row group's rows, one step per row, once.
		// The .gone paragraph costs its class test. Counting the siblings
		// for every test instead cost 2,000 * 2,002 + 1 = 4,004,001 steps
		// and dropped the sheets from 5,793 rows on.
		{"striped table of 200 rows", cascadehostile.StripedTable(200), striped(200), false, "block hidden"},
		{"striped table of 2,000 rows", cascadehostile.StripedTable(2000), 6_001, false, "block hidden"},
		{"striped table of 20k rows", cascadehostile.StripedTable(20_000), striped(20_000), false, "block hidden"},
		{"striped table of 100k rows", cascadehostile.StripedTable(100_000), striped(100_000), false, "block hidden"},
		// Every item tries every rule (tag and position, two steps), and
		// each list is numbered once, for all the rules.
		{"10 lists of 50 items, 10 positional rules", cascadehostile.ManyPositional(10, 50, 10), positional(10, 50, 10), false, "block hidden"},
		// 4,000,000 (rule, element) pairs, just under MatchBudget, each
		// costing two steps; counting the siblings for every test cost
		// some 4 * 10^9 steps instead.
		{"200 lists of 1,000 items, 20 positional rules", cascadehostile.ManyPositional(200, 1000, 20), positional(200, 1000, 20), false, "block hidden"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, info, work, err := htmlsource.Parse(c.page, "", limits.MaxTreeNodes)
			if err != nil {
				t.Fatal(err)
			}
			if info.StyleMatchSteps != c.steps {
				t.Errorf("steps charged %d, want %d", info.StyleMatchSteps, c.steps)
			}
			if info.StyleMatchSteps > style.MatchSteps {
				t.Errorf("steps charged %d, more than the budget %d", info.StyleMatchSteps, style.MatchSteps)
			}
			if work > info.StyleMatchSteps {
				t.Errorf("work %d, more than the steps charged %d", work, info.StyleMatchSteps)
			}
			if info.StyleSheetsDropped != c.dropped {
				t.Errorf("sheets dropped %t, want %t", info.StyleSheetsDropped, c.dropped)
			}
			probe, ok := tr.ElementByID("probe")
			if !ok {
				t.Fatal("no probe element in the tree")
			}
			if got := htmlStyleOf(probe); got != c.probe {
				t.Errorf("probe style %q, want %q", got, c.probe)
			}
			if strings.HasPrefix(c.name, "striped") {
				checkStripes(t, probe.Parent())
			}
		})
	}
}

// checkStripes checks every row of a striped table's row group: the even
// ones hidden, the odd ones not, and the .gone paragraph before the table
// without a box.
func checkStripes(t *testing.T, group domtree.Node) {
	t.Helper()
	i, wrong := 0, 0
	for r := range group.ChildElements() {
		i++
		if (r.Visibility() == domtree.Hidden) != (i%2 == 0) {
			wrong++
		}
	}
	if i < 200 || wrong > 0 {
		t.Errorf("%d rows, %d striped wrongly", i, wrong)
	}
	p := group.Parent().PrevSibling()
	for p.Valid() && !p.IsElement() {
		p = p.PrevSibling()
	}
	if !p.Is("p") || p.Display() != domtree.DisplayNone {
		t.Errorf("the .gone paragraph is %s %s, want p with display none", p.Name(), htmlStyleOf(p))
	}
}

// TestHostileCascadeLoad: Load reports dropped sheets too, for the command
// line's warning.
func TestHostileCascadeLoad(t *testing.T) {
	for _, c := range []struct {
		page    []byte
		dropped bool
	}{{cascadehostile.LongCompound(100, 20), false}, {cascadehostile.LongCompound(100_000, 200), true}} {
		in, err := Load(c.page, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.StyleSheetsDropped != c.dropped {
			t.Errorf("StyleSheetsDropped %t, want %t", in.StyleSheetsDropped, c.dropped)
		}
	}
}
