package live

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
)

// boundedTab is a Driver that takes bounded captures of a generated page:
// links, filler paragraphs, then a table (so how far the scans read is set
// by where the table is), then more filler. With endless set the document
// never ends: every capture is cut. It counts the backend ids asked of it.
type boundedTab struct {
	fakeTab
	links, before, after int
	endless              bool
	// whole makes every bounded capture answer errWholePage, as the
	// walker does on a page with content-visibility content.
	whole    bool
	horizons []int
	closed   int
	resolved int
	// identified counts the calls to number the capture's elements.
	identified int
}

// captureBounded writes the page's first horizon nodes as the walker
// does.
func (b *boundedTab) captureBounded(ctx context.Context, horizon int, again bool) (*BoundedCapture, error) {
	b.horizons = append(b.horizons, horizon)
	if b.whole {
		return nil, errWholePage
	}
	nodes := []capNode{{parent: -1, typ: 9, name: "#document"}, {parent: 0, typ: 1, name: "HTML", display: "block"}, {parent: 1, typ: 1, name: "BODY", display: "block"}}
	text := func(parent int, s string) {
		nodes = append(nodes, capNode{parent: parent, typ: 3, name: "#text", value: s})
	}
	filler := func(n int) {
		for i := 0; i < n; i++ {
			nodes = append(nodes, capNode{parent: 2, typ: 1, name: "P", display: "block"})
			text(len(nodes)-1, "filler "+strconv.Itoa(i))
		}
	}
	for i := 0; i < b.links; i++ {
		nodes = append(nodes, capNode{parent: 2, typ: 1, name: "A", attrs: []string{"href", "#" + strconv.Itoa(i)}, display: "inline"})
		text(len(nodes)-1, "link "+strconv.Itoa(i))
	}
	filler(b.before)
	table := len(nodes)
	nodes = append(nodes, capNode{parent: 2, typ: 1, name: "TABLE", display: "table"})
	for r := 0; r < 3; r++ {
		tr := len(nodes)
		nodes = append(nodes, capNode{parent: table, typ: 1, name: "TR", display: "table-row"})
		for c := 0; c < 2; c++ {
			td := len(nodes)
			nodes = append(nodes, capNode{parent: tr, typ: 1, name: "TD", display: "table-cell"})
			text(td, "r"+strconv.Itoa(r)+"c"+strconv.Itoa(c))
		}
	}
	filler(b.after)
	cut := b.endless || len(nodes) > horizon
	if len(nodes) > horizon {
		nodes = nodes[:horizon]
	}
	raw, err := captureTables(nodes, false, map[string]any{"horizon": map[string]bool{"cut": cut, "labelsBeyond": false}})
	if err != nil {
		return nil, err
	}
	resolve := func(i int) int64 { b.resolved++; return int64(i) + 100 }
	// The page is the same in every capture, so a node's index tells it
	// apart.
	identify := func(_ context.Context, idx []int) (int64, []int64, error) {
		b.identified++
		ids := make([]int64, len(idx))
		for k, i := range idx {
			ids[k] = int64(i) + 1000
		}
		return 7, ids, nil
	}
	return &BoundedCapture{Raw: raw, Resolve: resolve, Identify: identify, Close: func() error { b.closed++; return nil }}, nil
}

var boundedReq = domsnap.Request{Kind: aria.Table, Index: 0, RowLimit: 5,
	Fields: []domsnap.Field{{Name: "a", Column: 0, Type: typed.String}}}

