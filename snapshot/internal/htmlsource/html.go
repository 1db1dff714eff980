package htmlsource

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/bidi"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/readbound"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/style"
)

// pkgName names the package in errors: the HTML source is part of package
// snapshot for its callers, and its errors read as snapshot's always have.
const pkgName = "snapshot"

// Info is what Parse found out about the file besides its tree; package
// snapshot hands it out as HTMLInfo, whose documentation says what each
// field means.
type Info struct {
	Charset            string
	StyleSheets        int
	StyleSheetsDropped bool
	StyleMatchSteps    int
}

// Parse is snapshot.ParseHTML with the charset label given directly and the
// node bound as a parameter, so tests can probe it without building
// millions of nodes. It also returns the matching work actually done
// (style.Engine.Work), which tests hold against the steps charged.
func Parse(data []byte, charset string, maxNodes int) (*domtree.Tree, Info, int, error) {
	var info Info
	text, name, err := decodeHTML(data, charset)
	if err != nil {
		return nil, info, 0, err
	}
	info.Charset = name
	pre := htmlScan(text, maxNodes)
	if pre.over {
		return nil, info, 0, readbound.TooManyNodes(pkgName, maxNodes)
	}
	doc, err := html.ParseWithOptions(htmlReader(text, pre), html.ParseOptionEnableScripting(true))
	if err != nil {
		// The parser reports nesting beyond its open-element limit (and any
		// other failure of its own) as an error; nothing of the input is
		// quoted.
		return nil, info, 0, errcode.Wrap(errcode.UnsupportedInput, pkgName, "",
			"the HTML parser refused the document (more than "+strconv.Itoa(limits.MaxHTMLDepth)+" nested elements?)", err)
	}
	p := htmlPrepare(doc)
	if p.nodes > maxNodes {
		return nil, info, 0, readbound.TooManyNodes(pkgName, maxNodes)
	}
	eng := style.New(doc, style.Options{Quirks: htmlQuirks(doc), States: p.states, Sources: &p.sheets})
	var lightIdx map[*html.Node]int32
	composed := len(p.shadows) > 0 || p.frames > 0
	if composed {
		p.tag = func(_ *domtree.Builder, n *html.Node, idx int) { lightIdx[n] = int32(idx) }
	}
	build := func() (*domtree.Builder, error) {
		if p.tag != nil {
			lightIdx = make(map[*html.Node]int32, p.nodes)
		}
		return p.styleAndBuild(doc, eng)
	}
	b, err := build()
	if err == nil && eng.OverBudget() {
		// The sheets apply everywhere or nowhere.
		eng.DropSheets()
		b, err = build()
	}
	if err != nil {
		return nil, info, 0, err
	}
	work := eng.Work()
	if composed {
		// The composed tree's matching has a budget of its own; the work
		// reported is the light tree's, which StyleMatchSteps charges.
		c, err := buildComposed(doc, p.shadows, lightIdx, maxNodes)
		if err != nil {
			return nil, info, 0, err
		}
		b.SetComposed(c)
	}
	t := b.Build()
	info.StyleSheets, info.StyleSheetsDropped = eng.Sheets, eng.SheetsDropped
	info.StyleMatchSteps = eng.StepsCharged()
	return t, info, work, nil
}

// htmlPrepared is what the first pass over the parsed tree learned.
type htmlPrepared struct {
	// nodes counts the nodes of the tree to build, elements and attrs
	// its elements and their attributes.
	nodes, elements, attrs int
	hosts                  map[*html.Node]bool
	// frames counts the frame owners (iframe and frame elements).
	frames int
	// shadows are the declarative shadow roots detached, in tree order:
	// each template, its contents still its children, and its host.
	shadows []declShadow
	// tag, when set, is told of every node styleAndBuild adds and its
	// index, for the composed tree's bookkeeping (composed.go).
	tag func(b *domtree.Builder, n *html.Node, idx int)
	// states are the element states selectors ask about and the tree
	// keeps (checked), beside the parsed tree rather than in it.
	states style.States
	// sheets are the style and meta elements in tree order, so that the
	// cascade need not walk the document for them.
	sheets style.Sources
}

