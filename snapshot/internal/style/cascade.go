package style

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot/internal/media"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// MatchBudget bounds the (selector, element) pairs the author style sheets
// may cost one document; see the package documentation.
const MatchBudget = 1 << 22

// State is a set of element states that selectors ask about and that the
// selector library cannot work out from the tree: the caller computes them
// once per document (Options.States) and the matcher reads them there. The
// tree itself is never marked.
type State uint16

// The states. Undefined is the one state most elements are not in, so that
// the table holds few entries: :defined matches the elements without it.
const (
	Checked          State = 1 << iota // :checked
	Open                               // :open
	Required                           // :required
	Optional                           // :optional
	Empty                              // :empty: no child but comments; unlike the selector library's, a whitespace text node is a child
	ReadWrite                          // :read-write; :read-only is its absence
	PlaceholderShown                   // :placeholder-shown
	Indeterminate                      // :indeterminate
	RTL                                // :dir(rtl), a right-to-left directionality; :dir(ltr) is its absence
	Undefined                          // a custom element, never defined since no script runs; :defined is its absence
)

// States holds each element's states; an element not in it has none.
type States map[*html.Node]State

// property is one of the properties the cascade computes.
type property uint8

const (
	propDisplay property = iota
	propVisibility
	propFloat
	propPosition
	propAppearance
	numProps
)

var propNames = map[string]property{
	"display": propDisplay, "visibility": propVisibility, "float": propFloat, "position": propPosition,
	"appearance": propAppearance, "-webkit-appearance": propAppearance,
}

// valueKind is a declared value's kind: a keyword or a CSS-wide keyword.
type valueKind uint8

const (
	valKeyword valueKind = iota
	valInherit
	valInitial
	valUnset
	valRevert
	// valVar is a display or visibility value that uses var(); raw holds
	// it until it is substituted for an element.
	valVar
)

var cssWide = map[string]valueKind{
	"inherit": valInherit, "initial": valInitial, "unset": valUnset,
	"revert": valRevert, "revert-layer": valRevert,
}

// position values that matter: whether the box is taken out of flow.
type position uint8

const (
	posStatic position = iota
	posOther           // relative, sticky
	posOut             // absolute, fixed
)

// value is one declared value.
type value struct {
	kind    valueKind
	display Display
	hidden  bool // visibility hidden or collapse
	float   bool // float other than none
	pos     position
	native  bool    // appearance other than none
	raw     []token // a custom property's value, or a valVar value
}

// decl is a parsed declaration of a property the cascade computes.
type decl struct {
	prop      property
	val       value
	important bool
	custom    string // the name of a custom property (prop is propCustom)
}

// parseDecls keeps the declarations the cascade needs, valid as Chromium
// would parse them; everything else is dropped like an invalid declaration.
func parseDecls(raw []rawDecl) []decl {
	var out []decl
	for _, r := range raw {
		if strings.HasPrefix(r.name, "--") {
			// A custom property keeps its tokens; a CSS-wide keyword
			// alone is that keyword.
			v := value{raw: r.value}
			if words, ok := keywords(r.value); ok && len(words) == 1 {
				if k, wide := cssWide[words[0]]; wide {
					v = value{kind: k}
				}
			}
			out = append(out, decl{prop: propCustom, custom: r.name, val: v, important: r.important})
			continue
		}
		if p, ok := propNames[r.name]; ok && (p == propDisplay || p == propVisibility) && usesVar(r.value) {
			// Valid until computed, if its var() are well formed.
			if validVars(r.value) {
				out = append(out, decl{prop: p, val: value{kind: valVar, raw: r.value}, important: r.important})
			}
			continue
		}
		words, ok := keywords(r.value)
		if !ok {
			continue
		}
		if r.name == "all" {
			if len(words) != 1 {
				continue
			}
			k, ok := cssWide[words[0]]
			if !ok {
				continue
			}
			for p := property(0); p < numProps; p++ {
				out = append(out, decl{prop: p, val: value{kind: k}, important: r.important})
			}
			continue
		}
		p, ok := propNames[r.name]
		if !ok {
			continue
		}
		var v value
		if k, wide := cssWide[words[0]]; wide {
			if len(words) != 1 {
				continue
			}
			v.kind = k
		} else if !parseKeyword(p, words, &v) {
			continue
		}
		out = append(out, decl{prop: p, val: v, important: r.important})
	}
	return out
}

