package snapshot

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/htmlsource"
)

// htmlParse parses page and fails the test on error.
func htmlParse(t testing.TB, page string) (*domtree.Tree, HTMLInfo) {
	t.Helper()
	tr, info, err := ParseHTML([]byte(page), HTMLOptions{})
	if err != nil {
		t.Fatalf("ParseHTML: %v", err)
	}
	return tr, info
}

// htmlByID returns the element with the id, failing the test when absent.
func htmlByID(t testing.TB, tr *domtree.Tree, id string) domtree.Node {
	t.Helper()
	n, ok := tr.ElementByID(id)
	if !ok {
		t.Fatalf("no element with id %q", id)
	}
	return n
}

// htmlShape renders the tree as one line a node: depth, kind, name or data,
// attributes.
func htmlShape(tr *domtree.Tree) []string {
	var out []string
	for n := range tr.All() {
		depth := 0
		for range n.Ancestors() {
			depth++
		}
		s := strings.Repeat(".", depth) + n.Kind().String()
		switch n.Kind() {
		case domtree.Element:
			s += " " + n.Name()
			for _, a := range n.Attrs() {
				s += fmt.Sprintf(" %s=%q", a.Name, a.Value)
			}
		case domtree.Text, domtree.Comment, domtree.Doctype:
			s += fmt.Sprintf(" %q", n.Data())
		}
		out = append(out, s)
	}
	return out
}

