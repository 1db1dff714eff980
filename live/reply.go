package live

import (
	"github.com/mafredri/cdp/protocol/domsnapshot"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/capture/cdpreply"
	"github.com/domsnap/domsnap/snapshot"
)

// FromReply builds the tree of the main document of a captureSnapshot reply
// as mafredri/cdp decodes it, with the same checks as snapshot.DecodeCapture.
// The reply's input values, textarea values and option states are not read.
// It lives here, beside the CDP client, so that a program reading only
// saved snapshots and HTML never links that client.
func FromReply(r *domsnapshot.CaptureSnapshotReply, opts snapshot.CaptureOptions) (*domtree.Tree, error) {
	return cdpreply.Build(r, opts.ComputedStyles)
}
