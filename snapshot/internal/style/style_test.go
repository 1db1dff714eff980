package style

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/cascadia"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
	"pgregory.net/rapid"
)

func TestReadRules(t *testing.T) {
	type rule struct{ Prelude, Decls string }
	render := func(css string) []rule {
		var out []rule
		for _, r := range readRules(tokenize(css), nil) {
			var p, d strings.Builder
			for _, tk := range r.prelude {
				p.WriteString(tk.Data)
			}
			for _, x := range readDecls(r.block) {
				fmt.Fprintf(&d, "%s=", x.name)
				for _, tk := range x.value {
					d.WriteString(tk.Data)
				}
				if x.important {
					d.WriteString("!")
				}
				d.WriteString(";")
			}
			out = append(out, rule{strings.TrimSpace(p.String()), d.String()})
		}
		return out
	}
	cases := []struct {
		css  string
		want []rule
	}{
		{"a{display:none}", []rule{{"a", "display=none;"}}},
		{"/* c */ a , b { display : none ; visibility:hidden }", []rule{{"a , b", "display=none;visibility=hidden;"}}},
		{"a{display:none!important;x:y !  important}", []rule{{"a", "display=none!;x=y!;"}}},
		{"@media print{a{display:none}} b{display:block}", []rule{{"b", "display=block;"}}},
		{"@media screen{a{display:none}} b{display:block}", []rule{{"a", "display=none;"}, {"b", "display=block;"}}},
		{"@media screen{@media (min-width:1px){a{display:none}}} b{x:y}", []rule{{"a", "display=none;"}, {"b", "x=y;"}}},
		{"@media screen{a{x:y}", []rule{{"a", "x=y;"}}},    // an unclosed group runs to the end
		{"@media screen{a} b{x:y}", []rule{{"b", "x=y;"}}}, // the group's end ends the prelude
		{"@layer x{a{x:y}} @layer; b{x:y}", []rule{{"a", "x=y;"}, {"b", "x=y;"}}},
		{"@layer x, y{a{x:y}} b{x:y}", []rule{{"b", "x=y;"}}}, // a block names one layer
		{"@supports (nosuch: 1){a{x:y}} b{x:y}", []rule{{"b", "x=y;"}}},
		{"@scope (a){a{x:y}} @container (min-width: 1px){a{x:y}} b{x:y}", []rule{{"b", "x=y;"}}},
		{"@import url(x.css); @charset 'x'; c{display:block}", []rule{{"c", "display=block;"}}},
		{"a{b{display:none} display:block}", []rule{{"a", "display=block;"}}},
		{"a{@media x{b{c:d}} display:block}", []rule{{"a", "display=block;"}}},
		{"a{--x:{display:none}; display:block}", []rule{{"a", "--x={display:none};display=block;"}}},
		{"a{display:none", []rule{{"a", "display=none;"}}}, // unclosed block runs to the end
		{"a", nil}, // no block: dropped
		{"a{display}b{display:none}", []rule{{"a", ""}, {"b", "display=none;"}}},
		{"a{display:(;)none}", []rule{{"a", "display=(;)none;"}}}, // ';' inside a block does not end it
		{"<!-- a{display:none} -->", []rule{{"a", "display=none;"}}},
		{"} a{display:none}", []rule{{"} a", "display=none;"}}},
		{"; a{display:none}", []rule{{"; a", "display=none;"}}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, render(c.css)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.css, diff)
		}
	}
}

