package aria

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
	"pgregory.net/rapid"
)

// ariaRoles is the list of non-abstract WAI-ARIA 1.2 roles, written out
// independently of canonicalRole so that each can check the other.
var ariaRoles = strings.Fields(`alert alertdialog application article banner blockquote
	button caption cell checkbox code columnheader combobox complementary contentinfo
	definition deletion dialog directory document emphasis feed figure form generic grid
	gridcell group heading img insertion link list listbox listitem log main marquee math
	menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option
	paragraph presentation progressbar radio radiogroup region row rowgroup rowheader
	scrollbar search searchbox separator slider spinbutton status strong subscript
	superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip
	tree treegrid treeitem`)

// notRoles are tokens that look like roles but are not non-abstract
// WAI-ARIA 1.2 roles.
var notRoles = []string{
	"command", "composite", "input", "landmark", "range", "roletype", "section",
	"sectionhead", "select", "structure", "widget", "window", // abstract
	"image", "mark", "comment", "suggestion", // later versions
	"doc-chapter", "doc-list", "graphics-document", "graphics-object", // other vocabularies
	"", "button,", "link\u00a0", "\u200bbutton",
}

func TestCanonicalRoleSet(t *testing.T) {
	if len(ariaRoles) != 82 {
		t.Fatalf("reference list has %d roles, want 82", len(ariaRoles))
	}
	for _, r := range ariaRoles {
		if got := canonicalRole(r); got != r {
			t.Errorf("canonicalRole(%q) = %q", r, got)
		}
		if got := canonicalRole(strings.ToUpper(r)); got != r {
			t.Errorf("canonicalRole(%q) = %q", strings.ToUpper(r), got)
		}
	}
	for _, r := range notRoles {
		if got := canonicalRole(r); got != "" {
			t.Errorf("canonicalRole(%q) = %q, want unknown", r, got)
		}
	}
	// The Kelvin sign folds to k under Unicode rules but not under ASCII ones.
	if got := canonicalRole("lin\u212a"); got != "" {
		t.Errorf("Kelvin sign folded: %q", got)
	}
}

// TestCanonicalRoleAllocatesNothing: the lookup of a role, in any case, or
// of a token that is none, allocates nothing.
func TestCanonicalRoleAllocatesNothing(t *testing.T) {
	for _, tok := range []string{"button", "MenuItemCheckbox", "widget", "x"} {
		if n := testing.AllocsPerRun(100, func() { canonicalRole(tok) }); n != 0 {
			t.Errorf("canonicalRole(%q) allocates %v times", tok, n)
		}
	}
}

func TestExplicitRole(t *testing.T) {
	cases := []struct{ role, want string }{
		{"button", "button"},
		{"foo button", "button"},
		{"BUTTON LINK", "button"},
		{"foo ReGiOn", "region"},
		{"\tbutton", "button"},
		{"\r\n\f button  ", "button"},
		{"\u00a0 button", "button"},
		{"\u00a0button", ""},
		{"\u2800", ""},
		{"invalid, punctuation, tests, link, button", "button"},
		{"widget", ""},
		{"widget list", "list"},
		{"doc-chapter", ""},
		{"graphics-document img", "img"},
		{"image", ""},
		{"none", "none"},
		{"presentation table", "presentation"},
		{"menuitemcheckbox", "menuitemcheckbox"},
		{"menuitemcheckboxx", ""},
		{"", ""},
		{"   ", ""},
	}
	for _, c := range cases {
		tr := parseTree(t, `<div id=t role="`+c.role+`"></div>`)
		if got := ExplicitRole(byID(t, tr, "t")); got != c.want {
			t.Errorf("role=%q: ExplicitRole = %q, want %q", c.role, got, c.want)
		}
	}
	tr := parseTree(t, `<div id=t>x</div>`)
	if got := ExplicitRole(byID(t, tr, "t")); got != "" {
		t.Errorf("no role attribute: %q", got)
	}
	if got := ExplicitRole(byID(t, tr, "t").FirstChild()); got != "" {
		t.Errorf("text node: %q", got)
	}
	if got := Role(domtree.Node{}); got != "" {
		t.Errorf("zero node: %q", got)
	}
	if RoleLess(domtree.Node{}) != true {
		t.Error("zero node has no role, so it is role-less")
	}
	if _, _, ok := Collection(domtree.Node{}); ok {
		t.Error("zero node is a collection")
	}
}

