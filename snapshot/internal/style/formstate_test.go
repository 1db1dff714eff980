package style

import (
	"strings"
	"testing"

	"github.com/andybalholm/cascadia"

	"golang.org/x/net/html"
)

// formPage is a form of n inputs under one parent, every fourth disabled,
// under input:enabled and input:disabled rules.
func formPage(n int) string {
	var b strings.Builder
	b.WriteString("<style>input:enabled{visibility:hidden} input:disabled{display:none}</style><body><form>")
	for i := 0; i < n; i++ {
		if i%4 == 3 {
			b.WriteString("<input disabled>")
		} else {
			b.WriteString("<input>")
		}
	}
	return b.String()
}

// formSteps is what formPage(n) costs: two steps (tag and state) for each
// rule on each input, and the fieldset answer worked out once per element:
// the first input climbs to the document (input, form, body, html and the
// document node), every later enabled input stops at the form. A disabled
// attribute answers without climbing.
func formSteps(n int) int {
	enabled := n - n/4
	return 4*n + 5 + (enabled - 1)
}

// checkForm styles formPage(n) and checks the charge and every input's
// result.
func checkForm(t *testing.T, n int) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(formPage(n)))
	if err != nil {
		t.Fatal(err)
	}
	e, styles := computeAll(doc)
	if e.SheetsDropped {
		t.Fatalf("%d inputs: author sheets dropped", n)
	}
	if got, want := e.StepsCharged(), formSteps(n); got != want {
		t.Errorf("%d inputs: %d steps charged, want %d", n, got, want)
	}
	if e.Work() > e.StepsCharged() {
		t.Errorf("%d inputs: work %d exceeds the charge %d", n, e.Work(), e.StepsCharged())
	}
	i := 0
	for el := doc; el != nil; el = NextNode(el, doc, true) {
		if el.Type != html.ElementNode || el.Data != "input" {
			continue
		}
		s := styles[el]
		if dis := i%4 == 3; s.Display.IsNone() != dis || s.Hidden == dis {
			t.Fatalf("input %d: display none %t, hidden %t; disabled %t", i, s.Display.IsNone(), s.Hidden, dis)
		}
		i++
	}
	if i != n {
		t.Fatalf("%d inputs parsed, want %d", i, n)
	}
}

// TestFormStateSteps: :enabled and :disabled cost one step each plus one
// per element whose fieldset answer is worked out, so a form grows linearly
// (before, every test walked the ancestors and the 2,000 siblings).
func TestFormStateSteps(t *testing.T) { checkForm(t, 2000) }

// TestFormStateLargeForm: 20,000 inputs under one parent keep their author
// sheets; counting the siblings on every test would have cost some 800
// million steps.
func TestFormStateLargeForm(t *testing.T) { checkForm(t, 20000) }

// TestFormStateStepsBound puts a form of 100 inputs, styled last, on top of
// the N(N+1)/2 steps of "x ~ .a" and one per .b element, just under, at and
// just over MatchSteps.
func TestFormStateStepsBound(t *testing.T) {
	const items = 100
	checkStepsBound(t, formSteps(items), " input:enabled{visibility:hidden} input:disabled{display:none}",
		"<form>"+strings.Repeat("<input><input><input><input disabled>", items/4)+"</form>",
		func(t *testing.T, extra int, dropped bool, styles map[*html.Node]Computed) {
			hidden, none := 0, 0
			for n, s := range styles {
				if n.Data == "input" && s.Hidden {
					hidden++
				}
				if n.Data == "input" && s.Display.IsNone() {
					none++
				}
			}
			want := map[bool][2]int{false: {items * 3 / 4, items / 4}, true: {0, 0}}[dropped]
			if hidden != want[0] || none != want[1] {
				t.Errorf("%d extra steps: %d hidden and %d undisplayed inputs, want %v", extra, hidden, none, want)
			}
		})
}

// TestFormStateEdges: the fieldset and legend rules, written out, agree
// with the selector library's own :enabled and :disabled.
func TestFormStateEdges(t *testing.T) {
	page := `<body>
<fieldset disabled id=outer>
  <legend id=l1><input id=inFirst><fieldset id=innerInFirst><input id=inInnerInFirst></fieldset></legend>
  <legend id=l2><input id=inSecond></legend>
  <input id=direct>
  <fieldset id=nested><legend id=nl><input id=nestedLegend></legend><input id=nestedDirect></fieldset>
</fieldset>
<fieldset id=plain><legend><input id=plainLegend></legend><fieldset disabled id=inner><input id=innerDirect><legend id=late><input id=lateLegend></legend></fieldset></fieldset>
<select><optgroup disabled id=og><option id=inDisabledGroup>a</option></optgroup><option disabled id=opt>b</option><option id=free>c</option></select>
<a id=link href=x>l</a><a id=nolink>n</a><button disabled id=btn>b</button><textarea id=ta></textarea>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	// What the selector library says, which is kept so that results stay
	// the same. Two cases differ from HTML, which also disables an option
	// in a disabled optgroup (inDisabledGroup) and a fieldset inside a
	// disabled one (nested).
	want := map[string]string{
		"inFirst": "enabled", "inInnerInFirst": "enabled", "inSecond": "disabled", "direct": "disabled",
		"nested": "enabled", "nestedLegend": "disabled", "nestedDirect": "disabled", "plainLegend": "enabled",
		"innerDirect": "disabled", "lateLegend": "enabled", "og": "disabled", "inDisabledGroup": "enabled",
		"opt": "disabled", "free": "enabled", "link": "enabled", "nolink": "", "btn": "disabled", "ta": "enabled",
		"l1": "", "outer": "disabled", "plain": "enabled",
	}
	refEn, refDis := cascadia.MustCompile(":enabled"), cascadia.MustCompile(":disabled")
	m := newMatcher(Options{})
	seen := 0
	for el := doc; el != nil; el = NextNode(el, doc, true) {
		if el.Type != html.ElementNode {
			continue
		}
		en, dis, ok := m.formState(el)
		if !ok {
			t.Fatal("budget spent")
		}
		if en != refEn.Match(el) || dis != refDis.Match(el) {
			t.Errorf("<%s id=%s>: enabled %t disabled %t, the selector library says %t %t", el.Data, attrOf(el, "id"), en, dis, refEn.Match(el), refDis.Match(el))
		}
		w, ok := want[attrOf(el, "id")]
		if !ok {
			continue
		}
		seen++
		got := map[[2]bool]string{{true, false}: "enabled", {false, true}: "disabled", {false, false}: ""}[[2]bool{en, dis}]
		if got != w {
			t.Errorf("#%s: %q, want %q", attrOf(el, "id"), got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d cases found", seen, len(want))
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// BenchmarkFormState styles a form of 2,000 inputs under input:enabled and
// input:disabled rules.
func BenchmarkFormState(b *testing.B) {
	page := formPage(2000)
	for i := 0; i < b.N; i++ {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			b.Fatal(err)
		}
		computeAll(doc)
	}
}