// htmlIDs finds an element by id, the first in tree order, indexing the
// document the first time it is asked: only a radio button's form
// attribute needs it, which most pages do not have.
type htmlIDs struct {
	doc *html.Node
	ids map[string]*html.Node
}

func (x *htmlIDs) get(id string) *html.Node {
	if x.ids == nil {
		x.ids = map[string]*html.Node{}
		for n := x.doc; n != nil; n = style.NextNode(n, x.doc, true) {
			if n.Type != html.ElementNode {
				continue
			}
			if v, ok := htmlAttr(n, "id"); ok && v != "" {
				if _, seen := x.ids[v]; !seen {
					x.ids[v] = n
				}
			}
		}
	}
	return x.ids[id]
}

// prepare readies the parsed tree for styling and building, in one pass in
// tree order: it detaches declarative shadow roots (marking their hosts),
// cuts template contents off their templates, and records the element
// states that selectors ask about and the tree keeps (checked).
func htmlPrepare(doc *html.Node) *htmlPrepared {
	p := &htmlPrepared{hosts: map[*html.Node]bool{}, states: style.States{}}
	states := p.states
	var radios []*html.Node
	var controls []*html.Node
	openGroups := map[string]bool{}
	inherited := htmlInherited{editable: map[*html.Node]bool{}, rtl: map[*html.Node]bool{}}
	for n := doc; n != nil; {
		if n.Type != html.ElementNode {
			p.nodes++
			n = style.NextNode(n, doc, true)
			continue
		}
		if n.Namespace == "" && n.Data == "template" {
			if isDeclarativeShadowRoot(n, p.hosts) {
				// Chromium attaches the shadow root to the parent and never
				// inserts the template: neither is a node of the light tree.
				next := style.NextNode(n, doc, false)
				host := n.Parent
				p.hosts[host] = true
				host.RemoveChild(n)
				p.shadows = append(p.shadows, declShadow{host: host, root: n})
				if htmlIsEmpty(host) {
					states[host] |= style.Empty // it was marked with the template in it
				}
				n = next
				continue
			}
			// The contents live in a separate fragment, not in the tree.
			n.FirstChild, n.LastChild = nil, nil
		}
		p.nodes++
		p.elements++
		p.attrs += len(n.Attr)
		if n.Data == "style" || n.Data == "meta" {
			p.sheets.Nodes = append(p.sheets.Nodes, n)
		}
		inherited.mark(n, states)
		if n.Namespace == "" {
			switch n.Data {
			case "input":
				controls = append(controls, n)
				switch t, _ := htmlAttr(n, "type"); domtree.ToLowerASCII(t) {
				case "radio":
					radios = append(radios, n)
				case "checkbox":
					if htmlHasAttr(n, "checked") {
						states[n] |= style.Checked
					}
				}
			case "select", "textarea":
				controls = append(controls, n)
			case "iframe", "frame":
				p.frames++
			case "progress":
				// Without a value a progress bar is indeterminate; a
				// checkbox only becomes so by script.
				if !htmlHasAttr(n, "value") {
					states[n] |= style.Indeterminate
				}
			case "details":
				if !htmlHasAttr(n, "open") {
					break
				}
				// An exclusive accordion: details elements sharing a name
				// keep at most one open. Inserting an open one while another
				// of its group is open removes its open attribute, so the
				// first in tree order (the parser inserts in that order)
				// stays open and the attribute is gone from the others.
				if name, _ := htmlAttr(n, "name"); name != "" {
					if openGroups[name] {
						htmlRemoveAttr(n, "open")
						break
					}
					openGroups[name] = true
				}
				states[n] |= style.Open
			case "dialog":
				if htmlHasAttr(n, "open") {
					states[n] |= style.Open
				}
			}
		}
		if n.Namespace == "" && strings.Contains(n.Data, "-") {
			// Without script no custom element is ever defined.
			states[n] |= style.Undefined
		}
		n = style.NextNode(n, doc, true)
	}
	p.sheets.Elements = p.elements
	htmlMarkRadios(radios, &htmlIDs{doc: doc}, states)
	for _, c := range controls {
		if htmlIsRequired(c) {
			states[c] |= style.Required
		} else {
			states[c] |= style.Optional
		}
		switch c.Data {
		case "select":
			htmlMarkSelected(c, states)
		case "input", "textarea":
			if htmlIsReadWriteControl(c) {
				states[c] |= style.ReadWrite
			}
			if htmlPlaceholderShown(c) {
				states[c] |= style.PlaceholderShown
			}
		}
	}
	return p
}

