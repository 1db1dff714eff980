package capture

import (
	"errors"
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// buildComposed builds the composed (flat) tree of a whole capture
// (docs/reference.md#the-composed-page), or returns nil when the capture
// holds no shadow-tree node a page view may read, so a page without web
// components costs nothing more.
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
// (ShadowHostCandidates) and adds them to the capture as its shadowHosts
// member, which then decides. A capture without it (one taken by other
// means) has such roots share a scope; only ID references read scopes, so
// at worst such a reference resolves across that one boundary.
func buildComposed(rc *rawCapture, sc styleCols) (*domtree.Tree, error) {
	d := &rc.doc
	n := len(d.parent)
	if len(d.shadow.index) == 0 || len(rc.lightIndex) != n {
		return nil, nil
	}
	const (
		markNone = iota
		markOpen
		markClosed
		markAgent
	)
	mark := make([]uint8, n)
	found := false
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
		if m != markAgent {
			found = true
		}
	}
	if !found {
		return nil, nil
	}
	isHost := make(map[int32]bool, len(rc.shadowHosts))
	for k, h := range rc.shadowHosts {
		if h <= 0 || int(h) >= n || d.nodeType[h] != nodeElement {
			return nil, Malformed("/"+shadowHostsMember+"/"+strconv.Itoa(k), "not an element of the capture")
		}
		isHost[h] = true
	}
	isAssigned := make(map[int32]bool, len(rc.assignedSlots))
	for k, h := range rc.assignedSlots {
		if h <= 0 || int(h) >= n || d.nodeType[h] != nodeElement {
			return nil, Malformed("/"+assignedSlotsMember+"/"+strconv.Itoa(k), "not an element of the capture")
		}
		isAssigned[h] = true
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
	frames := make([]bool, n)
	for _, i := range d.contentDoc.index {
		frames[i] = true
	}

	// scope[i] is node i's scope; scopeMode and scopeUp are each scope's
	// mode and the scope its host lies in (scope 0 is the document).
	scope := make([]int32, n)
	scopeMode := []uint8{markNone}
	scopeUp := []int32{0}
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
		scopeMode = append(scopeMode, m)
		scopeUp = append(scopeUp, up)
		s := int32(len(scopeMode) - 1)
		hosted[host] = s
		return s
	}

	b := domtree.NewBuilder(n)
	if d.hasBackend {
		b.SetDocumentBackendID(d.backend[0])
	}
	b.SetLightIndex(0, 0)
	newIndex := make([]int32, n)
	vis := make([]domtree.Visibility, n)
	var attrs []domtree.Attr
	for i := 1; i < n; i++ {
		if skip[i] {
			newIndex[i] = -1
			continue
		}
		p := d.parent[i]
		switch m := mark[i]; {
		case m == markNone:
			scope[i] = 0
		case mark[p] == markNone:
			scope[i] = newScope(p, m, scope[p])
		case isSlot(p):
			// A slot's children are its fallback content, in its own
			// scope, or the nodes assigned to it: its host's children,
			// in the scope the host lies in. Another mode says the
			// latter; the same mode is the capture's assignedSlots to say.
			s := scope[p]
			if scopeMode[s] != m || isAssigned[p] {
				s = scopeUp[s]
				for s != 0 && scopeMode[s] != m {
					s = scopeUp[s]
				}
			}
			scope[i] = s
		case scopeMode[scope[p]] == m && !isHost[p]:
			scope[i] = scope[p]
		default:
			scope[i] = newScope(p, m, scope[p])
		}
		parent := int(newIndex[p])
		var backend int64
		if d.hasBackend {
			backend = d.backend[i]
		}
		vis[i] = vis[p]
		var idx int
		var err error
		switch d.nodeType[i] {
		case nodeElement:
			name := rc.lowerName(d.nodeName[i])
			info := domtree.ElementInfo{Checked: checked[i], BackendNodeID: backend}
			if domtree.EqualFold(name, "template") {
				info.Flags |= domtree.TemplateContents
			}
			if frames[i] {
				info.Flags |= domtree.FrameOwner
			}
			info.Display, info.Visibility = elementStyle(rc, sc, int32(i), layout[i], rendered[i], vis[p])
			vis[i] = info.Visibility
			attrs = elementAttrs(rc, int32(i), name, attrs[:0])
			idx, err = b.AddElement(parent, name, attrs, info)
		case nodeText, nodeCDATA:
			text := ""
			if !isTextarea(rc, p) {
				text = nodeValue(rc, i)
			}
			idx, err = b.AddText(parent, text, backend)
		case nodeComment:
			idx, err = b.AddComment(parent, nodeValue(rc, i), backend)
		case nodeDoctype:
			idx, err = b.AddDoctype(parent, rc.strs.get(d.nodeName[i]), backend)
		}
		if err != nil {
			var be *domtree.BuildError
			msg := err.Error()
			if errors.As(err, &be) {
				msg = be.Msg
			}
			return nil, errcode.Wrap(errcode.MalformedSnapshot, pkgName, "/documents/0/nodes/parentIndex/"+strconv.Itoa(i), msg, err)
		}
		newIndex[i] = int32(idx)
		b.SetScope(idx, scope[i])
		if mark[i] == markNone && rc.lightIndex[i] >= 0 {
			b.SetLightIndex(idx, int(rc.lightIndex[i]))
		}
	}
	return b.Build(), nil
}

// shadowHostsMember and assignedSlotsMember are the capture's members,
// added by the live layer, that list the nodes hosting a shadow root and
// the slots holding assigned nodes where the marks alone leave it unsaid.
const (
	shadowHostsMember   = "shadowHosts"
	assignedSlotsMember = "assignedSlots"
)

// ShadowHostCandidates reads a whole capture and returns the elements whose
// marks cannot say what their children are: an element inside a shadow
// tree with a child marked with its own root's mode, when it is a slot
// (the child may be fallback content or assigned from an enclosing tree
// of that mode) or of a name that may host a root (a custom element or one
// of the built-in hosts: the child may be its own or its root's). Each is
// given by its index and backend node id; a capture without shadow content
// or without backend ids gives none. At most max are returned: past that
// the rest are read as their marks suggest (buildComposed).
func ShadowHostCandidates(data []byte, maxNodes, max int) (index []int32, backend []int64, err error) {
	rc, err := decodeRaw(data, maxNodes)
	if err != nil {
		return nil, nil, err
	}
	d := &rc.doc
	if len(d.shadow.index) == 0 || !d.hasBackend {
		return nil, nil, nil
	}
	if err := validate(rc); err != nil {
		return nil, nil, err
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
	for i := 1; i < n && len(index) < max; i++ {
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
		index = append(index, p)
		backend = append(backend, d.backend[p])
	}
	return index, backend, nil
}
