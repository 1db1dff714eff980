//go:build browser

package live_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/page"

	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/internal/testkit/axcompare"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// The agreement of the page view's controls with Chromium's accessibility
// tree on the fixture pages, as measured when the test was written: 297
// controls on 97 pages, 295 roles, 247 names and 245 controls agreeing in
// both. These are floors: a change that loses agreement fails the test, one
// that gains it raises what the next floor may be.
const (
	floorRoleAgree = 295
	floorNameAgree = 247
	floorBothAgree = 245
	// floorBothPermille is the share of controls agreeing in both, in
	// thousandths (245 of 297 is 824.9), so new fixture controls cannot
	// hide a loss behind a larger count.
	floorBothPermille = 824
)

// TestAccessibilityTreeFixtures compares, for every control the page view
// lists on each fixture page of testdata/html and testdata/view, the role
// and name with the role and name Chromium computed for the same element
// (found by the backend node id the capture recorded). Every difference
// must be one of the known classes of package axcompare, each explained by a
// rule of docs/reference.md; agreement must stay at or above the floors.
func TestAccessibilityTreeFixtures(t *testing.T) {
	var pages []string
	for _, dir := range []string{"html", "view"} {
		p, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.html"))
		if err != nil || len(p) == 0 {
			t.Fatalf("no fixture pages in testdata/%s: %v", dir, err)
		}
		pages = append(pages, p...)
	}
	b, err := live.Launch(context.Background(), live.Options{})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer b.Close()
	var tally axcompare.Tally
	for _, path := range pages {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cs, err := axControls(ctx, b, data)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		tally.Add(cs)
		for i, c := range cs {
			if !c.Found {
				t.Errorf("%s: control %d (%s) has no node in Chromium's tree", path, i+1, c.Role)
				continue
			}
			if (!c.RoleAgrees() || !c.NameAgrees()) && axcompare.Classify(c) == "" {
				t.Errorf("%s: control %d differs by no known rule: role %q, Chromium %q; name %q, Chromium %q (from %s)",
					path, i+1, c.Role, c.AXRole, c.Name, c.AXName, c.AXNameFrom)
			}
		}
	}
	t.Logf("%d pages: %s", len(pages), tally.String())
	var classes []string
	for k := range tally.Classes {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	for _, k := range classes {
		t.Logf("  %s: %d", k, tally.Classes[k])
	}
	if tally.RoleAgree < floorRoleAgree || tally.NameAgree < floorNameAgree || tally.BothAgree < floorBothAgree {
		t.Errorf("agreement fell below the floors: role %d (floor %d), name %d (floor %d), both %d (floor %d)",
			tally.RoleAgree, floorRoleAgree, tally.NameAgree, floorNameAgree, tally.BothAgree, floorBothAgree)
	}
	if tally.Controls == 0 || tally.BothAgree*1000/tally.Controls < floorBothPermille {
		t.Errorf("agreement in both is %d of %d controls, below %d permille", tally.BothAgree, tally.Controls, floorBothPermille)
	}
}

// axControls serves data on loopback with the charset offline analysis
// finds, loads it in a fresh tab of b, captures it as a live session does,
// asks for Chromium's accessibility tree of the same tab, and pairs the two
// (axcompare.Compare). The tab and the server are closed before it returns.
func axControls(ctx context.Context, b *live.Browser, data []byte) ([]axcompare.Control, error) {
	_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		return nil, err
	}
	srv, err := pageserve.Serve(data, info.Charset)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		return nil, err
	}
	raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	if err != nil {
		return nil, err
	}
	nodes, err := axTreeAllFrames(ctx, p)
	if err != nil {
		return nil, err
	}
	return axcompare.Compare(data, raw, nodes)
}

// axTreeAllFrames answers Chromium's accessibility tree of every frame of
// the tab, main frame first: a frame's tree is asked for by its frame id
// (the full tree without one is the main frame's alone), and the page view
// lists the controls of srcdoc frames beside the main document's.
func axTreeAllFrames(ctx context.Context, p *live.Page) ([]accessibility.AXNode, error) {
	tree, err := p.Client().Page.GetFrameTree(ctx)
	if err != nil {
		return nil, err
	}
	var nodes []accessibility.AXNode
	pending := []page.FrameTree{tree.FrameTree}
	for len(pending) > 0 {
		ft := pending[0]
		pending = append(pending[1:], ft.ChildFrames...)
		ax, err := p.Client().Accessibility.GetFullAXTree(ctx, accessibility.NewGetFullAXTreeArgs().SetFrameID(ft.Frame.ID))
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, ax.Nodes...)
	}
	return nodes, nil
}