// htmlTextTypes are the input types whose value is free text: the readonly
// and placeholder attributes apply to them (number only takes placeholder
// as such; its value is sanitised to a number).
var htmlTextTypes = map[string]bool{
	"text": true, "search": true, "url": true, "tel": true, "email": true, "password": true,
}

// htmlReadOnlyTypes are the input types to which readonly applies.
var htmlReadOnlyTypes = map[string]bool{
	"text": true, "search": true, "url": true, "tel": true, "email": true, "password": true,
	"date": true, "month": true, "week": true, "time": true, "datetime-local": true, "number": true,
}

// htmlInputType is an input's type state: its lower-cased type attribute
// when that names a known type, else text.
func htmlInputType(n *html.Node) string {
	t, _ := htmlAttr(n, "type")
	t = domtree.ToLowerASCII(t)
	switch t {
	case "hidden", "text", "search", "tel", "url", "email", "password", "date", "month", "week",
		"time", "datetime-local", "number", "range", "color", "checkbox", "radio", "file",
		"submit", "image", "reset", "button":
		return t
	}
	return "text"
}

// htmlDisabled reports whether a control is disabled: its own disabled
// attribute, or a disabled fieldset ancestor unless the control is inside
// that fieldset's first legend. The walk up is bounded by the parser's
// nesting limit.
func htmlDisabled(n *html.Node) bool {
	if htmlHasAttr(n, "disabled") {
		return true
	}
	child := n
	for a := n.Parent; a != nil && a.Type == html.ElementNode; child, a = a, a.Parent {
		if a.Namespace != "" || a.Data != "fieldset" || !htmlHasAttr(a, "disabled") {
			continue
		}
		if child.Namespace == "" && child.Data == "legend" {
			var first *html.Node
			for c := a.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Namespace == "" && c.Data == "legend" {
					first = c
					break
				}
			}
			if first == child {
				continue
			}
		}
		return true
	}
	return false
}

// htmlIsReadWriteControl reports whether an input or textarea matches
// :read-write: readonly applies to it and it is neither readonly nor
// disabled.
func htmlIsReadWriteControl(n *html.Node) bool {
	if n.Data == "input" && !htmlReadOnlyTypes[htmlInputType(n)] {
		return false
	}
	return !htmlHasAttr(n, "readonly") && !htmlDisabled(n)
}

// htmlPlaceholderShown reports whether an input or textarea matches
// :placeholder-shown: it takes a placeholder, has a placeholder attribute
// (Chromium matches even an empty one) and its value at rest is empty. The
// value is looked at here, while parsing, and never copied anywhere.
func htmlPlaceholderShown(n *html.Node) bool {
	if !htmlHasAttr(n, "placeholder") {
		return false
	}
	if n.Data == "textarea" {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && c.Data != "" {
				return false
			}
		}
		return true
	}
	t := htmlInputType(n)
	v, _ := htmlAttr(n, "value")
	switch {
	case t == "number":
		return !htmlValidFloat(v)
	case t == "email":
		return strings.Trim(htmlStripNewlines(v), " \t\n\f\r") == ""
	case htmlTextTypes[t]:
		return htmlStripNewlines(v) == ""
	}
	return false
}

func htmlStripNewlines(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r", "", "\n", "").Replace(s)
}

