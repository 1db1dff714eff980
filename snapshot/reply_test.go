package snapshot

import (
	"github.com/mafredri/cdp/protocol/domsnapshot"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/capture/cdpreply"
)

// fromReply is live.FromReply, which this package's tests cannot import
// (live imports snapshot): the same decoder behind it, so the tests that
// hold the two ways in to one tree still run beside the captures.
func fromReply(r *domsnapshot.CaptureSnapshotReply, opts CaptureOptions) (*domtree.Tree, error) {
	return cdpreply.Build(r, opts.ComputedStyles)
}

// DOM node types of the protocol (the DOM's Node.nodeType), for the tests
// that write captures.
const (
	nodeElement     = 1
	nodeText        = 3
	nodeCDATA       = 4
	nodeProcInstr   = 7
	nodeComment     = 8
	nodeDocument    = 9
	nodeDoctype     = 10
	nodeDocFragment = 11
)
