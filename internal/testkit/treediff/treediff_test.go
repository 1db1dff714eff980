package treediff

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot"
)

func parse(t *testing.T, page string) *domtree.Tree {
	t.Helper()
	tr, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestCompareSame(t *testing.T) {
	page := `<!DOCTYPE html><p>a<b class=x id=y>b</b></p><p>c</p>`
	diffs, n := Compare(parse(t, page), parse(t, page))
	if len(diffs) != 0 || n == 0 {
		t.Fatalf("same page: %d nodes, diffs %v", n, diffs)
	}
}

func TestCompareDiffers(t *testing.T) {
	a := parse(t, `<!DOCTYPE html><p>a</p><p>b</p>`)
	b := parse(t, `<!DOCTYPE html><p>a</p><p hidden>b</p>`)
	diffs, _ := Compare(a, b)
	if len(diffs) != 1 || diffs[0].What != Node || Path(diffs[0].Offline) != "/html/body/p[2]" {
		t.Fatalf("diffs %v", diffs)
	}
	if got := diffs[0].String(); !strings.HasPrefix(got, "node: at offline ") || !strings.Contains(got, `live element <p hidden="">`) {
		t.Errorf("String = %q", got)
	}
	c := parse(t, `<!DOCTYPE html><p>a</p>`)
	diffs, _ = Compare(a, c)
	if len(diffs) != 1 || diffs[0].Live.Valid() || !strings.Contains(diffs[0].String(), "one tree ended first") {
		t.Fatalf("shorter tree: %v", diffs)
	}
}

func TestDescribeIgnoresAttributeOrder(t *testing.T) {
	a := parse(t, `<!DOCTYPE html><div id=y class=x></div>`)
	b := parse(t, `<!DOCTYPE html><div class=x id=y></div>`)
	if diffs, _ := Compare(a, b); len(diffs) != 0 {
		t.Errorf("attribute order counted: %v", diffs)
	}
}

func TestPath(t *testing.T) {
	tr := parse(t, `<!DOCTYPE html><div>x<p>a</p><!--c--><p>b<i>i</i></p></div>`)
	var got []string
	root := tr.Root()
	for n := root; n.Valid(); n = n.Next(root, true) {
		got = append(got, Path(n))
	}
	want := "/ /#doctype /html /html/head /html/body /html/body/div /html/body/div/#text /html/body/div/p[1] /html/body/div/p[1]/#text " +
		"/html/body/div/#comment /html/body/div/p[2] /html/body/div/p[2]/#text /html/body/div/p[2]/i /html/body/div/p[2]/i/#text"
	if strings.Join(got, " ") != want {
		t.Errorf("paths\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestNonceValueNotCompared: a nonce emptied live (Chromium's nonce hiding
// under parity's CSP header) is no difference; a missing nonce still is.
func TestNonceValueNotCompared(t *testing.T) {
	a := parse(t, `<!DOCTYPE html><style nonce="abc"></style><p nonce="x">a</p>`)
	b := parse(t, `<!DOCTYPE html><style nonce=""></style><p nonce>a</p>`)
	if diffs, _ := Compare(a, b); len(diffs) != 0 {
		t.Errorf("nonce values compared: %v", diffs)
	}
	c := parse(t, `<!DOCTYPE html><style nonce="abc"></style><p>a</p>`)
	if diffs, _ := Compare(a, c); len(diffs) != 1 || diffs[0].What != Node {
		t.Errorf("a missing nonce attribute: %v", diffs)
	}
}

// frameTree is a body holding one iframe with the given flags.
func frameTree(t *testing.T, flags domtree.Flags) *domtree.Tree {
	t.Helper()
	b := domtree.NewBuilder(4)
	html, err := b.AddElement(0, "html", nil, domtree.ElementInfo{Display: domtree.DisplayBlock})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := b.AddElement(html, "body", nil, domtree.ElementInfo{Display: domtree.DisplayBlock})
	if _, err := b.AddElement(body, "iframe", nil, domtree.ElementInfo{Flags: flags}); err != nil {
		t.Fatal(err)
	}
	return b.Build()
}

// TestFrameOwnerComparedOneWay: an offline frame owner that live shows
// without its document is no difference; the other way round it is, and
// other flags are always compared.
func TestFrameOwnerComparedOneWay(t *testing.T) {
	owner, none := frameTree(t, domtree.FrameOwner), frameTree(t, 0)
	if diffs, _ := Compare(owner, none); len(diffs) != 0 {
		t.Errorf("offline owner, live none: %v", diffs)
	}
	if diffs, _ := Compare(none, owner); len(diffs) != 1 || diffs[0].What != State {
		t.Errorf("offline none, live owner: %v", diffs)
	}
	if diffs, _ := Compare(frameTree(t, domtree.FrameOwner|domtree.ShadowHost), none); len(diffs) != 1 || !strings.Contains(diffs[0].OfflineState, "flags=1") {
		t.Errorf("shadow host offline only: %v", diffs)
	}
	if diffs, _ := Compare(owner, owner); len(diffs) != 0 {
		t.Errorf("same: %v", diffs)
	}
}

// TestScrubbed: text under a textarea or anywhere inside an editing host,
// a contenteditable=false island in it included, is what the scrub empties;
// text outside hosts, under contenteditable=false or an unknown value, and
// comments are not.
func TestScrubbed(t *testing.T) {
	tr := parse(t, `<!DOCTYPE html><p>a</p><div contenteditable>b<i>c<span contenteditable=false>d</span></i></div>`+
		`<span contenteditable=false>e</span><span contenteditable=PLAINTEXT-ONLY>f</span><span contenteditable=bogus>g</span><!--h-->`)
	var got []string
	root := tr.Root()
	for n := root; n.Valid(); n = n.Next(root, true) {
		if Scrubbed(n) {
			got = append(got, n.Data())
		}
	}
	if strings.Join(got, " ") != "b c d f" {
		t.Errorf("scrubbed texts %q, want b c d f", got)
	}
	// The tree builder never keeps a textarea's text; the rule still names
	// the node, as the scrub does.
	ta := parse(t, `<!DOCTYPE html><textarea>x</textarea>`)
	var n domtree.Node
	for n = ta.Root(); n.Valid() && n.Kind() != domtree.Text; n = n.Next(ta.Root(), true) {
	}
	if !n.Valid() || !Scrubbed(n) {
		t.Errorf("text under a textarea not scrubbed: %v", n.Valid())
	}
}

// editableTree is a body holding a paragraph of text p and an editing host
// of text typed with a bold child of text more, built as a capture is, so
// that its texts may be empty.
func editableTree(t *testing.T, p, typed, more string) *domtree.Tree {
	t.Helper()
	block := domtree.ElementInfo{Display: domtree.DisplayBlock}
	b := domtree.NewBuilder(8)
	html, err := b.AddElement(0, "html", nil, block)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := b.AddElement(html, "body", nil, block)
	// The builder takes nodes in tree order.
	para, _ := b.AddElement(body, "p", nil, block)
	text := func(parent int, s string) {
		if _, err := b.AddText(parent, s, 0); err != nil {
			t.Fatal(err)
		}
	}
	text(para, p)
	host, _ := b.AddElement(body, "div", []domtree.Attr{{Name: "contenteditable", Value: ""}}, block)
	text(host, typed)
	bold, _ := b.AddElement(host, "b", nil, domtree.ElementInfo{})
	text(bold, more)
	return b.Build()
}

// TestCompareSaved: the offline tree's typed text is compared as the empty
// text a saved capture holds; typed text the capture still holds, or any
// other text, is a difference.
func TestCompareSaved(t *testing.T) {
	page, saved := editableTree(t, "a", "typed", "more"), editableTree(t, "a", "", "")
	if diffs, _ := Compare(page, saved); len(diffs) != 1 || diffs[0].What != Node {
		t.Fatalf("Compare: %v", diffs)
	}
	if diffs, n := CompareSaved(page, saved); len(diffs) != 0 || n != 9 {
		t.Errorf("CompareSaved, scrubbed live: %d nodes, %v", n, diffs)
	}
	if diffs, _ := CompareSaved(page, page); len(diffs) != 1 || !strings.Contains(diffs[0].String(), `offline text "", live text "typed"`) {
		t.Errorf("CompareSaved, live not scrubbed: %v", diffs)
	}
	if diffs, _ := CompareSaved(editableTree(t, "b", "typed", "more"), saved); len(diffs) != 1 || diffs[0].What != Node {
		t.Errorf("CompareSaved, other text: %v", diffs)
	}
}
