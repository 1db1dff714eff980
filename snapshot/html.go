package snapshot

import (
	"bytes"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/style"
)

// HTMLOptions says how to read an HTML file.
type HTMLOptions struct {
	// Charset, when not empty, is an encoding label (any label of the WHATWG
	// Encoding Standard, such as "latin1" or "shift_jis") used instead of the
	// <meta> prescan and the UTF-8 check. A byte-order mark still wins, as it
	// does over an HTTP charset in a browser. An unknown label is
	// invalid_request.
	Charset string
}

// HTMLInfo is what ParseHTML found out about the file besides its tree.
type HTMLInfo struct {
	// Charset is the canonical name of the encoding used ("utf-8",
	// "windows-1252", "shift_jis", ...).
	Charset string
	// StyleSheets is the number of <style> elements whose rules were read.
	StyleSheets int
	// StyleSheetsDropped is true when the document's style sheets would have
	// cost more selector matching than the offline cascade allows, and were
	// not applied (style attributes still were). Displays and visibilities
	// may then differ from a browser's.
	StyleSheetsDropped bool
}

// ParseHTML parses an HTML file into a tree (SPEC sections 2 and 2.1): it
// decodes the bytes, parses them as a browser with scripting on would, and
// computes each element's display and visibility with the offline cascade.
// Template contents and declarative shadow roots are not nodes of the tree;
// their elements carry domtree.TemplateContents and domtree.ShadowHost.
// HTML nested deeper than the parser accepts is unsupported_input.
func ParseHTML(data []byte, opts HTMLOptions) (*domtree.Tree, HTMLInfo, error) {
	var info HTMLInfo
	text, name, err := decodeHTML(data, opts.Charset)
	if err != nil {
		return nil, info, err
	}
	info.Charset = name
	doc, err := html.ParseWithOptions(bytes.NewReader(text), html.ParseOptionEnableScripting(true))
	if err != nil {
		// The parser reports nesting beyond its open-element limit (and any
		// other failure of its own) as an error; nothing of the input is
		// quoted.
		return nil, info, errcode.Wrap(errcode.UnsupportedInput, pkgName, "",
			"the HTML parser refused the document (more than "+strconv.Itoa(limits.MaxHTMLDepth)+" nested elements?)", err)
	}
	p := htmlPrepare(doc)
	eng := style.New(doc)
	info.StyleSheets, info.StyleSheetsDropped = eng.Sheets, eng.SheetsDropped
	styles := htmlComputeStyles(doc, eng)
	if eng.OverBudget() {
		// The sheets apply everywhere or nowhere.
		eng.DropSheets()
		styles = htmlComputeStyles(doc, eng)
	}
	info.StyleSheets, info.StyleSheetsDropped = eng.Sheets, eng.SheetsDropped
	t, err := p.build(doc, styles)
	if err != nil {
		return nil, info, err
	}
	return t, info, nil
}

// htmlPrepared is what the first pass over the parsed tree learned.
type htmlPrepared struct {
	nodes int
	hosts map[*html.Node]bool
}

// prepare readies the parsed tree for styling and building, in one pass in
// tree order: it detaches declarative shadow roots (marking their hosts),
// cuts template contents off their templates, and records the element
// states that selectors ask about (StateAttr) and the tree keeps (checked).
func htmlPrepare(doc *html.Node) *htmlPrepared {
	p := &htmlPrepared{hosts: map[*html.Node]bool{}}
	ids := map[string]*html.Node{}
	var radios []*html.Node
	var controls []*html.Node
	for n := doc; n != nil; {
		if n.Type != html.ElementNode {
			p.nodes++
			n = nextHTML(n, doc, true)
			continue
		}
		if n.Namespace == "" && n.Data == "template" {
			if isDeclarativeShadowRoot(n, p.hosts) {
				// Chromium attaches the shadow root to the parent and never
				// inserts the template: neither is a node of the light tree.
				next := nextHTML(n, doc, false)
				p.hosts[n.Parent] = true
				n.Parent.RemoveChild(n)
				n = next
				continue
			}
			// The contents live in a separate fragment, not in the tree.
			n.FirstChild, n.LastChild = nil, nil
		}
		p.nodes++
		if id, ok := htmlAttr(n, "id"); ok && id != "" {
			if _, seen := ids[id]; !seen {
				ids[id] = n
			}
		}
		if n.Namespace == "" {
			switch n.Data {
			case "input":
				controls = append(controls, n)
				switch t, _ := htmlAttr(n, "type"); domtree.ToLowerASCII(t) {
				case "radio":
					radios = append(radios, n)
				case "checkbox":
					if htmlHasAttr(n, "checked") {
						htmlSetState(n, "checked")
					}
				}
			case "select", "textarea":
				controls = append(controls, n)
			case "details", "dialog":
				if htmlHasAttr(n, "open") {
					htmlSetState(n, "open")
				}
			}
		}
		if n.Namespace != "" || !strings.Contains(n.Data, "-") {
			// Without script no custom element is ever defined.
			htmlSetState(n, "defined")
		}
		n = nextHTML(n, doc, true)
	}
	htmlMarkRadios(radios, ids)
	for _, c := range controls {
		if htmlIsRequired(c) {
			htmlSetState(c, "required")
		} else {
			htmlSetState(c, "optional")
		}
	}
	return p
}

