package capture

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

// composedDoc is a capture in Chromium's flat order: a host x-a whose open
// shadow root holds a label for=f, a slot with a slotted light span, and
// an input id=f with a user-agent shadow tree (where a typed value would
// be); a light label for=f follows the host.
const composedDoc = `{"documents":[{"nodes":{
"parentIndex":[-1,0,1,2,3,4,3,6,7,3,9,10,2,12],
"nodeType":[9,1,1,1,1,3,1,1,3,1,1,3,1,3],
"nodeName":[0,1,2,3,4,5,6,7,5,8,9,5,4,5],
"nodeValue":[-1,-1,-1,-1,-1,10,-1,-1,11,-1,-1,12,-1,13],
"attributes":[[],[],[],[16,17],[14,15],[],[],[],[],[16,15],[],[],[14,15],[]],
"shadowRootType":{"index":[4,5,6,9,10,11],"value":[18,18,18,18,19,19]}},
"layout":{"nodeIndex":[1,2,3,4,7,9,10,12],"styles":[[20,21],[20,21],[20,21],[22,21],[22,21],[22,21],[20,21],[22,21]]}}],
"strings":["#document","HTML","BODY","X-A","LABEL","#text","SLOT","SPAN","INPUT","DIV","Name","light","SECRET","Outer","for","f","id","h","open","user-agent","block","visible","inline"]}`

func TestComposedTreeOfAWholeCapture(t *testing.T) {
	light, err := Decode([]byte(composedDoc), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := light.Composed()
	if c == light || !c.HasShadow() {
		t.Fatal("a capture with an open shadow root has a composed twin")
	}
	var lightText, flatText []string
	for n := range light.All() {
		if n.Kind() == domtree.Text {
			lightText = append(lightText, n.Data())
		}
	}
	var input, shadowLabel domtree.Node
	for n := range c.All() {
		switch {
		case n.Kind() == domtree.Text:
			flatText = append(flatText, n.Data())
		case n.Is("input"):
			input = n
		case n.Is("label") && n.InShadow():
			shadowLabel = n
		}
	}
	if got := strings.Join(lightText, "|"); got != "Outer" {
		t.Errorf("light tree text %q, want only the light label's", got)
	}
	if got := strings.Join(flatText, "|"); got != "Name|light|Outer" {
		t.Errorf("composed text %q, want the shadow label, the slotted span, the light label, and no user-agent text", got)
	}
	if !input.Valid() || !input.InShadow() {
		t.Fatal("the input inside the shadow root is in the composed tree")
	}
	if el, ok := input.ElementByID("f"); !ok || el != input {
		t.Errorf("the shadow input's id resolves to %v in its own scope", el)
	}
	var labels []domtree.Node
	for l := range input.LabelsFor("f") {
		labels = append(labels, l)
	}
	if len(labels) != 1 || labels[0] != shadowLabel {
		t.Errorf("labels for f in the shadow scope: %v, want the shadow label alone", labels)
	}
	outer := light.At(light.Len() - 2)
	if !outer.Is("label") {
		t.Fatalf("node %d is %q", outer.Index(), outer.Name())
	}
	if _, ok := outer.ElementByID("f"); ok {
		t.Error("the light label's for=f found the input inside the shadow root")
	}
	co := light.InComposed(outer)
	if !co.Is("label") || co.InShadow() || co.Index() != c.Len()-2 {
		t.Errorf("the light label in the composed tree: %v", co)
	}
	span := c.At(7)
	if !span.Is("span") || span.InShadow() || span.Parent().Name() != "slot" {
		t.Errorf("the slotted span sits under its slot in the main scope: %q under %q", span.Name(), span.Parent().Name())
	}
}

func TestNoComposedTwinWithoutShadowContent(t *testing.T) {
	agentOnly := strings.Replace(composedDoc, `"value":[18,18,18,18,19,19]`, `"value":[19,19,19,19,19,19]`, 1)
	for name, doc := range map[string]string{"user-agent roots only": agentOnly, "no roots": strings.Replace(composedDoc, `"shadowRootType"`, `"other"`, 1)} {
		light, err := Decode([]byte(doc), nil, 0)
		if err != nil {
			t.Fatal(name, err)
		}
		if light.Composed() != light {
			t.Errorf("%s: a composed twin was built", name)
		}
	}
}
