package style

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// TestRejectedSelectors: selectors Chromium rejects drop their whole rule
// (the selector list is invalid), and so do selectors nested deeper than
// MaxSelectorNesting; close relatives that Chromium accepts still apply.
func TestRejectedSelectors(t *testing.T) {
	cases := map[string]bool{ // selector -> valid
		`td:contains("zzz")`:           false,
		`td:containsOwn("zzz")`:        false,
		`td:matches(z+)`:               false,
		`td:matchesOwn(z+)`:            false,
		`td:haschild(b)`:               false,
		`:input`:                       false,
		`[a!=b]`:                       false,
		`[a#=(b)]`:                     false,
		`div:has(:has(b))`:             false,
		`div:has(:is(p:has(b)))`:       false,
		`div:has(:not(:has(b)))`:       false,
		`div:has(::before)`:            false,
		`div:has(p:after)`:             false,
		`p, td:contains(x)`:            false,
		`div:has(b)`:                   true,
		`div:has(b), p:has(i)`:         true,
		`div:not(:has(b))`:             true,
		`div:has(> b)`:                 true,
		`[a="!="]`:                     true,
		`p:is(.a)`:                     true,
		`p::before`:                    true, // valid, and matches no element
		`html:not( .x ):not( .js ) .z`: true,
		`:not( .a , .b )`:              true,
		`li:nth-child( 2n + 1 )`:       true,
		`:is( .a .b )`:                 true,
		`:is( .a > .b .c , .d ~ .e )`:  false, // three nested combinators: more than MaxNestedCombinators
	}
	for sel, valid := range cases {
		_, ok := parseSelectors(tokenize(sel))
		if ok != valid {
			t.Errorf("%q: valid %t, want %t", sel, ok, valid)
		}
	}
}

// TestMaxSelectorNesting puts the nesting of :not() just under, at and
// just over MaxSelectorNesting.
func TestMaxSelectorNesting(t *testing.T) {
	for _, c := range []struct {
		depth int
		valid bool
	}{{MaxSelectorNesting - 1, true}, {MaxSelectorNesting, true}, {MaxSelectorNesting + 1, false}} {
		sel := "p" + strings.Repeat(":not(", c.depth) + "a" + strings.Repeat(")", c.depth)
		if _, ok := parseSelectors(tokenize(sel)); ok != c.valid {
			t.Errorf("depth %d: valid %t, want %t", c.depth, ok, c.valid)
		}
	}
}

