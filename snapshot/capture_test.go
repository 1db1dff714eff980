package snapshot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mafredri/cdp/protocol/domsnapshot"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// dumpNode renders everything the tree holds about one node on one line.
func dumpNode(n domtree.Node) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d<%d %s", n.Index(), n.Parent().Index(), n.Kind())
	switch n.Kind() {
	case domtree.Element:
		fmt.Fprintf(&b, " %s", n.Name())
		for _, a := range n.Attrs() {
			fmt.Fprintf(&b, " %s=%q", a.Name, a.Value)
		}
		fmt.Fprintf(&b, " display=%s visibility=%s flags=%d checked=%t", n.Display(), n.Visibility(), n.Flags(), n.Checked())
	default:
		fmt.Fprintf(&b, " %q", n.Data())
	}
	fmt.Fprintf(&b, " excluded=%t backend=%d", n.Excluded(), n.BackendNodeID())
	return b.String()
}

// dumpTree renders a whole tree, one node a line, in tree order.
func dumpTree(t *domtree.Tree) []string {
	var out []string
	for n := range t.All() {
		out = append(out, dumpNode(n))
	}
	return out
}

func readChromium(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "chromium", name+".capture.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// findElement returns the first element named name whose attribute attr
// equals val (any element of that name when attr is "").
func findElement(t *testing.T, tr *domtree.Tree, name, attr, val string) domtree.Node {
	t.Helper()
	for n := range tr.All() {
		if v, ok := n.Attr(attr); n.Is(name) && (attr == "" || ok && v == val) {
			return n
		}
	}
	t.Fatalf("no <%s %s=%q>", name, attr, val)
	return domtree.Node{}
}

// TestChromiumFeatures checks the tree of a real Chromium 156 capture of a
// page exercising each shape the decoder must handle.
func TestChromiumFeatures(t *testing.T) {
	tr, err := DecodeCapture(readChromium(t, "features"), CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for n := range tr.All() {
		if strings.HasPrefix(n.Name(), "::") {
			t.Errorf("pseudo-element in the tree: %s", dumpNode(n))
		}
	}
	type want struct {
		name, attr, val string
		display         domtree.Display
		vis             domtree.Visibility
		excluded        bool
		flags           domtree.Flags
		checked         bool
		children        int // -1: not checked
	}
	for _, w := range []want{
		{"p", "id", "x", domtree.DisplayBlock, domtree.Visible, false, 0, false, 1}, // ::before left out
		{"li", "", "", domtree.DisplayBlock, domtree.Visible, false, 0, false, 1},   // ::marker left out
		{"div", "class", "c", domtree.DisplayBlock, domtree.Visible, false, 0, false, -1},
		{"div", "class", "h", domtree.DisplayBlock, domtree.Hidden, false, 0, false, -1},
		{"span", "style", "visibility:visible", domtree.DisplayInline, domtree.Visible, false, 0, false, -1},
		{"div", "class", "n", domtree.DisplayNone, domtree.Visible, true, 0, false, -1},
		{"template", "id", "t", domtree.DisplayNone, domtree.Visible, true, domtree.TemplateContents, false, 0},
		{"div", "id", "host", domtree.DisplayBlock, domtree.Visible, false, domtree.ShadowHost, false, 0},
		{"iframe", "", "", domtree.DisplayInline, domtree.Visible, false, domtree.FrameOwner, false, 0},
		{"input", "type", "checkbox", domtree.DisplayInline, domtree.Visible, false, 0, true, 0},
		{"input", "type", "radio", domtree.DisplayInline, domtree.Visible, false, 0, true, 0},
		{"input", "type", "hidden", domtree.DisplayNone, domtree.Visible, true, 0, false, 0},
		{"option", "", "", domtree.DisplayNone, domtree.Visible, true, 0, false, 1},
		{"span", "style", "display:inline-block", domtree.DisplayInline, domtree.Visible, false, 0, false, -1},
		{"span", "style", "display:inline flow-root", domtree.DisplayInline, domtree.Visible, false, 0, false, -1},
		{"summary", "", "", domtree.DisplayBlock, domtree.Visible, false, 0, false, 1},
		{"td", "", "", domtree.DisplayBlock, domtree.Visible, false, 0, false, -1},
		{"head", "", "", domtree.DisplayNone, domtree.Visible, true, 0, false, -1},
	} {
		n := findElement(t, tr, w.name, w.attr, w.val)
		got := want{w.name, w.attr, w.val, n.Display(), n.Visibility(), n.Excluded(), n.Flags(), n.Checked(), w.children}
		if w.children >= 0 {
			got.children = 0
			for range n.Children() {
				got.children++
			}
		}
		if diff := cmp.Diff(w, got, cmp.AllowUnexported(want{})); diff != "" {
			t.Errorf("<%s %s=%q> (-want +got):\n%s", w.name, w.attr, w.val, diff)
		}
	}
	ta := findElement(t, tr, "textarea", "", "")
	if c := ta.FirstChild(); !c.Valid() || c.Data() != "" {
		t.Errorf("textarea text node missing or not empty: %s", dumpNode(c))
	}
	if _, ok := findElement(t, tr, "input", "name", "a").Attr("value"); ok {
		t.Error("text input kept its value attribute")
	}
	if !tr.HasBackendIDs() || tr.Root().BackendNodeID() == 0 {
		t.Error("backend node ids not recorded")
	}
	if tr.At(1).Kind() != domtree.Doctype || tr.At(1).Data() != "html" {
		t.Errorf("doctype: %s", dumpNode(tr.At(1)))
	}
}

// TestChromiumShadowAndContents covers flat-tree shapes: closed and open
// shadow roots with slotted and unslotted light children, display: contents
// under visibility: hidden, svg with foreignObject, comments and
// visibility: collapse.
func TestChromiumShadowAndContents(t *testing.T) {
	tr, err := DecodeCapture(readChromium(t, "shadow"), CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"h1", "h2"} {
		h := findElement(t, tr, "div", "id", id)
		if h.Flags() != domtree.ShadowHost || h.FirstChild().Valid() {
			t.Errorf("host %s: %s, first child %s", id, dumpNode(h), dumpNode(h.FirstChild()))
		}
	}
	c := findElement(t, tr, "div", "style", "display:contents")
	if c.Display() != domtree.DisplayBlock || c.Visibility() != domtree.Hidden || c.Excluded() {
		t.Errorf("display: contents under visibility: hidden: %s", dumpNode(c))
	}
	fo := findElement(t, tr, "foreignobject", "", "")
	if fo.Display() != domtree.DisplayBlock || !fo.Parent().Is("svg") {
		t.Errorf("foreignObject: %s", dumpNode(fo))
	}
	if v := findElement(t, tr, "svg", "", "").AttrValue("viewbox"); v != "0 0 1 1" {
		t.Errorf("svg viewBox attribute = %q", v)
	}
	if !findElement(t, tr, "p", "hidden", "").Excluded() {
		t.Error("p[hidden] not excluded")
	}
	if td := findElement(t, tr, "td", "", ""); td.Visibility() != domtree.Hidden {
		t.Errorf("cell under visibility: collapse: %s", dumpNode(td))
	}
	var comments int
	for n := range tr.All() {
		if n.Kind() == domtree.Comment && n.Data() == " comment " {
			comments++
		}
	}
	if comments != 1 {
		t.Errorf("comments = %d, want 1", comments)
	}
}

// TestFromReplyAgrees decodes the same captures through encoding/json into
// mafredri/cdp's reply type and FromReply: the trees must be identical.
func TestFromReplyAgrees(t *testing.T) {
	for _, name := range []string{"features", "shadow"} {
		data := readChromium(t, name)
		want, err := DecodeCapture(data, CaptureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var r domsnapshot.CaptureSnapshotReply
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		got, err := fromReply(&r, CaptureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(dumpTree(want), dumpTree(got)); diff != "" {
			t.Errorf("%s: DecodeCapture and FromReply differ (-DecodeCapture +FromReply):\n%s", name, diff)
		}
	}
}

// featuresWithCanaries is the features capture with values planted where
// a person types or a page pre-fills them: inputValue and textValue, each
// input's value attribute and each textarea's text. The committed capture
// is scrubbed, so the values are put back for the decoder to ignore.
func featuresWithCanaries(t *testing.T) ([]byte, []string) {
	return plantCanaries(t, readChromium(t, "features"), "CANARY")
}

func TestCanaryNeverInTree(t *testing.T) {
	data, canaries := featuresWithCanaries(t)
	for _, c := range canaries {
		if !strings.Contains(string(data), `"`+c+`"`) {
			t.Fatalf("fixture lost canary %s", c)
		}
	}
	check := func(how string, tr *domtree.Tree) {
		for _, line := range dumpTree(tr) {
			for _, c := range canaries {
				if strings.Contains(line, c) {
					t.Errorf("%s: canary %s in the tree: %s", how, c, line)
				}
			}
		}
	}
	tr, err := DecodeCapture(data, CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("DecodeCapture", tr)
	var r domsnapshot.CaptureSnapshotReply
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	tr, err = fromReply(&r, CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("FromReply", tr)
}

// TestMalformedCodes checks that errors carry the code, package and path.
func TestErrorShape(t *testing.T) {
	_, err := DecodeCapture([]byte(`{"documents":[],"strings":[]}`), CaptureOptions{})
	var e *errcode.Error
	if !errorsAs(err, &e) || e.Code != errcode.MalformedSnapshot || e.Pkg != "snapshot" || e.Path != "/documents" {
		t.Fatalf("got %#v", err)
	}
}

func errorsAs(err error, e **errcode.Error) bool {
	x, ok := err.(*errcode.Error)
	if ok {
		*e = x
	}
	return ok
}

// TestChromiumControls covers a Chromium 156 capture with ::first-letter,
// a base-select <select> (::picker-icon, <selectedcontent>), replaced and
// form elements, an open details, ::after and ::marker on one item, MathML,
// ruby, an open dialog and an about:blank iframe.
func TestChromiumControls(t *testing.T) {
	tr, err := DecodeCapture(readChromium(t, "controls"), CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for n := range tr.All() {
		if strings.HasPrefix(n.Name(), "::") || n.Flags()&domtree.ShadowHost != 0 {
			t.Errorf("unexpected node: %s", dumpNode(n))
		}
	}
	for _, c := range []struct {
		name    string
		display domtree.Display
		kids    int
	}{
		{"p", domtree.DisplayBlock, 1}, {"select", domtree.DisplayInline, 3}, {"selectedcontent", domtree.DisplayBlock, 1},
		{"button", domtree.DisplayBlock, 1}, {"video", domtree.DisplayInline, 0}, {"math", domtree.DisplayInline, 1},
		{"mi", domtree.DisplayBlock, 1}, {"ruby", domtree.DisplayInline, 2}, {"rt", domtree.DisplayBlock, 1},
		{"li", domtree.DisplayBlock, 1}, {"dialog", domtree.DisplayBlock, 1}, {"iframe", domtree.DisplayInline, 0},
		{"br", domtree.DisplayInline, 0}, {"details", domtree.DisplayBlock, 2},
	} {
		n := findElement(t, tr, c.name, "", "")
		kids := 0
		for range n.Children() {
			kids++
		}
		if n.Display() != c.display || kids != c.kids {
			t.Errorf("<%s>: display %s with %d children, want %s with %d", c.name, n.Display(), kids, c.display, c.kids)
		}
	}
	if f := findElement(t, tr, "iframe", "", ""); f.Flags() != domtree.FrameOwner {
		t.Errorf("iframe: %s", dumpNode(f))
	}
	if d := findElement(t, tr, "details", "", ""); d.LastChild().Data() != "open body" || d.LastChild().Excluded() {
		t.Errorf("open details body: %s", dumpNode(d.LastChild()))
	}
}
