package snapshot

import (
	"bytes"
	"os"
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
