package snapshot

import (
	"bytes"
	"github.com/domsnap/domsnap/limits"
	"os"
	"path/filepath"
	"testing"

	"github.com/domsnap/domsnap/internal/cascadehostile"
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
			t.Errorf("%s differs from what cascadehostile generates; rewrite it with go run ./internal/cascadehostile/write -out testdata/hostile", p.Name)
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
		})
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
