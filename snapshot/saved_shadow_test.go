package snapshot

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
)

// TestSavedCaptureKeepsShadowRoots: a live capture of a page of shadow
// roots, with a canary planted wherever a value sits, is saved and read
// again: the saved file holds no canary, and the tree read from it has the
// composed twin with the shadow content (open and closed roots, slotted
// nodes under their slots) node for node as the capture itself gives.
func TestSavedCaptureKeepsShadowRoots(t *testing.T) {
	orig, err := os.ReadFile("../testdata/captures/shadow-composed.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, canaries := plantCanaries(t, orig, "CANARY-SAVED-SHADOW")
	if len(canaries) == 0 {
		t.Fatal("no canary planted: the page has fields in its shadow roots")
	}
	direct, err := DecodeCapture(raw, CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	e := Envelope{Revision: "r1.abc.n1.o1", CapturedAt: "2026-12-05T03:00:00Z", Capture: raw}
	if err := WriteSnapshot(&file, e, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range canaries {
		if bytes.Contains(file.Bytes(), []byte(c)) {
			t.Errorf("the saved file holds %s", c)
		}
	}
	in, err := Load(file.Bytes(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, got := direct.Composed(), in.Tree.Composed()
	if got == in.Tree || !got.HasShadow() {
		t.Fatal("the saved capture lost its shadow roots")
	}
	if want.Len() != got.Len() {
		t.Fatalf("composed tree of %d nodes saved, %d captured", got.Len(), want.Len())
	}
	shadowText := 0
	for i := 0; i < want.Len(); i++ {
		w, g := want.At(i), got.At(i)
		if w.Kind() != g.Kind() || w.Name() != g.Name() || w.Scope() != g.Scope() || w.Excluded() != g.Excluded() {
			t.Fatalf("node %d: captured %s %q scope %d, saved %s %q scope %d", i, w.Kind(), w.Name(), w.Scope(), g.Kind(), g.Name(), g.Scope())
		}
		if g.Kind() == domtree.Text && g.InShadow() && strings.TrimSpace(g.Data()) != "" {
			shadowText++
		}
	}
	if shadowText == 0 {
		t.Error("no text of a shadow tree in the saved capture's composed tree")
	}
}

// TestSavedCaptureKeepsShadowHosts: the shadowHosts member a live capture
// adds (an element hosting a root of the same mode as the tree it lies in)
// survives saving, and splits the scopes it names: a capture of a closed
// root holding two closed hosts, each with an input id=f, one labelled in
// its own tree.
func TestSavedCaptureKeepsShadowHosts(t *testing.T) {
	// document, html, body, x-o (light host), x-a (closed, host), label
	// for=f, text, x-b (closed, host), input id=f.
	capture := `{"documents":[{"nodes":{
"parentIndex":[-1,0,1,2,3,4,5,3,7],
"nodeType":[9,1,1,1,1,1,3,1,1],
"nodeName":[0,1,2,3,4,5,6,7,8],
"nodeValue":[-1,-1,-1,-1,-1,-1,9,-1,-1],
"backendNodeId":[1,2,3,4,5,6,7,8,9],
"attributes":[[],[],[],[],[],[10,11],[],[],[12,11]],
"shadowRootType":{"index":[4,5,6,7,8],"value":[13,13,13,13,13]}},
"layout":{"nodeIndex":[1,2,3,4,5,7,8],"styles":[[14,15],[14,15],[14,15],[14,15],[14,15],[14,15],[14,15]]}}],
"strings":["#document","HTML","BODY","X-O","X-A","LABEL","#text","X-B","INPUT","Name","for","f","id","closed","block","visible"]`
	name := func(data string) string {
		tr, err := DecodeCapture([]byte(data), CaptureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c := tr.Composed()
		for n := range c.All() {
			if n.Is("input") {
				labels := 0
				for range n.LabelsFor("f") {
					labels++
				}
				return strconv.Itoa(labels)
			}
		}
		t.Fatal("no input")
		return ""
	}
	// Without the member, x-a's and x-b's roots share a scope.
	if got := name(capture + "}"); got != "1" {
		t.Errorf("without shadowHosts: %s labels, want the shared scope's 1", got)
	}
	withHosts := capture + `,"shadowHosts":[4,7]}`
	if got := name(withHosts); got != "0" {
		t.Errorf("with shadowHosts: %s labels, want none across the roots", got)
	}
	var file bytes.Buffer
	if err := WriteSnapshot(&file, Envelope{Revision: "r1.abc.n1.o1", Capture: []byte(withHosts)}, false); err != nil {
		t.Fatal(err)
	}
	in, err := Load(file.Bytes(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for n := range in.Tree.Composed().All() {
		if n.Is("input") {
			for range n.LabelsFor("f") {
				t.Error("the saved capture lost its shadowHosts member")
			}
		}
	}
	bad := capture + `,"shadowHosts":[6]}`
	if _, err := DecodeCapture([]byte(bad), CaptureOptions{}); err == nil {
		t.Error("a text node named as a host was accepted")
	}
}

// TestSavedCaptureKeepsFrameShadowHosts: the frameShadowHosts member does
// for a frame document what shadowHosts does for the main document: the
// capture of TestSavedCaptureKeepsShadowHosts, here the document of an
// iframe, has its two closed roots split only when the member names their
// hosts (as pairs of the document's index and the node's), keeps them
// split once saved, and is refused when the member names no element of a
// frame document.
func TestSavedCaptureKeepsFrameShadowHosts(t *testing.T) {
	// documents[0]: document, html, body, iframe owning documents[1].
	// documents[1]: document, html, body, x-o (light host), x-a (closed,
	// host), label for=f, text, x-b (closed, host), input id=f.
	capture := `{"documents":[{"nodes":{
"parentIndex":[-1,0,1,2],
"nodeType":[9,1,1,1],
"nodeName":[0,1,2,16],
"nodeValue":[-1,-1,-1,-1],
"backendNodeId":[1,2,3,4],
"attributes":[[],[],[],[]],
"contentDocumentIndex":{"index":[3],"value":[1]}},
"layout":{"nodeIndex":[1,2,3],"styles":[[14,15],[14,15],[14,15]]}},
{"nodes":{
"parentIndex":[-1,0,1,2,3,4,5,3,7],
"nodeType":[9,1,1,1,1,1,3,1,1],
"nodeName":[0,1,2,3,4,5,6,7,8],
"nodeValue":[-1,-1,-1,-1,-1,-1,9,-1,-1],
"backendNodeId":[11,12,13,14,15,16,17,18,19],
"attributes":[[],[],[],[],[],[10,11],[],[],[12,11]],
"shadowRootType":{"index":[4,5,6,7,8],"value":[13,13,13,13,13]}},
"layout":{"nodeIndex":[1,2,3,4,5,7,8],"styles":[[14,15],[14,15],[14,15],[14,15],[14,15],[14,15],[14,15]]}}],
"strings":["#document","HTML","BODY","X-O","X-A","LABEL","#text","X-B","INPUT","Name","for","f","id","closed","block","visible","IFRAME"]`
	labels := func(data string) int {
		tr, err := DecodeCapture([]byte(data), CaptureOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return frameInputLabels(t, tr.Composed())
	}
	if got := labels(capture + "}"); got != 1 {
		t.Errorf("without frameShadowHosts: %d labels, want the shared scope's 1", got)
	}
	// The main document's member says nothing of the frame's nodes.
	if got := labels(capture + `,"shadowHosts":[3]}`); got != 1 {
		t.Errorf("with the main document's shadowHosts: %d labels, want 1", got)
	}
	withHosts := capture + `,"frameShadowHosts":[1,4,1,7]}`
	if got := labels(withHosts); got != 0 {
		t.Errorf("with frameShadowHosts: %d labels, want none across the roots", got)
	}
	var file bytes.Buffer
	if err := WriteSnapshot(&file, Envelope{Revision: "r1.abc.n1.o1", Capture: []byte(withHosts)}, false); err != nil {
		t.Fatal(err)
	}
	in, err := Load(file.Bytes(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := frameInputLabels(t, in.Tree.Composed()); got != 0 {
		t.Error("the saved capture lost its frameShadowHosts member")
	}
	for _, bad := range []string{
		`"frameShadowHosts":[1,6]`,                          // a text node
		`"frameShadowHosts":[1,4,1]`,                        // half a pair
		`"frameShadowHosts":[2,4]`,                          // no second frame document
		`"frameShadowHosts":[0,3]`,                          // the main document is not a frame's
		`"frameAssignedSlots":[1,9]`,                        // past the document's nodes
		`"frameShadowHosts":[1,4],"frameShadowHosts":[1,7]`, // twice
	} {
		if _, err := DecodeCapture([]byte(capture+","+bad+"}"), CaptureOptions{}); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

// frameInputLabels counts the labels of the input id=f in a composed tree.
func frameInputLabels(t *testing.T, c *domtree.Tree) int {
	t.Helper()
	for n := range c.All() {
		if n.Is("input") {
			labels := 0
			for range n.LabelsFor("f") {
				labels++
			}
			return labels
		}
	}
	t.Fatal("no input in the composed tree")
	return 0
}
