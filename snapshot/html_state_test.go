package snapshot

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/domtree"
)

// TestOfflineStatePseudoClasses checks the element states computed from the
// markup for selectors; each case is also a row of the fixture page
// css-state-pseudo-classes, whose capture shows Chromium 156 agreeing. An
// element whose id ends in "h" must be hidden by the rule for its class,
// every other one shown.
func TestOfflineStatePseudoClasses(t *testing.T) {
	css := `.rw:read-write, .ro:read-only, .ph:placeholder-shown, .ind:indeterminate,
.l:dir(ltr), .r:dir(rtl), .s1:has(option.a:checked), .s4:has(option:checked) { display: none }`
	body := `<input class=rw id=rw1h><input class=rw readonly id=rw2><input class=rw disabled id=rw3>
<fieldset disabled><input class=rw id=rw4><legend><input class=rw id=rw5h></legend></fieldset>
<fieldset disabled><legend>l</legend><legend><input class=rw id=rw6></legend></fieldset>
<input type=date class=rw id=rw7h><input type=range class=rw id=rw8><input type=bogus class=rw id=rw9h>
<textarea class=rw id=rw10h></textarea><textarea class=rw readonly id=rw11></textarea>
<span contenteditable class=rw id=rw12h></span><span contenteditable><var class=rw id=rw13h></var>
<var contenteditable=false class=rw id=rw14></var><var contenteditable=false><kbd class=rw id=rw15></kbd></var>
<var contenteditable=bogus class=rw id=rw16h></var></span>
<span contenteditable=plaintext-only class=rw id=rw17h></span><input type=checkbox class=ro id=ro1h><p class=ro id=ro2h>p</p>
<input class=ph placeholder=p id=ph1h><input class=ph placeholder=p value=v id=ph2><input class=ph id=ph3>
<input class=ph placeholder="" id=ph4h><textarea class=ph placeholder=p id=ph5h></textarea>
<textarea class=ph placeholder=p>t</textarea><input type=number class=ph placeholder=p value=abc id=ph7h>
<input type=number class=ph placeholder=p value=1.5e3 id=ph8><input type=email class=ph placeholder=p value="  " id=ph9h>
<input type=checkbox class=ph placeholder=p id=ph10><input class=ph placeholder=p value="&#10;" id=ph11h>
<select class=s1 id=s1h><option class=a>1</option><option>2</option></select>
<select class=s1 id=s2h><option disabled>1</option><option class=a>2</option></select>
<select class=s1 id=s3h><optgroup disabled><option>1</option></optgroup><option class=a>2</option></select>
<select class=s1 id=s4><option class=a selected>1</option><option selected>2</option></select>
<select class=s4 size=3 id=s5><option>1</option></select><select class=s1 multiple id=s6h><option class=a selected>1</option><option selected>2</option></select>
<select class=s4 multiple id=s7><option>1</option></select><select class=s4 size=3 id=s8h><option selected>1</option></select>
<input type=radio name=g1 class=ind id=i1h><input type=radio name=g2 class=ind id=i2><input type=radio name=g2 checked>
<input type=radio class=ind id=i3h><input type=radio class=ind checked id=i4><progress class=ind id=i5h></progress>
<progress class=ind value=1 id=i6></progress><input type=checkbox class=ind id=i7>
<span class=l id=d1h>x</span><div dir=rtl><span class=r id=d2h>x</span><span class=r dir=ltr id=d3>x</span>
<span class=l dir=auto id=d4h>abc</span><span class=l dir=auto id=d5h>123</span><input type=tel class=l id=d6h>
<input class=r dir=auto value="&#1513;" id=d7h><textarea class=r dir=auto id=d8h>&#1513;</textarea>
<span class=l dir=AUTO id=d9h><i dir=rtl>&#1513;</i><script>&#1513;</script>a</span></div>
<span class=r dir=auto id=d10h>&#1513;&#1500;</span><bdi class=r id=d11h>&#1605;</bdi><bdi class=l id=d12h>x</bdi>
<span class=l dir=auto id=d15h><template>&#1513;</template>a</span><div class=l dir=auto id=d16h><template shadowrootmode=open>&#1513;</template>a</div>
<svg class=r dir=rtl id=d13><g class=l id=d14h></g></svg>`
	tr, _ := htmlParse(t, "<!doctype html><html><head><style>"+css+"</style></head><body>"+body+"</body></html>")
	want, got := map[string]string{}, map[string]string{}
	for n := tr.Root(); n.Valid(); n = n.Next(tr.Root(), true) {
		id := n.AttrValue("id")
		if !n.IsElement() || id == "" {
			continue
		}
		want[id] = "shown"
		if strings.HasSuffix(id, "h") {
			want[id] = "hidden"
		}
		got[id] = "shown"
		if n.Display() == domtree.DisplayNone {
			got[id] = "hidden"
		}
		if n.Name() == "input" && n.AttrValue("value") != "" {
			t.Errorf("%s: the tree holds an input value", id)
		}
		for _, a := range n.Attrs() {
			if strings.Contains(a.Name, " ") {
				t.Errorf("%s: attribute %q, which the page did not write, is in the tree", id, a.Name)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExclusiveDetails: of open details sharing a name, the first in tree
// order keeps its open attribute and the others lose it, as the parser's
// insertions do in Chromium.
func TestExclusiveDetails(t *testing.T) {
	tr, _ := htmlParse(t, `<!doctype html><body>
<details name=g open id=a><summary>s</summary><p id=ap>x</p></details>
<details name=g id=b><summary>s</summary></details>
<details name=g open id=c><summary>s</summary><p id=cp>x</p></details>
<details name=G open id=d><summary>s</summary><p id=dp>x</p></details>
<details open id=e><summary>s</summary></details><details open id=f><summary>s</summary></details>
<details name="" open id=h></details><details name="" open id=i></details>
<div><details name=g open id=j><p id=jp>x</p></details></div>`)
	got := map[string]string{}
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "h", "i", "j"} {
		n := htmlByID(t, tr, id)
		got[id] = "closed"
		if _, ok := n.Attr("open"); ok {
			got[id] = "open"
		}
	}
	for _, id := range []string{"ap", "cp", "dp", "jp"} {
		got[id] = htmlStyleOf(htmlByID(t, tr, id))
	}
	want := map[string]string{"a": "open", "b": "closed", "c": "closed", "d": "open", "e": "open", "f": "open",
		"h": "open", "i": "open", "j": "closed", "ap": "block", "cp": "none", "dp": "block", "jp": "none"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestFallbackContentNotRendered: the children of canvas, video, audio,
// meter and progress get no box, as in Chromium; the elements themselves
// keep theirs.
func TestFallbackContentNotRendered(t *testing.T) {
	tr, _ := htmlParse(t, `<!doctype html><body>
<canvas id=c><p id=cp>x</p></canvas><video id=v><p id=vp>x</p></video><audio controls id=a><p id=ap>x</p></audio>
<meter id=m><p id=mp>x</p></meter><progress id=p><p id=pp>x</p></progress><object id=o><p id=op>x</p></object>
<div id=d><p id=dp>x</p></div>`)
	want := map[string]string{"c": "inline", "cp": "none", "v": "inline", "vp": "none", "a": "inline", "ap": "none",
		"m": "inline", "mp": "none", "p": "inline", "pp": "none", "o": "inline", "op": "block", "d": "block", "dp": "block"}
	got := map[string]string{}
	for id := range want {
		n := htmlByID(t, tr, id)
		got[id] = htmlStyleOf(n)
		if n.Excluded() {
			got[id] = "none"
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestHostileStates: the state computations stay linear on pages built to
// make them quadratic: nested dir=auto elements (each skips the others'
// subtrees), one huge select, many controls deep inside a disabled
// fieldset, and many open details of one group.
func TestHostileStates(t *testing.T) {
	cases := map[string]string{
		"nested dir=auto":      strings.Repeat("<span dir=auto>", 500) + strings.Repeat("1", 1<<20),
		"auto after digits":    strings.Repeat("<div dir=auto>"+strings.Repeat("<b>1</b>", 200), 400),
		"huge select":          "<select>" + strings.Repeat("<option disabled>x", 1<<16) + "</select>",
		"deep controls":        "<fieldset disabled>" + strings.Repeat("<div>", 400) + strings.Repeat("<input>", 1<<14),
		"one accordion":        strings.Repeat("<details name=g open></details>", 1<<14),
		"deep contenteditable": strings.Repeat("<div contenteditable>", 500) + strings.Repeat("<i>x</i>", 1<<14),
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			if _, _, err := ParseHTML([]byte("<!doctype html><body>"+body), HTMLOptions{}); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