// htmlValidFloat reports whether s is a valid floating-point number of the
// HTML Standard: an optional "-", digits with an optional fraction (or a
// fraction alone), and an optional exponent.
func htmlValidFloat(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	n := digits()
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// htmlMarkSelected marks the options of a select that are selected at
// rest, for :checked. A select without multiple keeps only the last option
// carrying selected (each one inserted deselects the others); when none
// does and it is a drop-down (display size 1), its first option that is
// not disabled is selected. A multiple select selects exactly those that
// carry selected. Options are the select's option descendants; the walk is
// bounded by the select's subtree, and no subtree holds two selects'
// options.
func htmlMarkSelected(sel *html.Node, states style.States) {
	multiple := htmlHasAttr(sel, "multiple")
	var last, firstEnabled *html.Node
	for n := sel.FirstChild; n != nil; n = style.NextNode(n, sel, true) {
		if n.Type != html.ElementNode || n.Namespace != "" || n.Data != "option" {
			continue
		}
		if htmlHasAttr(n, "selected") {
			if multiple {
				states[n] |= style.Checked
			}
			last = n
		}
		if firstEnabled == nil && !htmlOptionDisabled(n) {
			firstEnabled = n
		}
	}
	switch {
	case multiple:
	case last != nil:
		states[last] |= style.Checked
	case firstEnabled != nil && htmlParseNonNegative(htmlAttrOr(sel, "size")) <= 1:
		states[firstEnabled] |= style.Checked
	}
}

// htmlOptionDisabled reports whether an option is disabled: its own
// attribute, or a disabled optgroup parent.
func htmlOptionDisabled(o *html.Node) bool {
	if htmlHasAttr(o, "disabled") {
		return true
	}
	p := o.Parent
	return p != nil && p.Type == html.ElementNode && p.Namespace == "" && p.Data == "optgroup" && htmlHasAttr(p, "disabled")
}

func htmlAttrOr(n *html.Node, key string) string {
	v, _ := htmlAttr(n, key)
	return v
}

// htmlInherited marks the states that inherit, as htmlPrepare's walk
// reaches each element after its parent: editable through contenteditable
// (:read-write) and right-to-left (:dir(rtl)); and :empty, which the walk
// knows at the same time, once template contents are cut (a host that
// loses its declarative shadow root is marked again). The sets hold the
// marked elements only.
type htmlInherited struct {
	editable, rtl map[*html.Node]bool
}

func (h htmlInherited) mark(n *html.Node, states style.States) {
	parent := n.Parent
	if parent != nil && parent.Type != html.ElementNode {
		parent = nil
	}
	// contenteditable: true, "" and plaintext-only make an editing host,
	// false stops editing, anything else inherits.
	ed := parent != nil && h.editable[parent]
	if n.Namespace == "" {
		if v, ok := htmlAttr(n, "contenteditable"); ok {
			switch {
			case domtree.EditingHost(v):
				ed = true
			case domtree.EqualFold(v, "false"):
				ed = false
			}
		}
	}
	if ed {
		h.editable[n] = true
		states[n] |= style.ReadWrite
	}
	if htmlIsRTL(n, parent != nil && h.rtl[parent]) {
		h.rtl[n] = true
		states[n] |= style.RTL
	}
	if htmlIsEmpty(n) {
		states[n] |= style.Empty
	}
}

// htmlIsRTL decides an element's directionality from its dir attribute and
// its parent's (parentRTL): ltr and rtl are themselves, auto (and a bdi
// without dir) looks at the text, a telephone input is ltr, and anything
// else inherits.
func htmlIsRTL(n *html.Node, parentRTL bool) bool {
	v, has := htmlAttr(n, "dir")
	if n.Namespace != "" {
		has = false // dir is an HTML attribute
	}
	switch d := domtree.ToLowerASCII(v); {
	case has && d == "ltr":
		return false
	case has && d == "rtl":
		return true
	case has && d == "auto", !has && n.Namespace == "" && n.Data == "bdi":
		return htmlAutoDirection(n)
	case n.Namespace == "" && n.Data == "input" && htmlInputType(n) == "tel":
		return false
	}
	return parentRTL
}

// htmlAutoDirection is the auto directionality of n: the direction of the
// first strong character of its value (a text control) or of its text,
// leaving out the subtrees that decide their own direction (bdi, script,
// style, textarea, and elements with a dir attribute); with none, ltr
// (Chromium 156 does not fall back to the parent's direction). Those subtrees are skipped, so no text node is read for two
// auto elements, and the walks of a document together stay linear.
func htmlAutoDirection(n *html.Node) bool {
	if n.Namespace == "" && (n.Data == "input" || n.Data == "textarea") {
		var v string
		if n.Data == "input" {
			v, _ = htmlAttr(n, "value")
		} else {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode {
					v += c.Data
				}
			}
		}
		rtl, _ := htmlStrongDirection(v)
		return rtl
	}
	for c := n.FirstChild; c != nil; {
		if c.Type == html.ElementNode {
			skip := htmlHasAttr(c, "dir") && c.Namespace == ""
			if c.Namespace == "" {
				switch c.Data {
				case "bdi", "script", "style", "textarea":
					skip = true
				case "template":
					// Its contents are not in the tree: cut, or a shadow
					// root the walk detaches when it gets there.
					skip = true
				}
			}
			c = style.NextNode(c, n, !skip)
			continue
		}
		if c.Type == html.TextNode {
			if rtl, ok := htmlStrongDirection(c.Data); ok {
				return rtl
			}
		}
		c = style.NextNode(c, n, true)
	}
	return false
}

