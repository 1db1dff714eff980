package style

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
	"pgregory.net/rapid"
)

func TestUnescapeIdent(t *testing.T) {
	cases := map[string]string{
		"display":         "display",
		`dis\70 lay`:      "display",
		`dis\70lay`:       "display",  // the hex digits end at the first non-hex letter
		`\6e6f6e65`:       "\uFFFD65", // six digits at most: 6e6f6e is past U+10FFFF
		`\64 isplay`:      "display",
		`dis\play`:        "display",
		`n\6f ne`:         "none",
		`\0 x`:            "\uFFFDx",
		`\D800 x`:         "\uFFFDx",
		`\110000 x`:       "\uFFFDx",
		`\10FFFF x`:       "\U0010FFFFx",
		`\00006fx`:        "ox", // six digits end the escape
		`\00006f x`:       "ox", // and one whitespace after them still belongs to it
		`\00006f  x`:      "o x",
		"\\6f\r\nx":       "ox",
		`a\`:              `a\`,
		`\é`:              "é",
		`\41\42 \43  \44`: "ABC D",
	}
	for in, want := range cases {
		if got := unescapeIdent(in); got != want {
			t.Errorf("unescapeIdent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapedDeclarations(t *testing.T) {
	got := map[string]bool{}
	for _, src := range []string{`dis\70 lay: none`, `display: n\6f ne`, `\64 isplay:none`, `DISPLAY: NONE`,
		`dis\70lay2: none`, `display: \6e one`, `dis\play: none`} {
		ds := parseDecls(readDecls(tokenize(src)))
		got[src] = len(ds) == 1 && ds[0].prop == propDisplay && ds[0].val.display.IsNone()
	}
	want := map[string]bool{`dis\70 lay: none`: true, `display: n\6f ne`: true, `\64 isplay:none`: true,
		`DISPLAY: NONE`: true, `dis\70lay2: none`: false, `display: \6e one`: true, `dis\play: none`: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReadBlockSegments: declarations after a nested rule form a segment of
// their own, so they cascade after it.
func TestReadBlockSegments(t *testing.T) {
	render := func(src string) []string {
		segs, rules := readBlock(tokenize(src))
		if len(segs) != len(rules)+1 {
			t.Fatalf("%q: %d segments for %d rules", src, len(segs), len(rules))
		}
		var out []string
		for i, s := range segs {
			var names []string
			for _, d := range s {
				names = append(names, d.name)
			}
			out = append(out, strings.Join(names, ","))
			if i < len(rules) {
				out = append(out, "{"+strings.TrimSpace(tokenText(rules[i].prelude))+"}")
			}
		}
		return out
	}
	cases := map[string][]string{
		"a:b":                          {"a"},
		"a:b; & x{c:d} e:f; g:h":       {"a", "{& x}", "e,g"},
		"& x{c:d} & y{e:f}":            {"", "{& x}", "", "{& y}", ""},
		"a:b; & x{c:d} e:f; & y{} g:h": {"a", "{& x}", "e", "{& y}", "g"},
	}
	for src, want := range cases {
		if diff := cmp.Diff(want, render(src)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", src, diff)
		}
	}
}

// styleOf computes the styles of a page and returns the display of each
// element with an id, "none" or the display's class.
func styleOf(t *testing.T, page string) map[string]string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	_, styles := computeAll(doc)
	out := map[string]string{}
	for n, s := range styles {
		if id, ok := attrValue(n, "id"); ok {
			out[id] = s.Display.String()
		}
	}
	return out
}

func TestNestedDeclarationsOrder(t *testing.T) {
	got := styleOf(t, `<style>
#x { & { display: none; } display: block; }
#y { & { display: block; } display: none; }
#z { & { & { display: none; } } display: block; }
#w { display: none; & { display: block; } }
#v { & { display: none; } & { display: inline; } }
</style><body><i id=x></i><i id=y></i><i id=z></i><i id=w></i><i id=v></i>`)
	want := map[string]string{"x": "block flow", "y": "none", "z": "block flow", "w": "block flow", "v": "inline flow"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseAnB(t *testing.T) {
	type ab struct {
		A, B int
		OK   bool
	}
	cases := map[string]ab{
		"odd": {2, 1, true}, "EVEN": {2, 0, true}, "3": {0, 3, true}, "-3": {0, -3, true}, "+3": {0, 3, true},
		"n": {1, 0, true}, "-n+3": {-1, 3, true}, "+n": {1, 0, true}, "2n + 1": {2, 1, true}, "2n-1": {2, -1, true},
		"-2n": {-2, 0, true}, "": {}, "foo": {}, "n2": {}, "2n+": {}, "n+-1": {},
		"999999999": {0, 999999999, true}, "1000000000": {}, // nine digits at most
	}
	for in, want := range cases {
		a, b, ok := parseAnB(in)
		got := ab{a, b, ok}
		if !ok {
			got = ab{}
		}
		if got != want {
			t.Errorf("parseAnB(%q) = %+v, want %+v", in, got, want)
		}
	}
}

// TestNthChildOfAgainstModel: for random rows of classes, :nth-child(An+B of
// .o) and :nth-last-child(An+B of .o) hide exactly the rows a direct count
// says they should.
func TestNthChildOfAgainstModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		classes := rapid.SliceOfN(rapid.SampledFrom([]string{"o", "p", "o p"}), 1, 12).Draw(t, "rows")
		a := rapid.IntRange(-3, 3).Draw(t, "a")
		b := rapid.IntRange(-3, 6).Draw(t, "b")
		last := rapid.Bool().Draw(t, "last")
		fn := "nth-child"
		if last {
			fn = "nth-last-child"
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "<style>i:%s(%dn%+d of .o){display:none}</style><body><div>", fn, a, b)
		for i, c := range classes {
			fmt.Fprintf(&sb, "<i id=r%d class=%q></i>", i, c)
		}
		got := styleOf(&testing.T{}, sb.String())
		// The model: positions among the .o rows.
		var os []int
		for i, c := range classes {
			if strings.Contains(c, "o") {
				os = append(os, i)
			}
		}
		for k, i := range os {
			pos := k + 1
			if last {
				pos = len(os) - k
			}
			want := false
			for n := 0; n <= 20; n++ {
				if a*n+b == pos {
					want = true
				}
			}
			if hidden := got[fmt.Sprintf("r%d", i)] == "none"; hidden != want {
				t.Fatalf("row %d (.o number %d): hidden %t, want %t", i, pos, hidden, want)
			}
		}
		for i, c := range classes {
			if !strings.Contains(c, "o") && got[fmt.Sprintf("r%d", i)] == "none" {
				t.Fatalf("row %d is not .o but hidden", i)
			}
		}
	})
}

func TestNthChildOfSpecificity(t *testing.T) {
	got := styleOf(t, `<style>
.r.r { display: block; } i:nth-child(1 of .r) { display: none; }
.t.t.t { display: block; } i:nth-child(1 of .t) { display: none; }
i:nth-child(1 of #q) { display: none; } #q.q { display: block; }
</style><body><div><i id=r class=r></i><i id=t class=t></i><i id=q class=q></i></div>`)
	// nth-child of S weighs S plus one class: (0,1,1)+(0,1,0) beats .r.r
	// (0,2,0), not .t.t.t (0,3,0); of #q it weighs (1,1,1), more than #q.q.
	want := map[string]string{"r": "none", "t": "block flow", "q": "none"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNthChildOfSteps: :nth-child of S counts siblings, so its rule is
// costly: it weighs as much as the document has elements in MatchBudget,
// and every sibling counted costs a step of MatchSteps. A long list drops
// the sheets rather than cost quadratic time unbounded.
func TestNthChildOfSteps(t *testing.T) {
	for _, c := range []struct {
		n       int
		dropped bool
	}{{1 << 10, false}, {1 << 13, true}} {
		page := "<style>i:nth-child(1 of .a){display:block}</style><body><div>" + strings.Repeat("<i class=a></i>", c.n)
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		e, _ := computeAll(doc)
		if e.SheetsDropped != c.dropped {
			t.Errorf("%d siblings: dropped %t, want %t", c.n, e.SheetsDropped, c.dropped)
		}
	}
}

func TestStateSelectors(t *testing.T) {
	want := map[string]string{
		"a": "inline flow", "b": "none", "c": "none", "d": "inline flow", "e": "inline flow", "f": "inline flow",
		"g": "inline flow", "h": "inline flow",
		"a2": "none", "b2": "inline flow", "c2": "inline flow", "d2": "none", "e2": "none",
	}
	doc, err := html.Parse(strings.NewReader(`<style>
.rw:read-write, .ro:read-only, .l:dir(ltr), .r:dir(rtl), .r2:dir( RTL ), .s:dir(sideways),
.ph:placeholder-shown, .ind:indeterminate { display: none; }
</style><body><i id=a class=rw></i><i id=b class=ro></i><i id=c class=l></i><i id=d class=r></i>
<i id=e class=r2></i><i id=f class=s></i><i id=g class=ph></i><i id=h class=ind></i>
<i id=a2 class=rw></i><i id=b2 class=ro></i><i id=c2 class=l></i><i id=d2 class=r></i><i id=e2 class=r2></i>`))
	if err != nil {
		t.Fatal(err)
	}
	// The caller computes the states; the engine reads them.
	states := States{}
	for n := doc; n != nil; n = NextNode(n, doc, true) {
		id, _ := attrValue(n, "id")
		switch id {
		case "a2", "b2":
			states[n] = ReadWrite
		case "c2", "d2", "e2":
			states[n] = RTL
		}
	}
	_, styles := computeAllWith(doc, Options{States: states})
	got := map[string]string{}
	for n, s := range styles {
		if id, ok := attrValue(n, "id"); ok {
			got[id] = s.Display.String()
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAlignFloats(t *testing.T) {
	got := styleOf(t, `<style>.nf{float:none}</style><body>
<img id=a align=left><img id=b align=RIGHT><img id=c align=middle><img id=d align=" left">
<iframe id=e align=right></iframe><input id=f type=image align=left><input id=g align=left>
<span id=h align=left></span><table id=i align=left style="display:inline-table"></table>
<img id=j class=nf align=left><embed id=k align=right><object id=l align=left></object>
<svg><image id=m align=left></image></svg>`)
	want := map[string]string{
		"a": "block flow", "b": "block flow", "c": "inline flow", "d": "inline flow", "e": "block flow",
		"f": "block flow-root", "g": "inline flow-root", "h": "inline flow", "i": "block table",
		"j": "inline flow", "k": "block flow", "l": "block flow", "m": "inline flow",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDefaultStyleMeta(t *testing.T) {
	body := `<style title=A>.a{display:none}</style><style title=B>.b{display:none}</style><style>.u{display:none}</style>
<i id=a class=a></i><i id=b class=b></i><i id=u class=u></i>`
	cases := []struct {
		name, head string
		want       map[string]string
	}{
		{"no meta", "", map[string]string{"a": "none", "b": "inline flow", "u": "none"}},
		{"meta names the second set", `<meta http-equiv=default-style content=B>`, map[string]string{"a": "inline flow", "b": "none", "u": "none"}},
		{"meta in any case", `<meta http-equiv=DEFAULT-STYLE content=B>`, map[string]string{"a": "inline flow", "b": "none", "u": "none"}},
		{"empty content is ignored", `<meta http-equiv=default-style content="">`, map[string]string{"a": "none", "b": "inline flow", "u": "none"}},
		{"a name no sheet has", `<meta http-equiv=default-style content=C>`, map[string]string{"a": "inline flow", "b": "inline flow", "u": "none"}},
		{"the first name wins", `<meta http-equiv=default-style content=B><meta http-equiv=default-style content=A>`, map[string]string{"a": "inline flow", "b": "none", "u": "none"}},
		{"after the first titled sheet it is too late", "", map[string]string{"a": "none", "b": "inline flow", "u": "none"}},
	}
	for _, c := range cases {
		page := "<head>" + c.head + "</head><body>" + body
		if c.name == "after the first titled sheet it is too late" {
			page = "<body>" + strings.Replace(body, "<style title=B>", `<meta http-equiv=default-style content=B><style title=B>`, 1)
		}
		if diff := cmp.Diff(c.want, styleOf(t, page)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestStateSteps: a state test reads the caller's table, so it costs one
// step whatever the element's attributes, negated or not.
func TestStateSteps(t *testing.T) {
	long := strings.Repeat("x", 1000)
	doc, err := html.Parse(strings.NewReader(`<style>input:checked{display:none} i:read-only{display:block}</style><body><input title=` + long + `><i title=` + long + `></i>`))
	if err != nil {
		t.Fatal(err)
	}
	states := States{}
	for n := doc; n != nil; n = NextNode(n, doc, true) {
		if n.Type == html.ElementNode && n.Data == "input" {
			states[n] = Checked
		}
	}
	e, styles := computeAllWith(doc, Options{States: states})
	// Each rule has one candidate (keyed by its tag): a tag test and a
	// state test each.
	if e.StepsCharged() != 4 || e.Work() != 4 {
		t.Errorf("steps charged %d, work %d, want 4 and 4", e.StepsCharged(), e.Work())
	}
	got := map[string]string{}
	for n, s := range styles {
		got[n.Data] = s.Display.String()
	}
	if got["input"] != "none" || got["i"] != "block flow" {
		t.Errorf("input %s, i %s; want none, block flow", got["input"], got["i"])
	}
}