func parseKeyword(p property, words []string, v *value) bool {
	switch p {
	case propDisplay:
		d, ok := parseDisplay(words)
		v.display = d
		return ok
	}
	if len(words) != 1 {
		return false
	}
	switch w := words[0]; p {
	case propVisibility:
		switch w {
		case "visible":
		case "hidden", "collapse":
			v.hidden = true
		default:
			return false
		}
	case propFloat:
		switch w {
		case "none":
		case "left", "right", "inline-start", "inline-end":
			v.float = true
		default:
			return false
		}
	case propAppearance:
		if w != "none" && !appearanceValues[w] {
			return false
		}
		v.native = w != "none"
	case propPosition:
		switch w {
		case "static":
		case "relative", "sticky", "-webkit-sticky":
			v.pos = posOther
		case "absolute", "fixed":
			v.pos = posOut
		default:
			return false
		}
	}
	return true
}

// rank orders origins and importance: user-agent normal, author normal,
// author important, user-agent important.
type rank uint8

const (
	rankUANormal rank = iota
	rankAuthorNormal
	rankAuthorImportant
	rankUAImportant
)

// prio is a declaration's place in the cascade; a greater prio wins.
type prio struct {
	rank   rank
	inline bool
	spec   cascadia.Specificity
	order  int   // rule order in the document
	index  int   // declaration order within its rule
	layer  int32 // the cascade layer's rank (layers.finish); 0 is below every layer
}

func (a prio) less(b prio) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	if a.inline != b.inline {
		return !a.inline
	}
	if a.layer != b.layer {
		// Important declarations of earlier layers win, normal ones of
		// later layers (and of no layer).
		if a.rank == rankAuthorImportant {
			return a.layer > b.layer
		}
		return a.layer < b.layer
	}
	if a.spec != b.spec {
		return a.spec.Less(b.spec)
	}
	if a.order != b.order {
		return a.order < b.order
	}
	return a.index < b.index
}

// rule is one complex selector of a style rule with the rule's declarations.
type rule struct {
	sel   complexSel
	decls []decl
	order int
	layer int32 // while reading, the layer's id; then its rank
}

// Options say how the document was parsed.
type Options struct {
	// Quirks is true for a document in quirks mode.
	Quirks bool
	// States are the elements' states (see State), which the engine reads
	// and never changes.
	States States
	// Sources, when not nil, are the document's possible style sheet
	// sources, found by the caller in a walk of its own; New then does
	// not walk the document for them.
	Sources *Sources
}

// Sources are what New reads from the document besides the rules.
type Sources struct {
	// Nodes are the document's style and meta elements (any namespace;
	// others are ignored), in tree order.
	Nodes []*html.Node
	// Elements is the number of elements in the document.
	Elements int
}

// findSources walks the document for its Sources.
func findSources(doc *html.Node) *Sources {
	src := &Sources{}
	for n := doc; n != nil; n = NextNode(n, doc, true) {
		if n.Type != html.ElementNode {
			continue
		}
		src.Elements++
		if n.Data == "style" || n.Data == "meta" {
			src.Nodes = append(src.Nodes, n)
		}
	}
	return src
}

// lowerNames lower-cases the id and class names of selectors, for quirks mode.
func lowerNames(toks []token) {
	for i, t := range toks {
		if t.Type == css.HashToken || (t.Type == css.IdentToken && i > 0 && toks[i-1].Type == css.DelimToken && toks[i-1].Data == ".") {
			toks[i].Data = domtree.ToLowerASCII(t.Data)
		}
	}
}

// Engine computes styles for one document.
type Engine struct {
	rules     []rule
	byID      map[string][]int32
	byClass   map[string][]int32
	byTag     map[string][]int32
	universal []int32
	// SheetsDropped is true when the author style sheets would have cost
	// more than MatchBudget candidate pairs, or more than MatchSteps steps,
	// and were not applied.
	SheetsDropped bool
	// m matches selectors and keeps what is left of MatchSteps.
	m matcher
	// varSteps is what is left of VarSteps.
	varSteps int
	// Sheets is the number of <style> elements applied.
	Sheets int
}

// Computed is an element's computed style, as far as analysis needs it.
type Computed struct {
	Display Display
	// Hidden is computed visibility hidden or collapse (inherited).
	Hidden       bool
	float        bool
	pos          position
	native       bool // computed appearance other than none
	blockifyKids bool
	inlinifyKids bool
	vars         *varScope
}