// TestExplicitRoleProperty checks ExplicitRole against a plain reference:
// split with domtree.Fields, lower-case with ToLowerASCII, look up in the
// written-out role list.
func TestExplicitRoleProperty(t *testing.T) {
	set := map[string]bool{}
	for _, r := range ariaRoles {
		set[r] = true
	}
	pieces := append(append([]string{}, ariaRoles...), notRoles...)
	pieces = append(pieces, "LIST", "Table", "GrId", " ", "\t", "\u00a0", "\f", "x")
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 6).Draw(t, "parts")
		seps := rapid.SliceOfN(rapid.SampledFrom([]string{" ", "\t", "\n", "", "  ", "\u00a0"}), len(parts), len(parts)).Draw(t, "seps")
		var sb strings.Builder
		for i, p := range parts {
			sb.WriteString(p)
			sb.WriteString(seps[i])
		}
		value := sb.String()
		want := ""
		for _, tok := range domtree.Fields(value) {
			if l := domtree.ToLowerASCII(tok); set[l] {
				want = l
				break
			}
		}
		b := domtree.NewBuilder(0)
		i, err := b.AddElement(0, "div", []domtree.Attr{{Name: "role", Value: value}}, domtree.ElementInfo{})
		if err != nil {
			t.Fatal(err)
		}
		if got := ExplicitRole(b.Build().At(i)); got != want {
			t.Fatalf("role=%q: got %q, want %q", value, got, want)
		}
	})
}

