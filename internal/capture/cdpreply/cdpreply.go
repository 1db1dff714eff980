package cdpreply

import (
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/domsnapshot"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/capture"
)

// Build builds the tree of the main document of a captureSnapshot reply as
// mafredri/cdp decodes it, taken with the given computed styles (nil: the
// default ones), with the same checks as the wire decoder. The reply's input
// values, textarea values and option states are not read.
func Build(r *domsnapshot.CaptureSnapshotReply, styles []string) (*domtree.Tree, error) {
	var t *capture.Tables[domsnapshot.StringIndex, domsnapshot.ArrayOfStrings, dom.BackendNodeID]
	if r != nil {
		t = replyTables(r)
	}
	return capture.FromTables(t, styles)
}

// replyTables hands the reply's tables to the decoder as they are: slice
// headers only, nothing copied.
func replyTables(r *domsnapshot.CaptureSnapshotReply) *capture.Tables[domsnapshot.StringIndex, domsnapshot.ArrayOfStrings, dom.BackendNodeID] {
	t := &capture.Tables[domsnapshot.StringIndex, domsnapshot.ArrayOfStrings, dom.BackendNodeID]{
		Strings:   r.Strings,
		Documents: len(r.Documents),
	}
	if len(r.Documents) == 0 {
		return t
	}
	n := &r.Documents[0].Nodes
	t.ParentIndex, t.NodeType = n.ParentIndex, n.NodeType
	t.NodeName, t.NodeValue = n.NodeName, n.NodeValue
	t.BackendNodeID, t.Attributes = n.BackendNodeID, n.Attributes
	t.ShadowRootType = rareStrings(n.ShadowRootType)
	t.PseudoType = rareStrings(n.PseudoType)
	t.InputValue = rareStrings(n.InputValue)
	t.TextValue = rareStrings(n.TextValue)
	t.InputChecked = rareBools(n.InputChecked)
	t.OptionSelected = rareBools(n.OptionSelected)
	if c := n.ContentDocumentIndex; c != nil {
		t.ContentDocumentIndex = &capture.RareInts{Index: c.Index, Value: c.Value}
	}
	l := &r.Documents[0].Layout
	t.LayoutNodeIndex, t.LayoutStyles = l.NodeIndex, l.Styles
	return t
}

func rareStrings(d *domsnapshot.RareStringData) *capture.RareStrings[domsnapshot.StringIndex] {
	if d == nil {
		return nil
	}
	return &capture.RareStrings[domsnapshot.StringIndex]{Index: d.Index, Value: d.Value}
}

func rareBools(d *domsnapshot.RareBooleanData) *capture.RareBools {
	if d == nil {
		return nil
	}
	return &capture.RareBools{Index: d.Index}
}