func TestParseHTMLShape(t *testing.T) {
	tr, _ := htmlParse(t, `<!DOCTYPE html><!--c1--><HTML lang=en><Body CLASS="x" data-B=1 id=b>hi<!--c2--><SVG viewBox="0 0 1 1"><a xlink:href="#u">t</a></SVG></body></html>`)
	want := []string{
		"document",
		`.doctype "html"`,
		`.comment "c1"`,
		`.element html lang="en"`,
		".element head",
		`..element body class="x" data-b="1" id="b"`,
		`...text "hi"`,
		`...comment "c2"`,
		`...element svg viewbox="0 0 1 1"`,
		`....element a xlink:href="#u"`,
		`.....text "t"`,
	}
	// head is a child of html, at the same depth as body.
	want[4] = "..element head"
	if diff := cmp.Diff(want, htmlShape(tr)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

func TestParseHTMLTemplatesShadowsFrames(t *testing.T) {
	page := `<body>
<template id=t1><p id=inside>x</p><table id=tt></table></template>
<div id=h1><template shadowrootmode=open><ul id=sh><li>x</li></ul></template><span id=light>l</span></div>
<div id=h2><template shadowrootmode=closed>a</template><template shadowrootmode=open id=second>b</template></div>
<ul id=h3><template shadowrootmode=open id=nothost>c</template></ul>
<my-el id=h4><template shadowrootmode=OPEN>d</template></my-el>
<p id=h5><template shadowrootmode=bogus id=bogus>e</template></p>
<iframe id=f1 srcdoc="<p>x</p>"></iframe>
<embed src="x.html" id=e1><embed src="x.html" type=" TEXT/HTML " id=e2><embed src="x.svg" type="image/svg+xml" id=e3>
<embed src="x.swf" id=e4><embed src="y.HTM?q=1" id=e5><object data="x.html" type="text/html" id=o1></object>
</body>`
	tr, _ := htmlParse(t, page)
	type got struct {
		Flags    domtree.Flags
		Children int
	}
	check := map[string]got{
		"t1":      {domtree.TemplateContents, 0},
		"h1":      {domtree.ShadowHost, 1}, // only the light span
		"h2":      {domtree.ShadowHost, 1}, // the second declarative root stays a template
		"second":  {domtree.TemplateContents, 0},
		"h3":      {0, 1}, // ul cannot host a shadow root
		"nothost": {domtree.TemplateContents, 0},
		"h4":      {domtree.ShadowHost, 0},
		"h5":      {0, 1},
		"bogus":   {domtree.TemplateContents, 0},
		"f1":      {domtree.FrameOwner, 0},
		// Embeds and objects as a live capture of the parity server shows
		// them (every request but the page fails).
		"e1": {domtree.FrameOwner, 0},
		"e2": {0, 0},
		"e3": {domtree.FrameOwner, 0},
		"e4": {0, 0},
		"e5": {domtree.FrameOwner, 0},
		"o1": {0, 0},
	}
	for id, want := range check {
		n := htmlByID(t, tr, id)
		g := got{n.Flags(), 0}
		for range n.Children() {
			g.Children++
		}
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", id, diff)
		}
	}
	for _, id := range []string{"inside", "tt", "sh"} {
		if _, ok := tr.ElementByID(id); ok {
			t.Errorf("element %q from template or shadow content is in the tree", id)
		}
	}
	for n := range tr.All() {
		if n.Data() == "a" || n.Data() == "d" {
			t.Errorf("shadow root text %q is in the tree", n.Data())
		}
	}
}

func TestParseHTMLChecked(t *testing.T) {
	// Expectations observed in Chromium 156: of the checked radios of one
	// group (name, case-sensitive, and form owner), the last stays checked.
	page := `<body>
<input type=radio name=a checked id=ra1><input type=radio name=a checked id=ra2><input type=radio name=a id=ra3>
<form id=f1><input type=radio name=a checked id=ra4></form><input type=radio name=a form=f1 checked id=ra5>
<input type=radio name=A checked id=ra6><input type=RADIO name=b checked id=rb1><input type=radio name=b checked id=rb2>
<input type=radio checked id=rn1><input type=radio checked id=rn2>
<input type=radio name=c form=nosuch checked id=rc1><input type=radio name=c checked id=rc2>
<input type=checkbox checked id=cb1><input type=checkbox id=cb2><input type=CheckBox checked id=cb3>
<input checked id=tx><div role=checkbox aria-checked=true id=ar></div>
</body>`
	tr, _ := htmlParse(t, page)
	want := map[string]bool{
		"ra1": false, "ra2": true, "ra3": false, "ra4": false, "ra5": true, "ra6": true,
		"rb1": false, "rb2": true, "rn1": true, "rn2": true, "rc1": false, "rc2": true,
		"cb1": true, "cb2": false, "cb3": true, "tx": false, "ar": false,
	}
	got := map[string]bool{}
	for id := range want {
		got[id] = htmlByID(t, tr, id).Checked()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checked (-want +got):\n%s", diff)
	}
	// States live beside the parsed tree, so the tree holds only
	// attributes the page wrote (a name with a space is none of them).
	for n := range tr.All() {
		for _, a := range n.Attrs() {
			if strings.Contains(a.Name, " ") {
				t.Errorf("attribute %q leaked into the tree", a.Name)
			}
		}
	}
}

// TestParseHTMLDepth checks the parser's nesting bound just under, at and
// just over it. The open elements are html, body and the divs.
func TestParseHTMLDepth(t *testing.T) {
	const fixed = 2 // html and body
	cases := []struct {
		divs int
		tail string
		ok   bool
	}{
		{limits.MaxHTMLDepth - fixed - 1, "", true},
		{limits.MaxHTMLDepth - fixed - 1, "<br>", true}, // the void element is the 512th
		{limits.MaxHTMLDepth - fixed, "deep text", true},
		{limits.MaxHTMLDepth - fixed, "<br>", false}, // a void element is pushed too
		{limits.MaxHTMLDepth - fixed + 1, "", false},
		{limits.MaxHTMLDepth * 4, "", false},
	}
	for _, c := range cases {
		page := "<html><body>" + strings.Repeat("<div>", c.divs) + c.tail
		tr, _, err := ParseHTML([]byte(page), HTMLOptions{})
		if c.ok {
			if err != nil {
				t.Errorf("%d divs + %q: %v", c.divs, c.tail, err)
				continue
			}
			deepest := 0
			for n := range tr.All() {
				d := 0
				for a := range n.Ancestors() {
					if a.IsElement() {
						d++
					}
				}
				if n.IsElement() && d+1 > deepest {
					deepest = d + 1
				}
			}
			want := c.divs + fixed
			if c.tail == "<br>" {
				want++
			}
			if deepest != want {
				t.Errorf("%d divs + %q: deepest element at %d, want %d", c.divs, c.tail, deepest, want)
			}
			continue
		}
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.UnsupportedInput || e.Pkg != pkgName {
			t.Errorf("%d divs + %q: err %v, want unsupported_input from snapshot", c.divs, c.tail, err)
		}
		if !errors.Is(err, errcode.Sentinel(errcode.UnsupportedInput)) || tr != nil {
			t.Errorf("%d divs: errors.Is fails or a tree came back", c.divs)
		}
	}
}

func TestParseHTMLCharset(t *testing.T) {
	utf16le := func(s string) string {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r), byte(r>>8))
		}
		return string(b)
	}
	utf16be := func(s string) string {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r>>8), byte(r))
		}
		return string(b)
	}
	pad := strings.Repeat(" ", htmlsource.PrescanBytes)
	cases := []struct {
		name, page, label string
		charset, text     string
	}{
		{"ascii", "<p id=t>plain</p>", "", "utf-8", "plain"},
		{"valid utf-8", "<p id=t>caf\xc3\xa9</p>", "", "utf-8", "café"},
		{"invalid utf-8 is windows-1252", "<p id=t>caf\xe9</p>", "", "windows-1252", "café"},
		{"utf-8 bom", "\xef\xbb\xbf<p id=t>\xc3\xa9</p>", "", "utf-8", "é"},
		{"utf-8 bom, bad bytes replaced", "\xef\xbb\xbf<p id=t>\xe9</p>", "", "utf-8", "\ufffd"},
		{"utf-16le bom", "\xff\xfe" + utf16le("<p id=t>é</p>"), "", "utf-16le", "é"},
		{"utf-16be bom", "\xfe\xff" + utf16be("<p id=t>é</p>"), "", "utf-16be", "é"},
		{"meta charset", `<meta charset="windows-1252"><p id=t>caf` + "\xc3\xa9</p>", "", "windows-1252", "cafÃ©"},
		{"meta http-equiv", `<meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><p id=t>` + "\x82\xa0</p>", "", "shift_jis", "あ"},
		{"meta latin1 label", `<meta charset=latin1><p id=t>` + "\xe9</p>", "", "windows-1252", "é"},
		{"meta utf-16 means utf-8", `<meta charset=utf-16><p id=t>` + "\xc3\xa9</p>", "", "utf-8", "é"},
		{"meta past 1024 bytes ignored", pad + `<meta charset="windows-1252"><p id=t>` + "\xc3\xa9</p>", "", "utf-8", "é"},
		{"meta just inside 1024 bytes", pad[:htmlsource.PrescanBytes-len(`<meta charset="koi8-r">`)] + `<meta charset="koi8-r"><p id=t>` + "\xc1</p>", "", "koi8-r", "а"},
		{"label overrides meta", `<meta charset=utf-8><p id=t>` + "\xe9</p>", "iso-8859-2", "iso-8859-2", "é"},
		{"label overrides utf-8 check", "<p id=t>\xc3\xa9</p>", "windows-1252", "windows-1252", "Ã©"},
		{"bom beats label", "\xef\xbb\xbf<p id=t>\xc3\xa9</p>", "windows-1252", "utf-8", "é"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, info, err := ParseHTML([]byte(c.page), HTMLOptions{Charset: c.label})
			if err != nil {
				t.Fatal(err)
			}
			got := struct{ Charset, Text string }{info.Charset, htmlByID(t, tr, "t").FirstChild().Data()}
			want := struct{ Charset, Text string }{c.charset, c.text}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, _, err := ParseHTML([]byte("<p>"), HTMLOptions{Charset: "no-such-charset"})
	if errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("unknown label: %v, want invalid_request", err)
	}
}

