package capture

import (
	"bytes"
	"math"
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/jsonlex"
)

// Scrub returns a copy of a captureSnapshot result (wire JSON) with
// every form control value taken out, so that a saved capture can hold no
// value a person typed or a page pre-filled (the secret rule of
// docs/reference.md#secrets, which wins over docs/reference.md#saved-snapshots's
// "exactly as the protocol returns it"). In
// every document, frames included:
//
//   - the nodes tables inputValue, textValue and optionSelected are removed;
//   - an input element's value attribute is removed from its attribute list
//     unless the input's first type attribute is button, submit or reset
//     (ASCII case-insensitive), the rule domtree.Builder applies;
//   - a text or CDATA node whose parent is a textarea, or that lies inside
//     an editing host (an element whose first contenteditable attribute is
//     "", "true" or "plaintext-only", ASCII case-insensitive: the rule of
//     domtree.EditingHost), points at an empty string; the node stays, so
//     node counts and indexes do not change;
//   - a layout object of any of those nodes loses its text;
//   - each string-table entry that only the removed data referred to is
//     blanked to "", so the value's bytes appear nowhere in the output.
//
// Everything else keeps its meaning: the tree Decode builds from the
// result equals the tree it builds from the input, node for node, but for
// the text inside editing hosts, which is empty. No analysis reads that
// text (a walk never enters an editable element), so every result is the
// same. Members
// the scrub does not read are copied byte for byte; the objects it rebuilds
// (the top level, each document, its nodes and layout tables, the string
// table) are written compactly with their members in input order. The
// output depends on the input bytes alone, and scrubbing a scrubbed capture
// gives the same bytes.
//
// Input that is not one JSON object, or whose tables the scrub needs (node
// types, names, parents, attributes, node values, the value tables, the
// string table) have the wrong types, unequal lengths or string indexes out
// of range, or with an editing host and a parent that does not come before
// its child, is malformed_snapshot: a capture that cannot be understood
// cannot be shown to be free of values. A member name repeated in an object
// the scrub rebuilds is malformed too, since a second copy could hide a
// table. The work and memory are linear in the input size.
func Scrub(raw []byte) ([]byte, error) {
	return ScrubFrames(raw, nil)
}

// ScrubFrames is Scrub that also leaves out, when allow is not nil, every
// frame document whose origin allow refuses (docs/reference.md#the-composed-page):
// such a document is written as an empty object, so the document indexes
// of the others stay, and each string only it referred to is blanked, so
// nothing of it is in the output. allow is asked about a document's
// documentURL; a document of about:blank, about:srcdoc or no URL has its
// parent's origin and shares its parent's fate, and so does every
// document inside a refused one. The main document is never left out.
func ScrubFrames(raw []byte, allow func(url string) bool) ([]byte, error) {
	if len(raw) > math.MaxInt32 {
		return nil, Malformed("", "capture larger than 2 GiB")
	}
	sc := &scrubber{s: *NewScanner(raw)}
	top, err := sc.parseTop()
	if err == nil {
		err = sc.s.End()
	}
	if err != nil {
		return nil, Coded(err)
	}
	if allow != nil {
		sc.decideFrames(allow)
	}
	for i := range sc.docs {
		if sc.docs[i].drop {
			sc.dropDoc(&sc.docs[i])
			continue
		}
		if err := sc.scrubDoc(&sc.docs[i], "/documents/"+strconv.Itoa(i)); err != nil {
			return nil, err
		}
	}
	for i := range sc.subs {
		// A frame's capture is scrubbed as a capture of its own, under
		// the same policy; the main document of one the policy refuses
		// (the live layer never adds one) is dropped whole.
		sub := &sc.subs[i]
		if allow != nil {
			if u, err := MainDocumentURL(sub.capture); err != nil || !allow(u) {
				sub.capture = nil
				continue
			}
		}
		out, err := ScrubFrames(sub.capture, allow)
		if err != nil {
			return nil, err
		}
		sub.capture = out
	}
	sc.finishStrings()
	out := make([]byte, 0, len(raw)+8)
	return writeObject(out, top, nil, sc.writeTopMember), nil
}