func TestParseDisplay(t *testing.T) {
	cases := map[string]string{
		"inline": "inline flow", "block": "block flow", "none": "none", "contents": "contents",
		"inline-block": "inline flow-root", "list-item": "block flow list-item",
		"inline list-item": "inline flow list-item", "list-item inline": "inline flow list-item",
		"flex": "block flex", "inline flex": "inline flex", "grid inline": "inline grid",
		"table-cell": "internal", "ruby-text": "internal", "ruby": "inline ruby", "math": "inline math",
		"block math": "block math", "flow-root list-item": "block flow-root list-item",
		"-webkit-box": "block -webkit-box", "-webkit-inline-box": "inline -webkit-box",
		"table": "block table", "inline-table": "inline table", "flow": "block flow", "grid": "block grid",
		"inline flow": "inline flow", "flex inline": "inline flex", "block list-item": "block flow list-item",
		"inline ruby": "inline ruby", "math block": "block math", "block flow-root": "block flow-root",
		"-webkit-inline-flex": "inline flex", "inline table": "inline table",
		"run-in": "invalid", "table flow": "invalid", "list-item table": "invalid", "flex list-item": "invalid",
		"block block": "invalid", "list-item list-item": "invalid", "inline flow list-item block": "invalid",
		"ruby-base": "invalid", "masonry": "invalid", "inline-list-item": "invalid",
	}
	for in, want := range cases {
		d, ok := parseDisplay(strings.Fields(in))
		got := d.String()
		if !ok {
			got = "invalid"
		}
		if got != want {
			t.Errorf("display %q = %s, want %s", in, got, want)
		}
	}
}

func TestParseSelectors(t *testing.T) {
	type sel struct {
		Parts []string
		Spec  [3]int
		Key   string
	}
	cases := []struct {
		in   string
		want []sel // nil with ok false: invalid
		ok   bool
	}{
		{"div", []sel{{[]string{"div"}, [3]int{0, 0, 1}, "tag:div"}}, true},
		{"DIV.a#b", []sel{{[]string{"div.a#b"}, [3]int{1, 1, 1}, "id:b"}}, true},
		{"ul   li > a + b ~ c", []sel{{[]string{"ul", " li", ">a", "+b", "~c"}, [3]int{0, 0, 5}, "tag:c"}}, true},
		{"a:hover", []sel{{[]string{"a:nth-child(0n+0)"}, [3]int{0, 1, 1}, "tag:a"}}, true},
		{"a:is(.x, .y)", []sel{{[]string{"a:not(:not(.x, .y))"}, [3]int{0, 1, 1}, "tag:a"}}, true},
		{"a:has(> b)", []sel{{[]string{"a:haschild(b)"}, [3]int{0, 0, 2}, "tag:a"}}, true},
		{":checked", []sel{{[]string{`:contains("state1")`}, [3]int{0, 1, 0}, ""}}, true},
		{":read-only:dir(rtl)", []sel{{[]string{`:contains("notstate32"):contains("state256")`}, [3]int{0, 2, 0}, ""}}, true},
		{"p::before, .x", []sel{{[]string{".x"}, [3]int{0, 1, 0}, "class:x"}}, true},
		{"p:after", nil, true},
		{".a .b, ", nil, false},
		{"> a", nil, false},
		{"a >", nil, false},
		{"a > > b", nil, false},
		{"ns|a", nil, false},
		{"& a", nil, false},
		{"a || b", nil, false},
		{"a:bogus", nil, false},
		{"a:not(.w .x .y .z)", nil, false}, // more nested combinators than allowed
		{strings.Repeat("a ", MaxCompounds), []sel{{nil, [3]int{0, 0, MaxCompounds}, "tag:a"}}, true},
		{strings.Repeat("a ", MaxCompounds+1), nil, false},
	}
	for _, c := range cases {
		got, ok := parseSelectors(tokenize(c.in))
		if ok != c.ok {
			t.Errorf("%q: ok %t, want %t", c.in, ok, c.ok)
			continue
		}
		var gs []sel
		for _, s := range got {
			g := sel{Spec: s.spec}
			switch s.key {
			case keyID:
				g.Key = "id:" + s.keyText
			case keyClass:
				g.Key = "class:" + s.keyText
			case keyTag:
				g.Key = "tag:" + s.keyText
			}
			if len(s.parts) <= 8 {
				for _, p := range s.parts {
					text := p.sel.String()
					if p.comb != 0 {
						text = string(p.comb) + text
					}
					g.Parts = append(g.Parts, text)
				}
			}
			gs = append(gs, g)
		}
		if diff := cmp.Diff(c.want, gs); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.in, diff)
		}
	}
}

