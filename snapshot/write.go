package snapshot

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"io"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/capture"
)

// WriteSnapshot writes a saved snapshot envelope (docs/reference.md#saved-snapshots), gzip
// compressed when gz is true. The capture is always passed through
// ScrubCapture first (or was, by ScrubEnvelope, and holds the same bytes
// still), so the file holds no form control value whoever calls it; analysing the file gives the tree of the capture as given. The
// same envelope always gives the same bytes: members in a fixed order,
// strings escaped as encoding/json does with HTML escaping off, the
// scrubbed capture, one final newline, and a gzip header with no name and
// no time.
//
// An empty Format is written as FormatName; any other format is
// unsupported_input. A revision that is not one, a captured_at that is not
// RFC 3339, or a capture that is not one well-formed JSON object or that
// ScrubCapture cannot read is malformed_snapshot (with paths under
// /capture), since Load would refuse the file or it could not be shown to
// be free of values. A failing writer gives capture_failed.
func WriteSnapshot(w io.Writer, e Envelope, gz bool) error {
	if e.Format == "" {
		e.Format = FormatName
	}
	if e.Format != FormatName {
		return errcode.New(errcode.UnsupportedInput, pkgName, "/format", "unknown snapshot format "+errcode.Quote(e.Format))
	}
	if err := checkEnvelope(&e); err != nil {
		return err
	}
	if err := capture.CheckStyles(e.ComputedStyles); err != nil {
		return err
	}
	// Always scrubbed, so that no caller can write a value by forgetting
	// to: the secret rule wins over keeping the capture as sent. A capture
	// ScrubEnvelope scrubbed, and unchanged since, is not scrubbed twice.
	capt := e.Capture
	if !e.scrubbed() {
		s := capture.NewScanner(e.Capture)
		if s.Peek() != '{' {
			return capture.Coded(s.WrongType("/capture", "an object"))
		}
		var err error
		if capt, err = ScrubCapture(e.Capture); err != nil {
			return underCapture(err)
		}
	}
	styles := e.ComputedStyles
	if styles == nil {
		styles = DefaultComputedStyles()
	}

	var buf bytes.Buffer
	buf.Grow(len(capt) + 256)
	str := func(v any) {
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v) // strings and string slices always encode
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteString(`{"format":`)
	str(e.Format)
	buf.WriteString(`,"revision":`)
	str(e.Revision)
	buf.WriteString(`,"captured_at":`)
	str(e.CapturedAt)
	buf.WriteString(`,"browser":`)
	str(e.Browser)
	buf.WriteString(`,"computed_styles":`)
	str(styles)
	buf.WriteString(`,"capture":`)
	buf.Write(capt)
	buf.WriteString("}\n")

	if !gz {
		if _, err := w.Write(buf.Bytes()); err != nil {
			return errcode.Wrap(errcode.CaptureFailed, pkgName, "", "writing the snapshot", err)
		}
		return nil
	}
	zw := gzip.NewWriter(w) // the zero header: no name, no modification time
	if _, err := zw.Write(buf.Bytes()); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkgName, "", "writing the snapshot", err)
	}
	if err := zw.Close(); err != nil {
		return errcode.Wrap(errcode.CaptureFailed, pkgName, "", "writing the snapshot", err)
	}
	return nil
}

// ScrubEnvelope returns e with its capture passed through ScrubCapture, for
// a caller that holds a capture as the browser sent it and must keep no
// form value from the moment it arrives. The envelope remembers the
// scrubbed bytes by their SHA-256, so WriteSnapshot writes them without
// scrubbing them again as long as Capture still holds exactly those bytes
// (any change, and the capture is scrubbed anew). Errors are ScrubCapture's,
// with paths under /capture.
func ScrubEnvelope(e Envelope) (Envelope, error) {
	scrubbed, err := ScrubCapture(e.Capture)
	if err != nil {
		return Envelope{}, underCapture(err)
	}
	e.Capture = scrubbed
	e.scrubSum = sha256.Sum256(scrubbed)
	e.hasScrubSum = true
	return e, nil
}

// scrubbed reports whether Capture holds the bytes ScrubEnvelope made.
func (e *Envelope) scrubbed() bool {
	return e.hasScrubSum && sha256.Sum256(e.Capture) == e.scrubSum
}
