package style

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// visOf returns each element's display, with " hidden" for computed
// visibility hidden, by id.
func visOf(t *testing.T, page string) map[string]string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	_, styles := computeAll(doc)
	out := map[string]string{}
	for n, s := range styles {
		if id, ok := attrValue(n, "id"); ok {
			v := s.Display.String()
			if s.Hidden {
				v += " hidden"
			}
			out[id] = v
		}
	}
	return out
}

func TestMediaBlocks(t *testing.T) {
	got := styleOf(t, `<style>
@media screen { #a { display: none } }
@media print { #b { display: none } }
@media (min-width: 1280px) { #c { display: none } }
@media (min-width: 1281px) { #d { display: none } }
@media screen { @media (orientation: portrait) { #e { display: none } } @media (hover: none) { #f { display: none } } }
@media not all and (monochrome) { #g { display: none } }
@media (400px <= width < 1280px) { #h { display: none } }
@media (400px <= width <= 1280px) { #i { display: none } }
#j { @media screen { display: none } }
#k { @media print { display: none } }
#l { display: none; @media screen { display: block } }
@media junk junk { #m { display: none } }
@media { #n { display: none } }
@media screen { #o { display: none }
</style><body><i id=a></i><i id=b></i><i id=c></i><i id=d></i><i id=e></i><i id=f></i><i id=g></i><i id=h></i>
<i id=i></i><i id=j></i><i id=k></i><i id=l></i><i id=m></i><i id=n></i><i id=o></i>`)
	want := map[string]string{"a": "none", "b": "inline flow", "c": "none", "d": "inline flow", "e": "inline flow",
		"f": "none", "g": "none", "h": "inline flow", "i": "none", "j": "none", "k": "inline flow", "l": "block flow",
		"m": "inline flow", "n": "none", "o": "none"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStyleMediaAttribute(t *testing.T) {
	got := styleOf(t, `<style media="screen and (min-width: 900px)">#a{display:none}</style>
<style media="(max-width: 900px)">#b{display:none}</style><style media="print, (orientation: landscape)">#c{display:none}</style>
<style media="not (nosuch)">#d{display:none}</style><style media="">#e{display:none}</style>
<body><i id=a></i><i id=b></i><i id=c></i><i id=d></i><i id=e></i>`)
	want := map[string]string{"a": "none", "b": "inline flow", "c": "none", "d": "inline flow", "e": "none"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSupports(t *testing.T) {
	cases := []struct {
		cond string
		want bool
	}{
		{"(display: grid)", true}, {"(display: GRID)", true}, {"(display: nosuch)", false},
		{"(display: block flow)", true}, {"(display: none none)", false}, {"(display: grid !important)", true},
		{"(display: var(--x))", true}, {"(display: inherit)", true}, {"(display:)", false},
		{"(visibility: collapse)", true}, {"(visibility: nosuch)", false},
		{"(color: red)", true}, {"(no-such-property: 1)", false}, {"(--x: 1)", true}, {"(--x:)", true},
		{"(-webkit-box-flex: 1)", true}, {"(field-sizing: content)", true},
		{"not (display: grid)", false}, {"not (display: nosuch)", true},
		{"(display: grid) and (display: flex)", true}, {"(display: grid) and (display: nosuch)", false},
		{"(display: nosuch) or (display: flex)", true},
		{"((display: grid) or (nosuch: 1)) and (color: red)", true},
		{"(  display  :  grid  )", true}, {"((display: grid))", true},
		// General enclosed text is false, and not of it true.
		{"(foo bar)", false}, {"not (foo bar)", true}, {"foo(bar)", false}, {"not foo(bar)", true},
		{"font-format(woff2)", false}, {"font-tech(color-colrv1)", false},
		// selector() by the selector parser.
		{"selector(:has(a))", true}, {"selector(a > b)", true}, {"selector(::before)", true},
		{"selector(:nosuch)", false}, {"selector(a >)", false}, {"selector(a, b)", false},
		{"not selector(:nosuch)", true}, {"selector( a b )", true},
		// Conditions that do not parse drop the rule.
		{"(display: grid) and (display: flex) or (display: block)", false},
		{"not (display: nosuch) and (display: flex)", false}, {"display: grid", false}, {"", false},
		{"not not (display: grid)", false}, {"(display: grid) (display: flex)", false},
	}
	for _, c := range cases {
		if got := supportsCondition(tokenize(c.cond)); got != c.want {
			t.Errorf("@supports %s = %v, want %v", c.cond, got, c.want)
		}
	}
	depth := func(n int) string { return strings.Repeat("(", n) + "display: grid" + strings.Repeat(")", n) }
	if !supportsCondition(tokenize(depth(maxSupportsDepth))) {
		t.Errorf("%d nested parentheses are not supported", maxSupportsDepth)
	}
	if supportsCondition(tokenize(depth(maxSupportsDepth + 2))) {
		t.Errorf("%d nested parentheses are supported", maxSupportsDepth+2)
	}
	got := styleOf(t, `<style>@supports (display: grid) { #a { display: none } } @supports not (display: grid) { #b { display: none } }
#c { @supports selector(:has(a)) { display: none } }</style><body><i id=a></i><i id=b></i><i id=c></i>`)
	if diff := cmp.Diff(map[string]string{"a": "none", "b": "inline flow", "c": "none"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestKnownPropertiesSorted(t *testing.T) {
	for i := 1; i < len(knownProperties); i++ {
		if knownProperties[i-1] >= knownProperties[i] {
			t.Fatalf("knownProperties not sorted at %q", knownProperties[i])
		}
	}
	if len(knownProperties) < 500 {
		t.Fatalf("only %d known properties", len(knownProperties))
	}
}

func TestLayers(t *testing.T) {
	got := visOf(t, `<style>
@layer base, theme;
@layer theme { #a { display: none } }
@layer base { #a { display: block } }
@layer theme { #b { display: block } }
#b { display: none }
@layer base { #b { display: inline-block } }
@layer base { #c { display: none !important } }
@layer theme { #c { display: block !important } }
#c { display: inline-block !important }
@layer { #d { display: none } }
@layer { #d { display: block } }
@layer outer { @layer inner { #e { display: none } } #e { display: block } }
@layer outer.inner { #f { display: block } }
@layer outer { #f { display: none } }
#g { display: none }
@layer x { #g { display: block } }
@layer y { #h { visibility: hidden !important } }
#h { visibility: visible }
@layer y { #i { display: none } }
#i.i { }
@media print { @layer z { #j { display: block } } }
@layer z { #j { display: none } }
@layer q { #j { display: block } }
@layer a.b.c { #k { display: none } }
@layer a.b { #k { display: block } }
@layer initial { #l { display: none } }
@layer x.initial { #l { display: none } }
#m { @layer w { display: none } }
</style>
<style>@layer base { #n { display: none } } @layer theme { #n { display: block } }</style>
<body><i id=a></i><i id=b></i><i id=c></i><i id=d></i><i id=e></i><i id=f></i><i id=g></i><i id=h></i>
<i id=i class=i></i><i id=j></i><i id=k></i><i id=l></i><i id=m></i><i id=n></i><p id=p style="display: inline"></p>`)
	want := map[string]string{
		"a": "none",               // theme is declared after base
		"b": "none",               // unlayered normal beats every layer
		"c": "none",               // important: the earliest layer wins, unlayered loses
		"d": "block flow",         // each anonymous layer is a new one, later
		"e": "block flow",         // a layer's own rules beat its sub-layers
		"f": "none",               // the same, declared the other way round
		"g": "none",               // unlayered beats a layer declared later
		"h": "inline flow hidden", // important in a layer beats unlayered normal
		"i": "none",
		"j": "block flow", // a layer first declared in a false @media is not declared there
		"k": "block flow",
		"l": "inline flow", // CSS-wide keywords are no layer names
		"m": "none",
		"n": "block flow", // one layer order for all sheets of the document
		"p": "inline flow",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReadRulesLinear: reading a sheet looks at each token a bounded number
// of times however deeply groups nest or however many are skipped: the
// step count of twice the input is twice that of the input, less the
// constant for the sheet's ends.
func TestReadRulesLinear(t *testing.T) {
	shapes := map[string]func(n int) string{
		"nested matching groups": func(n int) string {
			return strings.Repeat("@media all{@layer x{@supports (display:grid){", n) + "a{x:y}" + strings.Repeat("}}}", n)
		},
		"nested failing groups": func(n int) string {
			return strings.Repeat("@media print{", n) + "a{x:y}" + strings.Repeat("}", n)
		},
		"unclosed groups": func(n int) string { return strings.Repeat("@media all{a{x:y}", n) },
		"many groups":     func(n int) string { return strings.Repeat("@media all{a{x:y}} @media print{b{x:y}} @layer l;", n) },
		"stray braces":    func(n int) string { return strings.Repeat("@media all{}}}a{x:y}", n) },
	}
	for name, shape := range shapes {
		steps := func(n int) int {
			c := newSheetContext()
			readRules(tokenize(shape(n)), c)
			return c.steps
		}
		s1, s2, s4 := steps(1000), steps(2000), steps(4000)
		if s4-s2 != 2*(s2-s1) || s2-s1 > 64*1000 {
			t.Errorf("%s: %d, %d, %d steps for 1000, 2000, 4000 repetitions: not linear", name, s1, s2, s4)
		}
	}
	// One small sheet, counted by hand: the reader's 3 turns (the group, the
	// rule, the closing '}'), 3 tokens from "@media" to the group's '{', the
	// rule's 1 prelude token and its 5 block tokens.
	c := newSheetContext()
	readRules(tokenize("@media all{a{x:y}}"), c)
	if c.steps != 12 {
		t.Errorf("steps = %d, want 12", c.steps)
	}
}
