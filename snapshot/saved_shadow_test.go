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