// htmlStrongDirection returns the direction of the first strongly
// directional character of s: right-to-left for bidi classes R and AL,
// left-to-right for L; ok is false when s has none.
func htmlStrongDirection(s string) (rtl, ok bool) {
	for _, r := range s {
		p, _ := bidi.LookupRune(r)
		switch p.Class() {
		case bidi.L:
			return false, true
		case bidi.R, bidi.AL:
			return true, true
		}
	}
	return false, false
}

// markRadios emulates the radio button group rule: of the radios of one group
// (same name, case-sensitively, and same form owner) that carry the checked
// attribute, only the last in tree order stays checked, as each newly
// inserted checked radio unchecks the others (Chromium 156 does exactly this).
// A radio without a name is a group of its own.
func htmlMarkRadios(radios []*html.Node, ids *htmlIDs, states style.States) {
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
			states[r] |= style.Checked
			continue
		}
		last[group{htmlFormOwner(r, ids), name}] = r
		order = append(order, r)
	}
	for _, r := range order {
		name, _ := htmlAttr(r, "name")
		if last[group{htmlFormOwner(r, ids), name}] == r {
			states[r] |= style.Checked
		}
	}
	// A radio whose group has no checked radio is :indeterminate.
	for _, r := range radios {
		name, _ := htmlAttr(r, "name")
		switch {
		case name == "":
			if !htmlHasAttr(r, "checked") {
				states[r] |= style.Indeterminate
			}
		case last[group{htmlFormOwner(r, ids), name}] == nil:
			states[r] |= style.Indeterminate
		}
	}
}

