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
	b.ResolveBackendIDs(func(key int64) int64 { calls[key]++; return key * 100 }, nil)
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

// TestNodeByBackendID: a node is found by its id in a tree that holds ids,
// by asking the source in one whose ids are keys (and the id found is kept,
// so reading it later asks nothing); a node the tree cannot hold marks a
// partial tree, as an id lookup does, and leaves a whole tree alone.
func TestNodeByBackendID(t *testing.T) {
	build := func(partial bool, lazy bool, find func(int64) (int64, bool)) (*Tree, map[int64]int) {
		b := NewBuilder(0)
		must := mustAdd(t)
		h := must(b.AddElement(0, "html", nil, ElementInfo{Display: DisplayBlock, BackendNodeID: 3}))
		must(b.AddElement(h, "p", nil, ElementInfo{Display: DisplayBlock, BackendNodeID: 5}))
		calls := map[int64]int{}
		if lazy {
			b.ResolveBackendIDs(func(key int64) int64 { calls[key]++; return key * 100 }, find)
		}
		if partial {
			b.MarkHorizon(false)
		}
		return b.Build(), calls
	}
	for _, partial := range []bool{false, true} {
		tr, _ := build(partial, false, nil)
		if n, ok := tr.NodeByBackendID(5); !ok || n.Index() != 2 || tr.HorizonReached() {
			t.Fatalf("partial %v: id 5 gave %v %v, reached %v", partial, n.Index(), ok, tr.HorizonReached())
		}
		if _, ok := tr.NodeByBackendID(9); ok || tr.HorizonReached() != partial {
			t.Fatalf("partial %v: id 9 found %v, reached %v", partial, ok, tr.HorizonReached())
		}
	}
	// Keys are 3 and 5; the source knows id 500 as key 5, id 900 as past
	// the horizon, and nothing else.
	find := func(id int64) (int64, bool) {
		switch id {
		case 500:
			return 5, false
		case 900:
			return 0, true
		}
		return 0, false
	}
	for _, partial := range []bool{false, true} {
		tr, calls := build(partial, true, find)
		n, ok := tr.NodeByBackendID(500)
		if !ok || n.Index() != 2 || n.BackendNodeID() != 500 || len(calls) != 0 || tr.HorizonReached() {
			t.Fatalf("partial %v: id 500 gave %v %v, calls %v", partial, n.Index(), ok, calls)
		}
		if _, ok := tr.NodeByBackendID(404); ok || tr.HorizonReached() {
			t.Fatalf("partial %v: an id the document does not hold: found %v, reached %v", partial, ok, tr.HorizonReached())
		}
		if _, ok := tr.NodeByBackendID(900); ok || tr.HorizonReached() != partial {
			t.Fatalf("partial %v: an id past the horizon: found %v, reached %v", partial, ok, tr.HorizonReached())
		}
		if tr.At(1).BackendNodeID() != 300 || calls[3] != 1 {
			t.Fatalf("partial %v: calls %v", partial, calls)
		}
	}
	tr, _ := build(true, true, nil)
	if _, ok := tr.NodeByBackendID(500); ok || !tr.HorizonReached() {
		t.Fatal("a partial tree whose source cannot find ids must look further")
	}
	if _, ok := (*Tree)(nil).NodeByBackendID(1); ok {
		t.Fatal("a nil tree holds nothing")
	}
}