func TestImplicitRole(t *testing.T) {
	cases := []struct{ html, want string }{
		{`<a id=t href="#">x</a>`, "link"},
		{`<a id=t>x</a>`, "generic"},
		{`<map><area id=t href="#"></map>`, "link"},
		{`<map><area id=t></map>`, ""},
		{`<address id=t></address>`, "group"},
		{`<article id=t></article>`, "article"},
		{`<aside id=t></aside>`, "complementary"},
		{`<main><aside id=t></aside></main>`, "complementary"},
		{`<main><article><aside id=t></aside></article></main>`, "generic"},
		{`<article><aside id=t aria-label=x></aside></article>`, "complementary"},
		{`<section><aside id=t aria-label=" "></aside></section>`, "generic"},
		{`<section><aside id=t title=x></aside></section>`, "complementary"},
		{`<section><aside id=t aria-labelledby="nope"></aside></section>`, "generic"},
		{`<p id=l>x</p><nav><aside id=t aria-labelledby="nope l"></aside></nav>`, "complementary"},
		{`<article><main><aside id=t></aside></main></article>`, "complementary"},
		{`<b id=t></b>`, "generic"},
		{`<div id=t></div>`, "generic"},
		{`<span id=t></span>`, "generic"},
		{`<blockquote id=t></blockquote>`, "blockquote"},
		{`<button id=t></button>`, "button"},
		{`<table><caption id=t>x</caption></table>`, "caption"},
		{`<code id=t></code>`, "code"},
		{`<datalist id=t></datalist>`, "listbox"},
		{`<dl><dt id=t>x</dt><dd>y</dd></dl>`, "term"},
		{`<dl><dt>x</dt><dd id=t>y</dd></dl>`, "definition"},
		{`<dl id=t></dl>`, ""},
		{`<del id=t></del>`, "deletion"},
		{`<s id=t></s>`, "deletion"},
		{`<ins id=t></ins>`, "insertion"},
		{`<details id=t><summary>x</summary></details>`, "group"},
		{`<details open><summary id=t>x</summary></details>`, ""},
		{`<dfn id=t></dfn>`, "term"},
		{`<dialog id=t></dialog>`, "dialog"},
		{`<em id=t></em>`, "emphasis"},
		{`<strong id=t></strong>`, "strong"},
		{`<sub id=t></sub>`, "subscript"},
		{`<sup id=t></sup>`, "superscript"},
		{`<time id=t></time>`, "time"},
		{`<mark id=t></mark>`, ""},
		{`<fieldset id=t></fieldset>`, "group"},
		{`<fieldset><legend id=t>x</legend></fieldset>`, ""},
		{`<figure id=t></figure>`, "figure"},
		{`<footer id=t></footer>`, "contentinfo"},
		{`<header id=t></header>`, "banner"},
		{`<article><header id=t></header></article>`, "generic"},
		{`<main><div><footer id=t></footer></div></main>`, "generic"},
		{`<form id=t></form>`, "form"},
		{`<h1 id=t></h1>`, "heading"},
		{`<h6 id=t></h6>`, "heading"},
		{`<hgroup id=t></hgroup>`, "group"},
		{`<hr id=t>`, "separator"},
		{`<html id=t></html>`, "document"},
		{`<body id=t></body>`, "generic"},
		{`<img id=t alt=x>`, "img"},
		{`<img id=t>`, "img"},
		{`<img id=t alt>`, "presentation"},
		{`<img id=t alt="" title=x>`, "presentation"},
		{`<img id=t alt="" aria-label=x>`, "img"},
		{`<img id=t alt="" aria-label=" ">`, "presentation"},
		{`<i id=l>x</i><img id=t alt="" aria-labelledby=l>`, "img"},
		{`<li id=t></li>`, "listitem"},
		{`<div><li id=t></li></div>`, "listitem"},
		{`<main id=t></main>`, "main"},
		{`<math id=t></math>`, "math"},
		{`<menu id=t></menu>`, "list"},
		{`<ol id=t></ol>`, "list"},
		{`<ul id=t></ul>`, "list"},
		{`<meter id=t></meter>`, "meter"},
		{`<nav id=t></nav>`, "navigation"},
		{`<select><optgroup id=t></optgroup></select>`, "group"},
		{`<select><option id=t>x</option></select>`, "option"},
		{`<output id=t></output>`, "status"},
		{`<p id=t></p>`, "paragraph"},
		{`<progress id=t></progress>`, "progressbar"},
		{`<search id=t></search>`, "search"},
		{`<section id=t></section>`, "generic"},
		{`<section id=t aria-label=x></section>`, "region"},
		{`<section id=t title=x></section>`, "region"},
		{`<section id=t title=" "></section>`, "generic"},
		{`<select id=t></select>`, "combobox"},
		{`<select id=t multiple></select>`, "listbox"},
		{`<select id=t size=2></select>`, "listbox"},
		{`<select id=t size=" 4px"></select>`, "listbox"},
		{`<select id=t size=1></select>`, "combobox"},
		{`<select id=t size=x></select>`, "combobox"},
		{`<textarea id=t></textarea>`, "textbox"},
		{`<svg id=t></svg>`, ""},
		{`<label id=t></label>`, ""},
		{`<foo-bar id=t></foo-bar>`, ""},
		{`<unknown id=t></unknown>`, ""},
		{`<table id=t></table>`, "table"},
		{`<table><thead id=t></thead></table>`, "rowgroup"},
		{`<table><tbody id=t></tbody></table>`, "rowgroup"},
		{`<table><tfoot id=t></tfoot></table>`, "rowgroup"},
		{`<table><tr id=t></tr></table>`, "row"},
		{`<table><tr><td id=t></td></tr></table>`, "cell"},
		{`<table role=grid><tr><td id=t></td></tr></table>`, "gridcell"},
		{`<table role=treegrid><tr><td id=t></td></tr></table>`, "gridcell"},
		{`<table role=presentation><tr><td id=t></td></tr></table>`, "none"},
		{`<table role=none><tr id=t><td></td></tr></table>`, "none"},
		{`<table role=none><tbody id=t></tbody></table>`, "none"},
		{`<table role=list><tr><td id=t></td></tr></table>`, "generic"},
		{`<table role=grid><tr><td><table><tr><td id=t></td></tr></table></td></tr></table>`, "cell"},
		{`<table><thead><tr><th id=t>x</th></tr></thead></table>`, "columnheader"},
		{`<table><tr><th id=t>x</th><td>y</td></tr></table>`, "rowheader"},
		{`<table><tr><th id=t>x</th><th>y</th></tr></table>`, "columnheader"},
		{`<table><tr><th id=t scope=ROW>x</th><th>y</th></tr></table>`, "rowheader"},
		{`<table><tr><th id=t scope=rowgroup>x</th></tr></table>`, "rowheader"},
		{`<table><thead><tr><th id=t scope=row>x</th></tr></thead></table>`, "rowheader"},
		{`<table><tr><th id=t scope=col>x</th><td>y</td></tr></table>`, "columnheader"},
		{`<table><tr><th id=t scope=colgroup>x</th><td>y</td></tr></table>`, "columnheader"},
		{`<table role=none><tr><th id=t>x</th></tr></table>`, "none"},
	}
	for _, c := range cases {
		tr := parseTree(t, c.html)
		if got := ImplicitRole(byID(t, tr, "t")); got != c.want {
			t.Errorf("%s: ImplicitRole = %q, want %q", c.html, got, c.want)
		}
	}
}