// member is one member of an object the scrub rebuilds: the raw bytes of its
// name (quotes included) and of its value.
type member struct {
	name       string
	key, value []byte
}

// rareRefs is a Rare*Data table as the scrub reads it.
type rareRefs struct {
	present      bool
	index, value []int32
}

// scrubDocTables is what the scrub reads of one document.
type scrubDocTables struct {
	members []member

	nodes       []member
	hasNodesObj bool
	parent      []int32
	nodeType    []int32
	nodeName    []int32
	nodeValue   []int32
	attrs       []int32
	attrStart   []int32
	// removedRare are the value tables that are dropped; keptRare the
	// string tables that stay.
	removedRare []rareRefs
	keptRare    []rareRefs

	layout       []member
	hasLayoutObj bool
	layoutNode   []int32
	layoutText   []int32
	// keptInts are other string-index arrays that stay (layout styles,
	// blended background colors, document-level string indexes).
	keptInts [][]int32

	// What the scrub changed: emptied lists the textarea text nodes whose
	// value now points at the empty string.
	attrsChanged, textChanged bool
	emptied                   []int32
	// secretNode marks the nodes whose layout text is dropped.
	secretNode []bool

	// url is the documentURL's string index (-1: none); frames are the
	// document indexes its contentDocumentIndex names; drop says the
	// document is left out (ScrubFrames).
	url    int32
	frames []int32
	drop   bool
}

// decideFrames marks the frame documents allow refuses, and those inside
// them, to be dropped. A document's parent is the one whose
// contentDocumentIndex names it; the chain up is followed without
// recursion, and a chain that loops (no browser writes one) is dropped.
func (sc *scrubber) decideFrames(allow func(string) bool) {
	n := len(sc.docs)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	for i := range sc.docs {
		for _, k := range sc.docs[i].frames {
			if k > 0 && int(k) < n && parent[k] < 0 {
				parent[k] = i
			}
		}
	}
	const (
		undecided = iota
		keep
		drop
	)
	state := make([]uint8, n)
	if n > 0 {
		state[0] = keep
	}
	own := func(k int) uint8 {
		u := ""
		if v := sc.docs[k].url; v >= 0 && int(v) < len(sc.strs) && len(sc.strs[v]) >= 2 {
			q := sc.strs[v]
			u = jsonlex.DecodeRaw(q[1:len(q)-1], true)
		}
		switch {
		case u == "" || u == "about:blank" || u == "about:srcdoc":
			return undecided // its parent's origin
		case allow(u):
			return keep
		}
		return drop
	}
	var chain []int
	for k := 1; k < n; k++ {
		chain = chain[:0]
		j := k
		for j >= 0 && state[j] == undecided && len(chain) <= n {
			chain = append(chain, j)
			j = parent[j]
		}
		fate := uint8(drop) // an orphan of no origin, or a loop
		if j >= 0 && state[j] != undecided {
			fate = state[j]
		}
		for c := len(chain) - 1; c >= 0; c-- {
			d := chain[c]
			if fate == keep {
				if o := own(d); o != undecided {
					fate = o
				}
			}
			state[d] = fate
		}
	}
	for k := 1; k < n; k++ {
		sc.docs[k].drop = state[k] == drop
	}
}

// dropDoc records every string reference of a document left out as
// removed, so that a string only it used is blanked.
func (sc *scrubber) dropDoc(d *scrubDocTables) {
	if sc.strClass == nil {
		sc.strClass = make([]uint8, len(sc.strs))
		sc.removed = make([]bool, len(sc.strs))
		sc.kept = make([]bool, len(sc.strs))
	}
	for _, table := range [][]int32{d.nodeName, d.nodeValue, d.attrs, d.layoutText} {
		for _, v := range table {
			sc.ref(v, false)
		}
	}
	for _, rs := range [][]rareRefs{d.keptRare, d.removedRare} {
		for _, r := range rs {
			for _, v := range r.value {
				sc.ref(v, false)
			}
		}
	}
	for _, a := range d.keptInts {
		for _, v := range a {
			sc.ref(v, false)
		}
	}
}