// formOwner is a control's form owner: the element its form attribute names
// when that is a form (no owner otherwise), else its nearest form ancestor.
// The parser's form-element pointer, which can associate a control with a
// form it is not inside in misnested markup, is not modelled.
func htmlFormOwner(n *html.Node, ids *htmlIDs) *html.Node {
	if f, ok := htmlAttr(n, "form"); ok {
		if el := ids.get(f); el != nil && el.Namespace == "" && el.Data == "form" {
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

// styleAndBuild computes every element's style and builds the tree, in
// one walk in tree order, marking what a browser would not render even
// though its display is not none, so that the tree agrees with a live
// capture, where such elements have no layout object:
//   - everything under a display: none element;
//   - the children of a closed details other than its first summary;
//   - the options and everything else inside a drop-down select;
//   - an embed with neither a src nor a type attribute;
//   - a display: contents element with no rendered content. Whitespace-only
//     text counts as rendered only after inline content in the same line box
//     context, which is when Chromium gives it a layout object.
//
// The open elements are a stack of values holding their computed styles,
// which their children inherit from; nothing is kept per element once it
// is closed. Whether a display: contents element has rendered content is
// known when it closes, after its children, and its record in the tree is
// settled then.
//
// The parsed tree stays whole until the walk ends. Cutting each closed
// element's children off, so that the collector could take them, was
// measured and lowers no peak: the builder's arrays, sized from the count,
// are allocated as the walk starts, on top of the whole parsed tree, and
// the collector's goal after parsing leaves room for everything the walk
// allocates, so no collection runs before the walk ends (not even a forced
// one mid-walk lowered the peak; growing the arrays instead raised it).
func (p *htmlPrepared) styleAndBuild(doc *html.Node, eng *style.Engine) (*domtree.Builder, error) {
	b := domtree.NewBuilder(p.nodes)
	b.ReserveAttrs(p.attrs)
	type open struct {
		n   *html.Node
		c   style.Computed
		idx int // the element's index in the tree
		// line is where in lines the flag of the block container this
		// element's children flow into is: whether the last rendered thing
		// in it was inline content. lines[0] is the document's; lines[k+1]
		// belongs to the element at stack[k], when it starts a container.
		line int32
		// text is true once a child text node is rendered, rendered once a
		// child element is (its display not none, after this rule).
		text, rendered bool
		// hidden is the visibility the tree reports. A display: contents
		// element has no box whose visibility a live capture could read;
		// the capture decoder gives it its parent's, and so does the tree
		// here. Its children inherit its own computed value all the same.
		hidden bool
	}
	var stack []open
	lines := []bool{false}
	// settle ends element o, whose children are all known, and tells its
	// parent (nil for the root) whether it is rendered.
	settle := func(o *open, parent *open) {
		d := o.c.Display
		if d.IsContents() && !o.rendered && !o.text {
			// No rendered content: no box either, and its own visibility.
			d = style.DisplayNone
			b.SetStyle(o.idx, domtree.DisplayNone, htmlVisibility(o.c.Hidden))
		}
		if parent != nil && !d.IsNone() {
			parent.rendered = true
		}
	}
	closeTop := func() {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var parent *open
		if len(stack) > 0 {
			parent = &stack[len(stack)-1]
		}
		settle(&o, parent)
		d := o.c.Display
		if d.IsNone() || d.IsContents() {
			return
		}
		outer := int32(0)
		if parent != nil {
			outer = parent.line
		}
		lines[outer] = d.Class() == domtree.DisplayInline
	}
	var attrs []domtree.Attr
	for n := doc.FirstChild; n != nil; n = style.NextNode(n, doc, true) {
		for len(stack) > 0 && stack[len(stack)-1].n != n.Parent {
			closeTop()
		}
		var top *open
		parentIdx := 0
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
			parentIdx = top.idx
		}
		var err error
		switch n.Type {
		case html.DoctypeNode:
			_, err = b.AddDoctype(parentIdx, n.Data, 0)
		case html.CommentNode:
			var idx int
			idx, err = b.AddComment(parentIdx, n.Data, 0)
			if err == nil && p.tag != nil {
				p.tag(b, n, idx)
			}
		case html.TextNode:
			if top != nil && !top.c.Display.IsNone() && !htmlHides(top.n, n, top.c) {
				if !htmlAllSpace(n.Data) || lines[top.line] {
					top.text = true
					lines[top.line] = true
				}
			}
			var idx int
			idx, err = b.AddText(parentIdx, n.Data, 0)
			if err == nil && p.tag != nil {
				p.tag(b, n, idx)
			}
		case html.ElementNode:
			var c style.Computed
			switch {
			case top == nil:
				c = eng.Compute(n, nil)
			case top.c.Display.IsNone() || htmlHides(top.n, n, top.c):
				c = style.Computed{Display: style.DisplayNone}
			default:
				c = eng.Compute(n, &top.c)
			}
			if n.Namespace == "" && n.Data == "embed" {
				if !htmlHasAttr(n, "src") && !htmlHasAttr(n, "type") {
					c.Display = style.DisplayNone // nothing to embed: no box
				}
			}
			if htmlDemotedForm(n) {
				c.Display = style.DisplayNone
			}
			hidden := c.Hidden
			if c.Display.IsContents() && top != nil {
				hidden = top.hidden
			}
			var idx int
			attrs, idx, err = p.addElement(b, parentIdx, n, c.Display.Class(), hidden, attrs)
			if err != nil {
				break
			}
			if p.tag != nil {
				p.tag(b, n, idx)
			}
			o := open{n: n, c: c, idx: idx, hidden: hidden}
			if n.FirstChild == nil {
				// A leaf is settled at once, and still ends the line
				// state of its container.
				settle(&o, top)
				if d := c.Display; !d.IsNone() && !d.IsContents() {
					outer := int32(0)
					if top != nil {
						outer = top.line
					}
					lines[outer] = d.Class() == domtree.DisplayInline
				}
				continue
			}
			own := int32(len(stack) + 1)
			if int(own) >= len(lines) {
				lines = append(lines, false)
			}
			lines[own] = false
			o.line = own
			if top != nil && (c.Display.IsContents() || c.Display.IsPlainInline()) {
				o.line = top.line // the children flow into the same container
			} else if top == nil && c.Display.IsContents() {
				o.line = 0
			}
			if c.Display.IsPlainInline() {
				lines[o.line] = true
			}
			stack = append(stack, o)
		}
		if err != nil {
			return nil, errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "cannot build the tree", err)
		}
	}
	for len(stack) > 0 {
		closeTop()
	}
	return b, nil
}

// htmlVisibility is the tree's visibility for a computed one.
func htmlVisibility(hidden bool) domtree.Visibility {
	if hidden {
		return domtree.Hidden
	}
	return domtree.Visible
}

// htmlDemotedForm reports whether n is a form the parser inserted where a
// table expected rows: its parent is a table, a table section or a row,
// which only the parser's form rule for tables can make it (it inserts the
// form and closes it at once, so it is always empty). Chromium 156 gives
// such a form no layout object, whatever its display.
func htmlDemotedForm(n *html.Node) bool {
	if n.Namespace != "" || n.Data != "form" || n.Parent == nil || n.Parent.Type != html.ElementNode || n.Parent.Namespace != "" {
		return false
	}
	switch n.Parent.Data {
	case "table", "thead", "tbody", "tfoot", "tr":
		return true
	}
	return false
}

// htmlHides is htmlHidesChild where p's computed style is known: content
// visibility hides nothing in a box that size containment does not apply to
// (an inline box, a table or table part, ...).
func htmlHides(p, c *html.Node, ps style.Computed) bool {
	if !htmlHidesChild(p, c) {
		return false
	}
	if v, ok := htmlAttr(p, "hidden"); ok && domtree.EqualFold(v, "until-found") && !ps.Display.Containable() {
		return false
	}
	return true
}

// htmlHidesChild reports whether the element p never renders its child c:
// a closed details renders only its first summary, a drop-down select (no
// multiple, size at most 1) draws its options itself, without boxes, an
// option renders only its text, and a hidden=until-found element skips its
// content.
func htmlHidesChild(p, c *html.Node) bool {
	if p.Namespace != "" {
		return false
	}
	if v, ok := htmlAttr(p, "hidden"); ok && domtree.EqualFold(v, "until-found") && p.Data != "embed" {
		// Its box, when author CSS shows one, has content-visibility:
		// hidden: the content gets no boxes. (Not every box can skip its
		// content; htmlHides checks that.)
		return true
	}
	switch p.Data {
	case "option":
		// An option renders its text only.
		return c.Type == html.ElementNode
	case "canvas", "video", "audio", "meter", "progress":
		// Their content is fallback for browsers without the feature:
		// Chromium (with scripting on, for canvas) draws the element itself
		// and gives its children no layout object.
		return true
	case "details":
		if htmlHasAttr(p, "open") {
			return false
		}
		if c.Type == html.ElementNode && c.Namespace == "" && c.Data == "summary" {
			for s := p.FirstChild; s != nil; s = s.NextSibling {
				if s.Type == html.ElementNode && s.Namespace == "" && s.Data == "summary" {
					return s != c
				}
			}
		}
		return true
	case "select":
		if htmlHasAttr(p, "multiple") {
			return false
		}
		size, _ := htmlAttr(p, "size")
		return htmlParseNonNegative(size) <= 1
	}
	return false
}

// htmlParseNonNegative reads an attribute with the HTML rules for parsing
// non-negative integers: leading ASCII whitespace, an optional "+", then
// digits; anything unparsable is 0 here.
func htmlParseNonNegative(s string) int {
	s = strings.TrimLeft(s, " \t\n\f\r")
	s = strings.TrimPrefix(s, "+")
	v := 0
	for i := 0; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		if v > 1<<20 {
			break
		}
		v = v*10 + int(s[i]-'0')
	}
	return v
}

