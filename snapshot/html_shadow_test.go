package snapshot

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/htmlsource"
)

// flatOutline is the composed tree as element names and texts in tree
// order, each with its depth and, for shadow-tree nodes, a star.
func flatOutline(t *domtree.Tree) []string {
	var out []string
	for n := range t.All() {
		if n.Index() == 0 {
			continue
		}
		d := 0
		for range n.Ancestors() {
			d++
		}
		mark := ""
		if n.InShadow() {
			mark = "*"
		}
		switch n.Kind() {
		case domtree.Element:
			out = append(out, strings.Repeat(" ", d)+mark+n.Name())
		case domtree.Text:
			if strings.TrimSpace(n.Data()) != "" {
				out = append(out, strings.Repeat(" ", d)+mark+strings.TrimSpace(n.Data()))
			}
		}
	}
	return out
}

func TestDeclarativeShadowRootsComposeTheFlatTree(t *testing.T) {
	page := `<!DOCTYPE html><body><x-a><template shadowrootmode="open"><p><slot name="s">fallback s</slot></p><slot>fallback d</slot><x-b><template shadowrootmode="closed"><i>deep</i><slot></slot></template><u>light of b</u></x-b><slot name="none">fallback kept</slot></template><span slot="s">named</span><b slot="nowhere">unassigned</b></x-a></body>`
	light, _, err := ParseHTML([]byte(page), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := light.Composed()
	if c == light || !c.HasShadow() {
		t.Fatal("no composed twin for a page with declarative shadow roots")
	}
	// The default slot takes nothing: every light child of x-a is an
	// element with a slot attribute, so its fallback stays; the unassigned
	// <b> is not rendered; x-b's own light child <u> goes to x-b's slot,
	// and is a node of x-a's shadow tree.
	want := []string{
		" html", "  head", "  body", "   x-a",
		"    *p", "     *slot", "      span", "       named",
		"    *slot", "     *fallback d",
		"    *x-b", "     *i", "      *deep", "     *slot", "      *u", "       *light of b",
		"    *slot", "     *fallback kept",
	}
	if diff := cmp.Diff(want, flatOutline(c)); diff != "" {
		t.Errorf("composed tree (-want +got):\n%s", diff)
	}
	// The light tree is unchanged: the host's light children, no shadow.
	wantLight := []string{" html", "  head", "  body", "   x-a", "    span", "     named", "    b", "     unassigned"}
	if diff := cmp.Diff(wantLight, flatOutline(light)); diff != "" {
		t.Errorf("light tree (-want +got):\n%s", diff)
	}
	// Every light node the composed tree keeps maps to its twin, and the
	// unassigned one to nothing.
	for n := range light.All() {
		cn := light.InComposed(n)
		switch {
		case n.Is("b"):
			if cn.Valid() {
				t.Error("the unassigned <b> has a composed twin")
			}
		case n.Kind() == domtree.Element:
			if !cn.Valid() || cn.Name() != n.Name() || cn.InShadow() {
				t.Errorf("light %s maps to %v", n.Name(), cn)
			}
		}
	}
}

func TestShadowScopesResolveIDsInTheirOwnTree(t *testing.T) {
	page := `<!DOCTYPE html><body><label for="f">Outer</label><input id="o" aria-labelledby="t">
<x-a><template shadowrootmode="open"><span id="t">Inner title</span><label for="f">Inner</label><input id="f"></template></x-a>
<x-b><template shadowrootmode="closed"><input id="f"></template></x-b><span id="t">Outer title</span></body>`
	light, _, err := ParseHTML([]byte(page), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := light.Composed()
	var inputs []domtree.Node
	for n := range c.All() {
		if n.Is("input") {
			inputs = append(inputs, n)
		}
	}
	if len(inputs) != 3 || inputs[0].InShadow() || !inputs[1].InShadow() || !inputs[2].InShadow() || inputs[1].Scope() == inputs[2].Scope() {
		t.Fatalf("inputs %v: want the document's, then two in scopes of their own", inputs)
	}
	if el, ok := inputs[0].ElementByID("t"); !ok || el.FirstChild().Data() != "Outer title" {
		t.Errorf("the document's t is %q", el.FirstChild().Data())
	}
	for k, in := range inputs[1:] {
		if el, ok := in.ElementByID("f"); !ok || el != in {
			t.Errorf("shadow input %d: its own f is %v", k, el)
		}
	}
	var labels []string
	for l := range inputs[1].LabelsFor("f") {
		labels = append(labels, l.FirstChild().Data())
	}
	if diff := cmp.Diff([]string{"Inner"}, labels); diff != "" {
		t.Errorf("labels of the open root's f (-want +got):\n%s", diff)
	}
	if n := 0; true {
		for range inputs[2].LabelsFor("f") {
			n++
		}
		if n != 0 {
			t.Errorf("the closed root's f has %d labels, want none", n)
		}
	}
	if _, ok := light.ElementByID("f"); ok {
		t.Error("the light tree finds an id inside a shadow root")
	}
}

// TestManySlottedNodesOffline: 100,000 light nodes slotted into one slot
// parse within the tree's bounds, each once, under the slot.
func TestManySlottedNodesOffline(t *testing.T) {
	const n = 100_000
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><body><x-list><template shadowrootmode="open"><ul><slot></slot></ul></template>`)
	for range n {
		b.WriteString(`<li>i</li>`)
	}
	b.WriteString(`</x-list></body>`)
	light, _, err := ParseHTML([]byte(b.String()), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := light.Composed()
	var slot domtree.Node
	for m := range c.All() {
		if m.Is("slot") {
			slot = m
			break
		}
	}
	got := 0
	for ch := range slot.ChildElements() {
		if ch.Is("li") && !ch.InShadow() {
			got++
		}
	}
	if got != n {
		t.Errorf("%d slotted items under the slot, want %d", got, n)
	}
}

// TestShadowContentCountsAgainstTheNodeBound: a shadow root's nodes are
// not in the light tree, but the composed tree holds them, and the page is
// refused when they take it past the bound, just under, at and over it.
func TestShadowContentCountsAgainstTheNodeBound(t *testing.T) {
	page := []byte(`<!DOCTYPE html><body><x-a><template shadowrootmode="open">` + strings.Repeat(`<i>x</i>`, 50) + `</template></x-a></body>`)
	light, _, _, err := htmlsource.Parse(page, "", limits.MaxTreeNodes)
	if err != nil {
		t.Fatal(err)
	}
	need := light.Composed().Len()
	if need <= light.Len() {
		t.Fatalf("composed %d nodes, light %d", need, light.Len())
	}
	for _, bound := range []int{need - 1, need, need + 1} {
		_, _, _, err := htmlsource.Parse(page, "", bound)
		if over := bound < need; over != isTooLarge(err) {
			t.Errorf("bound %d for %d composed nodes: %v", bound, need, err)
		}
	}
}