// markRadios emulates the radio button group rule: of the radios of one group
// (same name, case-sensitively, and same form owner) that carry the checked
// attribute, only the last in tree order stays checked, as each newly
// inserted checked radio unchecks the others (Chromium 156 does exactly this).
// A radio without a name is a group of its own.
func htmlMarkRadios(radios []*html.Node, ids map[string]*html.Node) {
	type group struct {
		form *html.Node
		name string
	}
	last := map[group]*html.Node{}
	var order []*html.Node
	for _, r := range radios {
		if !htmlHasAttr(r, "checked") {
			continue
		}
		name, _ := htmlAttr(r, "name")
		if name == "" {
			htmlSetState(r, "checked")
			continue
		}
		last[group{htmlFormOwner(r, ids), name}] = r
		order = append(order, r)
	}
	for _, r := range order {
		name, _ := htmlAttr(r, "name")
		if last[group{htmlFormOwner(r, ids), name}] == r {
			htmlSetState(r, "checked")
		}
	}
}

// formOwner is a control's form owner: the element its form attribute names
// when that is a form (no owner otherwise), else its nearest form ancestor.
// The parser's form-element pointer, which can associate a control with a
// form it is not inside in misnested markup, is not modelled.
func htmlFormOwner(n *html.Node, ids map[string]*html.Node) *html.Node {
	if f, ok := htmlAttr(n, "form"); ok {
		if el := ids[f]; el != nil && el.Namespace == "" && el.Data == "form" {
			return el
		}
		return nil
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && a.Namespace == "" && a.Data == "form" {
			return a
		}
	}
	return nil
}

// isRequired reports whether a control matches :required: it has the
// required attribute and, for an input, its type accepts it.
func htmlIsRequired(n *html.Node) bool {
	if !htmlHasAttr(n, "required") {
		return false
	}
	if n.Data != "input" {
		return true
	}
	t, _ := htmlAttr(n, "type")
	switch domtree.ToLowerASCII(t) {
	case "hidden", "range", "color", "submit", "reset", "button", "image":
		return false
	}
	return true
}

// shadowHostNames are the HTML elements attachShadow accepts, besides
// autonomous custom elements.
var shadowHostNames = map[string]bool{
	"article": true, "aside": true, "blockquote": true, "body": true, "div": true, "footer": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "header": true,
	"main": true, "nav": true, "p": true, "section": true, "span": true,
}

// isDeclarativeShadowRoot reports whether the template t becomes a
// declarative shadow root: its shadowrootmode is open or closed, its parent
// is an HTML element other than the root that may host a shadow root, and
// that parent has none yet. Otherwise it stays an ordinary template.
func isDeclarativeShadowRoot(t *html.Node, hosts map[*html.Node]bool) bool {
	mode, ok := htmlAttr(t, "shadowrootmode")
	if !ok {
		return false
	}
	if m := domtree.ToLowerASCII(mode); m != "open" && m != "closed" {
		return false
	}
	h := t.Parent
	if h == nil || h.Type != html.ElementNode || h.Namespace != "" || hosts[h] {
		return false
	}
	if h.Parent == nil || h.Parent.Type == html.DocumentNode {
		return false // the root element is never a declarative shadow host
	}
	return shadowHostNames[h.Data] || isCustomElementName(h.Data)
}

// isCustomElementName reports whether name is a valid custom element name:
// a lower-case ASCII letter first, a hyphen somewhere, only PCENChar
// characters, and not one of the reserved names.
func isCustomElementName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' || !strings.Contains(name, "-") {
		return false
	}
	switch name {
	case "annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri",
		"font-face-format", "font-face-name", "missing-glyph":
		return false
	}
	for _, r := range name {
		if !isPCENChar(r) {
			return false
		}
	}
	return true
}

func isPCENChar(r rune) bool {
	switch {
	case r == '-' || r == '.' || r == '_' || r == 0xB7:
		return true
	case '0' <= r && r <= '9', 'a' <= r && r <= 'z':
		return true
	case 0xC0 <= r && r <= 0xD6, 0xD8 <= r && r <= 0xF6, 0xF8 <= r && r <= 0x37D,
		0x37F <= r && r <= 0x1FFF, 0x200C <= r && r <= 0x200D, 0x203F <= r && r <= 0x2040,
		0x2070 <= r && r <= 0x218F, 0x2C00 <= r && r <= 0x2FEF, 0x3001 <= r && r <= 0xD7FF,
		0xF900 <= r && r <= 0xFDCF, 0xFDF0 <= r && r <= 0xFFFD, 0x10000 <= r && r <= 0xEFFFF:
		return true
	}
	return false
}

