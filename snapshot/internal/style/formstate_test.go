package style

import (
	"strings"
	"testing"

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
