package live

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/snapshot"
)

// envelopeCapture has a typed value, a pre-filled value attribute, a
// textarea text and value, a selected option and a button caption.
const envelopeCapture = `{"documents":[{"nodes":{"parentIndex":[-1,0,0,0,3,0,0],"nodeType":[9,1,1,1,3,1,1],` +
	`"nodeName":[0,1,2,3,4,5,2],"nodeValue":[-1,-1,-1,-1,6,-1,-1],"attributes":[[],[],[7,8],[],[],[],[9,10,7,11]],` +
	`"inputValue":{"index":[2],"value":[12]},"textValue":{"index":[3],"value":[13]},"optionSelected":{"index":[5]}},` +
	`"layout":{"nodeIndex":[0,1,2,3,6],"styles":[[],[14,15],[14,15],[14,15],[14,15]]}}],` +
	`"strings":["#document","HTML","INPUT","TEXTAREA","#text","OPTION","CANARY-AREA","value","CANARY-ATTR","type","submit","Send","CANARY-TYPED","CANARY-TAVAL","inline","visible"]}`

func TestEnvelopeScrubs(t *testing.T) {
	s := &Snapshot{Revision: "r1.0123456789abcdef.n1.o1", Capture: []byte(envelopeCapture),
		ComputedStyles: DefaultComputedStyles, CapturedAt: time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), Browser: "Chrome/156"}
	e := s.Envelope()
	for _, c := range []string{"CANARY-AREA", "CANARY-ATTR", "CANARY-TYPED", "CANARY-TAVAL", "optionSelected"} {
		if !bytes.Contains(s.Capture, []byte(c)) {
			t.Fatalf("%s not in the capture: the test would prove nothing", c)
		}
		if bytes.Contains(e.Capture, []byte(c)) {
			t.Errorf("%s in the envelope", c)
		}
	}
	if !bytes.Contains(e.Capture, []byte(`"Send"`)) {
		t.Error("the submit button's caption was scrubbed")
	}
	var file bytes.Buffer
	if err := snapshot.WriteSnapshot(&file, e, false); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(file.Bytes(), []byte("CANARY")) {
		t.Error("a canary in the written file")
	}
	in, err := snapshot.Load(file.Bytes(), snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := snapshot.DecodeCapture(s.Capture, snapshot.CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Len() != in.Tree.Len() || in.Revision != s.Revision {
		t.Errorf("loaded %d nodes at %s, want %d at %s", in.Tree.Len(), in.Revision, want.Len(), s.Revision)
	}
	// An unreadable capture leaves the envelope without one, and writing
	// it fails instead of saving values.
	bad := &Snapshot{Revision: s.Revision, Capture: []byte(`{"documents":[{"nodes":{"nodeType":[1],"nodeName":[9],"attributes":[[]]}}],"strings":[]}`)}
	if e := bad.Envelope(); e.Capture != nil {
		t.Errorf("unreadable capture kept: %s", e.Capture)
	}
	if err := snapshot.WriteSnapshot(&file, bad.Envelope(), false); err == nil {
		t.Error("an envelope without a capture was written")
	}
	if diff := cmp.Diff(DefaultComputedStyles, e.ComputedStyles); diff != "" {
		t.Errorf("styles (-want +got):\n%s", diff)
	}
}