// computeStyles computes every element's style in tree order (the order
// build visits elements in). Elements under a display: none ancestor are not
// rendered and are not cascaded. A display: contents element with no
// rendered content is not rendered either, as in a live capture, where it has
// no layout object and nothing under it has one.
func htmlComputeStyles(doc *html.Node, eng *style.Engine) []style.Computed {
	var out []style.Computed
	var parent []int32 // parent element's position in out, -1 for the root
	var text []bool    // has a child text node with more than whitespace
	type open struct {
		n *html.Node
		i int32
	}
	var stack []open
	for n := doc; n != nil; n = nextHTML(n, doc, true) {
		if n.Type != html.ElementNode {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].n != n.Parent {
			stack = stack[:len(stack)-1]
		}
		pi := int32(-1)
		var c style.Computed
		if len(stack) > 0 {
			pi = stack[len(stack)-1].i
			if out[pi].Display.IsNone() {
				c = style.Computed{Display: style.DisplayNone}
			} else {
				c = eng.Compute(n, &out[pi])
			}
		} else {
			c = eng.Compute(n, nil)
		}
		i := int32(len(out))
		out = append(out, c)
		parent = append(parent, pi)
		t := false
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.TextNode && strings.TrimLeft(ch.Data, " \t\n\f\r") != "" {
				t = true
				break
			}
		}
		text = append(text, t)
		if n.FirstChild != nil {
			stack = append(stack, open{n, i})
		}
	}
	// Children come after parents, so one backward pass finds which
	// display: contents elements have rendered content.
	hasRendered := make([]bool, len(out))
	for i := len(out) - 1; i >= 0; i-- {
		d := out[i].Display
		if d.IsContents() && !hasRendered[i] && !text[i] {
			out[i].Display = style.DisplayNone
			d = style.DisplayNone
		}
		if !d.IsNone() && parent[i] >= 0 {
			hasRendered[parent[i]] = true
		}
	}
	return out
}

// build feeds the builder in tree order.
func (p *htmlPrepared) build(doc *html.Node, styles []style.Computed) (*domtree.Tree, error) {
	b := domtree.NewBuilder(p.nodes)
	type open struct {
		n   *html.Node
		idx int
	}
	stack := []open{{doc, 0}}
	k := 0
	var attrs []domtree.Attr
	for n := doc.FirstChild; n != nil; n = nextHTML(n, doc, true) {
		for len(stack) > 1 && stack[len(stack)-1].n != n.Parent {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].idx
		var idx int
		var err error
		switch n.Type {
		case html.DoctypeNode:
			idx, err = b.AddDoctype(parent, n.Data, 0)
		case html.TextNode:
			idx, err = b.AddText(parent, n.Data, 0)
		case html.CommentNode:
			idx, err = b.AddComment(parent, n.Data, 0)
		case html.ElementNode:
			attrs = attrs[:0]
			for _, a := range n.Attr {
				if style.IsStateAttr(a.Key) {
					continue
				}
				name := a.Key
				if a.Namespace != "" && a.Namespace != a.Key {
					name = a.Namespace + ":" + a.Key
				}
				attrs = append(attrs, domtree.Attr{Name: name, Value: a.Val})
			}
			c := styles[k]
			k++
			info := domtree.ElementInfo{Display: c.Display.Class()}
			if c.Hidden {
				info.Visibility = domtree.Hidden
			}
			info.Checked = n.Namespace == "" && n.Data == "input" && htmlHasAttr(n, style.StateAttr("checked"))
			if p.hosts[n] {
				info.Flags |= domtree.ShadowHost
			}
			if n.Namespace == "" {
				switch n.Data {
				case "template":
					info.Flags |= domtree.TemplateContents
				case "iframe", "frame":
					info.Flags |= domtree.FrameOwner
				}
			}
			idx, err = b.AddElement(parent, n.Data, attrs, info)
			if err == nil && n.FirstChild != nil {
				stack = append(stack, open{n, idx})
			}
		default:
			continue
		}
		if err != nil {
			return nil, errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "cannot build the tree", err)
		}
	}
	return b.Build(), nil
}

// nextHTML is one step of an iterative pre-order walk of root's subtree:
// into n's children when enter is true, else past n's subtree.
func nextHTML(n, root *html.Node, enter bool) *html.Node {
	if enter && n.FirstChild != nil {
		return n.FirstChild
	}
	for n != nil && n != root {
		if n.NextSibling != nil {
			return n.NextSibling
		}
		n = n.Parent
	}
	return nil
}

func htmlAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func htmlHasAttr(n *html.Node, key string) bool {
	_, ok := htmlAttr(n, key)
	return ok
}

func htmlSetState(n *html.Node, state string) {
	n.Attr = append(n.Attr, html.Attribute{Key: style.StateAttr(state)})
}
