package collect

import (
	"fmt"
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

func TestParseNonNegative(t *testing.T) {
	for _, c := range []struct {
		in string
		v  int
		ok bool
	}{
		{"2", 2, true}, {"2;", 2, true}, {" \t\n2x", 2, true}, {"+3", 3, true}, {"-0", 0, true},
		{"007", 7, true}, {"0", 0, true}, {"65534", 65534, true}, {"65535", 65534, true},
		{"99999999999999999999999", 65534, true},
		{"", 0, false}, {" ", 0, false}, {"-1", 0, false}, {"+", 0, false}, {"-", 0, false},
		{"x2", 0, false}, {"+ 2", 0, false}, {"\u00a02", 0, false}, {"٣", 0, false},
	} {
		v, ok := parseNonNegative(c.in)
		if v != c.v || ok != c.ok {
			t.Errorf("parseNonNegative(%q) = %d, %v; want %d, %v", c.in, v, ok, c.v, c.ok)
		}
	}
}

// cell makes a td with the given attributes (name, value pairs).
func cell(t *testing.T, kv ...string) domtree.Node {
	t.Helper()
	var attrs []domtree.Attr
	for i := 0; i+1 < len(kv); i += 2 {
		attrs = append(attrs, domtree.Attr{Name: kv[i], Value: kv[i+1]})
	}
	b := domtree.NewBuilder(0)
	i, err := b.AddElement(0, "td", attrs, domtree.ElementInfo{Display: domtree.DisplayBlock})
	if err != nil {
		t.Fatal(err)
	}
	return b.Build().At(i)
}

func TestSpanAttributes(t *testing.T) {
	for _, c := range []struct {
		attr, val string
		want      int
	}{
		{"colspan", "", 1}, {"colspan", "0", 1}, {"colspan", "1", 1}, {"colspan", "2", 2},
		{"colspan", "x", 1}, {"colspan", "5000", 1000}, {"colspan", "-2", 1},
		{"rowspan", "", 1}, {"rowspan", "0", 0}, {"rowspan", "3;", 3}, {"rowspan", "-0", 0},
		{"rowspan", "junk", 1}, {"rowspan", "70000", 65534},
	} {
		n := cell(t, c.attr, c.val)
		if c.val == "" {
			n = cell(t)
		}
		got := colspan(n)
		if c.attr == "rowspan" {
			got = rowspan(n)
		}
		if got != c.want {
			t.Errorf("%s=%q: %d, want %d", c.attr, c.val, got, c.want)
		}
	}
}

func TestARIASpan(t *testing.T) {
	for _, c := range []struct {
		val  string
		want int
	}{
		{"2", 2}, {" \t2", 2}, {"0", 0}, {"1", 1}, {"10", 10},
		{"2 ", 0}, {"2;", 0}, {"+2", 0}, {"-2", 0}, {"", 0}, {"  ", 0}, {"\u00a02", 0},
		{"99999999999999999999", 65534},
	} {
		if got := ariaSpan(cell(t, "aria-rowspan", c.val), "aria-rowspan"); got != c.want {
			t.Errorf("aria-rowspan=%q: %d, want %d", c.val, got, c.want)
		}
	}
	if got := ariaSpan(cell(t), "aria-colspan"); got != 0 {
		t.Errorf("absent: %d", got)
	}
}

func TestSpanGroupHugeRowspan(t *testing.T) {
	g := newSpanGroup()
	if !g.row([]domtree.Node{cell(t, "rowspan", "99999999999999999999")}, false) {
		t.Fatal("first row not marked")
	}
	for i := range 100 {
		if !g.row(nil, false) {
			t.Fatal(fmt.Sprint("row ", i+1, " not covered"))
		}
	}
}