// TestMatchAgreesWithCascadia: the right-to-left matcher with early exits
// answers exactly what the selector library's own matcher answers.
func TestMatchAgreesWithCascadia(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// The form elements and a disabled attribute exercise :enabled and
		// :disabled: fieldsets and legends also wrap what follows, so that
		// there are nested fieldsets, controls in first and later legends,
		// and options in optgroups.
		tags := []string{"div", "p", "span", "legend", "input", "option", "a"}
		wraps := []string{"x-c", "x-c", "x-c", "fieldset", "legend", "optgroup"}
		classes := []string{"a", "b"}
		// A random tree of up to 40 elements.
		var sb strings.Builder
		var open []string
		n := rapid.IntRange(1, 40).Draw(t, "n")
		for i := 0; i < n; i++ {
			if len(open) > 0 && rapid.Bool().Draw(t, "close") {
				fmt.Fprintf(&sb, "</%s>", open[len(open)-1])
				open = open[:len(open)-1]
			}
			wrap := rapid.SampledFrom(wraps).Draw(t, "wrap")
			tag := rapid.SampledFrom(tags).Draw(t, "tag")
			cls := rapid.SampledFrom(classes).Draw(t, "class")
			attr := rapid.SampledFrom([]string{"", " disabled", " href"}).Draw(t, "attr")
			wattr := rapid.SampledFrom([]string{"", " disabled"}).Draw(t, "wrapAttr")
			fmt.Fprintf(&sb, "<%s%s><%s class=%s id=i%d%s></%s>", wrap, wattr, tag, cls, i, attr, tag)
			open = append(open, wrap)
		}
		doc, err := html.Parse(strings.NewReader(sb.String()))
		if err != nil {
			t.Fatal(err)
		}
		// A random complex selector.
		k := rapid.IntRange(1, 5).Draw(t, "compounds")
		var sel strings.Builder
		for i := 0; i < k; i++ {
			if i > 0 {
				sel.WriteString(rapid.SampledFrom([]string{" ", " > ", " + ", " ~ "}).Draw(t, "comb"))
			}
			sel.WriteString(rapid.SampledFrom([]string{"div", "p", "span", "x-c", "*", ".a", ".b", "div.a", "p.b", ":first-child",
				"#i1", "*.a.b", "[class=a]", "[class~=b i]", ":not(.a)", ":not( .a , p )", ":not(div .b)", ":has(.a)", ":has( p.b )",
				":has(span ~ .b)", ":nth-child(2n + 1)", ":last-of-type", ":only-child", ":not(:not(.b > span))",
				":root", ":lang(en)", ":enabled", ":nth-child(-n+3)", ":nth-last-child(odd)", "p:nth-of-type(2)",
				":nth-last-of-type(3n-1)", ":only-of-type", ":first-of-type", ":last-child", ":nth-child(0n+0)", ":nth-child(-2n-1)",
				":nth-child(+n)", ":not(:nth-child(2n))", ":nth-child(9999999999)", ":nth-of-type(even)", ":has(:last-child)",
				":disabled", "input:enabled", ":not(:disabled)", "legend :enabled", "fieldset:disabled", "option:disabled"}).Draw(t, "compound"))
		}
		// Three combinators inside pseudo-classes are more than allowed.
		// The closing parenthesis tells a nested combinator from the same
		// words joined at the top level ("p.b > span").
		nested := strings.Count(sel.String(), ":not(div .b)") + strings.Count(sel.String(), "span ~ .b)") + strings.Count(sel.String(), ".b > span)")
		sels, ok := parseSelectors(tokenize(sel.String()))
		if nested > MaxNestedCombinators {
			if ok {
				t.Fatalf("%q parsed with %d nested combinators", sel.String(), nested)
			}
			return
		}
		if !ok || len(sels) != 1 {
			t.Fatalf("%q did not parse", sel.String())
		}
		ref := cascadia.MustCompile(sel.String())
		// One matcher for the document, as in styling, so that the
		// numbered siblings of one element serve the next.
		m := newMatcher(Options{})
		for el := doc; el != nil; el = NextNode(el, doc, true) {
			if el.Type != html.ElementNode {
				continue
			}
			if got, want := matchComplex(&sels[0], el, &m), ref.Match(el); got != want {
				t.Fatalf("%q on <%s>: ours %t, cascadia %t", sel.String(), el.Data, got, want)
			}
		}
	})
}

