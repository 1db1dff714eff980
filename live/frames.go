package live

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/domsnap/domsnap/internal/capture"
)

// withFrames applies the session's policy to the frame documents of a
// whole capture (docs/reference.md#the-composed-page): under a Guard, a
// frame document whose origin the policy refuses is left out, with every
// document inside it, and nothing of it stays in the bytes
// (capture.ScrubFrames, which also takes the values out, as the session's
// own scrub would again). The composed tree then counts such a frame as
// omitted and no reference can name anything in it, so no action reaches
// into it. A capture of one document, or of a tab without a Guard, is
// returned as it is.
func (p *Page) withFrames(_ context.Context, raw json.RawMessage) (json.RawMessage, error) {
	g := p.guard.Load()
	if g == nil || !hasFrameDocuments(raw) {
		return raw, nil
	}
	out, err := capture.ScrubFrames(raw, g.allow)
	if err != nil {
		// The capture's own reader reports what is wrong with it; a
		// capture that cannot be read is never used.
		return nil, err
	}
	return out, nil
}

// hasFrameDocuments reports whether a capture's bytes may list a frame
// document: some owner's contentDocumentIndex is not empty. It errs
// towards yes.
func hasFrameDocuments(raw []byte) bool {
	const table = `"contentDocumentIndex":{"index":[`
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte(table))
		if j < 0 {
			return false
		}
		i += j + len(table)
		if i < len(raw) && raw[i] != ']' {
			return true
		}
	}
}