func TestInputRole(t *testing.T) {
	cases := []struct{ typ, want string }{
		{"", "textbox"}, {"text", "textbox"}, {"TEXT", "textbox"}, {"email", "textbox"},
		{"tel", "textbox"}, {"url", "textbox"}, {"password", "textbox"}, {"bogus", "textbox"},
		{"search", "searchbox"}, {"number", "spinbutton"}, {"range", "slider"},
		{"checkbox", "checkbox"}, {"Radio", "radio"}, {"button", "button"},
		{"submit", "button"}, {"reset", "button"}, {"image", "button"},
		{"color", ""}, {"date", ""}, {"datetime-local", ""}, {"month", ""},
		{"time", ""}, {"week", ""}, {"file", ""},
	}
	for _, c := range cases {
		tr := parseTree(t, `<input id=t type="`+c.typ+`">`)
		n := byID(t, tr, "t")
		if got := InputRole(n); got != c.want {
			t.Errorf("type=%q: InputRole = %q, want %q", c.typ, got, c.want)
		}
		if got := ImplicitRole(n); got != c.want {
			t.Errorf("type=%q: ImplicitRole = %q, want %q", c.typ, got, c.want)
		}
	}
	tr := parseTree(t, `<input id=t><div id=d></div><input id=r role="switch" type=checkbox>`)
	if got := InputRole(byID(t, tr, "t")); got != "textbox" {
		t.Errorf("input without type: %q", got)
	}
	if got := InputRole(byID(t, tr, "d")); got != "" {
		t.Errorf("div: %q", got)
	}
	r := byID(t, tr, "r")
	if InputRole(r) != "checkbox" || Role(r) != "switch" {
		t.Errorf("explicit role: InputRole %q, Role %q", InputRole(r), Role(r))
	}
}