// TestHostileCSS feeds style sheets built to be slow or to break a parser.
// Each must finish well within the deadline and not panic.
func TestHostileCSS(t *testing.T) {
	deep := "<html><body>" + strings.Repeat("<div class=a>", 500) + "x"
	cases := map[string]struct{ css, page string }{
		"nested brackets":       {strings.Repeat("(", 1<<20) + "{display:none}", "<p>x</p>"},
		"nested blocks":         {"a" + strings.Repeat("{", 1<<20), "<p>x</p>"},
		"unterminated comment":  {"a{display:none}/*" + strings.Repeat("x", 1<<20), "<a>x</a>"},
		"unterminated string":   {`a[x="` + strings.Repeat("x", 1<<20), "<a>x</a>"},
		"bad escapes":           {strings.Repeat(`\`, 1<<20), "<a>x</a>"},
		"descendant chain miss": {"x " + strings.Repeat(".a ", MaxCompounds-1) + "{display:none}", deep},
		"sibling chain miss":    {"x " + strings.Repeat("~ .a ", MaxCompounds-1) + "{display:none}", "<body>" + strings.Repeat("<i class=a></i>", 5000)},
		"many rules":            {strings.Repeat(".a .a .a{display:none}", 20000), deep},
		"many has":              {strings.Repeat(":has(.a){display:none}", 2000), deep},
		"deep not":              {strings.Repeat(":not(", 2000) + "a" + strings.Repeat(")", 2000) + "{display:none}", deep},
		"long declaration list": {"a{" + strings.Repeat("display:none;", 1<<16) + "}", "<a>x</a>"},
		"deep nesting":          {strings.Repeat(".a{", 1<<17) + "display:none" + strings.Repeat("}", 1<<17), deep},
		"long nested selectors": {strings.Repeat(strings.Repeat(".a,", 200)+".a{", 40) + "display:none", deep},
		"garbage":               {strings.Repeat("@{}[]();:!,>+~|#.*\"'\\\x00\xff", 1<<14), "<a>x</a>"},
		"nth-child of, wide":    {strings.Repeat("i:nth-child(2n+1 of .a, .b){display:none}", 50), "<body><div>" + strings.Repeat("<i class=a></i>", 5000)},
		"nth-child of, nested":  {"i:nth-child(1 of " + strings.Repeat(":nth-child(1 of ", 1000) + ".a" + strings.Repeat(")", 1001) + "{display:none}", deep},
		"escaped names":         {"a{" + strings.Repeat(`\64 \69 \73 \70 \6c \61 \79 :none;`, 1<<12) + "}", "<a>x</a>"},
		"dir arguments":         {strings.Repeat(":dir( ltr ):dir(rtl):dir(x):dir(", 1<<12) + "{display:none}", deep},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			doc, err := html.Parse(strings.NewReader("<style>" + strings.ReplaceAll(c.css, "</", "<\\/") + "</style>" + c.page))
			if err != nil {
				t.Fatal(err)
			}
			computeAll(doc)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestMatchBudgetBound puts the candidate count just under, at and just over
// MatchBudget. Universal rules are candidates for every element.
func TestMatchBudgetBound(t *testing.T) {
	const rules = 1 << 10
	const elements = MatchBudget / rules // html, head, style, body and the divs
	css := strings.Repeat("*{visibility:visible}", rules-1) + "[class=hide]{display:none}"
	for _, c := range []struct {
		divs    int
		dropped bool
	}{
		{elements - 4 - 1, false},
		{elements - 4, false},
		{elements - 4 + 1, true},
	} {
		page := "<html><head><style>" + css + "</style></head><body>" + strings.Repeat("<div></div>", c.divs-1) + "<div class=hide></div>"
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		e, styles := computeAll(doc)
		if e.SheetsDropped != c.dropped {
			t.Errorf("%d divs: dropped %t, want %t", c.divs, e.SheetsDropped, c.dropped)
		}
		// Sheets over the pair budget are dropped before matching, so no
		// step is charged for them.
		if d := New(doc, Options{}).SheetsDropped; d != c.dropped {
			t.Errorf("%d divs: New dropped %t, want %t", c.divs, d, c.dropped)
		}
		if c.dropped && (e.StepsCharged() != 0 || e.Work() != 0) {
			t.Errorf("%d divs: %d steps charged, %d work, want none", c.divs, e.StepsCharged(), e.Work())
		}
		// The last div shows whether the sheet applied.
		var last *html.Node
		for n := doc; n != nil; n = NextNode(n, doc, true) {
			if n.Type == html.ElementNode && n.Data == "div" {
				last = n
			}
		}
		got := styles[last].Display.IsNone()
		if got == c.dropped {
			t.Errorf("%d divs: hidden %t with sheets dropped %t", c.divs, got, c.dropped)
		}
	}
}

// TestMatchBudgetCounted is TestMatchBudgetBound where the pairs must be
// counted element by element: a costly rule (it weighs as much as the
// document has elements) keyed by a class only some elements carry, so
// that the rules times the elements pass the budget while the candidate
// pairs may not.
func TestMatchBudgetCounted(t *testing.T) {
	const elements = 1 << 12 // html, head, style, body, the divs and one b
	const perClass = MatchBudget / elements
	for _, c := range []struct {
		classed int
		dropped bool
	}{
		{perClass - 1, false},
		{perClass, false},
		{perClass + 1, true},
	} {
		divs := elements - 5
		page := "<html><head><style>.k:has(b){display:none}</style></head><body>" +
			strings.Repeat("<div></div>", divs-c.classed) + strings.Repeat("<div class=k></div>", c.classed-1) + "<div class=k><b></b></div>"
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		if d := New(doc, Options{}).SheetsDropped; d != c.dropped {
			t.Errorf("%d classed: New dropped %t, want %t", c.classed, d, c.dropped)
		}
		e, styles := computeAll(doc)
		var last *html.Node
		for n := doc; n != nil; n = NextNode(n, doc, true) {
			if n.Type == html.ElementNode && n.Data == "div" {
				last = n
			}
		}
		if hidden := styles[last].Display.IsNone(); hidden == c.dropped || e.SheetsDropped != c.dropped {
			t.Errorf("%d classed: hidden %t, dropped %t, want dropped %t", c.classed, hidden, e.SheetsDropped, c.dropped)
		}
	}
}

// computeAll computes every element's style in tree order, as the HTML
// source does: when matching runs out of MatchSteps, the sheets are dropped
// and everything is computed again.
func computeAll(doc *html.Node) (*Engine, map[*html.Node]Computed) {
	return computeAllWith(doc, Options{})
}

// computeAllWith is computeAll with the engine's options.
func computeAllWith(doc *html.Node, opts Options) (*Engine, map[*html.Node]Computed) {
	e := New(doc, opts)
	for {
		out := map[*html.Node]Computed{}
		for n := doc; n != nil; n = NextNode(n, doc, true) {
			if n.Type != html.ElementNode {
				continue
			}
			var parent *Computed
			if p, ok := out[n.Parent]; ok {
				parent = &p
			}
			out[n] = e.Compute(n, parent)
		}
		if !e.OverBudget() {
			return e, out
		}
		e.DropSheets()
	}
}

// TestMatchStepsBound: N siblings of class a under "x ~ .a" cost
// N(N+1)/2 steps (each tries itself, then every earlier sibling), and M
// elements of class b under ".b" one step each. The total is put just under,
// at and just over MatchSteps.
func TestMatchStepsBound(t *testing.T) {
	checkStepsBound(t, 0, "", "", func(t *testing.T, extra int, dropped bool, styles map[*html.Node]Computed) {
		blocks := 0
		for n, s := range styles {
			if n.Data == "i" && s.Display.Class() != 0 {
				blocks++
			}
		}
		if want := map[bool]int{false: extra, true: 0}[dropped]; blocks != want {
			t.Errorf("%d extra steps: %d block elements, want %d", extra, blocks, want)
		}
	})
}

// stepsBoundSiblings is the number of "x ~ .a" siblings checkStepsBound
// puts first: they cost stepsBoundSiblings(stepsBoundSiblings+1)/2 steps.
const stepsBoundSiblings = 8191

// checkStepsBound puts a page's matching cost just under, at and just over
// MatchSteps: stepsBoundSiblings elements of class a under "x ~ .a", then
// as many ".b" elements (one step each) as take the total there, then
// tail, styled last, whose own rules (rules) cost more steps. For each
// total it checks that the sheets are dropped only over the budget and,
// when they apply, that exactly the steps counted were charged; then it
// hands the styles to check.
func checkStepsBound(t *testing.T, more int, rules, tail string, check func(t *testing.T, extra int, dropped bool, styles map[*html.Node]Computed)) {
	t.Helper()
	const n = stepsBoundSiblings
	base := n*(n+1)/2 + more
	for _, c := range []struct {
		extra   int
		dropped bool
	}{
		{MatchSteps - base - 1, false},
		{MatchSteps - base, false},
		{MatchSteps - base + 1, true},
	} {
		page := "<style>x ~ .a{visibility:hidden} .b{display:block}" + rules + "</style><body><div>" +
			strings.Repeat("<i class=a></i>", n) + "</div><div>" + strings.Repeat("<i class=b></i>", c.extra) + "</div>" + tail
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		e, styles := computeAll(doc)
		if e.SheetsDropped != c.dropped {
			t.Errorf("%d extra steps: dropped %t, want %t", c.extra, e.SheetsDropped, c.dropped)
		}
		if !c.dropped && e.StepsCharged() != base+c.extra {
			t.Errorf("%d extra steps: %d charged, want %d", c.extra, e.StepsCharged(), base+c.extra)
		}
		check(t, c.extra, c.dropped, styles)
	}
}

// TestMaxNesting: style rules nested MaxNesting deep apply, one level deeper
// do not.
func TestMaxNesting(t *testing.T) {
	for _, c := range []struct {
		levels int
		hidden bool
	}{
		{MaxNesting - 1, true},
		{MaxNesting, true},
		{MaxNesting + 1, false},
	} {
		css := strings.Repeat("div{", c.levels-1) + ".t{display:none}" + strings.Repeat("}", c.levels-1)
		page := "<style>" + css + "</style><body>" + strings.Repeat("<div>", c.levels) + "<i class=t>x</i>"
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		_, styles := computeAll(doc)
		for n, s := range styles {
			if n.Data == "i" && s.Display.IsNone() != c.hidden {
				t.Errorf("%d levels: hidden %t, want %t", c.levels, s.Display.IsNone(), c.hidden)
			}
		}
	}
}

// TestPositionStepsBound: a list of m items under li:nth-child(2n) costs
// 3m steps (tag and position per item, and the list numbered once), on top
// of the N(N+1)/2 of "x ~ .a" and one per .b element; the total is put just
// under, at and just over MatchSteps, the list styled last.
func TestPositionStepsBound(t *testing.T) {
	const items = 100
	checkStepsBound(t, 3*items, " li:nth-child(2n){visibility:hidden}", "<ul>"+strings.Repeat("<li></li>", items)+"</ul>",
		func(t *testing.T, extra int, dropped bool, styles map[*html.Node]Computed) {
			hidden := 0
			for n, s := range styles {
				if n.Data == "li" && s.Hidden {
					hidden++
				}
			}
			if want := map[bool]int{false: items / 2, true: 0}[dropped]; hidden != want {
				t.Errorf("%d extra steps: %d hidden items, want %d", extra, hidden, want)
			}
		})
}
