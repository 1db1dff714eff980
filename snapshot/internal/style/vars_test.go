package style

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

func TestVarSubstitution(t *testing.T) {
	got := visOf(t, `<style>
:root { --none: none; --hidden: hidden; --block: block; --D: none; --bad: nosuch; --empty: ; }
#a { display: var(--none) }
#b { display: var(--undefined, none) }
#c { display: block } #c { display: var(--undefined) }
#d { display: block } #d { display: var(--bad) }
#e { --none: block; display: var(--none) }
#f { display: var(--d, inline-block) }
#g { display: var(--D) }
#h { --x: var(--y, none); --y: var(--x, none); display: var(--x, inline-block) }
#i { --self: var(--self); display: var(--self, inline-block) }
#j { --p: var(--q); --q: var(--r); --r: none; display: var(--p) }
#k { --i: initial; display: var(--i, inline-block) }
#l { display: block; display: var(x) }
#m { display: var(--undefined, var(--none)) }
#n { display: var(--empty, block) }
#o { --two: inline var(--block); display: var(--two) }
#p { display: block !important } #p { display: var(--none) }
#q { display: block !important } #q { display: var(--none) !important }
.box { visibility: var(--hidden) }
#r { visibility: var(--undefined) }
#s { --parent: var(--leaf); --leaf: none; }
#s > i { --leaf: block; display: var(--parent) }
#u { --none: inherit; display: var(--none) }
#v { display: var(--undefined, inherit) }
#w { display: var( --none ) }
</style><body><i id=a></i><i id=b></i><i id=c></i><i id=d></i><i id=e></i><i id=f></i><i id=g></i><i id=h></i>
<i id=i></i><i id=j></i><i id=k></i><i id=l></i><i id=m></i><i id=n></i><i id=o></i><i id=p></i><i id=q></i>
<div class=box><i id=r></i><i id=t style="visibility: var(--undefined, visible)"></i></div>
<div id=s><i id=s1></i></div><div style="--none: block"><i id=u></i></div><p><i id=v></i></p><i id=w></i>`)
	want := map[string]string{
		"a": "none", "b": "none",
		"c": "inline flow", // invalid at computed time: unset, not the earlier value
		"d": "inline flow",
		"e": "block flow",                    // the element's own value wins
		"f": "inline flow-root", "g": "none", // names are case-sensitive
		"h": "inline flow-root", // a cycle makes both invalid, fallbacks inside it unused
		"i": "inline flow-root",
		"j": "none",
		"k": "inline flow-root",
		"l": "block flow", // a malformed var() is invalid when parsed
		"m": "none", "n": "inline flow", "o": "inline flow", "p": "block flow", "q": "none",
		"r": "inline flow hidden", // visibility unset inherits hidden
		"t": "inline flow",
		"s": "block flow", "s1": "none", // computed where declared, then inherited
		"u": "block flow", "v": "block flow", "w": "none",
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			delete(got, id)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestVarInLayersAndMedia(t *testing.T) {
	got := styleOf(t, `<style>
@layer base { :root { --d: none } }
:root { --d: block }
@media screen { #a { display: var(--d) } }
@layer base { #b { --e: none !important } }
#b { --e: block !important; display: var(--e) }
</style><body><i id=a></i><i id=b></i>`)
	want := map[string]string{"a": "block flow", "b": "none"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestMaxVarTokens: a value of MaxVarTokens tokens substitutes (and makes
// display invalid, so inline); one token more is invalid and the fallback
// applies.
func TestMaxVarTokens(t *testing.T) {
	for _, c := range []struct {
		tokens int
		want   string
	}{
		{MaxVarTokens - 1, "inline flow"},
		{MaxVarTokens, "inline flow"},
		{MaxVarTokens + 1, "none"},
	} {
		// "a," is two tokens.
		val := strings.Repeat("a,", c.tokens/2) + strings.Repeat("a", c.tokens%2)
		got := styleOf(t, `<style>#x { --big: `+val+`; display: var(--big, none) }</style><body><i id=x></i>`)
		if got["x"] != c.want {
			t.Errorf("%d tokens: %s, want %s", c.tokens, got["x"], c.want)
		}
	}
}

// TestMaxVarDepth: a chain of MaxVarDepth custom properties, each referring
// to the next, resolves; a longer chain is invalid.
func TestMaxVarDepth(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("#x { ")
		for i := 0; i < n; i++ {
			b.WriteString("--v" + itoa(i) + ": var(--v" + itoa(i+1) + "); ")
		}
		b.WriteString("--v" + itoa(n) + ": none; display: var(--v0, inline-block) }")
		return b.String()
	}
	for _, c := range []struct {
		links int
		want  string
	}{
		{MaxVarDepth - 1, "none"},
		{MaxVarDepth, "none"},
		{MaxVarDepth + 1, "inline flow-root"},
	} {
		got := styleOf(t, "<style>"+chain(c.links-1)+"</style><body><i id=x></i>")
		if got["x"] != c.want {
			t.Errorf("%d properties: %s, want %s", c.links, got["x"], c.want)
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

// TestVarSteps: substitution charges every token it produces, exactly; a
// sheet that spends VarSteps is dropped, style attributes are not.
func TestVarSteps(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<style>#x { --a: x y; display: var(--a) } #y { --b: var(--a) var(--a) }</style><body><i id=x></i>`))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := computeAll(doc)
	// --a resolves to 3 tokens, then display to the same 3.
	if spent := VarSteps - e.varSteps; spent != 6 {
		t.Errorf("spent %d var steps, want 6", spent)
	}
	// Each element resolves its own --a of n tokens, then display: 2n.
	n := 4001 // "a," 2000 times, then "a"
	val := strings.Repeat("a,", n/2) + "a"
	per := 2 * n
	for _, c := range []struct {
		elements int
		dropped  bool
	}{
		{VarSteps / per, false},
		{VarSteps/per + 1, true},
	} {
		page := "<style>i { --a: " + val + "; display: var(--a, none) } b { display: block }</style><body><b id=b></b>" + strings.Repeat("<i></i>", c.elements)
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		e, styles := computeAll(doc)
		if e.SheetsDropped != c.dropped {
			t.Errorf("%d elements: SheetsDropped %v, want %v", c.elements, e.SheetsDropped, c.dropped)
		}
		for n, s := range styles {
			if n.Data == "b" && s.Display.IsPlainInline() != c.dropped {
				t.Errorf("%d elements: b is %s", c.elements, s.Display)
			}
		}
	}
	// Style attributes alone are never dropped.
	page := `<body>` + strings.Repeat(`<i style="--a: `+val+`; display: var(--a, none)"></i>`, VarSteps/per+1)
	doc, err = html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := computeAll(doc); e.SheetsDropped {
		t.Error("style attributes alone dropped the sheets")
	}
}
