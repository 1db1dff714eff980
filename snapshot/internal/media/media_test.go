package media

import (
	"os"
	"strings"
	"testing"
)

// TestChromiumAnswers replays queries whose answers were recorded from
// Chromium 156 (matchMedia on the reference screen): every syntax form,
// every feature with each of its values, invalid forms and the precision of
// comparisons. Lengths relative to font metrics are left out of the record;
// TestFontRelativeUnitsAreUnknown covers them.
func TestChromiumAnswers(t *testing.T) {
	data, err := os.ReadFile("testdata/chromium156.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		want, q, ok := strings.Cut(line, "\t")
		if !ok || (want != "T" && want != "F") {
			t.Fatalf("bad line %q", line)
		}
		n++
		if got := Match(q, Reference()); got != (want == "T") {
			t.Errorf("Match(%q) = %v, Chromium says %s", q, got, want)
		}
	}
	if n < 500 {
		t.Fatalf("only %d recorded queries read", n)
	}
}

// TestFontRelativeUnitsAreUnknown: ex, ch and the other font-metric units
// depend on the fonts installed; a feature using one is unknown, so neither
// it nor its negation matches.
func TestFontRelativeUnitsAreUnknown(t *testing.T) {
	for _, u := range []string{"ex", "ch", "cap", "ic", "lh", "rlh", "rex", "rch"} {
		for _, q := range []string{"(min-width: 1" + u + ")", "not (min-width: 1" + u + ")"} {
			if Match(q, Reference()) {
				t.Errorf("Match(%q) = true, want false (unknown)", q)
			}
		}
	}
}

// narrow is a screen 900 pixels wide, to test range boundaries.
func narrow() Screen {
	s := Reference()
	s.Width = 900
	return s
}

func TestRangeBoundaries(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		// min-/max- are inclusive, on both sides of 900.
		{"(min-width: 899px)", true}, {"(min-width: 900px)", true}, {"(min-width: 901px)", false},
		{"(max-width: 899px)", false}, {"(max-width: 900px)", true}, {"(max-width: 901px)", true},
		{"(width: 899px)", false}, {"(width: 900px)", true}, {"(width: 901px)", false},
		// Strict comparisons are exact.
		{"(width < 899px)", false}, {"(width < 900px)", false}, {"(width < 901px)", true},
		{"(width > 899px)", true}, {"(width > 900px)", false}, {"(width > 901px)", false},
		{"(width <= 899px)", false}, {"(width <= 900px)", true}, {"(width <= 901px)", true},
		{"(width >= 899px)", true}, {"(width >= 900px)", true}, {"(width >= 901px)", false},
		{"(899px < width)", true}, {"(900px < width)", false}, {"(901px < width)", false},
		{"(899px = width)", false}, {"(900px = width)", true},
		// Two comparisons.
		{"(400px <= width < 899px)", false}, {"(400px <= width < 900px)", false}, {"(400px <= width < 901px)", true},
		{"(899px <= width <= 900px)", true}, {"(900px < width <= 1000px)", false}, {"(899px < width <= 1000px)", true},
		{"(1000px > width >= 900px)", true}, {"(1000px > width >= 901px)", false},
		// The non-strict tolerance, 1/64 px: just under, at and just over.
		{"(min-width: 900.015px)", true}, {"(min-width: 900.015625px)", true}, {"(min-width: 900.016px)", false},
		{"(max-width: 899.985px)", true}, {"(max-width: 899.984375px)", true}, {"(max-width: 899.984px)", false},
		// Units against 900px: 56.25em, 70.3125vw of 1280... of 900 is 100vw.
		{"(min-width: 56.25em)", true}, {"(min-width: 56.25rem)", true}, {"(min-width: 56.3em)", false},
		{"(width: 100vw)", true}, {"(width: 99vw)", false}, {"(width: 112.5vh)", true},
		{"(min-width: calc(450px * 2))", true}, {"(min-width: calc(450px * 2 + 1px))", false},
		{"(min-width: calc(50vw + 450px))", true}, {"(min-width: calc(28.125em + 50vw))", true},
		{"(max-width: calc(100vw - 1px))", false},
	}
	for _, c := range cases {
		if got := Match(c.q, narrow()); got != c.want {
			t.Errorf("Match(%q) on 900px = %v, want %v", c.q, got, c.want)
		}
	}
}

