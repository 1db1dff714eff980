package view_test

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/internal/view"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

func parse(t testing.TB, html string) *domtree.Tree {
	t.Helper()
	tree, _, err := snapshot.ParseHTML([]byte(html), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func scanHTML(t testing.TB, html string) view.View {
	t.Helper()
	tree := parse(t, html)
	return view.Scan(tree, view.RowsOf(collect.Inventory(tree)))
}

// ctl is a control reduced to what a test compares.
type ctl struct {
	Role, Name               string
	NameTruncated            bool
	Disabled, Required       bool
	Checked, Expanded        string
	Selected, Select, Secret bool
	Files                    bool
	Sort                     string
	Options                  []string
	OptionsOmitted           int
	In                       string
}

func controls(v view.View) []ctl {
	var out []ctl
	for _, c := range v.Controls {
		x := ctl{Role: c.Role, Name: c.Name.Text, NameTruncated: c.Name.Truncated,
			Disabled: c.Disabled, Required: c.Required, Checked: c.Checked, Expanded: c.Expanded,
			Selected: c.Selected, Select: c.Select, Secret: c.Secret, Files: c.Files, Sort: c.Sort, Options: c.Options, OptionsOmitted: c.OptionsOmitted}
		if c.HasIn {
			x.In = c.In.Kind.String() + "/" + itoa(c.In.Index) + "/" + itoa(c.In.Position)
		}
		out = append(out, x)
	}
	return out
}

func itoa(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i%10)))
}

type reg struct {
	Role, Name string
	Level      int
}

func regions(v view.View) []reg {
	var out []reg
	for _, r := range v.Regions {
		out = append(out, reg{r.Role, r.Name, r.Level})
	}
	return out
}

