package capture

import (
	"errors"
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

const pkgName = "snapshot"

// defaultComputedStyles are the computed styles a capture is assumed to have
// requested when nobody says otherwise, in this order. docs/reference.md#visibility
// requires a capture to request both. This array is their one definition;
// package snapshot hands out copies of it.
var defaultComputedStyles = [...]string{"display", "visibility"}

// DefaultComputedStyles returns a fresh copy of the default computed styles,
// in order.
func DefaultComputedStyles() []string {
	return []string{defaultComputedStyles[0], defaultComputedStyles[1]}
}

// DOM node types of the protocol (the DOM's Node.nodeType).
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

// Decode builds the tree of the main document of a
// DOMSnapshot.captureSnapshot result given as wire JSON
// ({"documents":[...],"strings":[...]}), taken with the given computed
// styles (nil: the default ones), refusing more than maxNodes nodes. Any
// inconsistency is a malformed_snapshot error with a JSON-pointer path.
func Decode(data []byte, styles []string, maxNodes int) (*domtree.Tree, error) {
	sc, err := styleColumns(styles)
	if err != nil {
		return nil, err
	}
	rc, err := decodeRaw(data, maxNodes)
	if err != nil {
		return nil, err
	}
	return buildCapture(rc, sc)
}

// CheckStyles refuses computed styles a capture cannot be read with: they
// must name display and visibility (nil means the default ones).
func CheckStyles(styles []string) error {
	_, err := styleColumns(styles)
	return err
}

// styleCols are the positions of display and visibility in a layout
// object's styles array.
type styleCols struct{ display, visibility int }

func styleColumns(names []string) (styleCols, error) {
	if names == nil {
		names = defaultComputedStyles[:]
	}
	c := styleCols{-1, -1}
	for i, n := range names {
		switch n {
		case "display":
			if c.display < 0 {
				c.display = i
			}
		case "visibility":
			if c.visibility < 0 {
				c.visibility = i
			}
		}
	}
	if c.display < 0 || c.visibility < 0 {
		return c, errcode.New(errcode.UnsupportedInput, pkgName, "", "the capture's computed styles must include display and visibility")
	}
	return c, nil
}

// buildCapture validates the raw tables and builds the tree. Every index is
// checked here, once, before it is used; the builder then only sees
// consistent input, and its own order check is the last guard.
func buildCapture(rc *rawCapture, sc styleCols) (*domtree.Tree, error) {
	b, err := fillCapture(rc, sc)
	if err != nil {
		return nil, err
	}
	c, omitted, err := buildComposed(rc, sc)
	if err != nil {
		return nil, err
	}
	if c == nil {
		b.SetFramesOmitted(omitted)
	}
	b.SetComposed(c)
	return b.Build(), nil
}

// fillCapture is buildCapture up to the build: the builder holds every
// node, so that a bounded capture can mark its horizon before building.
func fillCapture(rc *rawCapture, sc styleCols) (*domtree.Builder, error) {
	if err := validate(rc); err != nil {
		return nil, err
	}
	if err := checkStyles(rc, sc); err != nil {
		return nil, err
	}
	d := &rc.doc
	n := len(d.parent)
	st := &rc.strs

	// Nodes left out of the tree: pseudo-elements, shadow trees (Chromium
	// marks every node of a shadow tree with the type of the root it is in,
	// and lists slotted light children under their slot), document
	// fragments and processing instructions, each with its subtree. Parents
	// precede children, so one forward pass inherits the mark.
	skip := make([]bool, n)
	flags := make([]domtree.Flags, n)
	for _, i := range d.pseudo.index {
		skip[i] = true
	}
	inShadow := make([]bool, n)
	for _, i := range d.shadow.index {
		inShadow[i] = true
	}
	for i := 1; i < n; i++ {
		p := d.parent[i]
		switch d.nodeType[i] {
		case nodeDocFragment, nodeProcInstr:
			skip[i] = true
		}
		if inShadow[i] {
			skip[i] = true
			if !inShadow[p] {
				flags[p] |= domtree.ShadowHost
			}
		}
		if skip[p] {
			skip[i] = true
		}
		// Chromium lists no fragment nodes today; should one appear, it is
		// a template's contents under a template and a shadow root
		// elsewhere.
		if d.nodeType[i] == nodeDocFragment && !inShadow[i] && d.nodeType[p] == nodeElement {
			if domtree.EqualFold(st.get(d.nodeName[p]), "template") {
				flags[p] |= domtree.TemplateContents
			} else {
				flags[p] |= domtree.ShadowHost
			}
		}
	}
	for _, i := range d.contentDoc.index {
		flags[i] |= domtree.FrameOwner
	}
	checked := make([]bool, n)
	for _, i := range d.checked.index {
		checked[i] = true
	}

	// The first layout object of each node; pseudo-elements may have
	// several, elements have one.
	layout := make([]int32, n)
	for i := range layout {
		layout[i] = -1
	}
	for j, i := range d.layoutNode {
		if layout[i] < 0 {
			layout[i] = int32(j)
		}
	}
	// rendered[i]: the node or a descendant has a layout object. Children
	// follow parents, so a backward pass carries it up. Shadow and
	// pseudo-element nodes count: a display: contents host is rendered when
	// its shadow tree is.
	rendered := make([]bool, n)
	for i := n - 1; i >= 1; i-- {
		if layout[i] >= 0 {
			rendered[i] = true
		}
		if rendered[i] {
			rendered[d.parent[i]] = true
		}
	}

	b := domtree.NewBuilder(n)
	if d.hasBackend {
		b.SetDocumentBackendID(d.backend[0])
	}
	newIndex := make([]int32, n)
	newIndex[0] = 0
	vis := make([]domtree.Visibility, n)
	var attrs []domtree.Attr
	for i := 1; i < n; i++ {
		if skip[i] {
			newIndex[i] = -1
			continue
		}
		p := d.parent[i]
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
			info := domtree.ElementInfo{Flags: flags[i], Checked: checked[i], BackendNodeID: backend}
			if domtree.EqualFold(name, "template") {
				// Chromium's snapshot leaves template contents out
				// altogether; every HTML template has a contents fragment.
				info.Flags |= domtree.TemplateContents
			}
			info.Display, info.Visibility = elementStyle(rc, d, sc, int32(i), layout[i], rendered[i], vis[p])
			vis[i] = info.Visibility
			attrs = elementAttrs(rc, d, int32(i), name, attrs[:0])
			idx, err = b.AddElement(parent, name, attrs, info)
		case nodeText, nodeCDATA:
			text := ""
			if !isTextarea(rc, d, p) {
				text = nodeValue(rc, d, i)
			}
			idx, err = b.AddText(parent, text, backend)
		case nodeComment:
			idx, err = b.AddComment(parent, nodeValue(rc, d, i), backend)
		case nodeDoctype:
			idx, err = b.AddDoctype(parent, st.get(d.nodeName[i]), backend)
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
	}
	rc.lightIndex = newIndex
	return b, nil
}

func nodeValue(rc *rawCapture, d *rawDoc, i int) string {
	if !d.hasValue {
		return ""
	}
	return rc.strs.get(d.nodeValue[i])
}

// isTextarea reports whether node p is a textarea element, whose text is
// its value and is never read (the builder empties it too; not reading it
// keeps it from ever becoming a string).
func isTextarea(rc *rawCapture, d *rawDoc, p int32) bool {
	return d.nodeType[p] == nodeElement && domtree.EqualFold(rc.strs.get(d.nodeName[p]), "textarea")
}

// elementAttrs resolves an element's attributes. An input's value attribute
// is secret unless the input is a button (domtree.InputValueSecret): it is
// not even decoded then.
func elementAttrs(rc *rawCapture, d *rawDoc, i int32, name string, dst []domtree.Attr) []domtree.Attr {
	if !d.hasAttrs {
		return dst
	}
	a := d.attrs[d.attrStart[i]:d.attrStart[i+1]]
	secretValue := false
	if domtree.EqualFold(name, "input") {
		secretValue = true
		for k := 0; k+1 < len(a); k += 2 {
			if domtree.EqualFold(rc.strs.get(a[k]), "type") {
				secretValue = domtree.InputValueSecret(rc.strs.get(a[k+1]))
				break
			}
		}
	}
	for k := 0; k+1 < len(a); k += 2 {
		an := rc.lowerName(a[k])
		if secretValue && domtree.EqualFold(an, "value") {
			continue
		}
		dst = append(dst, domtree.Attr{Name: an, Value: rc.strs.get(a[k+1])})
	}
	return dst
}

// elementStyle gives an element's display class and visibility. With a
// layout object they come from its computed styles. Without one the element
// is not rendered, unless a descendant is (display: contents): then it
// separates text like any non-inline box, and it has no visibility of its
// own, so it takes its parent's.
func elementStyle(rc *rawCapture, d *rawDoc, sc styleCols, i, layout int32, rendered bool, parentVis domtree.Visibility) (domtree.Display, domtree.Visibility) {
	if layout < 0 {
		if rendered {
			return domtree.DisplayBlock, parentVis
		}
		return domtree.DisplayNone, parentVis
	}
	styles := d.styles[d.styleStart[layout]:d.styleStart[layout+1]]
	display := domtree.DisplayBlock
	if sc.display < len(styles) {
		display = rc.styleValue(styles[sc.display]).display
	}
	vis := parentVis
	if sc.visibility < len(styles) {
		if v := rc.styleValue(styles[sc.visibility]); v.hasVis {
			vis = v.vis
		}
	}
	return display, vis
}

// lowerName returns string i lower-cased, once per string: Chromium writes
// HTML element names in upper case, and the tree stores them lower-cased.
func (rc *rawCapture) lowerName(i int32) string {
	if rc.nameCache == nil {
		rc.nameCache = make([]string, rc.strs.len())
		rc.nameDone = make([]bool, rc.strs.len())
	}
	if !rc.nameDone[i] {
		rc.nameCache[i], rc.nameDone[i] = domtree.ToLowerASCII(rc.strs.get(i)), true
	}
	return rc.nameCache[i]
}

// styleClass is what one computed style string means, read as a display
// and as a visibility value. A page has a handful of distinct values, so
// each string is classified once.
type styleClass struct {
	done    bool
	display domtree.Display
	vis     domtree.Visibility
	hasVis  bool
}

func (rc *rawCapture) styleValue(i int32) styleClass {
	if i < 0 {
		return styleClass{done: true, display: domtree.DisplayBlock}
	}
	if rc.styleCache == nil {
		rc.styleCache = make([]styleClass, rc.strs.len())
	}
	c := &rc.styleCache[i]
	if !c.done {
		v := rc.strs.get(i)
		c.done, c.display = true, displayClass(v)
		switch {
		case domtree.EqualFold(v, "hidden"), domtree.EqualFold(v, "collapse"):
			c.vis, c.hasVis = domtree.Hidden, true
		case v != "":
			c.vis, c.hasVis = domtree.Visible, true
		}
	}
	return *c
}

// displayClass classifies a computed display value as Chromium serialises
// it. Its outer display type is inline for the single keywords inline, ruby
// and math, the legacy inline-* keywords and Chromium's -webkit-inline-box
// and -webkit-inline-flex; for a multi-keyword value it is the outer
// keyword given (so "inline flow-root" is inline and "block math" is not),
// else inline for ruby and math alone. Everything else rendered, internal
// table and ruby parts included, is block-level here.
func displayClass(v string) domtree.Display {
	f := domtree.Fields(domtree.ToLowerASCII(v))
	if len(f) == 1 {
		switch k := f[0]; k {
		case "none":
			return domtree.DisplayNone
		case "inline", "ruby", "math", "-webkit-inline-box", "-webkit-inline-flex":
			return domtree.DisplayInline
		default:
			if len(k) > len("inline-") && k[:len("inline-")] == "inline-" {
				return domtree.DisplayInline
			}
		}
		return domtree.DisplayBlock
	}
	innerInline := false
	for _, k := range f {
		switch k {
		case "inline":
			return domtree.DisplayInline
		case "block":
			return domtree.DisplayBlock
		case "ruby", "math":
			innerInline = true
		}
	}
	if innerInline {
		return domtree.DisplayInline
	}
	return domtree.DisplayBlock
}
