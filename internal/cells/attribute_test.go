package cells

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/limits"
)

// AttributeText is the attribute source of a label, exported for inventory
// names: absent and whitespace-only fall through, text is collapsed, and the
// CellUnits bound holds just under, at and just over.
func TestAttributeText(t *testing.T) {
	for _, c := range []struct {
		name, value string
		present     bool
		want        string
		ok, trunc   bool
	}{
		{name: "absent"},
		{name: "blank", value: " \t\n ", present: true},
		{name: "collapsed", value: "  Price\n\tlist  ", present: true, want: "Price list", ok: true},
		{name: "nbsp kept", value: "\u00a0a", present: true, want: "\u00a0a", ok: true},
		{name: "under", value: strings.Repeat("x", limits.CellUnits-1), present: true, want: strings.Repeat("x", limits.CellUnits-1), ok: true},
		{name: "at", value: strings.Repeat("x", limits.CellUnits), present: true, want: strings.Repeat("x", limits.CellUnits), ok: true},
		{name: "over", value: strings.Repeat("x", limits.CellUnits+1), present: true, want: strings.Repeat("x", limits.CellUnits), ok: true, trunc: true},
		{name: "pair straddling", value: strings.Repeat("x", limits.CellUnits-1) + "\U0001F600", present: true, want: strings.Repeat("x", limits.CellUnits-1), ok: true, trunc: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var el spec
			if c.present {
				el = E("table", A{"aria-label", c.value})
			} else {
				el = E("table")
			}
			tr := build(t, el)
			s, ok := AttributeText(tr.Root().FirstChild(), "aria-label")
			if ok != c.ok || s.Text != c.want || s.Truncated != c.trunc {
				t.Fatalf("got %q ok=%v truncated=%v, want %q ok=%v truncated=%v", s.Text, ok, s.Truncated, c.want, c.ok, c.trunc)
			}
		})
	}
}
