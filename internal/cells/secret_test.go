package cells

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

const canary = "CANARY7f3a"

// secretPage plants the canary in every editable place a page can have.
func secretPage() []spec {
	cv := A{"value", canary}
	return []spec{E("body",
		E("form",
			E("label", "Name ", E("input", A{"id", "name"}, cv), " end"),
			E("label", "Pass", E("input", A{"id", "pw"}, A{"type", "password"}, cv)),
			E("input", A{"id", "hidden"}, A{"type", "hidden"}, cv),
			E("input", A{"id", "box"}, A{"type", "checkbox"}, cv),
			E("input", A{"id", "num"}, A{"type", "number"}, cv),
			E("input", A{"id", "mail"}, A{"type", "EMAIL"}, cv, A{"list", "dl"}),
			E("datalist", DisplayNone, A{"id", "dl"}, E("option", A{"id", "dlo"}, cv, canary)),
			E("label", "Bio", E("textarea", A{"id", "bio"}, canary)),
			E("label", A{"for", "pick"}, "Pick"),
			E("label", "Choose ", E("select", A{"id", "pick"},
				E("option", A{"id", "opt1"}, A{"value", canary}, A{"label", canary}, canary),
				E("optgroup", A{"id", "grp"}, A{"label", canary}, E("option", A{"id", "opt2"}, canary)))),
			E("label", "Notes", E("div", A{"id", "ce"}, A{"contenteditable", ""}, A{"role", "textbox"}, canary,
				E("table", E("tr", E("td", A{"id", "cetd"}, canary))),
				E("ul", E("li", A{"id", "celi"}, canary)),
				E("button", A{"id", "cebtn"}, canary),
				E("label", A{"id", "celab"}, A{"for", "name"}, canary))),
			E("span", A{"id", "pt"}, A{"contenteditable", "PLAINTEXT-ONLY"}, canary),
			E("div", A{"contenteditable", "true"}, E("span", A{"id", "deep"}, E("b", canary))),
			// References to controls, options and editable regions.
			E("input", A{"id", "r1"}, A{"aria-labelledby", "name pw bio pick opt1 opt2 grp dlo ce cetd celi pt deep celab"}),
			E("button", A{"id", "r2"}, A{"aria-labelledby", "opt1 pick"}, "Fallback"),
			E("div", A{"role", "checkbox"}, A{"id", "r3"}, A{"aria-labelledby", "ce"}),
			E("label", A{"id", "wrap"}, "Wrapped ", E("select", E("option", canary)), E("input", cv)),
			E("input", A{"id", "r4"}, A{"aria-labelledby", "wrap"}),
			E("button", A{"id", "r5"}, "Go", E("select", E("option", canary)), E("span", A{"contenteditable", "true"}, canary)),
		),
		E("table", E("tr",
			E("td", "cell ", E("input", cv), E("textarea", canary), E("select", E("option", canary)),
				E("div", A{"contenteditable", "TRUE"}, canary)))),
	)}
}

// TestSecretCanary runs every summary and every form column from every node
// of a page full of planted values and checks none comes out.
func TestSecretCanary(t *testing.T) {
	tr := build(t, secretPage()...)
	checks := 0
	for n := range tr.All() {
		if s := Summarize(n); strings.Contains(s.Text, canary) {
			t.Errorf("Summarize(%s #%s) = %q", n.Name(), n.AttrValue("id"), s.Text)
		}
		for col := ColumnLabel; col <= ColumnRequired; col++ {
			if s := FormCell(n, col); strings.Contains(s.Text, canary) {
				t.Errorf("FormCell(%s #%s, %d) = %q", n.Name(), n.AttrValue("id"), col, s.Text)
			}
		}
		checks++
	}
	if checks < 50 {
		t.Fatalf("only %d nodes checked", checks)
	}
	// The page still yields the labels that are not secret, so the test is
	// not passing by reading nothing at all.
	for id, want := range map[string]string{
		"name": "Name end", "pw": "Pass", "bio": "Bio", "pick": "Pick Choose", "ce": "Notes",
		"r2": "Fallback", "r4": "Wrapped", "r5": "Go",
	} {
		if got := FormCell(byID(t, tr, id), ColumnLabel); got != (Summary{Text: want}) {
			t.Errorf("label of #%s = %+v, want %q", id, got, want)
		}
	}
	if got := Summarize(byID(t, tr, "cetd")); got != (Summary{}) {
		t.Errorf("cell inside contenteditable = %+v, want missing", got)
	}
}

// TestCanaryReachesTheTree proves the canary planting works: without the
// rules under test, the canary would be readable in the tree.
func TestCanaryReachesTheTree(t *testing.T) {
	tr := build(t, secretPage()...)
	found := 0
	for n := range tr.All() {
		if n.Kind() == domtree.Text && strings.Contains(n.Data(), canary) {
			found++
		}
	}
	if found < 10 {
		t.Fatalf("canary planted in only %d text nodes", found)
	}
}
