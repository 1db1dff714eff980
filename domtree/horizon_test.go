package domtree

import "testing"

// partialDoc builds <html><body><ul><li>a</li><li>b</li> and cuts it there:
// the list, the body, the html element and the document stay open.
func partialDoc(t *testing.T, labelsBeyond bool) (*Tree, map[string]int) {
	t.Helper()
	b := NewBuilder(0)
	must := mustAdd(t)
	blk := ElementInfo{Display: DisplayBlock}
	ix := map[string]int{}
	ix["html"] = must(b.AddElement(0, "html", nil, blk))
	ix["body"] = must(b.AddElement(ix["html"], "body", nil, blk))
	ix["label"] = must(b.AddElement(ix["body"], "label", []Attr{{"for", "c"}}, blk))
	ix["ul"] = must(b.AddElement(ix["body"], "ul", []Attr{{"id", "list"}}, blk))
	ix["li1"] = must(b.AddElement(ix["ul"], "li", nil, blk))
	ix["a"] = must(b.AddText(ix["li1"], "a", 0))
	ix["li2"] = must(b.AddElement(ix["ul"], "li", nil, blk))
	ix["b"] = must(b.AddText(ix["li2"], "b", 0))
	b.MarkHorizon(labelsBeyond)
	if _, err := b.AddText(ix["li2"], "late", 0); err == nil {
		t.Fatal("a node added after the horizon must be refused")
	}
	return b.Build(), ix
}

func TestHorizonReadsInsideThePrefixLeaveNoMark(t *testing.T) {
	tr, ix := partialDoc(t, false)
	if !tr.Partial() || tr.Horizon() != ix["b"]+1 {
		t.Fatalf("partial %v horizon %d, want true %d", tr.Partial(), tr.Horizon(), ix["b"]+1)
	}
	li1 := tr.At(ix["li1"])
	_ = li1.FirstChild().Data()
	_ = li1.NextSibling()
	_ = li1.SubtreeSize()
	_ = li1.Parent().Parent()
	_ = tr.At(ix["li2"]).PrevSibling()
	for range li1.Subtree() {
	}
	if n, ok := tr.ElementByID("list"); !ok || n.Index() != ix["ul"] {
		t.Fatal("an id in the prefix must be found")
	}
	for range tr.LabelsFor("c") {
	}
	if tr.HorizonReached() {
		t.Fatal("reads inside the prefix set the mark")
	}
}

func TestHorizonEveryStepPastThePrefixSetsTheMark(t *testing.T) {
	steps := map[string]func(tr *Tree, ix map[string]int){
		"next sibling of the last li":  func(tr *Tree, ix map[string]int) { tr.At(ix["li2"]).NextSibling() },
		"next sibling of an open node": func(tr *Tree, ix map[string]int) { tr.At(ix["ul"]).NextSibling() },
		"last child of an open node":   func(tr *Tree, ix map[string]int) { tr.At(ix["body"]).LastChild() },
		"first child of the last node": func(tr *Tree, ix map[string]int) { tr.At(ix["b"]).Parent().NextSibling() },
		"walk off the last node": func(tr *Tree, ix map[string]int) {
			tr.At(ix["b"]).Next(tr.Root(), true)
		},
		"subtree of an open node": func(tr *Tree, ix map[string]int) {
			for range tr.At(ix["ul"]).Subtree() {
			}
		},
		"all nodes": func(tr *Tree, _ map[string]int) {
			for range tr.All() {
			}
		},
		"size of an open subtree": func(tr *Tree, ix map[string]int) { tr.At(ix["body"]).SubtreeSize() },
		"length":                  func(tr *Tree, _ map[string]int) { tr.Len() },
		"index past the horizon":  func(tr *Tree, ix map[string]int) { tr.At(ix["b"] + 1) },
		"index past the end":      func(tr *Tree, _ map[string]int) { tr.At(1 << 20) },
		"id not in the prefix":    func(tr *Tree, _ map[string]int) { tr.ElementByID("elsewhere") },
	}
	for name, step := range steps {
		tr, ix := partialDoc(t, false)
		step(tr, ix)
		if !tr.HorizonReached() {
			t.Errorf("%s: the mark is not set", name)
		}
	}
	tr, _ := partialDoc(t, true)
	for range tr.LabelsFor("c") {
	}
	if !tr.HorizonReached() {
		t.Error("labels that may lie past the horizon: the mark is not set")
	}
}

func TestWholeTreeNeverMarked(t *testing.T) {
	b := NewBuilder(0)
	must := mustAdd(t)
	h := must(b.AddElement(0, "html", nil, ElementInfo{Display: DisplayBlock}))
	must(b.AddText(h, "x", 0))
	tr := b.Build()
	for range tr.All() {
	}
	tr.ElementByID("none")
	tr.At(99)
	_ = tr.Len()
	if tr.Partial() || tr.HorizonReached() || tr.Horizon() != tr.Len() {
		t.Fatal("a whole tree is neither partial nor marked")
	}
}

func TestLazyBackendIDsResolveOnceOnRead(t *testing.T) {
	b := NewBuilder(0)
	must := mustAdd(t)
	h := must(b.AddElement(0, "html", nil, ElementInfo{Display: DisplayBlock, BackendNodeID: 7}))
	x := must(b.AddText(h, "x", 0))
	calls := map[int64]int{}
	b.ResolveBackendIDs(func(key int64) int64 { calls[key]++; return key * 100 })
	tr := b.Build()
	if !tr.HasBackendIDs() {
		t.Fatal("a tree with keys has backend ids")
	}
	if len(calls) != 0 {
		t.Fatal("a key was resolved before anything read it")
	}
	for range 3 {
		if got := tr.At(h).BackendNodeID(); got != 700 {
			t.Fatalf("id %d, want 700", got)
		}
	}
	if tr.At(x).BackendNodeID() != 0 || calls[7] != 1 || len(calls) != 1 {
		t.Fatalf("calls %v: each key once, none for a node without one", calls)
	}
}