// New collects the style sheets of the document rooted at doc: every <style>
// element (HTML or SVG) reachable from doc whose type is CSS and whose media
// query list matches the reference screen (package media), and the rules of
// theirs that apply to that screen. Template contents and declarative
// shadow roots must already be cut off the tree by the caller.
//
// In quirks mode (Options.Quirks), class and id selectors match ASCII
// case-insensitively, as browsers do: New lower-cases the class and id
// names in the selectors, and the matcher compares them with the element's
// class and id lower-cased; the tree is left as it is.
func New(doc *html.Node, opts Options) *Engine {
	e := &Engine{
		byID: map[string][]int32{}, byClass: map[string][]int32{}, byTag: map[string][]int32{},
	}
	src := opts.Sources
	if src == nil {
		src = findSources(doc)
	}
	r := sheetReader{e: e, ctx: newSheetContext()}
	preferred := ""
	for _, n := range src.Nodes {
		if !sheetApplies(n, r.ctx.screen, &preferred) {
			continue
		}
		e.Sheets++
		toks := tokenize(sheetText(n))
		if opts.Quirks {
			lowerNames(toks)
		}
		r.read(toks)
	}
	e.m = newMatcher(opts)
	// Layer order is known once every sheet is read.
	r.ctx.layers.finish()
	for i := range e.rules {
		e.rules[i].layer = r.ctx.layers.rank[e.rules[i].layer]
	}
	e.varSteps = VarSteps
	e.checkBudget(doc, src.Elements)
	return e
}

// sheetApplies reports whether n is a style sheet the page applies, given
// the name of the preferred set of sheets so far, which it updates.
// <meta http-equiv=default-style> names the preferred set, unless a titled
// sheet before it already has (Chromium keeps the first name it is given);
// the content is kept as written. A titled sheet belongs to a named set:
// the first title names the preferred set, and sheets of any other set are
// alternates, which a browser does not apply.
func sheetApplies(n *html.Node, screen media.Screen, preferred *string) bool {
	if *preferred == "" && isDefaultStyleMeta(n) {
		*preferred, _ = attrValue(n, "content")
		return false
	}
	if !isStyleElement(n, screen) {
		return false
	}
	if title, _ := attrValue(n, "title"); title != "" {
		if *preferred == "" {
			*preferred = title
		} else if title != *preferred {
			return false
		}
	}
	return true
}

// sheetText is the text of a style element: its text children, joined.
func sheetText(n *html.Node) string {
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	return sb.String()
}

// sheetReader adds the style rules of the page's sheets to its engine, in
// document order, nested rules after their parent. order numbers the rules
// across every sheet, as the cascade's last tie-break.
type sheetReader struct {
	e     *Engine
	ctx   *sheetContext
	order int
	// stack holds the rules of the sheet still to read, the next one on
	// top.
	stack []nestedItem
}

// nestedItem is one entry of sheetReader's stack: a rule to read, or the
// declarations that trail a nested rule.
type nestedItem struct {
	r       rawRule
	parents []string // the parent's resolved selectors; nil at top level
	depth   int
	// trailing, when not nil, makes the item the declarations that follow
	// a nested rule, for the selectors sels: they cascade after that rule
	// and all it nests, as CSS Nesting says.
	trailing []decl
	sels     []complexSel
	layer    int32
}

// read adds the rules of one sheet's tokens.
func (r *sheetReader) read(toks []token) {
	top := readRules(toks, r.ctx)
	r.stack = make([]nestedItem, 0, len(top))
	for i := len(top) - 1; i >= 0; i-- {
		r.stack = append(r.stack, nestedItem{r: top[i]})
	}
	for len(r.stack) > 0 {
		it := r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
		if it.trailing != nil {
			r.add(it.sels, it.trailing, it.layer)
			continue
		}
		r.readRule(it)
	}
}

// add adds one rule per selector with decls, and takes the next order
// (whether or not there were declarations, as the order of what follows
// depends on it).
func (r *sheetReader) add(sels []complexSel, decls []decl, layer int32) {
	if len(decls) > 0 {
		for _, s := range sels {
			r.e.add(rule{sel: s, decls: decls, order: r.order, layer: layer})
		}
	}
	r.order++
}