func TestControls(t *testing.T) {
	for _, c := range []struct {
		name string
		html string
		want []ctl
	}{
		{"links", `<a href="/x">Home <img alt="icon"></a><a>no href</a><map><area href="/y" alt="Area"></map><!-- area is display:none by default --><a href=/z role=presentation>P</a>`,
			[]ctl{{Role: "link", Name: "Home icon"}}},
		{"link names", `<span id=l>Label</span><a href=1 aria-labelledby=l>text</a><a href=2 aria-label=" Aria ">t</a><a href=3 title=T></a>`,
			[]ctl{{Role: "link", Name: "Label"}, {Role: "link", Name: "Aria"}, {Role: "link", Name: "T"}}},
		{"form controls", `<label>Email <input type=email required></label><button disabled>Go</button><input type=submit value=Send>`,
			[]ctl{{Role: "textbox", Name: "Email", Required: true}, {Role: "button", Name: "Go", Disabled: true}, {Role: "button", Name: "Send"}}},
		{"states", `<input type=checkbox checked aria-label=A><div role=switch aria-checked=MIXED aria-label=S></div><div role=menuitemcheckbox aria-checked=true>M</div><div role=tab aria-selected=true aria-expanded=false>T</div><div role=menuitemradio>R</div>`,
			[]ctl{{Role: "checkbox", Name: "A", Checked: "true"}, {Role: "switch", Name: "S", Checked: "mixed"},
				{Role: "menuitemcheckbox", Name: "M", Checked: "true"}, {Role: "tab", Name: "T", Selected: true, Expanded: "false"},
				{Role: "menuitemradio", Name: "R", Checked: "false"}}},
		{"select", `<label>Size <select><option>S</option><option selected>M</option><optgroup label=g><option>L</option></optgroup><option hidden>X</option></select></label>`,
			[]ctl{{Role: "combobox", Name: "Size", Select: true, Options: []string{"S", "M", "L"}}}},
		{"secret fields", `<input type=password aria-label=P><input autocomplete="section-x one-time-code" aria-label=O><input autocomplete=username aria-label=U>`,
			[]ctl{{Role: "textbox", Name: "P", Secret: true}, {Role: "textbox", Name: "O", Secret: true}, {Role: "textbox", Name: "U"}}},
		{"control inside a control", `<a href=1>Open <button>B</button></a>`,
			[]ctl{{Role: "link", Name: "Open B"}, {Role: "button", Name: "B"}}},
		{"custom list box", `<div role=listbox aria-label=Plan><div role=option>Basic</div><div role=option aria-selected=true>Pro</div></div><select multiple aria-label=Native><option>One</option></select><datalist><option>D</option></datalist>`,
			[]ctl{{Role: "listbox", Name: "Plan"}, {Role: "option", Name: "Basic"}, {Role: "option", Name: "Pro"},
				{Role: "listbox", Name: "Native", Select: true, Options: []string{"One"}}}},
		{"shadow roots", `<label for=f>Outer</label><x-a><template shadowrootmode=open><label for=f>Inner</label><input id=f><button><slot></slot></button></template>Save</x-a>` +
			`<x-b aria-hidden=true><template shadowrootmode=closed><button>Hidden</button></template></x-b><x-c><template shadowrootmode=closed><a href=1>Closed link</a></template></x-c>`,
			[]ctl{{Role: "textbox", Name: "Inner"}, {Role: "button", Name: "Save"}, {Role: "link", Name: "Closed link"}}},
		{"shadow rows", `<table><tr><td><x-a><template shadowrootmode=open><a href=1>In row</a></template></x-a></td></tr></table>`,
			[]ctl{{Role: "link", Name: "In row", In: "table/0/0"}}},
		{"hidden and excluded", `<a href=1 style="visibility:hidden">H</a><div hidden><a href=2>N</a></div><div aria-hidden=true><button>X</button></div>`, nil},
		{"rows", `<table><tr><td>Widget</td><td><a href=1>Details</a></td></tr><tr><td>Gadget</td><td><a href=2>Details</a></td></tr></table>` +
			`<form><input aria-label=q><ul><li><a href=3>in list</a></li></ul></form>`,
			[]ctl{{Role: "link", Name: "Details", In: "table/0/0"}, {Role: "link", Name: "Details", In: "table/0/1"},
				{Role: "textbox", Name: "q", In: "form/0/0"}, {Role: "link", Name: "in list", In: "list/0/0"}}},
		{"a label holding only an image", `<form><label for=searchbar><img src=search.svg alt="Search"></label><input type=text id=searchbar value=CANARY-typed></form>`,
			[]ctl{{Role: "textbox", Name: "Search", In: "form/0/0"}}},
		{"a table inside a form: its controls name their table row", `<form><select aria-label=Action><option>Delete</option></select><button>Go</button>` +
			`<table><tr><th>Name</th></tr><tr><td><input type=checkbox aria-label=Select></td><td><a href=1>Widget</a></td></tr></table></form>`,
			[]ctl{{Role: "combobox", Name: "Action", Select: true, Options: []string{"Delete"}, In: "form/0/0"}, {Role: "button", Name: "Go", In: "form/0/1"},
				{Role: "checkbox", Name: "Select", Checked: "false", In: "table/0/1"}, {Role: "link", Name: "Widget", In: "table/0/1"}}},
		{"a form inside a table cell: its control names the table row", `<table><tr><td>Widget</td><td><form><button>Delete</button></form></td></tr></table>`,
			[]ctl{{Role: "button", Name: "Delete", In: "table/0/0"}}},
		{"a form control keeps an explicit control role", `<button role=link>Docs</button><button role=tab aria-selected=true>Tab</button>` +
			`<input type=checkbox role=menuitemcheckbox checked aria-label=Bold><input type=checkbox role=menuitemradio aria-checked=true aria-label=Left>` +
			`<button role=heading>Not a heading</button><input type=submit role=presentation value=Send><input type=checkbox role=switch aria-label=Sw>`,
			[]ctl{{Role: "link", Name: "Docs"}, {Role: "tab", Name: "Tab", Selected: true},
				{Role: "menuitemcheckbox", Name: "Bold", Checked: "true"}, {Role: "menuitemradio", Name: "Left", Checked: "false"},
				{Role: "button", Name: "Not a heading"}, {Role: "button", Name: "Send"}, {Role: "switch", Name: "Sw", Checked: "false"}}},
		{"sortable headers of a native table", `<table><thead><tr><th aria-sort=ascending>Name</th><th aria-sort=NONE>Price</th><th>Notes</th><th aria-sort=" ">Blank</th>` +
			`<th aria-sort=bogus>Odd</th><th aria-sort=descending style="visibility:hidden">Hidden</th></tr></thead>` +
			`<tr><th scope=row aria-sort=other>Widget</th><td aria-sort=ascending>4.50</td></tr></table>`,
			[]ctl{{Role: "columnheader", Name: "Name", Sort: "ascending", In: "table/0/0"}, {Role: "columnheader", Name: "Price", Sort: "none", In: "table/0/0"},
				{Role: "columnheader", Name: "Odd", Sort: "none", In: "table/0/0"}, {Role: "rowheader", Name: "Widget", Sort: "other", In: "table/0/1"}}},
		{"sortable headers of a grid, and a button inside one", `<div role=grid><div role=row><div role=columnheader aria-sort=DESCENDING aria-label="Quantity">Qty</div>` +
			`<div role=columnheader aria-sort=none><button>Price</button></div><div role=gridcell aria-sort=ascending>x</div></div></div>` +
			`<table role=presentation><tr><th aria-sort=ascending>Layout</th></tr></table>`,
			[]ctl{{Role: "columnheader", Name: "Quantity", Sort: "descending", In: "table/0/0"}, {Role: "columnheader", Name: "Price", Sort: "none", In: "table/0/0"},
				{Role: "button", Name: "Price", In: "table/0/0"}}},
		{"rows of a grid are positioned by aria-rowindex", `<div role=grid><div role=row aria-rowindex=3><div role=gridcell><a href=1>Late</a></div></div>` +
			`<div role=row aria-rowindex=2><div role=gridcell><a href=2>Early</a></div></div></div>`,
			[]ctl{{Role: "link", Name: "Late", In: "table/0/1"}, {Role: "link", Name: "Early", In: "table/0/0"}}},
		{"types without a role", `<input type=date aria-label=D><input type=color>`, nil},
		{"file inputs", `<label>Attach <input type=FILE required></label><input type=file disabled aria-label=Off><input type=file role=link aria-label=L>`,
			[]ctl{{Role: "button", Name: "Attach", Required: true, Files: true}, {Role: "button", Name: "Off", Disabled: true, Files: true},
				{Role: "link", Name: "L", Files: true}}},
		{"popup triggers", `<div aria-haspopup=MENU>Account</div><span aria-expanded=False>More</span><div aria-haspopup=false>No</div><div aria-haspopup=" ">Blank</div><div aria-expanded=maybe>Odd</div>`,
			[]ctl{{Role: "button", Name: "Account"}, {Role: "button", Name: "More", Expanded: "false"}}},
		{"submenu labels", `<nav><ul><li>Products <b>new</b><ul><li><a href=/l>Laptops</a></li></ul></li>` +
			`<li><a href=/s>Services</a><ul><li><a href=/c>Consulting</a></li></ul></li><li>About</li></ul></nav>` +
			`<ul><li>Outline<ul><li>point</li></ul></li></ul>`,
			[]ctl{{Role: "button", Name: "Products new", In: "list/0/0"}, {Role: "link", Name: "Laptops", In: "list/1/0"},
				{Role: "link", Name: "Services", In: "list/0/1"}, {Role: "link", Name: "Consulting", In: "list/2/0"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := controls(scanHTML(t, c.html))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("controls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRegions(t *testing.T) {
	for _, c := range []struct {
		name string
		html string
		want []reg
	}{
		{"landmarks", `<header>H</header><nav aria-label=Primary>N</nav><main><h1>Title</h1><header>in main</header><section>unnamed</section><section aria-label=Sec><h3 aria-level=5>x</h3></section></main><aside>A</aside><footer>F</footer><search>S</search>`,
			[]reg{{"banner", "", 0}, {"navigation", "Primary", 0}, {"main", "", 0}, {"heading", "Title", 1},
				{"region", "Sec", 0}, {"heading", "x", 3}, {"complementary", "", 0}, {"contentinfo", "", 0}, {"search", "", 0}}},
		{"aria headings and forms", `<div role=heading aria-level=4>Four</div><div role=heading>Two</div><div role=heading aria-level=0>Zero</div><form>f</form><form aria-label=Login>g</form>`,
			[]reg{{"heading", "Four", 4}, {"heading", "Two", 2}, {"heading", "Zero", 2}, {"form", "Login", 0}}},
		{"article scoping", `<article><header>h</header><footer>f</footer><aside>a</aside><aside aria-label=Named>n</aside></article>`,
			[]reg{{"complementary", "Named", 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := regions(scanHTML(t, c.html))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("regions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestText(t *testing.T) {
	v := scanHTML(t, `<title>T</title><p>Hello <b>big</b>world</p><div>next<br>line</div><button>Go</button>`+
		`<input value=CANARY1><textarea>CANARY2</textarea><select><option selected>CANARY3</option></select>`+
		`<div contenteditable>CANARY4</div><span style="visibility:hidden">hid<i style="visibility:visible">den</i></span>`)
	if want := "Hello bigworld next line Go den"; v.Text != want {
		t.Errorf("text = %q, want %q", v.Text, want)
	}
	if v.TextTruncated || v.Scan.Exhausted {
		t.Errorf("truncated %v exhausted %v", v.TextTruncated, v.Scan.Exhausted)
	}
}