type scrubber struct {
	s    Scanner
	docs []scrubDocTables
	// subs are the out-of-process frames' captures (subframesMember).
	subs    []scrubSub
	hasSubs bool
	// strs are the spans of the string table's entries, quotes included.
	strs     [][]byte
	hasStrs  bool
	strClass []uint8
	// removed and kept record, per string, whether dropped data and data
	// that stays refer to it.
	removed, kept []bool
	blank         []bool
	// emptyIndex is the string index textarea text nodes point at.
	emptyIndex  int32
	appendEmpty bool
}

// String classes, computed once per string: bit 0 set means computed.
const (
	clsDone uint8 = 1 << iota
	clsInput
	clsTextarea
	clsType
	clsValue
	clsButtonType
	clsContentEditable
	// clsEditingHost is a value of contenteditable that makes an editing
	// host (domtree.EditingHost). It is independent of the name classes.
	clsEditingHost
)

// class classifies string i. The path of an out-of-range index is built
// only then, from the table's path and the positions in it: this runs once
// per element.
func (sc *scrubber) class(i int32, path string, at ...int) (uint8, error) {
	if i < 0 || int(i) >= len(sc.strs) {
		for _, n := range at {
			path += "/" + strconv.Itoa(n)
		}
		return 0, Malformed(path, "string index "+strconv.Itoa(int(i))+" out of range [0, "+strconv.Itoa(len(sc.strs))+")")
	}
	if c := sc.strClass[i]; c&clsDone != 0 {
		return c, nil
	}
	raw := sc.strs[i]
	v := jsonlex.DecodeRaw(raw[1:len(raw)-1], bytes.IndexByte(raw, '\\') >= 0)
	c := clsDone
	switch {
	case domtree.EqualFold(v, "input"):
		c |= clsInput
	case domtree.EqualFold(v, "textarea"):
		c |= clsTextarea
	case domtree.EqualFold(v, "type"):
		c |= clsType
	case domtree.EqualFold(v, "value"):
		c |= clsValue
	case domtree.EqualFold(v, "contenteditable"):
		c |= clsContentEditable
	}
	if !domtree.InputValueSecret(v) {
		c |= clsButtonType
	}
	if domtree.EditingHost(v) {
		c |= clsEditingHost
	}
	sc.strClass[i] = c
	return c, nil
}

// parseTop reads the top-level object, keeping the members to rebuild.
func (sc *scrubber) parseTop() ([]member, error) {
	return sc.object("", func(name, p string) error {
		switch name {
		case "documents":
			return sc.parseDocuments(p)
		case "strings":
			return sc.parseStrings(p)
		case subframesMember:
			return sc.parseSubframes(p)
		}
		return sc.s.SkipValue(p)
	})
}

// parseSubframes reads the captures of out-of-process frames, each to be
// scrubbed as a capture of its own; members other than owner and capture
// are dropped.
func (sc *scrubber) parseSubframes(path string) error {
	s := &sc.s
	sc.hasSubs = true
	return s.Elements(path, func(i int) error {
		p := jsonlex.AppendIndex(path, i)
		var sub scrubSub
		err := s.Object(p, true, func(name, mp string, _ []byte) (err error) {
			switch name {
			case "owner":
				sub.owner, err = s.RawValue(mp)
			case "capture":
				sub.capture, err = s.RawValue(mp)
			default:
				err = s.SkipValue(mp)
			}
			return err
		})
		if err == nil && (sub.owner == nil || sub.capture == nil) {
			err = Malformed(p, "a subframe needs its owner and its capture")
		}
		sc.subs = append(sc.subs, sub)
		return err
	})
}

// scrubSub is one out-of-process frame's capture as the scrub reads it.
type scrubSub struct{ owner, capture []byte }