// readRule reads one style rule, or the group rule of it.r.at, when it
// applies: its own declarations are added, and its nested rules, with the
// declarations that trail each, are pushed to be read next, up to
// MaxNesting deep. An invalid selector drops the rule and all it holds.
func (r *sheetReader) readRule(it nestedItem) {
	if it.r.at != "" {
		layer, ok := r.ctx.groupApplies(it.r.at, it.r.atPrelude, it.r.layer)
		if !ok {
			return
		}
		it.r.layer = layer
	}
	resolved, sels, ok := ruleSelectors(it.r.prelude, it.parents)
	if !ok {
		return
	}
	segs, nested := readBlock(it.r.block)
	r.add(sels, parseDecls(segs[0]), it.r.layer)
	for i := len(nested) - 1; i >= 0; i-- {
		if d := parseDecls(segs[i+1]); len(d) > 0 {
			r.stack = append(r.stack, nestedItem{trailing: d, sels: sels, layer: it.r.layer})
		}
		if it.depth+1 < MaxNesting {
			nested[i].layer = it.r.layer
			r.stack = append(r.stack, nestedItem{r: nested[i], parents: resolved, depth: it.depth + 1})
		}
	}
}

// ruleSelectors parses a rule's prelude, resolved against its parent's
// selectors when it is nested (parents not nil), and returns the resolved
// selectors as text too, for the rules it nests in turn.
func ruleSelectors(prelude []token, parents []string) (resolved []string, sels []complexSel, ok bool) {
	if parents != nil {
		if resolved, ok = nestSelectors(prelude, parents); !ok {
			return nil, nil, false
		}
		prelude = tokenize(strings.Join(resolved, ", "))
	} else {
		resolved = splitSelectors(trimSpace(prelude))
	}
	if sels, ok = parseSelectors(prelude); !ok {
		return nil, nil, false
	}
	return resolved, sels, true
}

// OverBudget reports whether matching ran out of MatchSteps. Styles computed
// since then are not to be trusted: the caller calls DropSheets and computes
// every element again, so that the sheets apply everywhere or nowhere.
func (e *Engine) OverBudget() bool { return e.m.spent() && !e.SheetsDropped }

// StepsCharged is how many of MatchSteps matching has taken so far; it
// never exceeds MatchSteps.
func (e *Engine) StepsCharged() int { return e.m.charged }

// Work is how many tests and visits matching has actually made. Each is
// charged before it is made, so Work never exceeds StepsCharged; tests and
// the fuzzer check that, which catches work done without being paid for.
func (e *Engine) Work() int { return e.m.work }

// DropSheets stops applying the author style sheets (style attributes still
// apply) and records that in SheetsDropped.
func (e *Engine) DropSheets() {
	e.rules, e.universal = nil, nil
	e.byID, e.byClass, e.byTag = map[string][]int32{}, map[string][]int32{}, map[string][]int32{}
	e.SheetsDropped = true
	e.varSteps = VarSteps
	// No rule is left to test a position or a form state: what they kept
	// can go.
	e.m.pos, e.m.perTag = nil, nil
	e.m.fieldset, e.m.legends, e.m.climb = nil, nil, nil
}

func (e *Engine) add(r rule) {
	i := int32(len(e.rules))
	e.rules = append(e.rules, r)
	switch r.sel.key {
	case keyID:
		e.byID[r.sel.keyText] = append(e.byID[r.sel.keyText], i)
	case keyClass:
		e.byClass[r.sel.keyText] = append(e.byClass[r.sel.keyText], i)
	case keyTag:
		e.byTag[r.sel.keyText] = append(e.byTag[r.sel.keyText], i)
	default:
		e.universal = append(e.universal, i)
	}
}

// checkBudget counts the candidate pairs the sheets would cost and drops
// them when they pass MatchBudget, before any is matched: one pair per
// rule of the lists that may match an element (the universal ones
// included), a costly rule weighing as much as the document has elements,
// the most its own search can visit. When even every rule on every element
// stays within the budget, nothing needs counting; otherwise one walk
// looks each element's id, classes and tag up without copying them.
func (e *Engine) checkBudget(doc *html.Node, elements int) {
	if len(e.rules) == 0 {
		return
	}
	weight := func(list []int32) int {
		w := 0
		for _, i := range list {
			if e.rules[i].sel.costly {
				w += elements
			} else {
				w++
			}
		}
		return w
	}
	all := 0
	for i := range e.rules {
		if e.rules[i].sel.costly {
			all += elements
		} else {
			all++
		}
		if all > MatchBudget {
			break
		}
	}
	if all <= MatchBudget/max(1, elements) {
		return
	}
	uw := weight(e.universal)
	total := 0
	add := func(m map[string][]int32, key string) {
		if l := m[key]; len(l) > 0 {
			total += weight(l)
		}
	}
	for n := doc; n != nil; n = NextNode(n, doc, true) {
		if n.Type != html.ElementNode {
			continue
		}
		total += uw
		for _, a := range n.Attr {
			switch {
			case a.Key == "id" && len(e.byID) > 0:
				add(e.byID, e.quirkName(a.Val))
			case a.Key == "class" && len(e.byClass) > 0:
				eachField(a.Val, func(c string) { add(e.byClass, e.quirkName(c)) })
			}
		}
		if len(e.byTag) > 0 {
			add(e.byTag, domtree.ToLowerASCII(n.Data))
		}
		if total > MatchBudget {
			e.DropSheets()
			return
		}
	}
}