func TestRoleAndRoleLess(t *testing.T) {
	cases := []struct {
		html, role string
		roleLess   bool
	}{
		{`<div id=t></div>`, "generic", true},
		{`<span id=t role=none></span>`, "none", true},
		{`<li id=t role=presentation></li>`, "presentation", true},
		{`<foo id=t></foo>`, "", true},
		{`<p id=t role=generic></p>`, "generic", true},
		{`<p id=t></p>`, "paragraph", false},
		{`<div id=t role=row></div>`, "row", false},
		{`<div id=t role="foo rowgroup"></div>`, "rowgroup", false},
		{`<h1 id=t role=none tabindex=0></h1>`, "none", true},
		{`<li id=t></li>`, "listitem", false},
		{`<nav id=t role=widget></nav>`, "navigation", false},
	}
	for _, c := range cases {
		tr := parseTree(t, c.html)
		n := byID(t, tr, "t")
		if got := Role(n); got != c.role {
			t.Errorf("%s: Role = %q, want %q", c.html, got, c.role)
		}
		if got := RoleLess(n); got != c.roleLess {
			t.Errorf("%s: RoleLess = %v, want %v", c.html, got, c.roleLess)
		}
	}
}

func TestCollection(t *testing.T) {
	type res struct {
		kind   Kind
		source Source
		ok     bool
	}
	no := res{KindNone, Native, false}
	cases := []struct {
		html string
		want res
	}{
		{`<table id=t></table>`, res{Table, Native, true}},
		{`<table id=t role=grid></table>`, res{Table, Native, true}},
		{`<table id=t role=TreeGrid></table>`, res{Table, Native, true}},
		{`<table id=t role="table"></table>`, res{Table, Native, true}},
		{`<table id=t role=presentation></table>`, no},
		{`<table id=t role=none></table>`, no},
		{`<table id=t role=widget></table>`, res{Table, Native, true}},
		{`<table id=t role=list></table>`, res{List, ARIA, true}},
		{`<ul id=t></ul>`, res{List, Native, true}},
		{`<ol id=t role=list></ol>`, res{List, Native, true}},
		{`<menu id=t></menu>`, res{List, Native, true}},
		{`<ul id=t role=menu></ul>`, no},
		{`<ul id=t role=directory></ul>`, no},
		{`<ul id=t role="doc-list"></ul>`, res{List, Native, true}},
		{`<ul id=t role="table"></ul>`, res{Table, ARIA, true}},
		{`<form id=t></form>`, res{Form, Native, true}},
		{`<form id=t role=search></form>`, no},
		{`<form id=t role=form></form>`, res{Form, Native, true}},
		{`<div id=t role=table></div>`, res{Table, ARIA, true}},
		{`<div id=t role=grid></div>`, res{Table, ARIA, true}},
		{`<span id=t role=treegrid></span>`, res{Table, ARIA, true}},
		{`<div id=t role=list></div>`, res{List, ARIA, true}},
		{`<div id=t role="foo form"></div>`, res{Form, ARIA, true}},
		{`<nav id=t role=form></nav>`, res{Form, ARIA, true}},
		{`<div id=t role="list table"></div>`, res{List, ARIA, true}},
		{`<div id=t role="button table"></div>`, no},
		{`<div id=t></div>`, no},
		{`<li id=t></li>`, no},
		{`<table><tr><td id=t></td></tr></table>`, no},
		{`<select id=t></select>`, no},
		{`<dl id=t></dl>`, no},
	}
	for _, c := range cases {
		tr := parseTree(t, c.html)
		k, s, ok := Collection(byID(t, tr, "t"))
		if got := (res{k, s, ok}); got != c.want {
			t.Errorf("%s: Collection = %+v, want %+v", c.html, got, c.want)
		}
	}
	tr := parseTree(t, `<table id=t>x</table>`)
	if _, _, ok := Collection(tr.Root()); ok {
		t.Error("document is a collection")
	}
}