// addElement adds element n, with its display and reported visibility, to
// the tree as the last child of parent, reusing attrs' storage for its attributes, which it returns.
func (p *htmlPrepared) addElement(b *domtree.Builder, parent int, n *html.Node, display domtree.Display, hidden bool, attrs []domtree.Attr) ([]domtree.Attr, int, error) {
	attrs = attrs[:0]
	for _, a := range n.Attr {
		name := a.Key
		if a.Namespace != "" && a.Namespace != a.Key {
			name = a.Namespace + ":" + a.Key
		}
		attrs = append(attrs, domtree.Attr{Name: name, Value: a.Val})
	}
	info := domtree.ElementInfo{Display: display, Visibility: htmlVisibility(hidden)}
	info.Checked = n.Namespace == "" && n.Data == "input" && p.states[n]&style.Checked != 0
	if p.hosts[n] {
		info.Flags |= domtree.ShadowHost
	}
	if n.Namespace == "" {
		switch n.Data {
		case "template":
			info.Flags |= domtree.TemplateContents
		case "iframe", "frame":
			info.Flags |= domtree.FrameOwner
		case "embed":
			if htmlEmbedsDocument(n) {
				info.Flags |= domtree.FrameOwner
			}
		}
	}
	idx, err := b.AddElement(parent, n.Data, attrs, info)
	return attrs, idx, err
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

// htmlRemoveAttr removes every attribute key (no namespace) from n.
func htmlRemoveAttr(n *html.Node, key string) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != key {
			kept = append(kept, a)
		}
	}
	n.Attr = kept
}

