package snapshot

import (
	"slices"
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

// TestSecretRuleOneAnswer: for inputs of many types, the capture decoder,
// the scrub and the tree builder keep an input's value exactly when
// domtree.InputValueSecret says it is not secret.
func TestSecretRuleOneAnswer(t *testing.T) {
	types := []string{"button", "SUBMIT", "Reset", "text", "", "password", " button", "buttons", "hidden", "image"}
	doc := []scrubNode{{-1, 9, "#document", "", nil, ""}, {0, 1, "HTML", "", nil, ""}}
	for _, ty := range types {
		doc = append(doc, scrubNode{1, 1, "INPUT", "", []string{"type", ty, "value", "V-" + ty}, ""})
	}
	// An input with no type attribute at all is a text input.
	doc = append(doc, scrubNode{1, 1, "INPUT", "", []string{"value", "V-none"}, ""})
	data := scrubCapture(nil, doc)

	tree, err := DecodeCapture(data, CaptureOptions{ComputedStyles: []string{"display", "visibility"}})
	if err != nil {
		t.Fatal(err)
	}
	scrubbed := mustScrub(t, data)
	var inputs []domtree.Node
	for n := range tree.Root().Subtree() {
		if n.Is("input") {
			inputs = append(inputs, n)
		}
	}
	if len(inputs) != len(types)+1 {
		t.Fatalf("%d inputs in the tree, want %d", len(inputs), len(types)+1)
	}
	for i, n := range inputs {
		ty, _ := n.Attr("type")
		secret := domtree.InputValueSecret(ty)
		if i == len(types) && !secret {
			t.Fatal("an input without a type is not secret")
		}
		_, decoded := n.Attr("value")
		kept := slices.Contains(attrsOf(t, scrubbed, 0, i+2), "value")
		b := domtree.NewBuilder(2)
		var attrs []domtree.Attr
		if i < len(types) {
			attrs = append(attrs, domtree.Attr{Name: "type", Value: ty})
		}
		attrs = append(attrs, domtree.Attr{Name: "value", Value: "v"})
		j, err := b.AddElement(0, "input", attrs, domtree.ElementInfo{})
		if err != nil {
			t.Fatal(err)
		}
		_, built := b.Build().At(j).Attr("value")
		if decoded == secret || kept == secret || built == secret {
			t.Errorf("type %q: secret %v, yet value decoded %v, kept by the scrub %v, kept by the builder %v", ty, secret, decoded, kept, built)
		}
	}
}