// TestChromiumDisplayAdjustments: what Chromium 156's getComputedStyle
// reported for each case. An element whose appearance is not none turns
// inline and table displays into inline-block (table into block); with
// appearance none, and for file and image inputs, which have none by
// default, the author's display stands. Children of -webkit-box keep their
// display.
func TestChromiumDisplayAdjustments(t *testing.T) {
	page := `<style>
.tc{display:table-cell} .tr{display:table-row} .t{display:table} .li{display:list-item} .i{display:inline}
.none{appearance:none} .wnone{-webkit-appearance:none} .auto{appearance:auto} .tf{appearance:textfield}
.bogus{appearance:bogus} .inh{appearance:inherit} .rev{appearance:none} .rev{appearance:revert}
.all{all:unset;display:table-cell}
.box{display:-webkit-box} .ibox{display:-webkit-inline-box}
</style><body>
<input id=text class=tc><input id=text-none class="tc none"><input id=text-wnone class="tc wnone">
<input id=checkbox type=checkbox class=tr><select id=select class=t></select><textarea id=textarea class=li></textarea>
<button id=button class=i>b</button><meter id=meter class=tc></meter><progress id=progress class=tc></progress>
<input id=file type=file class=tc><input id=file-auto type=file class="tc auto"><input id=image type=image class=tc>
<input id=image-tf type=image class="tc tf"><label id=label class="tc tf">l</label><label id=label-plain class=tc>l</label>
<input id=bogus class="tc none bogus"><input id=inherit class="tc inh"><input id=revert class="tc rev"><input id=all class=all>
<div class=box><span id=box-child>a</span><span>b</span></div><div class=ibox><span id=ibox-child>a</span></div>
`
	got := styleOf(t, page)
	want := map[string]string{
		"text": "inline flow-root", "text-none": "internal", "text-wnone": "internal",
		"checkbox": "inline flow-root", "select": "block flow", "textarea": "block flow",
		"button": "inline flow-root", "meter": "inline flow-root", "progress": "inline flow-root",
		"file": "internal", "file-auto": "inline flow-root", "image": "internal", "image-tf": "inline flow-root",
		"label": "inline flow-root", "label-plain": "internal", "bogus": "internal", "inherit": "internal",
		"revert": "inline flow-root", "all": "internal", "box-child": "inline flow", "ibox-child": "inline flow",
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

// TestMatchWorkCharged: on pages that exercise every kind of test, the
// work done never exceeds the steps charged.
func TestMatchWorkCharged(t *testing.T) {
	css := `.a .b, #x > p, div:has(.b), p:not(.a, [title]), li:nth-child(2n of .a), :lang(en), input:enabled,
		li:first-child, li:nth-of-type(2), [class~=b i], div:has(> p), :not(div .a)`
	page := `<style>` + css + `{visibility:visible}</style><body lang=en><div class=a id=x><p class=b title=t>x</p>
		<ul><li class=a>1<li>2<li class="a b">3</ul><fieldset disabled><input></fieldset></div>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := computeAll(doc)
	if e.StepsCharged() == 0 || e.Work() > e.StepsCharged() || e.StepsCharged() > MatchSteps {
		t.Errorf("work %d, steps charged %d, budget %d", e.Work(), e.StepsCharged(), MatchSteps)
	}
}

// TestClassLookupPaths: a class or id test answers the same whether the
// element is the one being styled, an ancestor read in place (few, short
// attributes) or an ancestor split and cached (a list longer than
// setThreshold, a value longer than smallValue, more than smallAttrs
// attributes), each just under, at and just over its bound.
func TestClassLookupPaths(t *testing.T) {
	list := func(n int, last string) string {
		var b strings.Builder
		for i := range n - 1 {
			b.WriteString("x" + strings.Repeat("y", i%3) + " ")
		}
		return b.String() + last
	}
	attrs := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(" data-a" + strings.Repeat("b", i) + "=1")
		}
		return b.String()
	}
	var body strings.Builder
	want := map[string]string{}
	for i, c := range []struct{ class, extra string }{
		{list(setThreshold-1, "t"), ""}, {list(setThreshold, "t"), ""}, {list(setThreshold+1, "t"), ""},
		{"t " + strings.Repeat("z", smallValue-3), ""}, {"t " + strings.Repeat("z", smallValue-2), ""},
		{"t " + strings.Repeat("z", smallValue-1), ""},
		{"t", attrs(smallAttrs - 3)}, {"t", attrs(smallAttrs - 2)}, {"t", attrs(smallAttrs - 1)},
	} {
		id := fmt.Sprintf("p%d", i)
		fmt.Fprintf(&body, `<div class="%s" id=%s%s><span id=%s-child>x</span></div>`, c.class, id, c.extra, id)
		want[id] = "block flow"
		want[id+"-child"] = "block flow"
	}
	got := styleOf(t, `<style>.t{display:block} .t > span{display:block} #p4 > span, #p7{display:block}</style><body>`+body.String())
	for id := range got {
		if _, ok := want[id]; !ok {
			delete(got, id)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHasScope: the argument of :has() is relative to the :has() element,
// so every compound of it must lie inside that element (Chromium 156
// agrees: see the css-has-scope fixture).
func TestHasScope(t *testing.T) {
	got := styleOf(t, `<style>div:has(.a .b){display:inline} div:has(.a > .c){display:flex} div:has(.a ~ .d){display:grid}</style><body>
<section class=a><div id=outside><i class=b></i><i class=c></i></div></section>
<div id=inside><section class=a><i class=b></i></section></div>
<section class=a><div id=child-outside><i class=c></i></div></section>
<div id=child-inside><p class=a><i class=c></i></p></div>
<div id=siblings><i class=a></i><i class=d></i></div>`)
	want := map[string]string{"outside": "block flow", "inside": "inline flow", "child-outside": "block flow",
		"child-inside": "block flex", "siblings": "block grid"}
	for id := range got {
		if _, ok := want[id]; !ok {
			delete(got, id)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
