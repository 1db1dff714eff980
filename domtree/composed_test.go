package domtree

import "testing"

// twinPair builds a light tree (document, body, input id=f) and its
// composed twin (document, body, host, a shadow label for=f and input
// id=f in scope 1), the twin cut after h nodes when h > 0.
func twinPair(t *testing.T, h int) (*Tree, *Tree) {
	t.Helper()
	lb := NewBuilder(0)
	body, _ := lb.AddElement(0, "body", nil, ElementInfo{Display: DisplayBlock})
	lin, _ := lb.AddElement(body, "input", []Attr{{"id", "f"}}, ElementInfo{})
	cb := NewBuilder(0)
	cbody, _ := cb.AddElement(0, "body", nil, ElementInfo{Display: DisplayBlock})
	host, _ := cb.AddElement(cbody, "x-a", nil, ElementInfo{Display: DisplayBlock})
	lab, _ := cb.AddElement(host, "label", []Attr{{"for", "f"}}, ElementInfo{})
	sin, _ := cb.AddElement(host, "input", []Attr{{"id", "f"}}, ElementInfo{})
	cin, _ := cb.AddElement(cbody, "input", []Attr{{"id", "f"}}, ElementInfo{})
	cb.SetScope(lab, 1)
	cb.SetScope(sin, 1)
	cb.SetLightIndex(0, 0)
	cb.SetLightIndex(cbody, body)
	cb.SetLightIndex(cin, lin)
	if h > 0 {
		if cb.Len() > h {
			t.Fatal("the twin is longer than the cut")
		}
		cb.MarkHorizon(true)
	}
	c := cb.Build()
	lb.SetComposed(c)
	return lb.Build(), c
}

func TestComposedTwinScopesAndMapping(t *testing.T) {
	light, c := twinPair(t, 0)
	if light.Composed() != c || c.Composed() != c {
		t.Fatal("the twin is not found both ways")
	}
	sin := c.At(4)
	if el, ok := sin.ElementByID("f"); !ok || el != sin {
		t.Errorf("the shadow input's f is %v", el)
	}
	if el, ok := c.ElementByID("f"); !ok || el.Index() != 5 {
		t.Errorf("the document scope's f is %v, want the light input", el)
	}
	n := 0
	for l := range sin.LabelsFor("f") {
		n++
		if !l.InShadow() {
			t.Error("a label of another scope")
		}
	}
	for range c.At(5).LabelsFor("f") {
		t.Error("the document's input has the shadow label")
	}
	if n != 1 {
		t.Errorf("%d labels in the shadow scope", n)
	}
	if got := light.InComposed(light.At(2)); got.Index() != 5 {
		t.Errorf("the light input maps to %d", got.Index())
	}
	if light.InComposed(c.At(2)).Valid() {
		t.Error("a node of another tree maps")
	}
}

func TestPartialTwinMarksTheLightTree(t *testing.T) {
	light, c := twinPair(t, 6)
	if light.HorizonReached() {
		t.Fatal("marked before reading")
	}
	// A missing id in a shadow scope of a partial tree may lie beyond.
	c.At(4).ElementByID("nothing")
	if !light.HorizonReached() {
		t.Error("looking past the twin's horizon did not mark the light tree")
	}
}