func TestKindAndSource(t *testing.T) {
	for _, k := range []Kind{Table, List, Form} {
		got, ok := ParseKind(k.String())
		if !ok || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k.String(), got, ok)
		}
		b, err := k.MarshalText()
		if err != nil || string(b) != k.String() {
			t.Errorf("MarshalText(%v) = %q, %v", k, b, err)
		}
		var back Kind
		if err := back.UnmarshalText(b); err != nil || back != k {
			t.Errorf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
	}
	for _, s := range []string{"", "Table", " list", "form ", "grid", "none"} {
		if _, ok := ParseKind(s); ok {
			t.Errorf("ParseKind(%q) accepted", s)
		}
		var k Kind
		if err := k.UnmarshalText([]byte(s)); err == nil {
			t.Errorf("UnmarshalText(%q) accepted", s)
		}
	}
	if KindNone.String() != "" || Kind(9).String() != "" {
		t.Error("KindNone or an unknown kind has a name")
	}
	if _, err := KindNone.MarshalText(); err == nil {
		t.Error("KindNone marshalled")
	}
	if Native.String() != "native" || ARIA.String() != "aria" || Source(7).String() != "" {
		t.Error("source names")
	}
	for _, s := range []Source{Native, ARIA} {
		b, err := s.MarshalText()
		var back Source
		if err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("source %v does not round-trip", s)
		}
	}
	var s Source
	if s.UnmarshalText([]byte("ARIA")) == nil {
		t.Error("source names are case-sensitive")
	}
	if _, err := Source(7).MarshalText(); err == nil {
		t.Error("unknown source marshalled")
	}
}

func TestParseNonNegative(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"2", 2, true}, {"2;", 2, true}, {" \t+3x", 3, true}, {"0", 0, true},
		{"007", 7, true}, {"", 0, false}, {" ", 0, false}, {"+", 0, false},
		{"-1", 0, false}, {"x1", 0, false}, {"\u00a01", 0, false},
		{"99999999999999999999999999", int(^uint(0) >> 1), true},
	}
	for _, c := range cases {
		got, ok := ParseNonNegative(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseNonNegative(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestParseInteger(t *testing.T) {
	maxInt := int(^uint(0) >> 1)
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"1001", 1001, true}, {" -1", -1, true}, {"+7;", 7, true}, {"-0", 0, true}, {"0", 0, true},
		{"", 0, false}, {"-", 0, false}, {"+-1", 0, false}, {"-+1", 0, false}, {"x", 0, false}, {" 1", 0, false},
		{"99999999999999999999999999", maxInt, true}, {"-99999999999999999999999999", -maxInt, true},
	} {
		got, ok := ParseInteger(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseInteger(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestContextWalkBound puts a td at distances just under, at and just over
// the context walk's bound below a grid table: within the bound the table
// makes it a gridcell; beyond it the table is not seen and it is a cell.
func TestContextWalkBound(t *testing.T) {
	for _, c := range []struct {
		distance int
		want     string
	}{
		{contextAncestors - 1, "gridcell"},
		{contextAncestors, "gridcell"},
		{contextAncestors + 1, "cell"},
	} {
		b := domtree.NewBuilder(0)
		parent, err := b.AddElement(0, "table", []domtree.Attr{{Name: "role", Value: "grid"}}, domtree.ElementInfo{})
		if err != nil {
			t.Fatal(err)
		}
		// The table is the td's distance-th ancestor: distance-1 elements lie between.
		for i := 0; i < c.distance-1; i++ {
			if parent, err = b.AddElement(parent, "div", nil, domtree.ElementInfo{}); err != nil {
				t.Fatal(err)
			}
		}
		td, err := b.AddElement(parent, "td", nil, domtree.ElementInfo{})
		if err != nil {
			t.Fatal(err)
		}
		tr := b.Build()
		if got := ImplicitRole(tr.At(td)); got != c.want {
			t.Errorf("td %d ancestors below a grid: %q, want %q", c.distance, got, c.want)
		}
	}
	if contextAncestors != limits.MaxHTMLDepth {
		t.Fatalf("contextAncestors = %d, want limits.MaxHTMLDepth", contextAncestors)
	}
}
