//go:build browser

package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/input"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/internal/testkit/treediff"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// boundedCase is one page the bounded capture is compared on.
type boundedCase struct {
	name string
	url  string
	reqs []domsnap.Request
}

// compareBounded loads c in a fresh tab and requires the bounded path to
// give what the whole snapshot gives: the same tree node for node (names,
// attributes, text but for editing hosts, styles, exclusion, checked state
// and the backend node id of every element) when the horizon is past the
// page, and, through a Session, the same observation and extractions byte
// for byte with the default horizon and with a tiny one, which forces a
// retake with doubled horizons on every page larger than it.
func compareBounded(t *testing.T, ctx context.Context, b *Browser, c boundedCase) {
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Navigate(ctx, c.url); err != nil {
		t.Fatal(err)
	}
	raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	if err != nil {
		t.Fatal(err)
	}
	whole, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
	if err != nil {
		t.Fatal(err)
	}
	bc, err := p.CaptureBounded(ctx, limits.MaxTreeNodes, false)
	switch {
	case errors.Is(err, errWholePage):
		// Content-visibility content: the walker leaves the page to the
		// whole snapshot, which the session then takes; only the answers
		// below are compared.
		if !hasContentVisibility(whole) {
			t.Fatal("the walker left a page without content-visibility to the whole snapshot")
		}
	case err != nil:
		t.Fatal(err)
	default:
		defer bc.Close()
		bounded, err := capture.DecodeBounded(bc.Raw, limits.MaxTreeNodes, bc.Hosts, bc.Resolve, bc.Find)
		if err != nil {
			t.Fatal(err)
		}
		if bounded.Partial() {
			t.Fatal("a capture with a horizon past the page is partial")
		}
		sameTree(t, whole, bounded)
	}

	rev := "r1.0000000000000000.n1.o1"
	for _, h := range []int{0, 8} { // 0: the first horizon of each kind of observation
		for i := -1; i < len(c.reqs); i++ {
			s, err := NewSession(p, SessionOptions{FirstBudget: h})
			if err != nil {
				t.Fatal(err)
			}
			var got, want []byte
			if i < 0 {
				o, _, err := s.Observe(ctx, ReadOptions{Once: true})
				got, rev = answerBytes(t, o, err)
				want = wholeAnswer(whole, rev, nil)
			} else {
				req := c.reqs[i]
				req.ExpectedRevision = ""
				r, _, err := s.Extract(ctx, ReadOptions{Query: req, Once: true})
				got, rev = answerBytes(t, r, err)
				want = wholeAnswer(whole, rev, req)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("horizon %d, request %d (-1: the observation): bounded and whole differ:\n%v", h, i, jsonDiff(want, got))
			}
			if h == 8 && whole.Len() > 8 && s.Captures() < 2 {
				t.Errorf("horizon 8 on a page of %d nodes took %d capture(s): the retake was not exercised", whole.Len(), s.Captures())
			}
		}
	}
}

// hasContentVisibility reports whether a page may hold content that
// content-visibility skips: the fixtures say so in a style or style
// attribute, or use hidden="until-found" (which is content-visibility:
// hidden).
func hasContentVisibility(t *domtree.Tree) bool {
	for i := 0; i < t.Len(); i++ {
		n := t.At(i)
		if n.Kind() == domtree.Text && strings.Contains(n.Data(), "content-visibility") {
			return true
		}
		for _, a := range n.Attrs() {
			if strings.Contains(a.Value, "content-visibility") || (a.Name == "hidden" && strings.EqualFold(a.Value, "until-found")) {
				return true
			}
		}
	}
	return false
}

// answerBytes is an observation's or result's canonical bytes and its
// revision, or the error's code.
func answerBytes(t *testing.T, a interface {
	Canonical() []byte
}, err error) ([]byte, string) {
	t.Helper()
	if err != nil {
		return []byte("error: " + string(errcode.CodeOf(err))), ""
	}
	var rev string
	switch v := a.(type) {
	case *domsnap.Observation:
		rev = v.Revision
	case *domsnap.Result:
		rev = v.Revision
	}
	return a.Canonical(), rev
}

