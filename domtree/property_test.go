package domtree

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// genTree builds a random tree through the Builder, choosing each new node's
// parent from the open path, which is every legal pre-order position.
func genTree(t *rapid.T) *Tree {
	b := NewBuilder(0)
	open := []int{0}
	names := []string{"div", "span", "label", "details", "summary", "script", "p", "input"}
	n := rapid.IntRange(0, 200).Draw(t, "n")
	for k := 0; k < n; k++ {
		depth := rapid.IntRange(0, len(open)-1).Draw(t, "depth")
		open = open[:depth+1]
		parent := open[depth]
		var i int
		var err error
		if rapid.IntRange(0, 3).Draw(t, "kind") == 0 {
			i, err = b.AddText(parent, "t", 0)
			if err != nil {
				t.Fatal(err)
			}
			continue // text has no children: not pushed
		}
		var attrs []Attr
		if rapid.Bool().Draw(t, "id") {
			attrs = append(attrs, Attr{"id", fmt.Sprint(rapid.IntRange(0, 5).Draw(t, "idv"))})
		}
		if rapid.Bool().Draw(t, "for") {
			attrs = append(attrs, Attr{"for", fmt.Sprint(rapid.IntRange(0, 5).Draw(t, "forv"))})
		}
		if rapid.IntRange(0, 9).Draw(t, "ah") == 0 {
			attrs = append(attrs, Attr{"aria-hidden", "true"})
		}
		info := ElementInfo{
			Display:    Display(rapid.IntRange(0, 2).Draw(t, "display")),
			Visibility: Visibility(rapid.IntRange(0, 1).Draw(t, "vis")),
		}
		i, err = b.AddElement(parent, rapid.SampledFrom(names).Draw(t, "name"), attrs, info)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, i)
	}
	return b.Build()
}

func TestTreeInvariantsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := genTree(t)
		seen := make([]int, tr.Len())
		// Walk by links with an explicit stack; every node exactly once, in index order.
		stack := []Node{tr.Root()}
		order := 0
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n.Index() != order {
				t.Fatalf("link walk reached %d at position %d", n.Index(), order)
			}
			order++
			seen[n.Index()]++
			if p := n.Parent(); p.Valid() && !p.Before(n) {
				t.Fatalf("parent %d does not precede child %d", p.Index(), n.Index())
			}
			for c := n.LastChild(); c.Valid(); c = c.PrevSibling() {
				stack = append(stack, c)
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("node %d reached %d times", i, c)
			}
		}
		// Next with enter=true is the same walk; with enter=false it skips subtrees.
		count := 0
		for n := tr.Root(); n.Valid(); n = n.Next(tr.Root(), true) {
			count++
			if count > tr.Len() {
				t.Fatal("Next walk does not terminate")
			}
		}
		if count != tr.Len() {
			t.Fatalf("Next walk visited %d of %d", count, tr.Len())
		}
		// Contains agrees with the ancestor chain.
		for n := range tr.All() {
			for m := range tr.All() {
				anc := false
				for a := m; a.Valid(); a = a.Parent() {
					if a == n {
						anc = true
					}
				}
				if n.Contains(m) != anc {
					t.Fatalf("Contains(%d,%d)=%v, ancestors say %v", n.Index(), m.Index(), n.Contains(m), anc)
				}
			}
		}
		// Indexes agree with brute force.
		for v := 0; v < 6; v++ {
			id := fmt.Sprint(v)
			var first Node
			var labels []int
			for n := range tr.All() {
				if !n.IsElement() {
					continue
				}
				if x, ok := n.Attr("id"); ok && x == id && !first.Valid() {
					first = n
				}
				if x, ok := n.Attr("for"); ok && x == id && n.Is("label") {
					labels = append(labels, n.Index())
				}
			}
			got, ok := tr.ElementByID(id)
			if ok != first.Valid() || got != first {
				t.Fatalf("ElementByID(%s)=%d, brute force %d", id, got.Index(), first.Index())
			}
			var gotLabels []int
			for l := range tr.LabelsFor(id) {
				gotLabels = append(gotLabels, l.Index())
			}
			if fmt.Sprint(gotLabels) != fmt.Sprint(labels) {
				t.Fatalf("LabelsFor(%s)=%v, brute force %v", id, gotLabels, labels)
			}
		}
		// Exclusion is inherited: an excluded node's whole subtree is excluded.
		for n := range tr.All() {
			if n.Excluded() {
				for d := range n.Subtree() {
					if !d.Excluded() {
						t.Fatalf("node %d under excluded %d is not excluded", d.Index(), n.Index())
					}
				}
			}
		}
	})
}

func TestZeroNodeIsInert(t *testing.T) {
	var n Node
	if n.Valid() || n.Parent().Valid() || n.FirstChild().Valid() || n.Next(n, true).Valid() ||
		n.Name() != "" || n.HasAttr("x") || n.Visible() || !n.Excluded() || n.Index() != -1 {
		t.Fatal("zero Node is not inert")
	}
	for range n.Children() {
		t.Fatal("zero Node has children")
	}
}
