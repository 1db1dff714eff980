package capture

import "github.com/domsnap/domsnap/internal/jsonlex"

// rawCapture is what this package keeps of a captureSnapshot result between
// reading it and building the tree: only the main document's tables that
// the tree needs, as string-table indexes, plus a lazily decoded string
// table. Both ways in (wire JSON, and a decoded reply through FromTables)
// fill it, and one validation and one build serve both.
type rawCapture struct {
	docCount int
	// maxNodes bounds the main document's node count; validate refuses a
	// capture with more.
	maxNodes int
	strs     strtab
	doc      rawDoc
	// frames are documents[1:], the frame documents, in capture order; a
	// document a live capture left out (an empty object) has no nodes.
	frames []rawDoc
	// subs are the captures of out-of-process frames the live layer
	// added (subframesMember), each with the frame owner it belongs under.
	subs    []rawSub
	hasSubs bool
	// styleCache classifies each computed style string once, by index.
	styleCache []styleClass
	// nameCache holds lower-cased element and attribute names, by index.
	nameCache []string
	nameDone  []bool
	// lightIndex is each node's index in the light tree fillCapture built,
	// -1 for a node it left out.
	lightIndex []int32
	// shadowHosts are the nodes the live layer found to host a shadow
	// root (ShadowHostQuestions), when the capture says.
	shadowHosts    []int32
	hasShadowHosts bool
	// assignedSlots are the slots the live layer found to have assigned
	// nodes, whose children in the capture are those, not fallback.
	assignedSlots    []int32
	hasAssignedSlots bool
	// frameShadowHosts and frameAssignedSlots are the same for the frame
	// documents the capture holds, as pairs: a document index (1 or more)
	// then a node index of that document.
	frameShadowHosts      []int32
	hasFrameShadowHosts   bool
	frameAssignedSlots    []int32
	hasFrameAssignedSlots bool
}

// rawDoc holds documents[0]. Each optional table records whether it was
// present, so a table of the wrong length can be told from an absent one.
type rawDoc struct {
	hasNodes, hasLayout bool
	// url and frameID are the string indexes of the document's
	// documentURL and frameId, -1 when absent.
	url, frameID int32
	// bad marks a frame document that could not be read or validated:
	// it is not attached.
	bad bool

	parent, nodeType, nodeName, nodeValue []int32
	backend                               []int64
	// attributes flattened: node i's name/value indexes are
	// attrs[attrStart[i]:attrStart[i+1]].
	attrs, attrStart []int32

	hasParent, hasType, hasName, hasValue, hasBackend, hasAttrs bool

	shadow, pseudo rareStrings
	checked        rareBools
	contentDoc     rareInts
	// The tables of form control state: only their node and string
	// indexes are kept, to check them; no value is ever looked up.
	inputValue, textValue rareStrings
	optionSelected        rareBools

	// layout: node index per layout object and its computed style values,
	// flattened like attributes.
	layoutNode, styles, styleStart []int32
	hasLayoutNode, hasStyles       bool
}

// rareStrings is RareStringData: node indexes and string indexes, parallel.
type rareStrings struct {
	present      bool
	index, value []int32
}

// rareBools is RareBooleanData: the node indexes for which it is true.
type rareBools struct {
	present bool
	index   []int32
}

// rareInts is RareIntegerData: node indexes and integers, parallel.
type rareInts struct {
	present      bool
	index, value []int32
}

// strtab is the capture's shared string table. From wire JSON it holds the
// spans of the strings inside the input and decodes a string only when the
// tree asks for it, so strings the tree must never hold (input and textarea
// values) are never turned into Go strings at all. From a reply it holds
// the caller's strings.
type strtab struct {
	data   []byte
	spans  []span
	strs   []string
	cache  []string
	cached []bool
}

type span struct {
	start, end int32
	esc        bool
}

func (t *strtab) len() int {
	if t.strs != nil {
		return len(t.strs)
	}
	return len(t.spans)
}

// get returns string i, which the caller has checked is in range; -1 is the
// protocol's "no string" and gives "".
func (t *strtab) get(i int32) string {
	if i < 0 {
		return ""
	}
	if t.strs != nil {
		return t.strs[i]
	}
	if t.cache == nil {
		t.cache = make([]string, len(t.spans))
		t.cached = make([]bool, len(t.spans))
	}
	if t.cached[i] {
		return t.cache[i]
	}
	sp := t.spans[i]
	s := jsonlex.DecodeRaw(t.data[sp.start:sp.end], sp.esc)
	t.cache[i], t.cached[i] = s, true
	return s
}

// rawSub is one out-of-process frame's capture: the frame owner's
// document and node index in the enclosing capture, and the capture
// itself; bad marks one that cannot be read or does not fit.
type rawSub struct {
	doc, node int32
	rc        *rawCapture
	bad       bool
}

// subframesMember is the capture's member, added by the live layer, that
// holds the captures of out-of-process frames.
const subframesMember = "subframes"