// sameTree requires two trees of one page to agree node for node, backend
// node ids of elements included. Text inside an editing host is left out:
// the bounded walker never reads it (nothing analyses it).
func sameTree(t *testing.T, whole, bounded *domtree.Tree) {
	t.Helper()
	if whole.Len() != bounded.Len() {
		diffs, _ := treediff.Compare(whole, bounded)
		t.Fatalf("whole tree %d nodes, bounded %d; first difference: %v", whole.Len(), bounded.Len(), firstDiff(diffs))
	}
	for i := 0; i < whole.Len(); i++ {
		w, b := whole.At(i), bounded.At(i)
		wd, bd := treediff.Describe(w), treediff.Describe(b)
		if w.Kind() == domtree.Text && insideEditingHost(w) {
			wd, bd = "", ""
		}
		if wd != bd || w.Excluded() != b.Excluded() || w.Display() != b.Display() || w.Visibility() != b.Visibility() || w.Checked() != b.Checked() {
			t.Fatalf("node %d (%s): whole %s %s, bounded %s %s", i, treediff.Path(w), wd, treediff.StateOf(w), bd, treediff.StateOf(b))
		}
		if (w.IsElement() || i == 0) && w.BackendNodeID() != b.BackendNodeID() {
			t.Fatalf("node %d (%s): backend node id whole %d, bounded %d", i, treediff.Path(w), w.BackendNodeID(), b.BackendNodeID())
		}
	}
}

func insideEditingHost(n domtree.Node) bool {
	for a := range n.Ancestors() {
		if a.EditingHost() {
			return true
		}
	}
	return false
}

func firstDiff(diffs []treediff.Diff) string {
	if len(diffs) == 0 {
		return "none"
	}
	return diffs[0].String()
}

// TestBoundedCaptureMatchesWholeSnapshot compares the bounded path with the
// whole snapshot on every parity fixture.
func TestBoundedCaptureMatchesWholeSnapshot(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "testdata", "html", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no fixture pages: %v", err)
	}
	sort.Strings(pages)
	if only := os.Getenv("DOMSNAP_BOUNDED_ONLY"); only != "" {
		pages = filterPages(pages, only)
	}
	b := launch(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := pageserve.Serve(data, info.Charset)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			reqs := loadRequests(t, strings.TrimSuffix(page, ".html")+".requests.json")
			compareBounded(t, ctx, b, boundedCase{name: name, url: srv.URL(), reqs: reqs})
		})
	}
}

func filterPages(pages []string, only string) []string {
	var out []string
	for _, p := range pages {
		if strings.Contains(filepath.Base(p), only) {
			out = append(out, p)
		}
	}
	return out
}

// wholeOnly hides a driver's bounded captures, so a session over it takes
// whole snapshots for every observation.
type wholeOnly struct{ Snapshotter }