// htmlEmbedsDocument reports whether Chromium would give an embed element a
// content document: its type names a document format, or, without a type,
// its src looks like one by extension. Objects show their fallback content
// offline and in a parity run (their data never loads), so they have none.
func htmlEmbedsDocument(n *html.Node) bool {
	src, ok := htmlAttr(n, "src")
	if !ok {
		return false
	}
	if t, ok := htmlAttr(n, "type"); ok {
		switch domtree.ToLowerASCII(t) {
		case "text/html", "image/svg+xml", "application/xhtml+xml":
			return true
		}
		return false
	}
	if i := strings.IndexAny(src, "?#"); i >= 0 {
		src = src[:i]
	}
	src = domtree.ToLowerASCII(strings.TrimSpace(src))
	for _, ext := range []string{".html", ".htm", ".xhtml", ".svg"} {
		if strings.HasSuffix(src, ext) {
			return true
		}
	}
	return false
}

// htmlAllSpace reports whether s is only ASCII whitespace (space, tab, LF,
// FF, CR), the empty string included. It is strings.Trim(s, " \t\n\f\r")
// == "" without the cut-set's setup on every text node of the walk.
func htmlAllSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\f', '\r':
		default:
			return false
		}
	}
	return true
}

// htmlIsEmpty reports whether n matches :empty: no child but comments. A
// text node counts even when it is all whitespace, as in browsers.
func htmlIsEmpty(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode || c.Type == html.TextNode {
			return false
		}
	}
	return true
}

// htmlQuirks reports whether the document is in quirks mode, by the HTML
// Standard's DOCTYPE rules: no DOCTYPE, a name other than html, or a public
// identifier of a legacy DTD. The legacy identifiers are matched by their
// families' prefixes, which covers the Standard's list.
func htmlQuirks(doc *html.Node) bool {
	var dt *html.Node
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.DoctypeNode {
			dt = c
			break
		}
	}
	if dt == nil || domtree.ToLowerASCII(dt.Data) != "html" {
		return true
	}
	public, hasPublic := htmlAttr(dt, "public")
	_, hasSystem := htmlAttr(dt, "system")
	if !hasPublic {
		return false
	}
	pub := domtree.ToLowerASCII(public)
	switch pub {
	case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html":
		return true
	}
	for _, p := range []string{"+//silmaril//", "-//as//", "-//advasoft ltd//", "-//ietf//dtd html",
		"-//metrius//", "-//microsoft//", "-//netscape comm. corp.//", "-//o'reilly and associates//",
		"-//sq//", "-//softquad", "-//spyglass//", "-//sun microsystems corp.//", "-//w3c//dtd html 3",
		"-//w3c//dtd html 4.0 frameset//", "-//w3c//dtd html 4.0 transitional//", "-//w3c//dtd html experimental",
		"-//w3c//dtd w3 html//", "-//w3o//dtd w3 html 3.0//", "-//webtechs//"} {
		if strings.HasPrefix(pub, p) {
			return true
		}
	}
	if !hasSystem && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") ||
		strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//")) {
		return true
	}
	return false
}