// quirkName is a class or id name as the rule index holds it: lower case
// in quirks mode.
func (e *Engine) quirkName(s string) string {
	if e.m.quirks {
		return domtree.ToLowerASCII(s)
	}
	return s
}

// eachField calls f with each name of a class attribute, split at ASCII
// whitespace, without copying them.
func eachField(s string, f func(string)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r' {
			if start >= 0 {
				f(s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
}

// candidatesFor calls f with each keyed rule list that may match n, from
// n's class list and id as the matcher read them (split once, lower case in
// quirks mode).
func (e *Engine) candidatesFor(n *html.Node, in *elemInfo, f func([]int32)) {
	if in.id != "" {
		if l := e.byID[in.id]; len(l) > 0 {
			f(l)
		}
	}
	if len(e.byClass) > 0 {
		for _, c := range in.classes {
			if l := e.byClass[c]; len(l) > 0 {
				f(l)
			}
		}
	}
	if l := e.byTag[domtree.ToLowerASCII(n.Data)]; len(l) > 0 {
		f(l)
	}
}

// isDefaultStyleMeta reports whether n is an HTML meta element whose
// http-equiv is default-style and whose content is not empty.
func isDefaultStyleMeta(n *html.Node) bool {
	if n.Namespace != "" || n.Data != "meta" || !attrEqualFold(n, "http-equiv", "default-style") {
		return false
	}
	c, _ := attrValue(n, "content")
	return c != ""
}

func isStyleElement(n *html.Node, screen media.Screen) bool {
	if n.Data != "style" || (n.Namespace != "" && n.Namespace != "svg") {
		return false
	}
	if t, ok := attrValue(n, "type"); ok && t != "" && domtree.ToLowerASCII(strings.TrimSpace(t)) != "text/css" {
		return false
	}
	if m, ok := attrValue(n, "media"); ok && !media.Match(m, screen) {
		return false
	}
	return true
}

// NextNode is one step of an iterative pre-order walk of root's subtree:
// into n's children when enter is true, else past n's subtree; nil when the
// walk leaves root. Parsed HTML can be 512 elements deep, so nothing that
// walks it recurses.
func NextNode(n, root *html.Node, enter bool) *html.Node {
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

// winner is the best declaration seen so far for one property.
type winner struct {
	set  bool
	p    prio
	val  value
	from rank
}

func (w *winner) offer(p prio, v value) {
	if !w.set || w.p.less(p) {
		*w = winner{set: true, p: p, val: v, from: p.rank}
	}
}

// Compute returns the computed style of element n, given its parent
// element's computed style (nil for the root element).
func (e *Engine) Compute(n *html.Node, parent *Computed) Computed {
	var w [numProps]winner
	ua, uaImportant, uaOK := uaDisplay(n)
	if uaOK {
		r := rankUANormal
		if uaImportant {
			r = rankUAImportant
		}
		w[propDisplay].offer(prio{rank: r, order: -1}, value{display: ua})
	}
	uaPos := uaPosition(n)
	if uaPos != posStatic {
		w[propPosition].offer(prio{rank: rankUANormal, order: -1}, value{pos: uaPos})
	}
	if alignFloats(n) {
		// A presentational hint: author origin, before every author rule.
		w[propFloat].offer(prio{rank: rankAuthorNormal, order: -1}, value{float: true})
	}
	var custom map[string]*winner
	offer := func(ds []decl, p prio) {
		for i, d := range ds {
			p.index = i
			p.rank = rankAuthorNormal
			if d.important {
				p.rank = rankAuthorImportant
			}
			if d.prop == propCustom {
				if custom == nil {
					custom = map[string]*winner{}
				}
				x := custom[d.custom]
				if x == nil {
					x = &winner{}
					custom[d.custom] = x
				}
				x.offer(p, d.val)
				continue
			}
			w[d.prop].offer(p, d.val)
		}
	}
	try := func(list []int32) {
		for _, i := range list {
			r := &e.rules[i]
			if matchComplex(&r.sel, n, &e.m) {
				offer(r.decls, prio{spec: r.sel.spec, order: r.order, layer: r.layer})
			}
		}
	}
	if len(e.rules) > 0 {
		try(e.universal)
		e.candidatesFor(n, e.m.styling(n), try)
	}
	if s, ok := attrValue(n, "style"); ok && s != "" {
		offer(parseDecls(readDecls(tokenize(s))), prio{inline: true})
	}

	var par Computed
	if parent != nil {
		par = *parent
	}
	var c Computed
	c.vars = par.vars
	if len(custom) > 0 {
		own := make(map[string]customDecl, len(custom))
		for name, x := range custom {
			own[name] = customDecl{kind: x.val.kind, toks: x.val.raw}
		}
		c.vars = &varScope{parent: par.vars, own: own}
	}
	e.substituteVars(&w, c.vars)
	// display
	c.Display = DisplayInline
	if x := w[propDisplay]; x.set {
		switch x.val.kind {
		case valKeyword:
			c.Display = x.val.display
		case valInherit:
			if parent != nil {
				c.Display = par.Display
			}
		case valRevert:
			if x.from != rankUANormal && x.from != rankUAImportant && uaOK {
				c.Display = ua
			}
		}
	}
	// visibility inherits by default.
	c.Hidden = par.Hidden
	if x := w[propVisibility]; x.set {
		switch x.val.kind {
		case valKeyword:
			c.Hidden = x.val.hidden
		case valInitial:
			c.Hidden = false
		}
	}
	if x := w[propFloat]; x.set {
		switch x.val.kind {
		case valKeyword:
			c.float = x.val.float
		case valInherit:
			c.float = par.float
		}
	}
	if x := w[propPosition]; x.set {
		switch x.val.kind {
		case valKeyword:
			c.pos = x.val.pos
		case valInherit:
			c.pos = par.pos
		case valRevert:
			if x.from == rankAuthorNormal || x.from == rankAuthorImportant {
				c.pos = uaPos
			}
		}
	}

	// Chromium's adjustments, in its order.
	if c.Display.inner == innerMath && n.Namespace != "math" {
		c.Display.inner = innerFlow // math is flow outside MathML
	}
	if c.Display.IsContents() && contentsIsNone(n) {
		c.Display = DisplayNone
	}
	// appearance does not inherit; revert goes back to the user agent's.
	c.native = uaAppearance(n)
	if x := w[propAppearance]; x.set {
		switch x.val.kind {
		case valKeyword:
			c.native = x.val.native
		case valInherit:
			c.native = par.native
		case valInitial, valUnset:
			c.native = false
		}
	}
	if c.native {
		c.Display = nativeDisplay(c.Display)
	}
	if c.pos == posOut {
		c.float = false
	}
	switch {
	case c.Display.IsNone():
	case parent == nil:
		if c.Display.IsContents() {
			c.Display = DisplayBlock
		} else {
			c.Display = c.Display.blockify()
		}
	case par.inlinifyKids && c.pos != posOut:
		// Chromium inlinifies a ruby container's children even when they
		// float (the float is ignored).
		c.float = false
		c.Display = c.Display.inlinify()
	case c.float || c.pos == posOut || par.blockifyKids:
		c.Display = c.Display.blockify()
	}
	if n.Namespace == "" && n.Data == "legend" && !c.Display.IsNone() && !c.Display.IsContents() {
		c.Display = c.Display.blockify() // Chromium keeps every legend block-level
	}
	c.blockifyKids = c.Display.blockifiesChildren() || (c.Display.IsContents() && par.blockifyKids)
	c.inlinifyKids = c.Display.inlinifiesChildren() || (c.Display.IsContents() && par.inlinifyKids)
	return c
}

// alignFloats reports whether n's align attribute is a presentational hint
// for float (HTML Standard, rendering section, and Chromium): left or right,
// ASCII case-insensitively, on img, object, embed, iframe, an image button
// or a table. A float is blockified, which can make an inline box
// block-level.
func alignFloats(n *html.Node) bool {
	if n.Namespace != "" {
		return false
	}
	switch n.Data {
	case "img", "object", "embed", "iframe", "table":
	case "input":
		if !attrEqualFold(n, "type", "image") {
			return false
		}
	default:
		return false
	}
	a, ok := attrValue(n, "align")
	return ok && (domtree.EqualFold(a, "left") || domtree.EqualFold(a, "right"))
}