// TestParseHTMLCanary plants a value in every editable control and checks
// that it is nowhere in the tree: not in attributes, not in text.
func TestParseHTMLCanary(t *testing.T) {
	const canary = "CANARY7731"
	page := `<form>
<input id=i1 value="` + canary + `-text">
<input type=password value="` + canary + `-pw">
<input type=email value="` + canary + `-mail"><input type=hidden value="` + canary + `-hidden">
<input type=checkbox value="` + canary + `-cb" checked><input type=radio value="` + canary + `-radio">
<input type=number value="` + canary + `-n"><input type=search VALUE="` + canary + `-s">
<input type=TEXT Value='` + canary + `-mixed-case'>
<textarea id=ta>` + canary + `-textarea</textarea>
<textarea>line1
` + canary + `-textarea2</textarea>
</form>`
	tr, _ := htmlParse(t, page)
	for n := range tr.All() {
		if strings.Contains(n.Data(), canary) {
			t.Errorf("node %d (%s) holds the canary: %q", n.Index(), n.Kind(), n.Data())
		}
		for _, a := range n.Attrs() {
			if strings.Contains(a.Value, canary) || strings.Contains(a.Name, canary) {
				t.Errorf("element %s attribute %s holds the canary", n.Name(), a.Name)
			}
		}
	}
	// The textarea's text node stays, empty, so node counts do not change.
	ta := htmlByID(t, tr, "ta")
	if c := ta.FirstChild(); c.Kind() != domtree.Text || c.Data() != "" {
		t.Errorf("textarea child %s %q, want an empty text node", c.Kind(), c.Data())
	}
	// Button captions are not values and stay.
	tr2, _ := htmlParse(t, `<input type=submit value="Send" id=s><input type=reset value="Clear" id=r><input type=button value="Go" id=b>`)
	for id, want := range map[string]string{"s": "Send", "r": "Clear", "b": "Go"} {
		if got := htmlByID(t, tr2, id).AttrValue("value"); got != want {
			t.Errorf("%s value %q, want %q", id, got, want)
		}
	}
}

func TestParseHTMLNoscriptIsRawText(t *testing.T) {
	tr, _ := htmlParse(t, `<body><noscript><table id=ns><tr><td>x</td></tr></table></noscript><p id=p>after</p></body>`)
	if _, ok := tr.ElementByID("ns"); ok {
		t.Fatal("noscript content was parsed as markup although scripting is on")
	}
	for n := range tr.All() {
		if n.Is("noscript") {
			if !n.Excluded() || n.FirstChild().Kind() != domtree.Text {
				t.Errorf("noscript: excluded %t, first child %s", n.Excluded(), n.FirstChild().Kind())
			}
		}
	}
}