func TestSyntax(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		{"", true}, {"  ", true}, {"all", true}, {"screen", true}, {"print", false}, {"Screen", true},
		{"only screen", true}, {"only print", false}, {"not print", true}, {"not screen", false},
		{"not speech", true}, {"not nosuchtype", true},
		{"only", false}, {"not", false}, {"only (color)", false}, {"not only screen", false},
		{"and", false}, {"or", false}, {"layer", false}, {"screen and layer", false},
		{"screen and (color)", true}, {"print and (color)", false}, {"not print and (color)", true},
		{"not screen and (monochrome)", true}, {"screen and not (monochrome)", true},
		{"screen (color)", false}, {"screen and", false}, {"screen and (color) or (hover)", false},
		{"screen or (color)", false},
		{"(color) and (hover)", false}, {"(color) or (hover)", true}, {"(color) and (hover) or (grid)", false},
		{"((color) and (hover)) or (orientation)", true}, {"not (hover)", true}, {"not not (hover)", false},
		{"not (not (hover))", false}, {"(not (hover))", true},
		{"print, screen", true}, {"print, tv", false}, {"screen, ", true}, {"print, ", false}, {", screen", true},
		{"junk junk, screen", true}, {"(color)), screen", true}, {"screen and ((color)", true},
		// Unknown things: never true, and not unknown is unknown.
		{"(nosuch)", false}, {"not (nosuch)", false}, {"(nosuch) or (color)", true},
		{"(nosuch) and (color)", false}, {"not ((nosuch) or (color))", false},
		{"not ((nosuch) and (grid))", true}, {"func(x)", false}, {"not func(x)", false},
		{"(min-orientation: landscape)", false}, {"not (min-orientation: landscape)", false},
		{"(orientation > landscape)", false}, {"(width < = 1px)", false}, {"(1px < width > 0px)", false},
		{"(1px = width = 1px)", false}, {"(width: 1)", false}, {"not (width: 1)", false}, {"(width: 0)", false},
		{"not (width: 0)", true}, {"(min-width: 0)", true}, {"(width: 1280px !important)", false},
		{"(width:)", false}, {"not (width:)", false}, {"()", false}, {"not ()", false},
		// Comments are nothing.
		{"screen/**/and/**/(color)", true},
		// Unclosed at the end of the text closes.
		{"(min-width: 1px", true},
	}
	for _, c := range cases {
		if got := Match(c.q, Reference()); got != c.want {
			t.Errorf("Match(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestEveryFeature checks each feature of the reference screen with its
// value, another value, and its boolean form.
func TestEveryFeature(t *testing.T) {
	cases := []struct {
		feature, yes, no string
		boolean          bool
	}{
		{"width", "1280px", "1279px", true},
		{"height", "800px", "801px", true},
		{"device-width", "1280px", "800px", true},
		{"device-height", "800px", "1280px", true},
		{"aspect-ratio", "16/10", "16/9", true},
		{"device-aspect-ratio", "8/5", "4/3", true},
		{"orientation", "landscape", "portrait", true},
		{"resolution", "1dppx", "2dppx", true},
		{"-webkit-device-pixel-ratio", "1", "2", true},
		{"color", "8", "10", true},
		{"color-index", "0", "256", false},
		{"monochrome", "0", "1", false},
		{"grid", "0", "1", false},
		{"color-gamut", "srgb", "p3", true},
		{"dynamic-range", "standard", "high", true},
		{"prefers-color-scheme", "light", "dark", true},
		{"prefers-reduced-motion", "no-preference", "reduce", false},
		{"prefers-reduced-transparency", "no-preference", "reduce", false},
		{"prefers-contrast", "no-preference", "more", false},
		{"forced-colors", "none", "active", false},
		{"pointer", "none", "fine", false},
		{"any-pointer", "none", "coarse", false},
		{"hover", "none", "hover", false},
		{"any-hover", "none", "hover", false},
		{"scripting", "enabled", "none", true},
		{"display-mode", "browser", "standalone", true},
		{"update", "fast", "slow", true},
		{"overflow-block", "scroll", "paged", true},
		{"overflow-inline", "scroll", "none", true},
		{"horizontal-viewport-segments", "1", "2", true},
		{"vertical-viewport-segments", "1", "2", true},
		{"device-posture", "continuous", "folded", true},
	}
	s := Reference()
	for _, c := range cases {
		yes := "(" + c.feature + ": " + c.yes + ")"
		no := "(" + c.feature + ": " + c.no + ")"
		if !Match(yes, s) || Match("not "+yes, s) {
			t.Errorf("%s does not match", yes)
		}
		if Match(no, s) || !Match("not "+no, s) {
			t.Errorf("%s matches, or is not known", no)
		}
		if got := Match("("+c.feature+")", s); got != c.boolean {
			t.Errorf("(%s) = %v, want %v", c.feature, got, c.boolean)
		}
		if got := Match("not ("+c.feature+")", s); got == c.boolean {
			t.Errorf("not (%s) = %v", c.feature, got)
		}
		if Match("("+c.feature+": nosuchvalue)", s) || Match("not ("+c.feature+": nosuchvalue)", s) {
			t.Errorf("%s: an unknown value is not unknown", c.feature)
		}
	}
	// Features Chromium 156 does not evaluate are unknown.
	for _, f := range []string{"inverted-colors: none", "video-dynamic-range: standard", "prefers-reduced-data: no-preference",
		"environment-blending: opaque", "nosuch: 1"} {
		if Match("("+f+")", s) || Match("not ("+f+")", s) {
			t.Errorf("(%s) is known", f)
		}
	}
}

func TestValues(t *testing.T) {
	cases := []struct {
		q    string
		want bool
	}{
		// Absolute units.
		{"(width: 13.333333in)", true}, {"(width: 960pt)", true}, {"(width: 80pc)", true},
		{"(width: 338.66666mm)", true}, {"(width: 33.866666cm)", true}, {"(width: 1354.6666q)", true},
		// Viewport units and their small, large and dynamic forms.
		{"(width: 100vw)", true}, {"(width: 100svw)", true}, {"(width: 100dvi)", true}, {"(height: 100lvh)", true},
		{"(width: 160vmin)", true}, {"(width: 100vmax)", true}, {"(height: 100vb)", true},
		// calc() and the other math functions.
		{"(width: calc(1000px + 280px))", true}, {"(width: calc(1280px - 1px))", false},
		{"(width: calc(2 * 640px))", true}, {"(width: calc(2560px / 2))", true}, {"(width: calc((1000px + 280px) * 1))", true},
		{"(width: calc(1280px+0px))", false}, {"not (width: calc(1280px+0px))", false},
		{"(width: calc(1280px + 0))", false}, {"(width: calc(1px * 1px))", false}, {"(width: calc(1280))", false},
		{"(width: min(1280px, 2000px))", true}, {"(width: max(1px, 1280px))", true},
		{"(width: clamp(1px, 1280px, 1300px))", true}, {"(width: clamp(1px, 2000px, 1280px))", true},
		{"(width: abs(-1280px))", true}, {"(width: calc(sign(-5px) * -1280px))", true},
		{"(width: round(1279.6px, 1px))", true}, {"(width: round(down, 1280.9px, 1px))", true},
		{"(width: round(up, 1279.1px, 1px))", true}, {"(width: round(to-zero, 1280.9px, 1px))", true},
		{"(max-width: calc(infinity * 1px))", true}, {"(min-width: calc(1px / 0))", false},
		{"(width: calc(pi * 0px + 1280px))", true}, {"(width: nosuch(1280px))", false}, {"(width: var(--w))", false},
		{"(width: calc(calc(calc(1280px))))", true}, {"(width: -webkit-calc(1280px))", true},
		// Ratios.
		{"(aspect-ratio: 1280/800)", true}, {"(aspect-ratio: 1.6)", true}, {"(aspect-ratio: 16 / 10)", true},
		{"(aspect-ratio: calc(8 * 2) / 10)", true}, {"(aspect-ratio: -16/10)", false}, {"not (aspect-ratio: -16/10)", false},
		{"(aspect-ratio: 16/0)", false}, {"not (aspect-ratio: 0/0)", true}, {"(aspect-ratio: 1/2/3)", false},
		{"(min-aspect-ratio: 1/1)", true}, {"(max-aspect-ratio: 1/1)", false},
		// Resolutions.
		{"(resolution: 1x)", true}, {"(resolution: 96dpi)", true}, {"(resolution: 37.795276dpcm)", true},
		{"(resolution: calc(2x / 2))", true}, {"(resolution: 1)", false}, {"(resolution: infinite)", false},
		{"(min-resolution: 1.5dppx)", false}, {"(-webkit-min-device-pixel-ratio: 1.5)", false},
		{"(-webkit-max-device-pixel-ratio: 1)", true},
		// Integers.
		{"(color: 8)", true}, {"(color: +8)", true}, {"(color: 8.0)", false}, {"not (color: 8.0)", false},
		{"(min-color: 1)", true}, {"(color: calc(4 * 2))", true}, {"(8 <= color <= 8)", true},
	}
	for _, c := range cases {
		if got := Match(c.q, Reference()); got != c.want {
			t.Errorf("Match(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestDepthBound: conditions and values nested past MaxDepth are unknown,
// and hostile nesting costs no more than its length.
func TestDepthBound(t *testing.T) {
	nest := func(n int) string {
		return strings.Repeat("(", n) + "color" + strings.Repeat(")", n)
	}
	if !Match(nest(MaxDepth), Reference()) {
		t.Errorf("%d nested parentheses do not match", MaxDepth)
	}
	if Match(nest(MaxDepth+2), Reference()) || Match("not "+nest(MaxDepth+2), Reference()) {
		t.Errorf("%d nested parentheses are not unknown", MaxDepth+2)
	}
	calc := func(n int) string {
		return "(width: " + strings.Repeat("calc(", n) + "1280px" + strings.Repeat(")", n) + ")"
	}
	if !Match(calc(MaxDepth), Reference()) {
		t.Errorf("%d nested calc() do not match", MaxDepth)
	}
	if Match(calc(MaxDepth+2), Reference()) {
		t.Errorf("%d nested calc() match", MaxDepth+2)
	}
	// Deep hostile text ends.
	Match(strings.Repeat("(", 100000), Reference())
	Match(strings.Repeat("calc(", 100000), Reference())
}

// FuzzMatch: any text evaluates without panicking, and the answer never
// changes between two calls.
func FuzzMatch(f *testing.F) {
	for _, s := range []string{"screen and (min-width: 900px)", "(400px <= width < 900px)", "not (a) or (b)",
		"(width: calc(1px + (2px * 3)))", "(aspect-ratio: 16/9)", "((((", "calc(", "(resolution: 2x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Match(s, Reference()) != Match(s, Reference()) {
			t.Fatal("not deterministic")
		}
	})
}
