package capture

import (
	"math"
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// Tables is a captureSnapshot result someone else has already decoded into
// Go values: the string table, the number of documents, and the main
// document's node and layout tables, each nil when the reply had none. The
// type parameters are the reply's own types for a string index (S), for a
// list of them (A) and for a backend node id (B), so a protocol client's reply fills Tables with slice
// headers alone, copying nothing, and this package needs no import of that
// client.
type Tables[S ~int, A ~[]S, B ~int] struct {
	Strings   []string
	Documents int

	ParentIndex, NodeType []int
	NodeName, NodeValue   []S
	BackendNodeID         []B
	Attributes            []A

	ShadowRootType, PseudoType, InputValue, TextValue *RareStrings[S]
	InputChecked, OptionSelected                      *RareBools
	ContentDocumentIndex                              *RareInts

	LayoutNodeIndex []int
	LayoutStyles    []A
}

// RareStrings is the protocol's RareStringData: node indexes and string
// indexes, parallel.
type RareStrings[S ~int] struct {
	Index []int
	Value []S
}

// RareBools is RareBooleanData: the node indexes for which it is true.
type RareBools struct{ Index []int }

// RareInts is RareIntegerData: node indexes and integers, parallel.
type RareInts struct{ Index, Value []int }

// FromTables builds the tree of the main document of a decoded reply, taken
// with the given computed styles (nil: the default ones), with the same
// checks as Decode. A nil t is no reply at all. The form-state tables are
// read for their indexes only, to check them; no value is looked up.
func FromTables[S ~int, A ~[]S, B ~int](t *Tables[S, A, B], styles []string) (*domtree.Tree, error) {
	sc, err := styleColumns(styles)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, Malformed("", "no reply")
	}
	rc, err := rawFromTables(t)
	if err != nil {
		return nil, err
	}
	return buildCapture(rc, sc)
}

// rawFromTables copies the tables the tree needs out of a decoded reply,
// checking that each integer fits the 32-bit indexes the tree uses.
func rawFromTables[S ~int, A ~[]S, B ~int](t *Tables[S, A, B]) (*rawCapture, error) {
	rc := &rawCapture{docCount: t.Documents, maxNodes: limits.MaxTreeNodes}
	rc.strs.strs = t.Strings
	if rc.strs.strs == nil {
		rc.strs.strs = []string{}
	}
	if t.Documents == 0 {
		return rc, nil
	}
	d := &rc.doc
	d.hasNodes, d.hasLayout = true, true
	d.url, d.frameID = -1, -1
	const np = "/documents/0/nodes/"
	var err error
	conv := func(name string, src []int, present *bool) []int32 {
		if err != nil || src == nil {
			return nil
		}
		*present = true
		out := make([]int32, len(src))
		for i, v := range src {
			if v < math.MinInt32 || v > math.MaxInt32 {
				err = Malformed(np+name+"/"+strconv.Itoa(i), "integer out of range")
				return nil
			}
			out[i] = int32(v)
		}
		return out
	}
	d.parent = conv("parentIndex", t.ParentIndex, &d.hasParent)
	d.nodeType = conv("nodeType", t.NodeType, &d.hasType)
	d.nodeName = conv("nodeName", stringIndexes(t.NodeName), &d.hasName)
	d.nodeValue = conv("nodeValue", stringIndexes(t.NodeValue), &d.hasValue)
	if t.BackendNodeID != nil {
		d.hasBackend = true
		d.backend = make([]int64, len(t.BackendNodeID))
		for i, v := range t.BackendNodeID {
			d.backend[i] = int64(v)
		}
	}
	if t.Attributes != nil {
		d.hasAttrs = true
		// A separate error: err may already hold a conv failure, which
		// must not be overwritten.
		var ferr error
		if d.attrs, d.attrStart, ferr = flattenLists(t.Attributes, np+"attributes"); ferr != nil {
			return nil, ferr
		}
	}
	rareS := func(name string, src *RareStrings[S], dst *rareStrings) {
		if src == nil || err != nil {
			return
		}
		var ok bool
		dst.present = true
		dst.index = conv(name+"/index", src.Index, &ok)
		dst.value = conv(name+"/value", stringIndexes(src.Value), &ok)
		if dst.index == nil {
			dst.index = []int32{}
		}
		if dst.value == nil {
			dst.value = []int32{}
		}
	}
	rareS("shadowRootType", t.ShadowRootType, &d.shadow)
	rareS("pseudoType", t.PseudoType, &d.pseudo)
	// Indexes only, for the check; the values stay in the reply.
	rareS("inputValue", t.InputValue, &d.inputValue)
	rareS("textValue", t.TextValue, &d.textValue)
	rareB := func(name string, src *RareBools, dst *rareBools) {
		if src == nil || err != nil {
			return
		}
		var ok bool
		dst.present = true
		dst.index = conv(name+"/index", src.Index, &ok)
	}
	rareB("inputChecked", t.InputChecked, &d.checked)
	rareB("optionSelected", t.OptionSelected, &d.optionSelected)
	if t.ContentDocumentIndex != nil && err == nil {
		var ok bool
		d.contentDoc.present = true
		d.contentDoc.index = conv("contentDocumentIndex/index", t.ContentDocumentIndex.Index, &ok)
		d.contentDoc.value = conv("contentDocumentIndex/value", t.ContentDocumentIndex.Value, &ok)
	}
	if err != nil {
		return nil, err
	}
	const lp = "/documents/0/layout/"
	d.layoutNode = convLayout(t.LayoutNodeIndex, &d.hasLayoutNode)
	for i, v := range t.LayoutNodeIndex {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return nil, Malformed(lp+"nodeIndex/"+strconv.Itoa(i), "integer out of range")
		}
	}
	if t.LayoutStyles != nil {
		d.hasStyles = true
		var ferr error
		if d.styles, d.styleStart, ferr = flattenLists(t.LayoutStyles, lp+"styles"); ferr != nil {
			return nil, ferr
		}
	}
	return rc, nil
}

// flattenLists turns a table of string-index lists (attributes, styles)
// into the flat form the wire decoder builds: every value in one slice and
// the start offset of each list, plus a final end offset. A value outside
// int32 is malformed, with the path of that value below path.
func flattenLists[S ~int, A ~[]S](src []A, path string) (flat, start []int32, err error) {
	start = make([]int32, 1, len(src)+1)
	for i, a := range src {
		for j, v := range a {
			if v < math.MinInt32 || v > math.MaxInt32 {
				return nil, nil, Malformed(path+"/"+strconv.Itoa(i)+"/"+strconv.Itoa(j), "integer out of range")
			}
			flat = append(flat, int32(v))
		}
		start = append(start, int32(len(flat)))
	}
	return flat, start, nil
}

func convLayout(src []int, present *bool) []int32 {
	if src == nil {
		return nil
	}
	*present = true
	out := make([]int32, len(src))
	for i, v := range src {
		out[i] = int32(v) // range checked by the caller
	}
	return out
}

func stringIndexes[S ~int](src []S) []int {
	if src == nil {
		return nil
	}
	out := make([]int, len(src))
	for i, v := range src {
		out[i] = int(v)
	}
	return out
}
