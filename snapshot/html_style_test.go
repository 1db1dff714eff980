package snapshot

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/domtree"
)

// htmlStyleOf renders an element's display class, with " hidden" appended
// when its visibility is hidden.
func htmlStyleOf(n domtree.Node) string {
	s := n.Display().String()
	if n.Visibility() == domtree.Hidden {
		s += " hidden"
	}
	return s
}

// TestOfflineCascade checks each rule of the offline cascade on a small page.
// Every expectation was checked against Chromium 156 (getComputedStyle, with
// the rule that an element under display: none has no box), except where a
// comment says the contract decides otherwise.
func TestOfflineCascade(t *testing.T) {
	cases := []struct {
		name string
		css  string
		body string
		want map[string]string // id -> display class [+ " hidden"]
	}{
		{"user-agent defaults", "", `<div id=div></div><span id=span>s</span><p id=p>p</p><li id=li>l</li>
<table id=table><tr id=tr><td id=td>x</td></tr></table><button id=button>b</button><input id=input>
<select id=select></select><textarea id=textarea></textarea><img id=img><ruby id=ruby>r<rt id=rt>t</rt></ruby>
<rt id=rtalone>t</rt><dialog id=dialog>d</dialog><dialog open id=dialogopen>d</dialog><slot id=slot>x</slot>
<audio id=audio></audio><audio controls id=audioc></audio><marquee id=marquee>m</marquee><meter id=meter></meter>
<details id=details><summary id=summary>s</summary></details><fieldset id=fieldset><legend id=legend>l</legend></fieldset>
<area id=area><datalist id=datalist></datalist><source id=source><x-y id=custom>c</x-y><unknown id=unknown>u</unknown>`,
			map[string]string{"div": "block", "span": "inline", "p": "block", "li": "block", "table": "block",
				"tr": "block", "td": "block", "button": "inline", "input": "inline", "select": "inline",
				"textarea": "inline", "img": "inline", "ruby": "inline", "rt": "block", "rtalone": "inline",
				"dialog": "none", "dialogopen": "block", "slot": "block", "audio": "none", "audioc": "inline",
				"marquee": "inline", "meter": "inline", "details": "block", "summary": "block",
				"fieldset": "block", "legend": "block", "area": "none", "datalist": "none", "source": "inline",
				"custom": "inline", "unknown": "inline"}},
		{"hidden attribute", "", `<div hidden id=a>x</div><span hidden="" id=b>x</span><p hidden=until-found id=c>x</p>
<embed hidden id=d><marquee hidden id=e>x</marquee><tr hidden id=f></tr><svg hidden id=g></svg><math hidden id=h></math>`,
			// hidden=until-found is display: none by docs/reference.md#visibility (Chromium
			// keeps the box and hides its content with content-visibility).
			// embed ignores hidden, but this one has no source and so no box.
			map[string]string{"a": "none", "b": "none", "c": "none", "d": "none", "e": "inline",
				"g": "inline", "h": "inline"}},
		{"author css un-hides [hidden]", `[hidden]{display:block} .x[hidden]{display:inline}`,
			`<div hidden id=a>x</div><div hidden class=x id=b>x</div>`,
			map[string]string{"a": "block", "b": "inline"}},
		{"user-agent important wins", `audio{display:block!important} input[type=hidden]{display:block!important}`,
			`<audio id=a></audio><input type=hidden id=b>`,
			map[string]string{"a": "none", "b": "none"}},
		{"popover closed", "", `<div popover id=a>p</div><div popover=manual id=b>p</div><dialog popover open id=c>p</dialog>`,
			map[string]string{"a": "none", "b": "none", "c": "block"}},
		{"specificity", `#a{display:block} .a{display:none} div{display:inline}
.b.c{display:none} .c{display:block} div.d{display:none} .d{display:block}`,
			`<div id=a class=a>x</div><div class="b c" id=b>x</div><div class=d id=d>x</div>`,
			map[string]string{"a": "block", "b": "none", "d": "none"}},
		{"source order", `.a{display:none} .a{display:inline} .b{display:inline} .b{display:none}`,
			`<div class=a id=a>x</div><div class=b id=b>x</div>`,
			map[string]string{"a": "inline", "b": "none"}},
		{"important", `.a{display:none!important} #a{display:block} .b{display:none ! IMPORTANT} .b{display:block}`,
			`<div class=a id=a>x</div><div class=b id=b>x</div>`,
			map[string]string{"a": "none", "b": "none"}},
		{"inline style", `.a{display:none} .b{display:none!important}`,
			`<i class=a style="display:block" id=a>x</i><i class=b style="display:block" id=b>x</i>
<i class=b style="display:block!important" id=c>x</i><i style="display:none;display:block" id=d>x</i>
<i style="display: bogus; display:none" id=e>x</i><i style="display:none; display: bogus" id=f>x</i>`,
			map[string]string{"a": "block", "b": "none", "c": "block", "d": "block", "e": "none", "f": "none"}},
		{"visibility inherits", `.h{visibility:hidden} .v{visibility:visible} .c{visibility:collapse}`,
			`<div class=h id=a><span id=b>x</span><span class=v id=c>y</span></div><div class=c id=d><i id=e>z</i></div>
<div style="visibility:hidden"><b style="visibility:inherit" id=f>q</b><b style="visibility:initial" id=g>q</b><b style="visibility:unset" id=h>q</b></div>`,
			map[string]string{"a": "block hidden", "b": "inline hidden", "c": "inline", "d": "block hidden",
				"e": "inline hidden", "f": "inline hidden", "g": "inline", "h": "inline hidden"}},
		{"css-wide keywords on display", `.q{display:inline-block} .q>span{display:revert} .u{display:inherit} .v{all:initial}
.x{display:none} .x{display:unset} .l{display:revert-layer}`,
			`<div class=q id=q><span id=q1>q</span></div><section style="display:flex"><p class=u id=u>u</p></section>
<div class=v id=v>v</div><div class=x id=x>x</div><div class=l id=l>l</div><div style="display:flex"><p class=v id=v2>v</p></div>`,
			map[string]string{"q": "inline", "q1": "inline", "u": "block", "v": "inline", "x": "inline", "l": "block", "v2": "block"}},
		{"blockification", `.f{display:flex} .g{display:inline-grid} .s{float:left} .t{position:absolute} .t2{position:fixed;display:inline-table}
.t3{position:absolute;float:right;display:inline} .st{position:sticky} .c{display:contents}`,
			`<div class=f><span id=a>x</span><div class=c><span id=b>y</span></div></div>
<span class=g id=g><i id=gi>z</i></span><span class=s id=s>s</span><span class=t id=t>t</span><span class=t2 id=t2>t</span>
<span class=t3 id=t3>t</span><span class=st id=st>t</span><span class=f><b style="display:none" id=n>n</b></span>`,
			map[string]string{"a": "block", "b": "block", "g": "inline", "gi": "block", "s": "block",
				"t": "block", "t2": "block", "t3": "block", "st": "inline", "n": "none"}},
		{"legends are block-level, ruby children inline-level", `.c{display:contents}`,
			`<p><legend style="display:inline" id=lg>l</legend></p><legend class=c id=lc>l</legend>
<ruby><h1 id=h>x</h1><div style="float:left" id=f>y</div><span style="position:absolute" id=ab>z</span><div class=c><p id=pc>p</p></div></ruby>`,
			map[string]string{"lg": "block", "lc": "block", "h": "inline", "f": "inline", "ab": "block", "pc": "inline"}},
		{"form controls with a table display are inline-block", `.c{display:table-cell} .r{display:table-row} .t{display:ruby-text}`,
			`<input class=c id=a><button class=r id=b>b</button><select class=c id=c></select><textarea class=r id=d></textarea>
<meter class=c id=e></meter><progress class=r id=f></progress><img class=c id=g><span class=c id=h>s</span><input class=t id=i>`,
			map[string]string{"a": "inline", "b": "inline", "c": "inline", "d": "inline", "e": "inline", "f": "inline",
				"g": "block", "h": "block", "i": "block"}},
		{"a contents element reports its parent's visibility", `.c{display:contents}`,
			`<div style="visibility:hidden"><span class=c style="visibility:visible" id=a><b id=a1>x</b></span></div>
<div><span class=c style="visibility:hidden" id=b><b id=b1>x</b></span></div>`,
			// Live, a contents element has no box to read visibility from.
			map[string]string{"a": "block hidden", "a1": "inline", "b": "block", "b1": "inline hidden"}},
		{"root is blockified", `html{display:inline}`, `<p id=p>x</p>`,
			map[string]string{"p": "block"}},
		{"display contents", `.c{display:contents}`,
			`<div class=c id=a>text</div><div class=c id=b><span>x</span></div><div class=c id=c> </div>
<input class=c id=d><img class=c id=e><button class=c id=f>b</button><select class=c id=g></select><br class=c id=h>
<fieldset class=c id=i>f</fieldset><details class=c id=j>d</details><svg class=c id=k></svg>`,
			// A contents element with nothing rendered under it has no box
			// live. Whitespace after inline content is rendered (c follows
			// b's span); the text of a closed details is not (j).
			map[string]string{"a": "block", "b": "block", "c": "block", "d": "none", "e": "none", "f": "block",
				"g": "none", "h": "none", "i": "block", "j": "none", "k": "none"}},
		{"multi-keyword display", "",
			`<div id=a style="display:inline list-item">a</div><div id=b style="display:block flex">a</div>
<div id=c style="display:inline flow-root">a</div><div id=d style="display:list-item inline flow">a</div>
<span id=e style="display:block ruby">a</span><span id=f style="display:run-in">a</span>
<span id=g style="display:inline math">a</span><span id=h style="display:ruby-base">a</span>
<span id=i style="display:table flow">a</span><span id=j style="display:list-item table">a</span>
<span id=k style="display:-webkit-flex">a</span><span id=l style="display:ruby-text">a</span>
<span id=m style="display:flex list-item">a</span><span id=n style="display:block math">a</span>
<span id=o style="display:-webkit-inline-box">a</span><span id=p style="display:INLINE-BLOCK">a</span>`,
			map[string]string{"a": "inline", "b": "block", "c": "inline", "d": "inline", "e": "block",
				"f": "inline", "g": "inline", "h": "inline", "i": "inline", "j": "inline", "k": "block",
				"l": "block", "m": "inline", "n": "block", "o": "inline", "p": "inline"}},
		{"mathml and svg", "",
			`<math id=m><mi id=mi>x</mi></math><math display=block id=mb></math><math style="display:inline" id=mi2><mi id=mi3>y</mi><label id=ml>l</label></math>
<svg id=s><g id=g><text id=tx>t</text></g><foreignObject id=fo><div id=fd>d</div></foreignObject></svg>`,
			map[string]string{"m": "inline", "mi": "block", "mb": "block", "mi2": "inline", "mi3": "block", "ml": "block", "s": "inline", "g": "inline",
				"tx": "block", "fo": "block", "fd": "block"}},
		{"user-action pseudo-classes never match", `.h:hover,.h2{display:none} .i:not(:hover){display:none}
.j:focus-within{display:none} a:visited{display:none} :target{display:none} .k:focus-visible{display:none}`,
			`<div class=h id=h>h</div><div class=h2 id=h2>h</div><div class=i id=i>i</div><div class=j id=j>j</div>
<a href=# id=a>a</a><div id=t>t</div><div class=k id=k>k</div>`,
			map[string]string{"h": "block", "h2": "none", "i": "none", "j": "block", "a": "inline", "t": "block", "k": "block"}},
		{"pseudo-elements match no element", `p.o::before,.o2{display:none} p.q:after{display:none} .r::-webkit-scrollbar{display:none}`,
			`<p class=o id=o>o</p><div class=o2 id=o2>o</div><p class=q id=q>q</p><div class=r id=r>r</div>`,
			map[string]string{"o": "block", "o2": "none", "q": "block", "r": "block"}},
		{"is, where, not, has", `.j:is(.k,.l){display:none} .m:where(.n){display:none} .a:not(.b){display:none}
.p:has(> .q){display:none} .r:has(.s){display:none}`,
			`<div class="j k" id=j>j</div><div class="j" id=j2>j</div><div class="m n" id=m>m</div><i class=a id=a>a</i>
<i class="a b" id=ab>ab</i><div class=p id=p><i class=q>q</i></div><div class=p id=p2><b><i class=q>q</i></b></div>
<div class=r id=r><b><i class=s>s</i></b></div>`,
			map[string]string{"j": "none", "j2": "block", "m": "none", "a": "none", "ab": "inline", "p": "none",
				"p2": "block", "r": "none"}},
		{"combinators", `.z~.z2{display:none} .aa+.ab{display:none} ul li.ac{display:none} div>.ad{display:none}
.af .ag .ah{display:none} .x > .y{display:none}`,
			`<i class=z></i><b></b><i class=z2 id=z2>z</i><i class=aa></i><i class=ab id=ab>ab</i><i class=ab id=ab2>ab</i>
<ul><li class=ac id=ac>x</li></ul><div><i class=ad id=ad>x</i></div><p><i class=ad id=ad2>x</i></p>
<div class=af><div class=ag><div class=ah id=ah>x</div></div></div><div class=x><p><i class=y id=y>x</i></p></div>`,
			map[string]string{"z2": "none", "ab": "none", "ab2": "inline", "ac": "none", "ad": "none", "ad2": "inline",
				"ah": "none", "y": "inline"}},
		{"structural and attribute selectors", `.y:nth-child(2){display:none} .ae:first-child{display:none}
.ai[data-x="1"]{display:none} .aj:empty{display:none} DIV.bb{display:none} .BC{display:none} :root{visibility:hidden} body{visibility:visible}`,
			`<section><i>1</i><i class=y id=y>2</i></section><div><b class=ae id=ae>x</b></div><i class=ai data-x=1 id=ai>x</i>
<i class=aj id=aj></i><div class=bb id=bb>x</div><i class=bc id=bc>x</i>`,
			map[string]string{"y": "none", "ae": "none", "ai": "none", "aj": "none", "bb": "none", "bc": "inline"}},
		{":where weighs nothing, :empty counts whitespace", `:where(.z):empty{display:contents!important} input:is(.x,.y){display:inline-block!important}
.w:where(#q){display:none} .w{display:inline} .e:empty{display:none}`,
			`<input class="z x" id=a><div class="w" id=q>w</div><i class=e id=e1> </i><i class=e id=e2><!--c--></i>
<div id=h class=e><template shadowrootmode=open>s</template></div>`,
			map[string]string{"a": "inline", "q": "inline", "e1": "inline", "e2": "none", "h": "none"}},
		{"dialogs and popovers are positioned", `dialog,[popover]{display:inline} .s{position:static}`,
			`<dialog id=a>d</dialog><dialog open id=b>d</dialog><span popover id=c>p</span><dialog class=s id=d>d</dialog>`,
			map[string]string{"a": "block", "b": "block", "c": "block", "d": "inline"}},
		{"element states", `input:checked+.am{display:none} :not(:defined){display:none} details:open>.an{display:none}
input:required+.ao{display:none} input:optional+.ap{display:none} :checked+.aq{display:none}`,
			`<input type=checkbox checked><i class=am id=am>x</i><x-foo id=xf>x</x-foo><details open><summary>s</summary><i class=an id=an>x</i></details>
<input required><i class=ao id=ao>x</i><input><i class=ap id=ap>x</i>
<input type=radio name=r checked><i class=aq id=aq1>x</i><input type=radio name=r checked><i class=aq id=aq2>x</i>`,
			map[string]string{"am": "none", "xf": "none", "an": "none", "ao": "none", "ap": "none", "aq1": "inline", "aq2": "none"}},
		{"invalid selectors drop only their rule", `.ar${display:none} .as,.bad${display:none} .at{display:none} } .au{display:none}
ns|x,.aw{display:none} .ax{display:none} .ay[{display:none} .az{display:none}`,
			// A stray "}" joins the next prelude; an unclosed "[" swallows
			// everything after it, as CSS Syntax consumes simple blocks.
			`<i class=ar id=ar>x</i><i class=as id=as>x</i><i class=at id=at>x</i><i class=au id=au>x</i><i class=aw id=aw>x</i>
<i class=ax id=ax>x</i><i class=ay id=ay>x</i><i class=az id=az>x</i>`,
			map[string]string{"ar": "inline", "as": "inline", "at": "none", "au": "inline", "aw": "inline", "ax": "none",
				"ay": "inline", "az": "inline"}},
		{"nested style rules", `.n1{& .n2{display:none}} .n3{> .n4{display:none}} .n5{&.n6{display:none}} .n7{.n8 &{display:none}}
.n9{.n10{.n11{display:none}}} .p1, .p2{.q{display:none}} .bad${.r{display:none}} .s{@media all{.t{display:none}} .u{display:none}}
#w{.x{display:none}} .x{display:inline}`,
			`<div class=n1><i class=n2 id=a>a</i></div><div class=n3><b><i class=n4 id=b>b</i></b><i class=n4 id=c>c</i></div>
<i class="n5 n6" id=d>d</i><div class=n8><i class=n7 id=e>e</i></div><div class=n9><div class=n10><i class=n11 id=f>f</i></div></div>
<div class=p2><i class=q id=g>g</i></div><div class=bad><i class=r id=h>h</i></div><div class=s><i class=t id=i>i</i><i class=u id=j>j</i></div>
<div id=w><i class=x id=k>k</i></div>`,
			// The nested rule weighs like :is(#w) .x, more than .x.
			map[string]string{"a": "none", "b": "inline", "c": "none", "d": "none", "e": "none", "f": "none", "g": "none",
				"h": "inline", "i": "none", "j": "none", "k": "none"}},
		{"conditional at-rules, an undefined var(), @import", `@media all{.bd{display:none}} @supports (display:grid){.be{display:none}}
@media print{.bg{display:none}} @supports (display:nosuch){.bh{display:none}}
@import url(x.css); .ay{color:red; .az{display:none} display:none} .ba{display:var(--x)} .bf{display:none}`,
			`<i class=bd id=bd>x</i><i class=be id=be>x</i><i class=ay id=ay>x</i><i class="ay az" id=az>x</i><i class=ba id=ba>x</i><i class=bf id=bf>x</i>
<i class=bg id=bg>x</i><i class=bh id=bh>x</i>`,
			map[string]string{"bd": "none", "be": "none", "ay": "none", "az": "none", "ba": "inline", "bf": "none", "bg": "inline", "bh": "inline"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := "<!doctype html><html><head><style>" + c.css + "</style></head><body>" + c.body + "</body></html>"
			tr, _ := htmlParse(t, page)
			got := map[string]string{}
			for id := range c.want {
				n := htmlByID(t, tr, id)
				if n.Excluded() && n.Display() != domtree.DisplayNone {
					// Excluded through an ancestor: what analysis sees is none.
					got[id] = "none"
					continue
				}
				got[id] = htmlStyleOf(n)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestOfflineCascadeStyleElements(t *testing.T) {
	page := `<html><head>
<style media=print>.a{display:none}</style><style media=" Screen ">.b{display:none}</style>
<style type="text/foo">.c{display:none}</style><style type="TEXT/CSS">.d{display:none}</style>
<style media="(min-width: 1px)">.e{display:none}</style><style media="(max-width: 1px)">.j{display:none}</style>
<template><style>.f{display:none}</style></template>
<noscript><style>.g{display:none}</style></noscript>
</head><body><svg><style>.h{display:none}</style></svg>
<div id=host><template shadowrootmode=open><style>.i{display:none}</style></template></div>
<i class=a id=a>x</i><i class=b id=b>x</i><i class=c id=c>x</i><i class=d id=d>x</i><i class=e id=e>x</i>
<i class=f id=f>x</i><i class=g id=g>x</i><i class=h id=h>x</i><i class=i id=i>x</i><i class=j id=j>x</i></body></html>`
	tr, info := htmlParse(t, page)
	want := map[string]string{"a": "inline", "b": "none", "c": "inline", "d": "none", "e": "none",
		"f": "inline", "g": "inline", "h": "none", "i": "inline", "j": "inline"}
	got := map[string]string{}
	for id := range want {
		got[id] = htmlStyleOf(htmlByID(t, tr, id))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if info.StyleSheets != 4 {
		t.Errorf("StyleSheets = %d, want 4 (media screen, text/css, a matching query, svg)", info.StyleSheets)
	}
	_ = strings.TrimSpace
}

// TestParseHTMLNotRendered covers what Chromium leaves without a layout
// object although its display is not none; expectations are from a live
// capture of the same page.
func TestParseHTMLNotRendered(t *testing.T) {
	page := `<!doctype html><html><body>
<select id=s1><option id=o1>a</option><optgroup id=g1 label=g><option id=o2>b</option></optgroup><hr id=hr1></select>
<select multiple id=s2><option id=o3>a</option></select><select size=3 id=s3><option id=o5>a</option></select>
<select size=" +1x" id=s4><option id=o6>a</option></select><select size=2 id=s5><option id=o7>a</option></select>
<embed id=e1><embed src="x.swf" id=e2><embed src=" " id=e3><embed src="" id=e4>
<details id=d1><summary id=sm>s</summary><div id=dd>x</div><summary id=sm2>t</summary></details>
<div style="display:contents" id=dc1><p>x</p></div><div style="display:contents" id=dc2>
</div><p>a<span style="display:contents" id=dc3> </span>b</p><div><div style="display:contents" id=dc4> </div></div>
<ul id=ul1 style="display:contents">
</ul><div id=ws1><span style="display:contents" id=dc5>  </span><div>block</div></div>
<p><b>x</b><span style="display:contents" id=dc6> </span></p><p><b></b><i style="display:contents" id=dc7> </i></p>
<svg id=sv><desc id=desc>d</desc><metadata id=md></metadata><g id=g2><rect id=r1></rect></g><legend id=sl><g id=slg></g></legend>
<tspan id=ts1>t</tspan><text id=tx><tspan id=ts2>t</tspan></text><feBlend id=fb></feBlend><animate id=an></animate><filter><feBlend id=fb1></feBlend><feComponentTransfer><feFuncR id=ffr></feFuncR></feComponentTransfer></filter></svg>
<option id=op>text<b id=ob>bold</b></option><embed type="image/png" id=et>
<style>div[hidden]{display:block} span[hidden]{display:inline} td[hidden]{display:table-cell}</style><div hidden=until-found id=u1><p id=u1p>x</p></div><span hidden=until-found id=u2><b id=u2b>x</b></span>
<table><tr><td hidden=until-found id=u3><b id=u3b>x</b></td></tr></table>
<dd hidden=until-found style="display:table-cell" id=u4><pre id=u4p>x</pre></dd><table hidden=until-found style="display:table" id=u5><tr><td id=u5d>x</td></tr></table>
<math id=m1><semantics id=sem><mi id=mi1>x</mi><annotation id=ann>a</annotation><mo id=mo2>+</mo></semantics></math>
</body></html>`
	tr, _ := htmlParse(t, page)
	want := map[string]string{
		"s1": "inline", "o1": "none", "g1": "none", "o2": "none", "hr1": "none", "s2": "inline", "o3": "block",
		"s3": "inline", "o5": "block", "s4": "inline", "o6": "none", "s5": "inline", "o7": "block",
		"e1": "none", "e2": "inline", "e3": "inline", "e4": "inline",
		"d1": "block", "sm": "block", "dd": "none", "sm2": "none",
		"dc1": "block", "dc2": "none", "dc3": "block", "dc4": "none", "ul1": "none", "dc5": "none",
		"dc6": "block", "dc7": "block",
		"sv": "inline", "desc": "none", "md": "none", "g2": "inline", "r1": "inline",
		"m1": "inline", "sem": "block", "mi1": "block", "ann": "none", "mo2": "none",
		"sl": "none", "slg": "none", "ts1": "none", "tx": "block", "ts2": "inline", "fb": "none", "fb1": "inline", "ffr": "none", "an": "none",
		"op": "block", "ob": "none", "et": "inline",
		"u1": "block", "u1p": "none", "u2": "inline", "u2b": "inline", "u3": "block", "u3b": "none", "u4": "block", "u4p": "none", "u5": "block", "u5d": "block",
	}
	got := map[string]string{}
	for id := range want {
		n := htmlByID(t, tr, id)
		if n.Excluded() && n.Display() != domtree.DisplayNone {
			got[id] = "none"
			continue
		}
		got[id] = htmlStyleOf(n)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestOfflineCascadeDocumentModes covers what depends on the document rather
// than on one rule: quirks mode, alternate style sheets and attribute values
// that HTML compares case-insensitively. Checked against Chromium 156.
func TestOfflineCascadeDocumentModes(t *testing.T) {
	body := `<style>.Foo{display:none} #Bar{display:none} input[type=CHECKBOX]{display:none} div[data-x=ABC]{display:none} [class=foo5],[id=q6]{display:none}</style>
<i class=foo id=q1>x</i><i id=bar>x</i><input type=checkbox id=q3><div data-x=abc id=q4>x</div><i class=Foo5 id=q5>x</i><i id=Q6>x</i>
<style title=one>.a{display:none}</style><style title=two>.b{display:none}</style><style title=one>.c{display:none}</style>
<i class=a id=a>a</i><i class=b id=b>b</i><i class=c id=c>c</i>`
	cases := []struct {
		name, doctype string
		want          map[string]string
	}{
		{"quirks: no doctype", "", map[string]string{"q1": "none", "bar": "none", "q3": "none", "q4": "block", "q5": "inline", "Q6": "inline", "a": "none", "b": "inline", "c": "none"}},
		{"quirks: legacy public id", `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">`,
			map[string]string{"q1": "none", "bar": "none", "q3": "none", "q4": "block", "q5": "inline", "Q6": "inline", "a": "none", "b": "inline", "c": "none"}},
		{"limited quirks is not quirks", `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">`,
			map[string]string{"q1": "inline", "bar": "inline", "q3": "none", "q4": "block", "q5": "inline", "Q6": "inline", "a": "none", "b": "inline", "c": "none"}},
		{"no quirks", "<!doctype html>", map[string]string{"q1": "inline", "bar": "inline", "q3": "none", "q4": "block", "q5": "inline", "Q6": "inline", "a": "none", "b": "inline", "c": "none"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, info := htmlParse(t, c.doctype+"<html><head></head><body>"+body+"</body></html>")
			got := map[string]string{}
			for id := range c.want {
				got[id] = htmlStyleOf(htmlByID(t, tr, id))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if info.StyleSheets != 3 {
				t.Errorf("StyleSheets = %d, want 3 (the alternate set is not applied)", info.StyleSheets)
			}
			// Quirks mode makes class and id selectors case-insensitive,
			// not attribute selectors on class or id (q5, Q6, as in
			// Chromium), and never changes what the tree holds.
			if v := htmlByID(t, tr, "bar").AttrValue("id"); v != "bar" {
				t.Errorf("id attribute %q", v)
			}
		})
	}
	tr, _ := htmlParse(t, `<i class="MiXed" id="UP">x</i>`)
	if n := htmlByID(t, tr, "UP"); n.AttrValue("class") != "MiXed" {
		t.Errorf("quirks mode changed the class attribute to %q", n.AttrValue("class"))
	}
}