// object reads an object the scrub rebuilds and returns its members in
// input order, each with its name and value as written. A repeated name is
// refused. read consumes one member's value, found at the Scanner's
// position.
func (sc *scrubber) object(path string, read func(name, p string) error) ([]member, error) {
	s := &sc.s
	var ms []member
	err := s.Object(path, true, func(name, p string, key []byte) error {
		// The value is kept from its first byte, without the space before.
		s.SkipSpace()
		start := s.Pos
		if err := read(name, p); err != nil {
			return err
		}
		ms = append(ms, member{name: name, key: key, value: s.Data[start:s.Pos]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ms, nil
}

// lenient reads a value with read and, if that fails, reads it again only
// for its syntax. It serves the tables the scrub reads just for the string
// indexes they keep alive: one of an unexpected shape keeps nothing alive,
// which is safe, and is copied as it is.
func (sc *scrubber) lenient(p string, read func() error) error {
	start := sc.s.Pos
	if read() == nil {
		return nil
	}
	sc.s.Pos = start
	return sc.s.SkipValue(p)
}

// keepInts reads, leniently, a value holding string indexes that stay in
// the output, and records them.
func (sc *scrubber) keepInts(d *scrubDocTables, p string, read func() ([]int32, error)) error {
	return sc.lenient(p, func() error {
		v, err := read()
		if err == nil {
			d.keptInts = append(d.keptInts, v)
		}
		return err
	})
}

func (sc *scrubber) parseStrings(path string) error {
	s := &sc.s
	if isNull, err := s.Null(path); isNull || err != nil {
		return err
	}
	sc.hasStrs = true
	return s.Elements(path, func(i int) error {
		sp, err := s.StringSpan(jsonlex.AppendIndex(path, i))
		if err != nil {
			return err
		}
		sc.strs = append(sc.strs, s.Quoted(sp))
		return nil
	})
}

func (sc *scrubber) parseDocuments(path string) error {
	s := &sc.s
	if isNull, err := s.Null(path); isNull || err != nil {
		return err
	}
	return s.Elements(path, func(i int) error {
		d := scrubDocTables{url: -1}
		if err := sc.parseDocument(&d, jsonlex.AppendIndex(path, i)); err != nil {
			return err
		}
		sc.docs = append(sc.docs, d)
		return nil
	})
}

// docStringMember reports whether a document member is one of its own
// string indexes.
func docStringMember(name string) bool {
	switch name {
	case "documentURL", "title", "baseURL", "contentLanguage", "encodingName", "publicId", "systemId", "frameId":
		return true
	}
	return false
}

func (sc *scrubber) parseDocument(d *scrubDocTables, path string) (err error) {
	s := &sc.s
	d.members, err = sc.object(path, func(name, p string) error {
		switch {
		case (name == "nodes" || name == "layout") && s.Peek() == 'n':
			return s.Literal("null", p)
		case name == "nodes":
			// Anything but an object (or null) would be copied unread.
			d.hasNodesObj = true
			return sc.parseNodes(d, p)
		case name == "layout":
			d.hasLayoutObj = true
			return sc.parseLayout(d, p)
		case docStringMember(name):
			return sc.keepInts(d, p, func() ([]int32, error) {
				v, err := s.Int32(p)
				if err == nil && name == "documentURL" {
					d.url = v
				}
				return []int32{v}, err
			})
		}
		return s.SkipValue(p)
	})
	return err
}

func (sc *scrubber) parseNodes(d *scrubDocTables, path string) (err error) {
	s := &sc.s
	d.nodes, err = sc.object(path, func(name, p string) (err error) {
		switch name {
		case "parentIndex":
			d.parent, err = s.int32Array(p, nil)
		case "nodeType":
			d.nodeType, err = s.int32Array(p, nil)
		case "nodeName":
			d.nodeName, err = s.int32Array(p, nil)
		case "nodeValue":
			d.nodeValue, err = s.int32Array(p, nil)
		case "attributes":
			d.attrs, d.attrStart, err = s.int32Arrays(p)
		case "contentDocumentIndex":
			// The frames the document owns, for ScrubFrames; copied.
			err = sc.lenient(p, func() error {
				r, err := sc.rare(p, true)
				if err == nil {
					d.frames = r.value
				}
				return err
			})
		case "inputValue", "textValue":
			var r rareRefs
			r, err = sc.rare(p, true)
			d.removedRare = append(d.removedRare, r)
		case "shadowRootType", "pseudoType", "pseudoIdentifier", "currentSourceURL", "originURL":
			// Other string tables: read leniently, since only their
			// references matter.
			err = sc.lenient(p, func() error {
				r, err := sc.rare(p, true)
				if err == nil {
					d.keptRare = append(d.keptRare, r)
				}
				return err
			})
		default:
			// optionSelected is checked for syntax and dropped; the
			// rest is copied.
			err = s.SkipValue(p)
		}
		return err
	})
	return err
}

// rare reads a Rare*Data object (null is an absent one).
func (sc *scrubber) rare(path string, wantValue bool) (rareRefs, error) {
	s := &sc.s
	if isNull, err := s.Null(path); isNull || err != nil {
		return rareRefs{}, err
	}
	index, value, err := s.rareFields(path, wantValue)
	if err != nil {
		return rareRefs{}, err
	}
	return rareRefs{present: true, index: index, value: value}, nil
}

func (sc *scrubber) parseLayout(d *scrubDocTables, path string) (err error) {
	s := &sc.s
	d.layout, err = sc.object(path, func(name, p string) (err error) {
		switch name {
		case "nodeIndex":
			d.layoutNode, err = s.int32Array(p, nil)
		case "text":
			d.layoutText, err = s.int32Array(p, nil)
		case "styles":
			err = sc.keepInts(d, p, func() ([]int32, error) {
				flat, _, err := s.int32Arrays(p)
				return flat, err
			})
		case "blendedBackgroundColors":
			err = sc.keepInts(d, p, func() ([]int32, error) { return s.int32Array(p, nil) })
		default:
			err = s.SkipValue(p)
		}
		return err
	})
	return err
}

// scrubDoc decides what one document loses and records every string
// reference, removed or kept. Its phases run in this order because each
// reads what the one before decided: which nodes are secret, then their
// value attributes and text removed, then every reference that stays, then
// the layout's text of the secret nodes.
func (sc *scrubber) scrubDoc(d *scrubDocTables, path string) error {
	if sc.strClass == nil {
		sc.strClass = make([]uint8, len(sc.strs))
		sc.removed = make([]bool, len(sc.strs))
		sc.kept = make([]bool, len(sc.strs))
	}
	np := path + "/nodes"
	namePath, attrPath := np+"/nodeName", np+"/attributes"
	n, err := nodeCount(d, np)
	if err != nil {
		return err
	}
	hasAttrs := d.attrStart != nil && n > 0
	hasText := d.nodeValue != nil && n > 0
	if (hasAttrs || hasText) && (d.nodeType == nil || d.nodeName == nil) {
		return Malformed(np+"/nodeName", "node types and names are needed to find form controls")
	}
	if hasText && d.parent == nil {
		return Malformed(np+"/parentIndex", "parents are needed to find textarea text")
	}
	d.secretNode = make([]bool, n)
	if hasAttrs || hasText {
		if err := sc.markSecretControls(d, n, namePath, attrPath); err != nil {
			return err
		}
	}
	if hasAttrs {
		if err := sc.dropValueAttrs(d, n, attrPath); err != nil {
			return err
		}
	}
	if hasText {
		if err := sc.emptySecretText(d, n, np, attrPath); err != nil {
			return err
		}
	}
	for _, r := range d.removedRare {
		for _, v := range r.value {
			sc.ref(v, false)
		}
	}
	sc.refKept(d)
	sc.scrubLayoutText(d, n)
	return nil
}

// nodeCount is the number of nodes the node tables agree on (0 when none is
// there); tables of different lengths are malformed.
func nodeCount(d *scrubDocTables, np string) (int, error) {
	n := -1
	for _, t := range []struct {
		name string
		v    []int32
	}{{"parentIndex", d.parent}, {"nodeType", d.nodeType}, {"nodeName", d.nodeName}, {"nodeValue", d.nodeValue}} {
		if t.v == nil {
			continue
		}
		if n >= 0 && len(t.v) != n {
			return 0, Malformed(np+"/"+t.name, "length "+strconv.Itoa(len(t.v))+", want "+strconv.Itoa(n))
		}
		n = len(t.v)
	}
	if d.attrStart != nil {
		got := len(d.attrStart) - 1
		if n >= 0 && got != n {
			return 0, Malformed(np+"/attributes", "length "+strconv.Itoa(got)+", want "+strconv.Itoa(n))
		}
		n = got
	}
	return max(n, 0), nil
}

// markSecretControls marks in d.secretNode the textareas and the inputs
// that are not buttons (the text under a textarea is marked later, by
// emptySecretText).
func (sc *scrubber) markSecretControls(d *scrubDocTables, n int, namePath, attrPath string) error {
	for i := 0; i < n; i++ {
		if d.nodeType[i] != nodeElement {
			continue
		}
		c, err := sc.class(d.nodeName[i], namePath, i)
		if err != nil {
			return err
		}
		switch {
		case c&clsTextarea != 0:
			d.secretNode[i] = true
		case c&clsInput != 0:
			secret, err := sc.secretInput(d, i, attrPath)
			if err != nil {
				return err
			}
			d.secretNode[i] = secret
		}
	}
	return nil
}

// dropValueAttrs removes the value attributes of the secret inputs from the
// attribute tables, recording their name and value as removed references.
// A dangling name without a value is kept as it is.
func (sc *scrubber) dropValueAttrs(d *scrubDocTables, n int, attrPath string) error {
	kept := make([]int32, 0, len(d.attrs))
	start := make([]int32, 1, n+1)
	for i := 0; i < n; i++ {
		a := d.attrs[d.attrStart[i]:d.attrStart[i+1]]
		input := d.secretNode[i] && sc.strClass[d.nodeName[i]]&clsInput != 0
		for k := 0; k < len(a); k += 2 {
			if k+1 >= len(a) {
				kept = append(kept, a[k])
				break
			}
			if input {
				c, err := sc.class(a[k], attrPath, i, k)
				if err != nil {
					return err
				}
				if c&clsValue != 0 {
					sc.ref(a[k], false)
					sc.ref(a[k+1], false)
					d.attrsChanged = true
					continue
				}
			}
			kept = append(kept, a[k], a[k+1])
		}
		start = append(start, int32(len(kept)))
	}
	d.attrs, d.attrStart = kept, start
	return nil
}

// emptySecretText empties the text under textareas and inside editing
// hosts, marking those text nodes secret; an emptied value is left as -1,
// pointed at the empty string later.
func (sc *scrubber) emptySecretText(d *scrubDocTables, n int, np, attrPath string) error {
	inHost, err := sc.insideEditingHosts(d, n, np, attrPath)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if t := d.nodeType[i]; t != nodeText && t != nodeCDATA {
			continue
		}
		p := d.parent[i]
		underTextarea := p >= 0 && int(p) < n && d.nodeType[p] == nodeElement && sc.strClass[d.nodeName[p]]&clsTextarea != 0
		if !underTextarea && (inHost == nil || !inHost[i]) {
			continue
		}
		d.secretNode[i] = true
		if v := d.nodeValue[i]; v != -1 {
			sc.ref(v, false)
			d.nodeValue[i] = -1 // a placeholder: refers to nothing
			d.emptied = append(d.emptied, int32(i))
		}
	}
	return nil
}

// refKept records every string reference the node tables still hold after
// the scrub, and those of the rare data and integer tables kept whole.
func (sc *scrubber) refKept(d *scrubDocTables) {
	for _, table := range [][]int32{d.nodeName, d.nodeValue, d.attrs} {
		for _, v := range table {
			sc.ref(v, true)
		}
	}
	for _, r := range d.keptRare {
		for _, v := range r.value {
			sc.ref(v, true)
		}
	}
	for _, a := range d.keptInts {
		for _, v := range a {
			sc.ref(v, true)
		}
	}
}

// scrubLayoutText removes the layout's text of the secret nodes and records
// the rest as kept. Without a node index for each text none can be tied to
// a node: it all stays.
func (sc *scrubber) scrubLayoutText(d *scrubDocTables, n int) {
	if d.layoutText == nil {
		return
	}
	if len(d.layoutNode) != len(d.layoutText) {
		for _, v := range d.layoutText {
			sc.ref(v, true)
		}
		return
	}
	for li, ni := range d.layoutNode {
		if ni >= 0 && int(ni) < n && d.secretNode[ni] && d.layoutText[li] != -1 {
			sc.ref(d.layoutText[li], false)
			d.layoutText[li] = -1
			d.textChanged = true
			continue
		}
		sc.ref(d.layoutText[li], true)
	}
}

// insideEditingHosts marks the nodes that have an editing host among their
// ancestors: elements whose first contenteditable attribute makes one
// (domtree.EditingHost, the rule the cell walks use to stay out of them). It
// is nil when the document has no editing host. Since a walk never enters an
// editing host, no analysis reads the text it empties, and a contenteditable
// "false" island inside a host is emptied too: nothing reads it either.
// Ancestors are followed through the parent table in one pass, which needs
// every parent before its child; a document with an editing host and a
// parent out of that order is malformed, as Decode says of it too.
func (sc *scrubber) insideEditingHosts(d *scrubDocTables, n int, np, attrPath string) ([]bool, error) {
	if d.attrStart == nil {
		return nil, nil
	}
	var host []bool
	for i := 0; i < n; i++ {
		if d.nodeType[i] != nodeElement {
			continue
		}
		a := d.attrs[d.attrStart[i]:d.attrStart[i+1]]
		for k := 0; k+1 < len(a); k += 2 {
			c, err := sc.class(a[k], attrPath, i, k)
			if err != nil {
				return nil, err
			}
			if c&clsContentEditable == 0 {
				continue
			}
			editing := a[k+1] == -1 // no string: the empty value
			if !editing {
				v, err := sc.class(a[k+1], attrPath, i, k+1)
				if err != nil {
					return nil, err
				}
				editing = v&clsEditingHost != 0
			}
			if editing {
				if host == nil {
					host = make([]bool, n)
				}
				host[i] = true
			}
			break // the first contenteditable attribute decides
		}
	}
	if host == nil {
		return nil, nil
	}
	inside := make([]bool, n)
	for i := 0; i < n; i++ {
		p := d.parent[i]
		if p == -1 {
			continue
		}
		if p < 0 || int(p) >= i {
			return nil, Malformed(np+"/parentIndex/"+strconv.Itoa(i), "parent "+strconv.Itoa(int(p))+" is not before its child")
		}
		inside[i] = inside[p] || host[p]
	}
	return inside, nil
}

// secretInput applies the secret rule (domtree.InputValueSecret) to input
// element i, by its first type attribute.
func (sc *scrubber) secretInput(d *scrubDocTables, i int, attrPath string) (bool, error) {
	if d.attrStart == nil {
		return true, nil
	}
	a := d.attrs[d.attrStart[i]:d.attrStart[i+1]]
	for k := 0; k+1 < len(a); k += 2 {
		c, err := sc.class(a[k], attrPath, i, k)
		if err != nil {
			return false, err
		}
		if c&clsType == 0 {
			continue
		}
		if a[k+1] == -1 {
			return true, nil // no string: "", not a button type
		}
		v, err := sc.class(a[k+1], attrPath, i, k+1)
		if err != nil {
			return false, err
		}
		return v&clsButtonType == 0, nil
	}
	return true, nil
}

// ref records one reference to string v; indexes outside the table refer
// to nothing.
func (sc *scrubber) ref(v int32, kept bool) {
	if v < 0 || int(v) >= len(sc.strs) {
		return
	}
	if kept {
		sc.kept[v] = true
	} else {
		sc.removed[v] = true
	}
}

// finishStrings blanks the strings only removed data referred to and picks
// the empty string textarea text nodes point at: the first entry that is
// empty after blanking, else one appended to the table.
func (sc *scrubber) finishStrings() {
	sc.blank = make([]bool, len(sc.strs))
	sc.emptyIndex = -1
	for i := range sc.strs {
		if i < len(sc.removed) && sc.removed[i] && !sc.kept[i] {
			sc.blank[i] = true
		}
		if sc.emptyIndex < 0 && (sc.blank[i] || len(sc.strs[i]) == 2) {
			sc.emptyIndex = int32(i)
		}
	}
	needed := false
	for _, d := range sc.docs {
		needed = needed || len(d.emptied) > 0
	}
	if needed && sc.emptyIndex < 0 {
		sc.emptyIndex = int32(len(sc.strs))
		sc.appendEmpty = true
	}
	for di := range sc.docs {
		d := &sc.docs[di]
		for _, i := range d.emptied {
			d.nodeValue[i] = sc.emptyIndex
		}
	}
}

// writeObject writes an object's members in order, leaving out those skip
// names, with each value written by value.
func writeObject(out []byte, ms []member, skip func(string) bool, value func([]byte, member) []byte) []byte {
	out = append(out, '{')
	first := true
	for _, m := range ms {
		if skip != nil && skip(m.name) {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, m.key...)
		out = append(out, ':')
		out = value(out, m)
	}
	return append(out, '}')
}

func (sc *scrubber) writeTopMember(out []byte, m member) []byte {
	switch {
	case m.name == "documents" && m.value[0] == '[':
		out = append(out, '[')
		for i := range sc.docs {
			if i > 0 {
				out = append(out, ',')
			}
			d := &sc.docs[i]
			if d.drop {
				out = append(out, '{', '}')
				continue
			}
			out = writeObject(out, d.members, nil, func(o []byte, dm member) []byte {
				return sc.writeDocMember(o, d, dm)
			})
		}
		return append(out, ']')
	case m.name == subframesMember && sc.hasSubs:
		out = append(out, '[')
		first := true
		for _, sub := range sc.subs {
			if sub.capture == nil {
				continue
			}
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(out, `{"owner":`...)
			out = append(out, sub.owner...)
			out = append(out, `,"capture":`...)
			out = append(out, sub.capture...)
			out = append(out, '}')
		}
		return append(out, ']')
	case m.name == "strings" && sc.hasStrs:
		out = append(out, '[')
		for i, s := range sc.strs {
			if i > 0 {
				out = append(out, ',')
			}
			if sc.blank[i] {
				out = append(out, '"', '"')
			} else {
				out = append(out, s...)
			}
		}
		if sc.appendEmpty {
			if len(sc.strs) > 0 {
				out = append(out, ',')
			}
			out = append(out, '"', '"')
		}
		return append(out, ']')
	}
	return append(out, m.value...)
}

// droppedTable names the nodes tables that hold control values.
func droppedTable(name string) bool {
	return name == "inputValue" || name == "textValue" || name == "optionSelected"
}

func (sc *scrubber) writeDocMember(out []byte, d *scrubDocTables, m member) []byte {
	switch {
	case m.name == "nodes" && d.hasNodesObj:
		return writeObject(out, d.nodes, droppedTable, func(o []byte, nm member) []byte {
			switch {
			case nm.name == "attributes" && d.attrsChanged:
				return appendInt32Arrays(o, d.attrs, d.attrStart)
			case nm.name == "nodeValue" && len(d.emptied) > 0:
				return appendInt32Array(o, d.nodeValue)
			}
			return append(o, nm.value...)
		})
	case m.name == "layout" && d.hasLayoutObj:
		return writeObject(out, d.layout, nil, func(o []byte, lm member) []byte {
			if lm.name == "text" && d.textChanged {
				return appendInt32Array(o, d.layoutText)
			}
			return append(o, lm.value...)
		})
	}
	return append(out, m.value...)
}

func appendInt32Array(out []byte, v []int32) []byte {
	out = append(out, '[')
	for i, x := range v {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendInt(out, int64(x), 10)
	}
	return append(out, ']')
}

func appendInt32Arrays(out []byte, flat, start []int32) []byte {
	out = append(out, '[')
	for i := 0; i+1 < len(start); i++ {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendInt32Array(out, flat[start[i]:start[i+1]])
	}
	return append(out, ']')
}
