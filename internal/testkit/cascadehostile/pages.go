package cascadehostile

import (
	"fmt"
	"strings"
)

// Page is one generated page and the file name it is saved under.
type Page struct {
	Name string
	HTML []byte
}

// NestedHas is :has() nested nesting deep, over divs nested depth deep,
// looking for an element the page does not have: a selector Chromium
// rejects (a :has() inside a :has()), so no rule is left. Matched as the
// selector library would, it costs about depth choose nesting tests, which
// for 20 and 45 is some 10^12.
func NestedHas(nesting, depth int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><style>")
	b.WriteString(strings.Repeat(":has(", nesting))
	b.WriteString("b")
	b.WriteString(strings.Repeat(")", nesting))
	b.WriteString("{display:none}</style>\n")
	b.WriteString(strings.Repeat("<div>", depth))
	b.WriteString("<i id=probe>x</i>\n")
	return []byte(b.String())
}

// DeepHas is divs nested depth deep with an i at the bottom, under two
// rules: one nesting :has() three deep around an element the page does not
// have (rejected, as in Chromium; matched naively it costs depth^4), and
// one plain div:has(i), whose searches cost the sum of the subtree sizes.
// The probe is the innermost div, hidden by the second rule.
func DeepHas(depth int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><style>div:has(:has(:has(b))){display:none}\ndiv:has(i){visibility:hidden}</style>\n")
	b.WriteString(strings.Repeat("<div>", depth-1))
	b.WriteString("<div id=probe><i>x</i>\n")
	return []byte(b.String())
}

// LongCompound is one rule whose selector is * followed by simples times
// :not(.b), over a table of rows rows. Every element matches it, at
// 1+2*simples steps each.
func LongCompound(simples, rows int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><style>*")
	b.WriteString(strings.Repeat(":not(.b)", simples))
	b.WriteString("{visibility:hidden}</style>\n<table id=probe>\n")
	for i := range rows {
		fmt.Fprintf(&b, "<tr><td>%d</td></tr>\n", i)
	}
	b.WriteString("</table>\n")
	return []byte(b.String())
}

// ClassTokens is one element whose class attribute holds tokens names, and
// one rule for each name. Each rule costs one step, the lookup of its
// class in the element's class set.
func ClassTokens(tokens int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><style>\n")
	for i := range tokens {
		fmt.Fprintf(&b, ".c%d{display:block}\n", i)
	}
	b.WriteString("</style>\n<p><span id=probe class=\"")
	for i := range tokens {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "c%d", i)
	}
	b.WriteString("\">x</span>y</p>\n")
	return []byte(b.String())
}

// StripedTable is a table of rows rows striped by tr:nth-child(even), with
// no whitespace between the rows, so the row group's child nodes are the
// rows, and one .gone element hidden by a second rule. The probe is the
// second row, which the stripe hides.
func StripedTable(rows int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><style>tr:nth-child(even){visibility:hidden}\n.gone{display:none}</style>\n")
	b.WriteString("<p class=gone>x</p><table>")
	for i := range rows {
		if i == 1 {
			fmt.Fprintf(&b, "<tr id=probe><td>%d</td></tr>", i)
			continue
		}
		fmt.Fprintf(&b, "<tr><td>%d</td></tr>", i)
	}
	b.WriteString("</table>\n")
	return []byte(b.String())
}

// ManyPositional is parents lists of children items each, without
// whitespace, under rules positional rules li:nth-child(Kn+1), K from 2,
// each tested on every item, so that numbering once per list serves them
// all. The probe is the first item of the first list, which every rule
// hides.
func ManyPositional(parents, children, rules int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><style>\n")
	for k := range rules {
		fmt.Fprintf(&b, "li:nth-child(%dn+1){visibility:hidden}\n", k+2)
	}
	b.WriteString("</style>\n")
	for p := range parents {
		b.WriteString("<ul>")
		for c := range children {
			if p == 0 && c == 0 {
				b.WriteString("<li id=probe>x</li>")
				continue
			}
			b.WriteString("<li>x</li>")
		}
		b.WriteString("</ul>\n")
	}
	return []byte(b.String())
}

// Committed are the pages small enough to keep in the repository, under
// testdata/hostile/.
func Committed() []Page {
	return []Page{
		{"cascade-has-nested-20.html", NestedHas(20, 45)},
		{"cascade-has-deep-300.html", DeepHas(300)},
		{"cascade-long-compound-small.html", LongCompound(100, 20)},
		{"cascade-class-tokens-small.html", ClassTokens(100)},
		{"cascade-striped-small.html", StripedTable(200)},
		{"cascade-positional-small.html", ManyPositional(10, 50, 10)},
	}
}

// Generated are the big pages of the probes, too big to commit.
func Generated() []Page {
	return []Page{
		{"cascade-long-compound.html", LongCompound(100_000, 20_000)},
		{"cascade-class-tokens-20k.html", ClassTokens(20_000)},
		{"cascade-class-tokens-40k.html", ClassTokens(40_000)},
		{"cascade-striped-2000.html", StripedTable(2000)},
		{"cascade-striped-20k.html", StripedTable(20_000)},
		{"cascade-striped-100k.html", StripedTable(100_000)},
		{"cascade-positional-200x1000x20.html", ManyPositional(200, 1000, 20)},
	}
}