func TestBoundedObservationRetakesWithDoubledHorizons(t *testing.T) {
	// The table starts at node 3+2*500 = 1003: a first horizon of 8 is
	// doubled until the scans find the whole table and read no further
	// than the horizon.
	tab := &boundedTab{before: 500, after: 5000}
	s, err := NewSession(tab, SessionOptions{FirstBudget: 8})
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := s.Extract(context.Background(), ReadOptions{Query: boundedReq, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Collection.Found || len(res.Rows) != 3 {
		t.Fatalf("the table was not read: %s", res.Canonical())
	}
	want := []int{8, 16, 32, 64, 128, 256, 512, 1024}
	if !equalInts(tab.horizons, want) {
		t.Fatalf("horizons %v, want %v", tab.horizons, want)
	}
	if s.Captures() != uint64(len(want)) || tab.captures != 0 || tab.closed != len(want) {
		t.Fatalf("captures %d, whole snapshots %d, closed %d", s.Captures(), tab.captures, tab.closed)
	}
	// The answer is the one the whole page gives.
	whole := &boundedTab{before: 500, after: 5000}
	ws, _ := NewSession(whole, SessionOptions{FirstBudget: limits.MaxTreeNodes})
	wres, _, err := ws.Extract(context.Background(), ReadOptions{Query: boundedReq, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Replace(string(wres.Canonical()), wres.Revision, "", -1) != strings.Replace(string(res.Canonical()), res.Revision, "", -1) {
		t.Fatalf("bounded %s\nwhole %s", res.Canonical(), wres.Canonical())
	}
}

func TestBoundedObservationOfAnEndlessPageIsTooLarge(t *testing.T) {
	// A page whose table the scans never find and whose end never comes:
	// the horizon doubles up to the tree bound, and then the page is too
	// large, as the whole snapshot would say.
	tab := &boundedTab{before: 1, after: 0, endless: true}
	s, _ := NewSession(tab, SessionOptions{})
	_, _, err := s.Observe(context.Background(), ReadOptions{Once: true})
	if errcode.CodeOf(err) != errcode.UnsupportedInput || !strings.Contains(err.Error(), "too_large") {
		t.Fatalf("got %v, want unsupported_input (too_large)", err)
	}
	last := tab.horizons[len(tab.horizons)-1]
	if tab.horizons[0] != DefaultBudget || last != limits.MaxTreeNodes || tab.closed != len(tab.horizons) {
		t.Fatalf("horizons %v, closed %d", tab.horizons, tab.closed)
	}
}

func TestExtractionStartsAtTheExtractBudget(t *testing.T) {
	tab := &boundedTab{before: 10, after: 50000}
	s, _ := NewSession(tab, SessionOptions{})
	if _, _, err := s.Extract(context.Background(), ReadOptions{Query: boundedReq, Once: true}); err != nil {
		t.Fatal(err)
	}
	if !equalInts(tab.horizons, []int{ExtractBudget}) {
		t.Fatalf("horizons %v, want one capture at %d", tab.horizons, ExtractBudget)
	}
	tab.horizons = nil
	s, _ = NewSession(tab, SessionOptions{})
	if _, _, err := s.Observe(context.Background(), ReadOptions{Once: true}); err != nil {
		t.Fatal(err)
	}
	if !equalInts(tab.horizons, []int{DefaultBudget}) {
		t.Fatalf("horizons %v, want one capture at %d", tab.horizons, DefaultBudget)
	}
}

func TestSavedCaptureStaysWhole(t *testing.T) {
	tab := &boundedTab{before: 1, after: 1}
	tab.capture = json.RawMessage(`{"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[9],"nodeName":[0]},"layout":{"nodeIndex":[],"styles":[]}}],"strings":["#document"]}`)
	s, _ := NewSession(tab, SessionOptions{})
	snap, err := s.Capture(context.Background(), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.horizons) != 0 || tab.captures != 1 || snap.Partial {
		t.Fatalf("a capture for saving took %d bounded and %d whole captures", len(tab.horizons), tab.captures)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNextBudget: the budget doubles up to the bound; a capture with a
// budget at the bound, or cut because it held as many nodes as any tree
// may (whatever its budget), makes the page too large instead of a retake
// that could read no further.
func TestNextBudget(t *testing.T) {
	for _, c := range []struct{ b, held, want int }{
		{1, 1, 2}, {8, 8, 16}, {49, 60, 98}, {50, 60, 100}, {60, 60, 100}, {99, 98, 100},
		{8, 98, 16}, {8, 99, 0}, {8, 100, 0}, {100, 50, 0}, {150, 50, 0},
	} {
		got, err := nextBudget(c.b, c.held, 100)
		if c.want == 0 {
			if errcode.CodeOf(err) != errcode.UnsupportedInput || !strings.Contains(err.Error(), "too_large") {
				t.Errorf("nextBudget(%d, %d): %d %v, want too_large", c.b, c.held, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("nextBudget(%d, %d) = %d %v, want %d", c.b, c.held, got, err, c.want)
		}
	}
}

// TestBoundedObservationReadsNoIDs: an observation of a bounded capture
// asks the page for no backend node id, however many controls it lists:
// each would cost protocol calls. Its records are numbered by one call for
// all of them. Acting on one asks for its id alone.
func TestBoundedObservationReadsNoIDs(t *testing.T) {
	tab := &boundedTab{links: 40, before: 10, after: 10}
	s, _ := NewSession(tab, SessionOptions{})
	o, _, err := s.Observe(context.Background(), ReadOptions{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Controls) != 40 || tab.resolved != 0 || tab.identified != 1 {
		t.Fatalf("%d controls, %d ids asked, %d numberings", len(o.Controls), tab.resolved, tab.identified)
	}
	at, err := o.ActionTarget(o.Controls[4].Ref)
	// The fifth link is node 3+2*4 = 11 of the capture.
	if err != nil || at.BackendNodeID != 111 || tab.resolved != 1 {
		t.Fatalf("target %+v %v, %d ids asked", at, err, tab.resolved)
	}
}

// TestSessionFirstBudget: SessionOptions.FirstBudget is where a bounded
// observation's captures start (so a check outside the package can force
// retakes), and a negative one is refused with a code.
func TestSessionFirstBudget(t *testing.T) {
	tab := &boundedTab{before: 500, after: 5000}
	s, err := NewSession(tab, SessionOptions{FirstBudget: 256})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Extract(context.Background(), ReadOptions{Query: boundedReq, Once: true}); err != nil {
		t.Fatal(err)
	}
	if want := []int{256, 512, 1024}; !equalInts(tab.horizons, want) {
		t.Fatalf("horizons %v, want %v", tab.horizons, want)
	}
	if _, err := NewSession(tab, SessionOptions{FirstBudget: -1}); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("a negative first budget: %v", err)
	}
}

// TestBoundedFallsBackToWholePage: when the walker says only the whole
// snapshot can read the page (content-visibility content), the observation
// takes the whole snapshot at once, answers from it, and asks for no further
// bounded capture, retakes included.
func TestBoundedFallsBackToWholePage(t *testing.T) {
	tab := &boundedTab{fakeTab: fakeTab{capture: readCapture(t, "table-basic")}, before: 500, after: 5000, whole: true}
	s, err := NewSession(tab, SessionOptions{FirstBudget: 8})
	if err != nil {
		t.Fatal(err)
	}
	res, snap, err := s.Extract(context.Background(), ReadOptions{Query: boundedReq, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Collection.Found || snap.Partial {
		t.Fatalf("found %v, partial %v: %s", res.Collection.Found, snap.Partial, res.Canonical())
	}
	if !equalInts(tab.horizons, []int{8}) || tab.captures != 1 || s.Captures() != 2 {
		t.Fatalf("bounded captures asked %v, whole snapshots %d, captures counted %d", tab.horizons, tab.captures, s.Captures())
	}
}