// TestBoundedNeverReadsValues: on a page whose controls hold pre-filled
// canaries, one typed by a person, a textarea value and an editing host's
// text set by script, a bounded observation's bytes hold none of them,
// while a whole snapshot of the same page holds them all (so their absence
// is the walker's doing); and no output holds one.
func TestBoundedNeverReadsValues(t *testing.T) {
	page := strings.Replace(savedCanaryPage, "</form>", `</form><div contenteditable>CANARY-SAVED-EDIT</div>`, 1)
	b := launch(t)
	ctx := context.Background()
	srv := serve(t, []byte(page))
	s, p := openSession(t, b, srv.URL())
	if _, err := p.Evaluate(ctx, `(() => { const e = document.querySelector("input[name=name]"); e.focus(); e.select(); return true })()`); err != nil {
		t.Fatal(err)
	}
	if err := p.Client().Input.InsertText(ctx, input.NewInsertTextArgs("CANARY-SAVED-TYPED")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(ctx, `(() => { document.querySelector("textarea").value = "CANARY-SAVED-TAVAL"; return true })()`); err != nil {
		t.Fatal(err)
	}
	canaries := []string{"CANARY-SAVED-TEXT", "CANARY-SAVED-PASS", "CANARY-SAVED-MAIL", "CANARY-SAVED-HIDDEN",
		"CANARY-SAVED-CHECK", "CANARY-SAVED-AREA", "CANARY-SAVED-TYPED", "CANARY-SAVED-TAVAL", "CANARY-SAVED-EDIT"}
	whole, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range canaries {
		if !strings.Contains(string(whole), c) {
			t.Fatalf("%s is not in a whole snapshot: the test would prove nothing", c)
		}
	}
	var sent [][]byte
	s.onCapture = func(raw []byte) { sent = append(sent, append([]byte(nil), raw...)) }
	s.opts.FirstBudget = 4 // retakes too
	fields := []domsnap.Field{}
	for c := 0; c <= limits.MaxFormColumn; c++ {
		fields = append(fields, domsnap.Field{Name: "c" + string(rune('0'+c)), Column: c, Type: typed.String})
	}
	o, snap, err := s.Observe(ctx, ReadOptions{Query: &domsnap.Request{Kind: aria.Form, Fields: fields, RowLimit: limits.MaxRowLimit}, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) < 2 {
		t.Fatalf("%d captures: the retakes were not exercised", len(sent))
	}
	outputs := append(sent, o.Canonical(), snap.Envelope().Capture)
	for i, out := range outputs {
		if at := bytes.Index(out, []byte("CANARY")); at >= 0 {
			t.Errorf("output %d holds a canary: ...%s...", i, out[max(0, at-40):min(len(out), at+40)])
		}
	}
	if o.Extraction == nil || !strings.Contains(string(o.Canonical()), "Send now") {
		t.Fatalf("the form was not read: %s", o.Canonical())
	}
}

// hostilePage's script attacks a walker that would run in the page's own
// world: it replaces the DOM accessors and built-ins the walker uses, sets
// the global the walker leaves its nodes in, and adds a closed shadow root
// (to a custom element, where closed roots live) and an open one, whose
// hosts' light children a whole capture leaves out.
const hostilePage = `<!DOCTYPE html><html><head><title>hostile</title></head><body>
<table><tr><th>name</th><th>qty</th></tr><tr><td>pear</td><td>2</td></tr><tr><td>fig</td><td>3</td></tr></table>
<x-closed id="closed"><span>light child of a closed host</span></x-closed>
<div id="open"><span>light child of an open host</span></div>
<ul><li>one</li><li>two</li></ul>
<script>
document.getElementById("closed").attachShadow({mode: "closed"}).innerHTML = "<p>inside closed</p>";
document.getElementById("open").attachShadow({mode: "open"}).innerHTML = "<p>inside open</p><slot></slot>";
const lie = () => { throw new Error("hostile"); };
for (const k of ["firstChild", "nextSibling", "parentNode", "nodeType", "nodeName"]) {
	Object.defineProperty(Node.prototype, k, {get: lie});
}
Object.defineProperty(Element.prototype, "attributes", {get: lie});
Element.prototype.checkVisibility = () => false;
window.getComputedStyle = () => ({display: "none", visibility: "hidden"});
Array.prototype.push = lie;
Map.prototype.get = lie;
String.prototype.replace = lie;
Object.defineProperty(globalThis, "__domsnapNodes", {get: lie, set: lie});
</script></body></html>`

// TestBoundedHostilePage: a page that breaks every built-in its own world
// offers is read by the bounded path exactly as by the whole snapshot,
// tree and answers, shadow hosts included.
func TestBoundedHostilePage(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	url := scriptServer(t, hostilePage)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	// The attack is in place in the page's world.
	if got, err := p.Evaluate(ctx, `document.body.checkVisibility() === false && typeof getComputedStyle(document.body).getPropertyValue === "undefined"`); err != nil || string(got) != "true" {
		t.Fatalf("the hostile script did not run: %s %v", got, err)
	}
	compareBounded(t, ctx, b, boundedCase{name: "hostile", url: url, reqs: firstColumns()})
}

// TestBoundedFarLabel: a form at the top whose control's label lies past
// the first horizon is read with that label, as the whole snapshot reads
// it: the label lookup on the partial tree knows labels lie beyond and
// asks for more of the page.
func TestBoundedFarLabel(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!DOCTYPE html><html><head><title>far</title></head><body><form><input id="q" name="q"></form>`)
	for i := 0; i < 9000; i++ {
		page.WriteString("<p>filler</p>")
	}
	page.WriteString(`<label for="q">FAR-LABEL</label></body></html>`)
	b := launch(t)
	ctx := context.Background()
	srv := serve(t, []byte(page.String()))
	s, _ := openSession(t, b, srv.URL())
	req := domsnap.Request{Kind: aria.Form, Index: 0, RowLimit: 5, Fields: []domsnap.Field{{Name: "label", Column: 0, Type: typed.String}}}
	res, _, err := s.Extract(ctx, ReadOptions{Query: req, Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Canonical()), "FAR-LABEL") {
		t.Fatalf("the far label was not read: %s", res.Canonical())
	}
	if s.Captures() < 2 {
		t.Fatalf("%d capture(s): the label past the horizon did not make it read further", s.Captures())
	}
	compareBounded(t, ctx, b, boundedCase{name: "far-label", url: srv.URL(), reqs: []domsnap.Request{req}})
}

// TestBoundedWorldFollowsTheDocument: the walker's world, kept between
// captures of one document, is never used for the next: after the tab
// navigates, a bounded read sees the new page.
func TestBoundedWorldFollowsTheDocument(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	a, other := serve(t, flatPage(100, "A")), serve(t, flatPage(100, "B"))
	_, p := openSession(t, b, a.URL())
	req := tableRequest("")
	for _, want := range []string{"A", "A", "B"} {
		if want == "B" {
			if err := p.Navigate(ctx, other.URL()); err != nil {
				t.Fatal(err)
			}
		}
		s, err := NewSession(p, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := s.Extract(ctx, ReadOptions{Query: req, Once: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := firstCell(res); got != want {
			t.Fatalf("the table says %q, want %q", got, want)
		}
	}
}

// hiddenBulkPage is a page whose first nodes are mostly ones no scan
// enters: a display: none block, an aria-hidden block and a long head,
// each of hidden nodes, then a table and filler.
func hiddenBulkPage(hidden, filler int) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>bulk</title>`)
	for i := 0; i < hidden/3; i++ {
		b.WriteString(`<meta name="m" content="c">`)
	}
	b.WriteString(`</head><body><div style="display:none">`)
	for i := 0; i < hidden/6; i++ {
		b.WriteString(`<span>x</span>`)
	}
	b.WriteString(`</div><div aria-hidden="TRUE">`)
	for i := 0; i < hidden/6; i++ {
		b.WriteString(`<span>y</span>`)
	}
	b.WriteString(`</div><table><tr><th>name</th><th>qty</th></tr><tr><td>A</td><td>1</td></tr></table>`)
	for i := 0; i < filler/2; i++ {
		b.WriteString(`<p>filler</p>`)
	}
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}

// TestBoundedBudgetPaysWhatScansPay: a bounded capture stops when the
// nodes a scan pays for reach its budget, exactly, however many nodes
// inside excluded elements it read on the way; so a page that opens with
// thousands of hidden nodes is observed in one capture, with the whole
// snapshot's answer (a budget in nodes of any kind would have been spent
// on the hidden ones and retaken).
func TestBoundedBudgetPaysWhatScansPay(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	// Before this rule, the first capture read 16,384 nodes of any kind,
	// which the hidden ones and the scans' 8,192 pass.
	srv := serve(t, hiddenBulkPage(DefaultBudget, DefaultBudget))
	s, p := openSession(t, b, srv.URL())
	for _, budget := range []int{1, 2, 100, DefaultBudget - 1, DefaultBudget, DefaultBudget + 1} {
		c, err := p.CaptureBounded(ctx, budget, false)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := capture.DecodeBounded(c.Raw, limits.MaxTreeNodes, c.Hosts, c.Resolve, c.Find)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !tree.Partial() {
			t.Fatalf("budget %d: the capture holds the whole page", budget)
		}
		if got := paidNodes(tree); got != budget {
			t.Errorf("budget %d: the capture holds %d nodes a scan pays for (%d in all)", budget, got, tree.Horizon())
		}
	}
	o, _, err := s.Observe(ctx, ReadOptions{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Captures() != 1 {
		t.Fatalf("%d captures, want 1", s.Captures())
	}
	if len(o.Inventory) != 1 {
		t.Fatalf("inventory %v, want the table", o.Inventory)
	}
	compareBounded(t, ctx, b, boundedCase{name: "hidden-bulk", url: srv.URL(), reqs: []domsnap.Request{tableRequest("")}})
}

// paidNodes counts the nodes of a partial tree, before its horizon, that
// lie in no excluded element: what a scan walking all of it would pay.
func paidNodes(t *domtree.Tree) int {
	paid := 0
	for i := 0; i < t.Horizon(); i++ {
		n := t.At(i)
		inside := false
		for a := n.Parent(); a.Valid(); a = a.Parent() {
			if a.Excluded() {
				inside = true
				break
			}
		}
		if !inside {
			paid++
		}
	}
	return paid
}

// TestBoundedExpansionFollowsTheRegion: a region a bounded observation
// published is found again by the browser's node id when the page moved
// it (nodes inserted before it), and is unknown_reference once the page
// removed it; its control is acted on through the id found only then.
func TestBoundedExpansionFollowsTheRegion(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	page := `<!DOCTYPE html><html><body><nav aria-label="Top"><a href="#a">Alpha</a></nav><div id="pre"></div>` +
		`<section aria-label="Side"><h2>Inner</h2><button>Press</button></section>` +
		strings.Repeat("<p>filler</p>", 50) + `</body></html>`
	srv := serve(t, []byte(page))
	s, p := openSession(t, b, srv.URL())
	o1, _, err := s.Observe(ctx, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	side := regionNamed(o1, "Side")
	if side == "" {
		t.Fatalf("no region Side: %s", o1.Canonical())
	}
	if _, err := p.Evaluate(ctx, `(() => { const d = document.getElementById('pre'); for (let i = 0; i < 30; i++) d.appendChild(document.createElement('p')).textContent = 'moved'; return true; })()`); err != nil {
		t.Fatal(err)
	}
	o2, _, err := s.Observe(ctx, ReadOptions{Expand: &Region{Revision: o1.Revision, Ref: side}})
	if err != nil {
		t.Fatalf("expanding a moved region: %v", err)
	}
	if len(o2.Controls) != 1 || o2.Controls[0].Name != "Press" {
		t.Fatalf("expanded: %s", o2.Canonical())
	}
	if at, err := o2.ActionTarget(o2.Controls[0].Ref); err != nil || at.BackendNodeID == 0 {
		t.Fatalf("target %+v %v", at, err)
	}
	if _, err := s.Act(ctx, o2.Revision, o2.Controls[0].Ref, Action{Kind: ActClick}, ActOptions{}); err != nil {
		t.Fatalf("click: %v", err)
	}
	// A click focuses the button it lands on (the page's policy allows no
	// script of its own to say so).
	if got, err := p.Evaluate(ctx, `document.activeElement === document.querySelector('section button')`); err != nil || string(got) != "true" {
		t.Fatalf("the click did not reach the button: %s %v", got, err)
	}
	o3, _, err := s.Observe(ctx, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(ctx, `document.querySelector('section').remove(), true`); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Observe(ctx, ReadOptions{Expand: &Region{Revision: o3.Revision, Ref: regionNamed(o3, "Side")}})
	if errcode.CodeOf(err) != errcode.UnknownReference {
		t.Fatalf("expanding a removed region: %v, want unknown_reference", err)
	}
}

func regionNamed(o *domsnap.Observation, name string) string {
	for _, r := range o.Regions {
		if r.Name == name {
			return r.Ref
		}
	}
	return ""
}

// TestBoundedManyCustomElements: a page of hundreds of custom elements with
// children, some hosting a closed shadow root (declarative, so the page's
// policy needs no script), under three parents, is read as the whole
// snapshot reads it, and finding the closed roots costs one description per
// parent, not one per element.
func TestBoundedManyCustomElements(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!DOCTYPE html><html><body><table><tr><th>a</th></tr><tr><td>1</td></tr></table>`)
	for p := 0; p < 3; p++ {
		page.WriteString(`<div>`)
		for i := 0; i < 100; i++ {
			switch i % 4 {
			case 0:
				page.WriteString(`<x-shut><template shadowrootmode="closed"><b>shadow</b></template><span>light</span></x-shut>`)
			case 1:
				page.WriteString(`<x-open><template shadowrootmode="open"><slot></slot></template><span>slotted</span></x-open>`)
			default:
				page.WriteString(`<x-plain><span>plain</span></x-plain><p>between</p>`)
			}
		}
		page.WriteString(`</div>`)
	}
	page.WriteString(`</body></html>`)
	b := launch(t)
	ctx := context.Background()
	srv := serve(t, []byte(page.String()))
	_, p := openSession(t, b, srv.URL())
	c, got := describedCapture(t, p, DefaultBudget, false)
	if len(c.Hosts) != 75 {
		t.Errorf("%d closed hosts, want 75", len(c.Hosts))
	}
	if got != 3 {
		t.Errorf("%d descriptions for 300 custom elements under 3 parents, want 3", got)
	}
	compareBounded(t, ctx, b, boundedCase{name: "custom-elements", url: srv.URL(), reqs: []domsnap.Request{tableRequest("")}})
}

// TestBoundedCaptureKeepsItsNodes: a capture's nodes are found by their
// ids after its observation ended while fewer than keptCaptures later
// captures of the page were taken, and not once that many were: the page
// keeps the nodes of its last keptCaptures captures only.
func TestBoundedCaptureKeepsItsNodes(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	srv := serve(t, flatPage(100, "A"))
	_, p := openSession(t, b, srv.URL())
	for _, later := range []int{keptCaptures - 2, keptCaptures - 1, keptCaptures} {
		c, err := p.CaptureBounded(ctx, DefaultBudget, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < later; k++ {
			n, err := p.CaptureBounded(ctx, DefaultBudget, true)
			if err != nil {
				t.Fatal(err)
			}
			n.Close()
		}
		// Node 1 is the html element.
		id := c.Resolve(1)
		if kept := later < keptCaptures; (id != 0) != kept {
			t.Errorf("after %d later captures: id %d, want one: %v", later, id, kept)
		}
	}
}

// componentPage is a page of a component framework: nearly every element a
// custom element with children, nested. Every fifth item holds a closed
// shadow root deep inside, one item an open host with light elements, and
// a chain of nested custom elements deeper than a whole description may go
// ends in a closed host.
func componentPage(items, chain int) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><body><app-root><app-nav><a href="#">home</a></app-nav>` +
		`<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><app-list>`)
	for i := 0; i < items; i++ {
		b.WriteString(`<app-item><app-card><app-title><span>title</span></app-title>`)
		switch {
		case i%5 == 0:
			b.WriteString(`<x-shut><template shadowrootmode="closed"><b>shadow</b><slot></slot></template><span>light</span></x-shut>`)
		case i == 7:
			b.WriteString(`<x-open><template shadowrootmode="open"><slot></slot></template><p><span>slotted</span></p><x-shut><template shadowrootmode="closed"><i>s</i></template><b>x</b></x-shut></x-open>`)
		}
		b.WriteString(`<app-body><p>text</p><app-button><button>go</button></app-button></app-body></app-card></app-item>`)
	}
	b.WriteString(`</app-list><app-deep>`)
	for i := 0; i < chain; i++ {
		b.WriteString(`<x-level>`)
	}
	b.WriteString(`<x-shut><template shadowrootmode="closed"><b>deep</b></template><span>light</span></x-shut>`)
	for i := 0; i < chain; i++ {
		b.WriteString(`</x-level>`)
	}
	b.WriteString(`</app-deep></app-root></body></html>`)
	return []byte(b.String())
}

// TestBoundedComponentPage: on a page where nearly every element is a custom
// element with children, the closed shadow roots are found with a few
// descriptions, not one per parent (before: 304 calls and 113 ms for a
// 1,300-node page), and the capture equals the whole snapshot, read whole
// and at horizons that cut the list (so that subtrees the walker did not
// read to their end are described too). The open host's light elements,
// which the walker does not write, count among a description's elements
// (the closed host inside it is not found otherwise), and a chain deeper
// than a whole description may go is described in parts.
func TestBoundedComponentPage(t *testing.T) {
	const items, chain = 60, 120
	b := launch(t)
	ctx := context.Background()
	srv := serve(t, componentPage(items, chain))
	_, p := openSession(t, b, srv.URL())
	c, described := describedCapture(t, p, DefaultBudget, false)
	// Closed hosts in every fifth item, none inside the open host (its
	// light children are not written), and the one at the chain's end.
	if want := items/5 + 1; len(c.Hosts) != want {
		t.Errorf("%d closed hosts, want %d", len(c.Hosts), want)
	}
	// The list in one description, the chain's last 100 levels (the
	// walker's wholeHeight) in one, each level above those alone, and a
	// few for the rest: not one per parent.
	if most := uint64(chain - 100 + 8); described > most {
		t.Errorf("%d descriptions for a page of %d custom elements with children, want at most %d", described, items*6+chain, most)
	}
	compareBounded(t, ctx, b, boundedCase{name: "components", url: srv.URL(), reqs: []domsnap.Request{tableRequest("")}})
	// Cut captures: every x-shut element written is a closed host, and
	// only those are; a list cut in its middle is described whole, its
	// unread rest counted, not item by item.
	for _, budget := range []int{40, 200, 500} {
		c, got := describedCapture(t, p, budget, true)
		if got > 4 {
			t.Errorf("budget %d: %d descriptions, want at most 4", budget, got)
		}
		names := capturedNames(t, c.Raw)
		var want []int
		for i, n := range names {
			if n == "X-SHUT" {
				want = append(want, i)
			}
		}
		if !slices.Equal(c.Hosts, want) || len(names) >= 500+items*10 {
			t.Errorf("budget %d: %d nodes, closed hosts %v, want %v", budget, len(names), c.Hosts, want)
		}
	}
}

// describedCapture takes a bounded capture of p, ends it, and says how many
// descriptions it asked the browser for.
func describedCapture(t *testing.T, p *Page, budget int, again bool) (*BoundedCapture, uint64) {
	t.Helper()
	before := p.describes.Load()
	c, err := p.CaptureBounded(context.Background(), budget, again)
	if err != nil {
		t.Fatalf("budget %d: %v", budget, err)
	}
	c.Close()
	return c, p.describes.Load() - before
}

// capturedNames is the node names of a bounded capture, by index.
func capturedNames(t *testing.T, raw []byte) []string {
	t.Helper()
	var c struct {
		Documents []struct {
			Nodes struct {
				NodeName []int `json:"nodeName"`
			} `json:"nodes"`
		} `json:"documents"`
		Strings []string `json:"strings"`
	}
	if err := json.Unmarshal(raw, &c); err != nil || len(c.Documents) != 1 {
		t.Fatalf("reading the capture: %v", err)
	}
	names := make([]string, len(c.Documents[0].Nodes.NodeName))
	for i, k := range c.Documents[0].Nodes.NodeName {
		names[i] = c.Strings[k]
	}
	return names
}

// TestBoundedOpenHostLightLimit: the light elements of an open shadow host
// are counted up to the walker's lightLimit (256). At and under it, a list
// holding the host is described whole, its closed hosts after the open one
// found at their places (the light elements numbered in between); one
// over it, the list is described item by item, with the same hosts.
func TestBoundedOpenHostLightLimit(t *testing.T) {
	const items = 40
	b := launch(t)
	ctx := context.Background()
	for _, light := range []int{255, 256, 257} {
		var page strings.Builder
		page.WriteString(`<!DOCTYPE html><html><body><table><tr><th>a</th></tr><tr><td>1</td></tr></table><app-list>`)
		for i := 0; i < items; i++ {
			page.WriteString(`<app-item><x-shut><template shadowrootmode="closed"><b>s</b></template><span>l</span></x-shut>`)
			if i == 3 {
				page.WriteString(`<x-open><template shadowrootmode="open"><slot></slot></template>` + strings.Repeat(`<i>x</i>`, light) + `</x-open>`)
			}
			page.WriteString(`<app-body><p>t</p></app-body></app-item>`)
		}
		page.WriteString(`</app-list></body></html>`)
		srv := serve(t, []byte(page.String()))
		_, p := openSession(t, b, srv.URL())
		c, described := describedCapture(t, p, DefaultBudget, false)
		if len(c.Hosts) != items {
			t.Errorf("%d light elements: %d closed hosts, want %d", light, len(c.Hosts), items)
		}
		if whole := described <= 3; whole != (light <= 256) {
			t.Errorf("%d light elements: %d descriptions; want the list described whole: %v", light, described, light <= 256)
		}
		compareBounded(t, ctx, b, boundedCase{name: "light-" + strconv.Itoa(light), url: srv.URL(), reqs: []domsnap.Request{tableRequest("")}})
	}
}
