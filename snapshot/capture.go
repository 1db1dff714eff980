package snapshot

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/limits"
)

// The capture decoder and the scrub are internal/capture; this file is
// their public face, which keeps the names callers have always used. A
// reply already decoded by the CDP client is live.FromReply's: this package
// does not link that client.

// DefaultComputedStyles returns the computed styles, in order, that every live
// capture requests and that a capture without other information is assumed
// to carry (docs/reference.md#visibility): display decides rendering,
// visibility decides invisibility, and no other style is read. Each call
// returns a fresh slice, so no caller can change what another one sees.
func DefaultComputedStyles() []string { return capture.DefaultComputedStyles() }

// CaptureOptions says how a captureSnapshot result was taken.
type CaptureOptions struct {
	// ComputedStyles are the names of the computed styles the capture
	// requested, in the order requested: each layout object's styles array
	// is parallel to it. Nil means DefaultComputedStyles. It must name
	// display and visibility.
	ComputedStyles []string
}

// DecodeCapture builds the tree of the main document of a
// DOMSnapshot.captureSnapshot result given as wire JSON
// ({"documents":[...],"strings":[...]}). Any inconsistency is a
// malformed_snapshot error with a JSON-pointer path.
func DecodeCapture(data []byte, opts CaptureOptions) (*domtree.Tree, error) {
	return capture.Decode(data, opts.ComputedStyles, limits.MaxTreeNodes)
}

// ScrubCapture returns a copy of a captureSnapshot result (wire JSON) with
// every form control value taken out, as the package's Scrubbing section
// says: the value tables, the value attribute of every input that is not a
// button, the text under a textarea or inside an editing host, and the
// strings only those referred to. The tree built from the result is the
// tree built from the input but for the text inside editing hosts, and
// scrubbing a scrubbed capture gives the same bytes. Input the scrub cannot
// read is malformed_snapshot: a capture that cannot be understood cannot be
// shown to be free of values. The work and memory are linear in the input
// size.
func ScrubCapture(raw []byte) ([]byte, error) { return capture.Scrub(raw) }
