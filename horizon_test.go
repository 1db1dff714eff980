package domsnap_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot"
)

// prefixTree copies t's first h nodes into a partial tree, as a source that
// read the document only that far builds it.
//
// When t has a composed twin, the prefix gets one too: the twin's first h
// nodes, with their scopes, and the light prefix's nodes mapped into it.
func prefixTree(tb testing.TB, t *domtree.Tree, h int) *domtree.Tree {
	tb.Helper()
	b := copyPrefix(tb, t, h)
	if c := t.Composed(); c != t {
		cb := copyPrefix(tb, c, h)
		for i := 0; i < h && i < t.Len(); i++ {
			if ci := t.InComposed(t.At(i)); ci.Valid() && ci.Index() < h {
				cb.SetLightIndex(ci.Index(), i)
			}
		}
		b.SetComposed(cb.Build())
	}
	return b.Build()
}

// copyPrefix is a builder holding t's first h nodes, the horizon marked
// when that is not all of them.
func copyPrefix(tb testing.TB, t *domtree.Tree, h int) *domtree.Builder {
	tb.Helper()
	n := t.Len()
	b := domtree.NewBuilder(h)
	for i := 1; i < h && i < n; i++ {
		node := t.At(i)
		p := node.Parent().Index()
		var err error
		switch node.Kind() {
		case domtree.Element:
			_, err = b.AddElement(p, node.Name(), node.Attrs(), domtree.ElementInfo{
				Display: node.Display(), Visibility: node.Visibility(), Checked: node.Checked(),
				Flags: node.Flags(), BackendNodeID: node.BackendNodeID(),
			})
		case domtree.Text:
			_, err = b.AddText(p, node.Data(), node.BackendNodeID())
		case domtree.Comment:
			_, err = b.AddComment(p, node.Data(), node.BackendNodeID())
		case domtree.Doctype:
			_, err = b.AddDoctype(p, node.Data(), node.BackendNodeID())
		}
		if err != nil {
			tb.Fatal(err)
		}
		b.SetScope(i, node.Scope())
	}
	if h < n {
		labelsBeyond := false
		for i := h; i < n; i++ {
			if node := t.At(i); node.Is("label") && node.HasAttr("for") {
				labelsBeyond = true
			}
		}
		b.MarkHorizon(labelsBeyond)
	}
	return b
}

// TestPartialTreeAnswersLikeTheWholeOrSaysItCannot is the property the
// bounded live capture rests on: an observation or extraction computed on
// a prefix of any fixture's tree either equals the whole tree's byte for
// byte, or read past the horizon and says so.
func TestPartialTreeAnswersLikeTheWholeOrSaysItCannot(t *testing.T) {
	exact, cut := 0, 0
	for _, name := range fixturePages(t) {
		page, err := os.ReadFile(filepath.Join(fixtureDir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		in, err := snapshot.Load(page, snapshot.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		whole := in.Tree
		reqs := []*domsnap.Request{nil}
		for _, raw := range readRequests(t, name) {
			r, err := domsnap.DecodeRequest(raw)
			if err != nil {
				t.Fatal(err)
			}
			reqs = append(reqs, &r)
		}
		want := make([][]byte, len(reqs))
		for k, req := range reqs {
			want[k] = observeOrError(whole, in.Revision, req)
		}
		n := whole.Len()
		for h := 1; h <= n; h = next(h, n) {
			for k, req := range reqs {
				part := prefixTree(t, whole, h)
				got := observeOrError(part, in.Revision, req)
				if part.HorizonReached() {
					cut++
					continue
				}
				exact++
				if !bytes.Equal(got, want[k]) {
					t.Errorf("%s, horizon %d of %d, request %d: a partial tree answered differently without reading past its horizon\n got %s\nwant %s", name, h, n, k, got, want[k])
				}
			}
		}
	}
	// Both outcomes must occur, or the property says nothing.
	if exact == 0 || cut == 0 {
		t.Fatalf("exact answers %d, cut ones %d: both must occur", exact, cut)
	}
}

// next steps through horizons: every one on small trees, then growing.
func next(h, n int) int {
	if h < 200 {
		return h + 1
	}
	if h < n && h+h/8 > n {
		return n
	}
	return h + h/8
}

func observeOrError(t *domtree.Tree, rev string, req *domsnap.Request) []byte {
	o, err := domsnap.Observe(t, rev, req)
	if err != nil {
		return []byte("error " + err.Error())
	}
	return o.Canonical()
}
