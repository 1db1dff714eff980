package snapshot

import (
	"bytes"
	"errors"
	"testing"

	"github.com/domsnap/domsnap/errcode"
)

// TestScrubEnvelope: ScrubEnvelope scrubs once and WriteSnapshot then writes
// the same file as from the raw capture; a capture changed after the scrub
// is scrubbed again, so a value put back cannot be written; a capture the
// scrub cannot read is an error, never an envelope without a capture.
func TestScrubEnvelope(t *testing.T) {
	raw, canaries := plantCanaries(t, readChromium(t, "features"), "CANARY")
	e := Envelope{Revision: "r1.abc.n1.o1", CapturedAt: "2026-11-30T08:00:00Z", Capture: raw}
	var want bytes.Buffer
	if err := WriteSnapshot(&want, e, false); err != nil {
		t.Fatal(err)
	}
	se, err := ScrubEnvelope(e)
	if err != nil {
		t.Fatal(err)
	}
	if !se.scrubbed() {
		t.Fatal("a fresh ScrubEnvelope result is not known scrubbed")
	}
	for _, c := range canaries {
		if bytes.Contains(se.Capture, []byte(c)) {
			t.Errorf("canary %s in the scrubbed envelope", c)
		}
	}
	var got bytes.Buffer
	if err := WriteSnapshot(&got, se, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want.Bytes(), got.Bytes()) {
		t.Error("the file written from a ScrubEnvelope result differs from the one written from the raw capture")
	}

	// Put the raw capture back: the sum no longer matches and WriteSnapshot
	// scrubs it as any other.
	tampered := se
	tampered.Capture = raw
	if tampered.scrubbed() {
		t.Fatal("a changed capture is still known scrubbed")
	}
	got.Reset()
	if err := WriteSnapshot(&got, tampered, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range canaries {
		if bytes.Contains(got.Bytes(), []byte(c)) {
			t.Errorf("canary %s written from a capture changed after the scrub", c)
		}
	}

	// Decodable, yet not scrubbable: a repeated member the scrub rebuilds.
	dup := []byte(`{"documents":[],"strings":[],"documents":[]}`)
	_, err = ScrubEnvelope(Envelope{Revision: "r1.abc.n1.o1", Capture: dup})
	var ce *errcode.Error
	if !errors.As(err, &ce) || ce.Code != errcode.MalformedSnapshot || ce.Path != "/capture/documents" {
		t.Errorf("got %v, want malformed_snapshot at /capture/documents", err)
	}
}
