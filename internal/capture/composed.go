package capture

import (
	"errors"
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// buildComposed builds the composed (flat) tree of a whole capture
// (docs/reference.md#the-composed-page), or returns nil when the capture
// holds no shadow-tree node and no frame document a page view may read,
// so a page without web components or frames costs nothing more. It also
// returns how many frames a read document owns whose documents are not in
// the composed tree (the composed tree records it too): over the limits,
// left out by a live capture (its policy), unreadable, or rendered in
// another process, whose document the capture does not hold.
//
// Each frame document the capture holds (the contentDocumentIndex of its
// owner) is added under its owner, in flat-tree order, its nodes in a
// tree scope of their own that the composed tree ties to the frame's id.
//
// Chromium's node arrays already walk the flat tree: a host's children are
// its shadow root's, a slot's are its assigned nodes (its fallback content
// when none are), and unassigned light children are not listed. So the
// composed tree is the capture's nodes in their order, leaving out what the
// light tree leaves out for other reasons (pseudo-elements, fragments,
// processing instructions) and user-agent shadow trees: those are the
// browser's own drawing of native controls, where an input's typed value
// lives as text, and no page author put them there.
//
// Tree scopes come from the shadowRootType marks, since the capture lists
// no shadow root nodes: a marked node under an unmarked parent, or under a
// parent of the other mode that is no slot, starts a new scope hosted by
// that parent; an unmarked node is the main document's; a marked node
// under a slot is fallback content of the slot's scope when its mark is
// that scope's mode, and otherwise a node assigned from an enclosing scope
// of its mode. Two nested roots of the same mode cannot be told apart this
// way: the live layer asks the browser which candidates host a root
// (ShadowHostQuestions) and adds them to the capture as its shadowHosts
// member, which then decides. A capture without it (one taken by other
// means) has such roots share a scope; only ID references read scopes, so
// at worst such a reference resolves across that one boundary.
func buildComposed(rc *rawCapture, sc styleCols) (*domtree.Tree, int, error) {
	d := &rc.doc
	n := len(d.parent)
	if len(rc.lightIndex) != n {
		return nil, 0, nil
	}
	shadow := false
	for k := range d.shadow.index {
		if k >= len(d.shadow.value) || d.shadow.value[k] < 0 || !domtree.EqualFold(rc.strs.get(d.shadow.value[k]), "user-agent") {
			shadow = true
			break
		}
	}
	framed := false
	for _, k := range d.contentDoc.value {
		if int(k) <= len(rc.frames) && !rc.frames[k-1].bad {
			framed = true
			break
		}
	}
	for _, sub := range rc.subs {
		framed = framed || !sub.bad
	}
	if !shadow && !framed {
		// Nothing to compose: the frames the light tree names are all
		// ones the capture does not hold.
		return nil, lightFramesOmitted(rc), nil
	}
	sets, err := readShadowSets(rc)
	if err != nil {
		return nil, 0, err
	}
	c := &composer{
		top: rc, sc: sc, b: domtree.NewBuilder(n),
		scopeMode: []uint8{markNone}, scopeUp: []int32{0},
		attached: map[*rawDoc]bool{}, subAt: map[[2]int32]int{},
		sets: sets,
	}
	for k, sub := range rc.subs {
		if _, dup := c.subAt[[2]int32{sub.doc, sub.node}]; !sub.bad && !dup {
			c.subAt[[2]int32{sub.doc, sub.node}] = k
		}
	}
	if d.hasBackend {
		c.b.SetDocumentBackendID(d.backend[0])
	}
	c.b.SetLightIndex(0, 0)
	if err := c.addDoc(rc, d, 0, false, 0, 0, 0, 0, domtree.Visibility(0), sets[0]); err != nil {
		return nil, 0, err
	}
	c.b.SetFramesOmitted(c.omitted)
	return c.b.Build(), c.omitted, nil
}

// Shadow marks, as buildComposed reads them.
const (
	markNone = iota
	markOpen
	markClosed
	markAgent
)

// composer builds a composed tree from the capture's documents: the main
// document and, under each frame owner, the frame document the capture
// lists for it (its contentDocumentIndex), at most limits.MaxFrames of
// them, nested at most limits.MaxFrameDepth deep, in flat-tree order.
type composer struct {
	top *rawCapture
	sc  styleCols
	b   *domtree.Builder
	// scopeMode and scopeUp are each tree scope's mode (markNone for a
	// document's own scope) and the scope its host (or frame owner) lies
	// in.
	scopeMode []uint8
	scopeUp   []int32
	// attached marks the frame documents added; frames counts them and
	// omitted the frames a read document owns that were not. subAt finds
	// the out-of-process frame's capture (of top.subs) for an owner, by
	// its document and node index in top.
	attached map[*rawDoc]bool
	subAt    map[[2]int32]int
	frames   int
	omitted  int
	attrs    []domtree.Attr
	// sets are the top capture's shadowSets, by document index.
	sets map[int32]shadowSets
}

// shadowSets are what the live layer found of one document's nodes
// (ShadowHostQuestions): the elements that host a shadow root and the
// slots whose children are assigned nodes.
type shadowSets struct {
	hosts, assigned map[int32]bool
}

// readShadowSets reads a capture's shadowHosts and assignedSlots (the main
// document's, under index 0) and frameShadowHosts and frameAssignedSlots
// (pairs of a frame document's index and a node of it). A node that is no
// element of its document, or a pair naming no document, makes the
// capture malformed; a pair in a frame document that is left out is
// dropped with it.
func readShadowSets(rc *rawCapture) (map[int32]shadowSets, error) {
	sets := map[int32]shadowSets{}
	add := func(member string, doc, node int32, k int, assigned bool) error {
		d := &rc.doc
		if doc > 0 {
			d = &rc.frames[doc-1]
			if d.bad {
				return nil
			}
		}
		if node <= 0 || int(node) >= len(d.parent) || d.nodeType[node] != nodeElement {
			return Malformed("/"+member+"/"+strconv.Itoa(k), "not an element of the capture")
		}
		set, ok := sets[doc]
		if !ok {
			set = shadowSets{hosts: map[int32]bool{}, assigned: map[int32]bool{}}
			sets[doc] = set
		}
		if assigned {
			set.assigned[node] = true
		} else {
			set.hosts[node] = true
		}
		return nil
	}
	for _, m := range []struct {
		name     string
		nodes    []int32
		assigned bool
	}{{shadowHostsMember, rc.shadowHosts, false}, {assignedSlotsMember, rc.assignedSlots, true}} {
		for k, h := range m.nodes {
			if err := add(m.name, 0, h, k, m.assigned); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range []struct {
		name     string
		pairs    []int32
		assigned bool
	}{{frameShadowHostsMember, rc.frameShadowHosts, false}, {frameAssignedSlotsMember, rc.frameAssignedSlots, true}} {
		if len(m.pairs)%2 != 0 {
			return nil, Malformed("/"+m.name, "an odd number of indexes: pairs of a document and a node")
		}
		for k := 0; k < len(m.pairs); k += 2 {
			doc := m.pairs[k]
			if doc < 1 || int(doc) > len(rc.frames) {
				return nil, Malformed("/"+m.name+"/"+strconv.Itoa(k), "not a frame document of the capture")
			}
			if err := add(m.name, doc, m.pairs[k+1], k+1, m.assigned); err != nil {
				return nil, err
			}
		}
	}
	return sets, nil
}

// isFrameName reports whether an element of this lower-case name owns a
// frame: an iframe or a frame, whose document a capture lists when the
// browser renders it in the page's own process.
func isFrameName(name string) bool { return name == "iframe" || name == "frame" }

// lightFramesOmitted counts the frames the main document's light tree
// owns when the capture holds none of their documents (an out-of-process
// frame's is not in the capture; one a live capture left out is empty).
func lightFramesOmitted(rc *rawCapture) int {
	d := &rc.doc
	n := 0
	owned := make(map[int32]bool, len(d.contentDoc.index))
	for _, i := range d.contentDoc.index {
		owned[i] = true
	}
	for i := 1; i < len(d.parent); i++ {
		if rc.lightIndex[i] < 0 || d.nodeType[i] != nodeElement {
			continue
		}
		if owned[int32(i)] || isFrameName(rc.lowerName(d.nodeName[i])) {
			n++
		}
	}
	return n
}

// addDoc adds document d (documents[docIdx]) under the builder's node
// host (0 and the main document: the root), its own nodes in tree scope
// base, at frame depth depth. sets is what the live layer found of its
// shadow hosts and assigned slots (readShadowSets).
//
// Chromium's node arrays already walk the flat tree: a host's children
// are its shadow root's, a slot's are its assigned nodes (its fallback
// content when none are), and unassigned light children are not listed.
// So a document's part of the composed tree is its nodes in their order,
// leaving out what the light tree leaves out for other reasons
// (pseudo-elements, fragments, processing instructions) and user-agent
// shadow trees: those are the browser's own drawing of native controls,
// where an input's typed value lives as text, and no page author put them
// there. A frame document's doctype is left out too: the frame owner is
// its document's place.
func (c *composer) addDoc(rc *rawCapture, d *rawDoc, docIdx int, frame bool, host int, base int32, depth int, idBase int64, rootVis domtree.Visibility, sets shadowSets) error {
	b := c.b
	frameID := ""
	if d.frameID >= 0 {
		frameID = rc.strs.get(d.frameID)
	}
	n := len(d.parent)
	mark := make([]uint8, n)
	for k, i := range d.shadow.index {
		v := int32(-1)
		if k < len(d.shadow.value) {
			v = d.shadow.value[k]
		}
		m := uint8(markOpen)
		if v >= 0 {
			switch s := rc.strs.get(v); {
			case domtree.EqualFold(s, "closed"):
				m = markClosed
			case domtree.EqualFold(s, "user-agent"):
				m = markAgent
			}
		}
		mark[i] = m
	}
	skip := make([]bool, n)
	for _, i := range d.pseudo.index {
		skip[i] = true
	}
	for i := 1; i < n; i++ {
		p := d.parent[i]
		switch {
		case skip[p], mark[i] == markAgent:
			skip[i] = true
		case d.nodeType[i] == nodeDocFragment, d.nodeType[i] == nodeProcInstr:
			skip[i] = true
		case frame && d.nodeType[i] == nodeDoctype:
			skip[i] = true
		}
	}
	checked := make([]bool, n)
	for _, i := range d.checked.index {
		checked[i] = true
	}
	layout := make([]int32, n)
	for i := range layout {
		layout[i] = -1
	}
	for j, i := range d.layoutNode {
		if layout[i] < 0 {
			layout[i] = int32(j)
		}
	}
	rendered := make([]bool, n)
	for i := n - 1; i >= 1; i-- {
		if layout[i] >= 0 {
			rendered[i] = true
		}
		if rendered[i] {
			rendered[d.parent[i]] = true
		}
	}
	frameDoc := make(map[int32]int32, len(d.contentDoc.index))
	for k, i := range d.contentDoc.index {
		frameDoc[i] = d.contentDoc.value[k]
	}

	// scope[i] is node i's scope.
	scope := make([]int32, n)
	scope[0] = base
	isSlot := func(i int32) bool {
		return d.nodeType[i] == nodeElement && domtree.EqualFold(rc.strs.get(d.nodeName[i]), "slot")
	}
	// hosted is the scope of each host's shadow root, which all the
	// root's top nodes share.
	hosted := map[int32]int32{}
	newScope := func(host int32, m uint8, up int32) int32 {
		if s, ok := hosted[host]; ok {
			return s
		}
		s := c.addScope(m, up)
		if frame {
			c.b.SetScopeFrame(s, frameID)
		}
		hosted[host] = s
		return s
	}

	newIndex := make([]int32, n)
	newIndex[0] = int32(host)
	vis := make([]domtree.Visibility, n)
	vis[0] = rootVis
	for i := 1; i < n; i++ {
		if skip[i] {
			newIndex[i] = -1
			continue
		}
		p := d.parent[i]
		switch m := mark[i]; {
		case m == markNone:
			scope[i] = base
		case mark[p] == markNone:
			scope[i] = newScope(p, m, scope[p])
		case isSlot(p):
			// A slot's children are its fallback content, in its own
			// scope, or the nodes assigned to it: its host's children,
			// in the scope the host lies in. Another mode says the
			// latter; the same mode is the capture's assignedSlots to say.
			s := scope[p]
			if c.scopeMode[s] != m || sets.assigned[p] {
				s = c.scopeUp[s]
				for c.scopeMode[s] != markNone && c.scopeMode[s] != m {
					s = c.scopeUp[s]
				}
			}
			scope[i] = s
		case c.scopeMode[scope[p]] == m && !sets.hosts[p]:
			scope[i] = scope[p]
		default:
			scope[i] = newScope(p, m, scope[p])
		}
		parent := int(newIndex[p])
		var backend int64
		if d.hasBackend && d.backend[i] != 0 {
			backend = d.backend[i] | idBase
		}
		vis[i] = vis[p]
		var idx int
		var err error
		sub, owns := frameDoc[int32(i)]
		remote := -1
		if k, ok := c.subAt[[2]int32{int32(docIdx), int32(i)}]; ok && rc == c.top && !owns {
			remote = k
		}
		switch d.nodeType[i] {
		case nodeElement:
			name := rc.lowerName(d.nodeName[i])
			info := domtree.ElementInfo{Checked: checked[i], BackendNodeID: backend}
			if domtree.EqualFold(name, "template") {
				info.Flags |= domtree.TemplateContents
			}
			if owns {
				info.Flags |= domtree.FrameOwner
			}
			info.Display, info.Visibility = elementStyle(rc, d, c.sc, int32(i), layout[i], rendered[i], vis[p])
			vis[i] = info.Visibility
			c.attrs = elementAttrs(rc, d, int32(i), name, c.attrs[:0])
			idx, err = b.AddElement(parent, name, c.attrs, info)
			if err == nil && !owns && remote < 0 && isFrameName(name) {
				// A frame the capture lists no document for: the
				// browser renders it in another process, and the live
				// layer did not add that process's capture.
				c.omitted++
			}
		case nodeText, nodeCDATA:
			text := ""
			if !isTextarea(rc, d, p) {
				text = nodeValue(rc, d, i)
			}
			idx, err = b.AddText(parent, text, backend)
		case nodeComment:
			idx, err = b.AddComment(parent, nodeValue(rc, d, i), backend)
		case nodeDoctype:
			idx, err = b.AddDoctype(parent, rc.strs.get(d.nodeName[i]), backend)
		}
		if err != nil {
			var be *domtree.BuildError
			msg := err.Error()
			if errors.As(err, &be) {
				msg = be.Msg
			}
			return errcode.Wrap(errcode.MalformedSnapshot, pkgName, "/documents/"+strconv.Itoa(docIdx)+"/nodes/parentIndex/"+strconv.Itoa(i), msg, err)
		}
		newIndex[i] = int32(idx)
		b.SetScope(idx, scope[i])
		if rc == c.top && docIdx == 0 && mark[i] == markNone && rc.lightIndex[i] >= 0 {
			b.SetLightIndex(idx, int(rc.lightIndex[i]))
		}
		switch {
		case owns && d.nodeType[i] == nodeElement:
			if err := c.addFrame(rc, sub, idx, scope[i], depth+1, idBase, vis[i]); err != nil {
				return err
			}
		case remote >= 0 && d.nodeType[i] == nodeElement:
			if err := c.addRemote(remote, idx, scope[i], depth+1, vis[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// addScope adds a tree scope of mode m whose host lies in scope up.
func (c *composer) addScope(m uint8, up int32) int32 {
	c.scopeMode = append(c.scopeMode, m)
	c.scopeUp = append(c.scopeUp, up)
	return int32(len(c.scopeMode) - 1)
}

// addFrame adds documents[k] under the frame owner at builder index owner
// (in scope up), at frame depth depth, or counts it omitted: past
// limits.MaxFrames or limits.MaxFrameDepth, a document that could not be
// read or that a live capture left out, or one some other owner holds
// already (no browser lists one twice; a hand-made capture may).
func (c *composer) addFrame(rc *rawCapture, k int32, owner int, up int32, depth int, idBase int64, vis domtree.Visibility) error {
	j := int(k) - 1
	if j < 0 || j >= len(rc.frames) || rc.frames[j].bad || c.attached[&rc.frames[j]] ||
		depth > limits.MaxFrameDepth || c.frames >= limits.MaxFrames {
		c.omitted++
		return nil
	}
	d := &rc.frames[j]
	c.attached[d] = true
	c.frames++
	s := c.addScope(markNone, up)
	id := ""
	if d.frameID >= 0 {
		id = rc.strs.get(d.frameID)
	}
	c.b.SetScopeFrame(s, id)
	var sets shadowSets
	if rc == c.top {
		sets = c.sets[k]
	} else if all, err := readShadowSets(rc); err == nil {
		sets = all[k]
	}
	return c.addDoc(rc, d, int(k), true, owner, s, depth, idBase, vis, sets)
}

// RemoteIDShift places the backend node ids of an out-of-process frame's
// capture apart from the page's own: the browser numbers each process's
// nodes on its own, so the composed tree gives the nodes of top.subs[k]
// the id id | (k+1)<<RemoteIDShift, and the live layer, acting on one,
// takes the low bits back for that frame's process. No process numbers
// its nodes that high.
const RemoteIDShift = 44

// addRemote adds top.subs[k], an out-of-process frame's capture, under
// the frame owner at builder index owner, as addFrame adds a document of
// the capture itself; the documents it holds in turn are attached from
// its own documents.
func (c *composer) addRemote(k int, owner int, up int32, depth int, vis domtree.Visibility) error {
	sub := &c.top.subs[k]
	if depth > limits.MaxFrameDepth || c.frames >= limits.MaxFrames || c.attached[&sub.rc.doc] {
		c.omitted++
		return nil
	}
	d := &sub.rc.doc
	c.attached[d] = true
	c.frames++
	s := c.addScope(markNone, up)
	id := ""
	if d.frameID >= 0 {
		id = sub.rc.strs.get(d.frameID)
	}
	c.b.SetScopeFrame(s, id)
	// The frame's process answered for its own documents; a member of
	// its capture that does not hold together is read as absent, since
	// a frame never fails the page's capture.
	sets, err := readShadowSets(sub.rc)
	if err != nil {
		sets = nil
	}
	return c.addDoc(sub.rc, d, 0, true, owner, s, depth, int64(k+1)<<RemoteIDShift, vis, sets[0])
}

// shadowHostsMember and assignedSlotsMember are the capture's members,
// added by the live layer, that list the main document's nodes hosting a
// shadow root and slots holding assigned nodes where the marks alone leave
// it unsaid; the frame members say the same of the frame documents the
// capture holds, as pairs of a document index and a node index.
const (
	shadowHostsMember        = "shadowHosts"
	assignedSlotsMember      = "assignedSlots"
	frameShadowHostsMember   = "frameShadowHosts"
	frameAssignedSlotsMember = "frameAssignedSlots"
)

// HostCandidate is an element of a whole capture whose marks cannot say
// what its children are (ShadowHostQuestions): Doc is its document's
// index in the capture, Node its node index there, Backend its backend
// node id.
type HostCandidate struct {
	Doc, Node int32
	Backend   int64
}

// docHostCandidates appends document d's shadow-host candidates to out,
// up to max in all: the elements whose marks cannot say what their
// children are, an element inside a shadow tree with a child marked with
// its own root's mode, when it is a slot (the child may be fallback
// content or assigned from an enclosing tree of that mode) or of a name
// that may host a root (a custom element or one of the built-in hosts:
// the child may be its own or its root's). A document without shadow
// content or without backend ids gives none.
func docHostCandidates(rc *rawCapture, d *rawDoc, doc int32, max int, out []HostCandidate) []HostCandidate {
	if len(d.shadow.index) == 0 || !d.hasBackend {
		return out
	}
	n := len(d.parent)
	mode := make([]int32, n)
	for i := range mode {
		mode[i] = -1
	}
	for k, i := range d.shadow.index {
		if k < len(d.shadow.value) {
			mode[i] = d.shadow.value[k]
		}
	}
	seen := map[int32]bool{}
	for i := 1; i < n && len(out) < max; i++ {
		p := d.parent[i]
		if p <= 0 || seen[p] || mode[i] < 0 || mode[p] < 0 || d.nodeType[p] != nodeElement {
			continue
		}
		if rc.strs.get(mode[i]) != rc.strs.get(mode[p]) {
			continue
		}
		name := rc.lowerName(d.nodeName[p])
		if name != "slot" && !domtree.MayHostShadow(name) {
			continue
		}
		seen[p] = true
		out = append(out, HostCandidate{Doc: doc, Node: p, Backend: d.backend[p]})
	}
	return out
}

// MainDocumentURL reads a capture's documents[0].documentURL.
func MainDocumentURL(data []byte) (string, error) {
	rc, err := decodeRawAs(data, 0, nil, true)
	if err != nil {
		return "", err
	}
	if u := rc.doc.url; u >= 0 && int(u) < rc.strs.len() {
		return rc.strs.get(u), nil
	}
	return "", nil
}

// RemoteOwner is a frame owner whose document a capture does not hold:
// the browser renders it in another process. Doc and Node place it in
// the capture; Backend is its backend node id.
type RemoteOwner struct {
	Doc, Node int32
	Backend   int64
}

// RemoteOwners lists, in document order (the main document's first, then
// each frame document's that the capture holds), the iframe and frame
// elements of a whole capture that own no document of it: the frames the
// browser renders in another process, whose documents the live layer
// captures apart (subframesMember). At most max are returned.
func RemoteOwners(data []byte, maxNodes, max int) ([]RemoteOwner, error) {
	rc, err := decodeRaw(data, maxNodes)
	if err != nil {
		return nil, err
	}
	if err := validate(rc); err != nil {
		return nil, err
	}
	var out []RemoteOwner
	for k := 0; k <= len(rc.frames) && len(out) < max; k++ {
		d := &rc.doc
		if k > 0 {
			if d = &rc.frames[k-1]; d.bad {
				continue
			}
		}
		if !d.hasBackend {
			continue
		}
		owned := make(map[int32]bool, len(d.contentDoc.index))
		for _, i := range d.contentDoc.index {
			owned[i] = true
		}
		for i := 1; i < len(d.parent) && len(out) < max; i++ {
			if d.nodeType[i] != nodeElement || owned[int32(i)] || !isFrameName(rc.lowerName(d.nodeName[i])) {
				continue
			}
			out = append(out, RemoteOwner{Doc: int32(k), Node: int32(i), Backend: d.backend[i]})
		}
	}
	return out, nil
}
