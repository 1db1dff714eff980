package style

import (
	"strconv"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/domsnap/domsnap/domtree"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// The selector library parses and weighs selectors, but its matcher is a
// black box: a class test scans the attribute again for every rule, and
// :has() walks a subtree no budget can see. So each compound selector is
// also read here into the tree below, which this package matches itself,
// charging MatchSteps as it goes. Only the leaves (attribute selectors and
// the pseudo-classes without a selector argument) are still matched by the
// library, one simple selector at a time, after their cost was charged.

// simpleKind is the kind of one simple selector.
type simpleKind uint8

const (
	simUniversal simpleKind = iota
	simTag
	simClass
	simID
	simNot      // :not(list)
	simHas      // :has(list): some descendant matches
	simHasChild // :haschild(list), the library's spelling of :has(> list)
	simState    // a state from Options.States, or its absence (stateSel)
	simPosition // a positional pseudo-class (nthPos), see position.go
	simEnabled  // :enabled, see formstate.go
	simDisabled // :disabled
	simLeaf     // matched by the selector library
)

// leafCost says what a leaf's own work grows with.
type leafCost uint8

const (
	costOne       leafCost = iota
	costAttrs              // attribute selectors: the element's attributes
	costSiblings           // position pseudo-classes the library matches: the parent's children
	costAncestors          // :lang(): the ancestors
)

// simple is one simple selector of a compound.
type simple struct {
	kind  simpleKind
	name  string       // tag, class or id
	group []*cplx      // the argument of :not and :has
	leaf  cascadia.Sel // for simLeaf
	cost  leafCost
	state State  // for simState
	nth   nthPos // for simPosition
	not   bool   // for simState: the state's absence
}

// cmpd is a compound selector: every simple selector must match.
type cmpd struct{ simples []simple }

// cplx is a complex selector inside a functional pseudo-class: compounds
// left to right, comb[i] joining parts[i] to parts[i-1] (comb[0] unused).
type cplx struct {
	parts []*cmpd
	comb  []byte
}

// MaxSelectorNesting is the deepest that functional pseudo-classes (:not,
// :is, :where, :has, :nth-child of S) may nest in one selector; deeper
// selectors drop their rule. It keeps the matcher's recursion bounded by
// the style sheet, whatever the document.
const MaxSelectorNesting = 32

// compoundParser reads the selector library's text of one compound (as
// parseComplex writes it) into a cmpd.
type compoundParser struct {
	toks []token
	i    int
	// depth is the functional pseudo-classes open around the position.
	depth int
	// nested counts the combinators inside functional pseudo-classes.
	nested int
	// searches is true when the compound searches other elements by
	// itself (:has, or a combinator inside a pseudo-class).
	searches bool
	bad      bool
}

// parseCompound reads one compound's text; ok is false when it is not
// something this package can match, which drops the rule.
func parseCompound(text string) (c *cmpd, nested int, searches, ok bool) {
	p := &compoundParser{toks: tokenize(text)}
	c = p.compound()
	if p.bad || c == nil || p.i != len(p.toks) {
		return nil, 0, false, false
	}
	return c, p.nested, p.searches, true
}

// parseGroupText reads a selector list, such as S of :nth-child(An+B of S).
func parseGroupText(text string) (g []*cplx, nested int, ok bool) {
	p := &compoundParser{toks: tokenize(text), depth: 1}
	g = p.group()
	p.skipSpace()
	if p.bad || p.i != len(p.toks) {
		return nil, 0, false
	}
	return g, p.nested, true
}

func (p *compoundParser) skipSpace() {
	for p.i < len(p.toks) && p.toks[p.i].Type == css.WhitespaceToken {
		p.i++
	}
}

// compoundEnds reports whether toks[i] cannot continue a compound.
func (p *compoundParser) compoundEnds() bool {
	if p.i >= len(p.toks) {
		return true
	}
	t := p.toks[p.i]
	switch t.Type {
	case css.WhitespaceToken, css.CommaToken, css.RightParenthesisToken:
		return true
	case css.DelimToken:
		return t.Data == ">" || t.Data == "+" || t.Data == "~"
	}
	return false
}

func (p *compoundParser) compound() *cmpd {
	c := &cmpd{}
	for !p.bad && !p.compoundEnds() {
		t := p.toks[p.i]
		switch {
		case t.Type == css.IdentToken && len(c.simples) == 0:
			c.simples = append(c.simples, simple{kind: simTag, name: domtree.ToLowerASCII(unescapeIdent(t.Data))})
			p.i++
		case t.Type == css.DelimToken && t.Data == "*" && len(c.simples) == 0:
			c.simples = append(c.simples, simple{kind: simUniversal})
			p.i++
		case t.Type == css.DelimToken && t.Data == ".":
			if p.i+1 >= len(p.toks) || p.toks[p.i+1].Type != css.IdentToken {
				p.bad = true
				return nil
			}
			c.simples = append(c.simples, simple{kind: simClass, name: unescapeIdent(p.toks[p.i+1].Data)})
			p.i += 2
		case t.Type == css.HashToken:
			c.simples = append(c.simples, simple{kind: simID, name: unescapeIdent(t.Data[1:])})
			p.i++
		case t.Type == css.LeftBracketToken:
			end := skipBlock(p.toks, p.i)
			p.leaf(c, tokenText(p.toks[p.i:end]), costAttrs)
			p.i = end
		case t.Type == css.ColonToken && p.i+1 < len(p.toks):
			p.pseudo(c)
		default:
			p.bad = true
		}
	}
	if p.bad || len(c.simples) == 0 {
		p.bad = true
		return nil
	}
	return c
}

// pseudo reads the pseudo-class at toks[i], a colon.
func (p *compoundParser) pseudo(c *cmpd) {
	nt := p.toks[p.i+1]
	name := domtree.ToLowerASCII(unescapeIdent(nt.Data))
	switch nt.Type {
	case css.IdentToken:
		cost := costOne
		switch name {
		case "first-child", "last-child", "only-child", "first-of-type", "last-of-type", "only-of-type":
			cost = costSiblings
		case "enabled":
			c.simples = append(c.simples, simple{kind: simEnabled})
			p.i += 2
			return
		case "disabled":
			c.simples = append(c.simples, simple{kind: simDisabled})
			p.i += 2
			return
		}
		p.leaf(c, ":"+name, cost)
		p.i += 2
	case css.FunctionToken:
		kind := simLeaf
		switch name {
		case "not(":
			kind = simNot
		case "has(":
			kind = simHas
		case "haschild(":
			kind = simHasChild
		case "contains(":
			p.state(c)
			return
		}
		if kind == simLeaf {
			end := skipBlock(p.toks, p.i+1)
			cost := costOne
			switch name {
			case "nth-child(", "nth-last-child(", "nth-of-type(", "nth-last-of-type(":
				cost = costSiblings
			case "lang(":
				cost = costAncestors
			}
			p.leaf(c, ":"+tokenText(p.toks[p.i+1:end]), cost)
			p.i = end
			return
		}
		if p.depth >= MaxSelectorNesting {
			p.bad = true
			return
		}
		if kind != simNot {
			p.searches = true
		}
		p.depth++
		p.i += 2
		g := p.group()
		p.depth--
		p.skipSpace()
		if p.bad || p.i >= len(p.toks) || p.toks[p.i].Type != css.RightParenthesisToken {
			p.bad = true
			return
		}
		p.i++
		c.simples = append(c.simples, simple{kind: kind, group: g})
	default:
		p.bad = true
	}
}

// state reads a state test as stateSel writes it, from the function token
// at toks[i+1]: one identifier, "state" or "notstate" and the state's bits.
// A style sheet cannot write one (rejected drops :contains), so anything
// else here is a mistake of this package and drops the rule.
func (p *compoundParser) state(c *cmpd) {
	j := p.i + 2
	if j+1 >= len(p.toks) || p.toks[j].Type != css.IdentToken || p.toks[j+1].Type != css.RightParenthesisToken {
		p.bad = true
		return
	}
	arg := p.toks[j].Data
	not := strings.HasPrefix(arg, "notstate")
	bits, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(arg, "not"), "state"))
	if err != nil || bits <= 0 || bits >= 1<<16 {
		p.bad = true
		return
	}
	c.simples = append(c.simples, simple{kind: simState, state: State(bits), not: not})
	p.i = j + 2
}

// leaf adds a simple selector that the selector library matches, except a
// positional pseudo-class, which this package matches from the numbered
// siblings (position.go).
func (p *compoundParser) leaf(c *cmpd, text string, cost leafCost) {
	sel, err := cascadia.Parse(text)
	if err != nil {
		p.bad = true
		return
	}
	if cost == costSiblings {
		if q, ok := readPosition(sel); ok {
			c.simples = append(c.simples, simple{kind: simPosition, nth: q})
			return
		}
	}
	c.simples = append(c.simples, simple{kind: simLeaf, leaf: sel, cost: cost})
}

// group reads a comma-separated list of complex selectors.
func (p *compoundParser) group() []*cplx {
	var g []*cplx
	for !p.bad {
		p.skipSpace()
		g = append(g, p.complex())
		p.skipSpace()
		if p.i < len(p.toks) && p.toks[p.i].Type == css.CommaToken {
			p.i++
			continue
		}
		break
	}
	return g
}

// complex reads compounds joined by combinators. Whitespace next to a
// parenthesis, a comma or another combinator is not a combinator.
func (p *compoundParser) complex() *cplx {
	x := &cplx{parts: []*cmpd{p.compound()}, comb: []byte{0}}
	for !p.bad {
		j := p.i
		space := false
		for j < len(p.toks) && p.toks[j].Type == css.WhitespaceToken {
			j++
			space = true
		}
		var comb byte
		if j < len(p.toks) && p.toks[j].Type == css.DelimToken && (p.toks[j].Data == ">" || p.toks[j].Data == "+" || p.toks[j].Data == "~") {
			comb = p.toks[j].Data[0]
			j++
			for j < len(p.toks) && p.toks[j].Type == css.WhitespaceToken {
				j++
			}
		} else if space && j < len(p.toks) && p.toks[j].Type != css.CommaToken && p.toks[j].Type != css.RightParenthesisToken {
			comb = ' '
		}
		if comb == 0 {
			break
		}
		p.i = j
		p.nested++
		p.searches = true
		if len(x.parts) >= MaxCompounds {
			p.bad = true
			break
		}
		x.parts = append(x.parts, p.compound())
		x.comb = append(x.comb, comb)
	}
	return x
}

// matchCompound reports whether element n matches c, charging one step for
// each simple selector tested (at least one), and what a leaf's own work
// grows with before it runs. It answers false once the budget is spent.
func (m *matcher) matchCompound(c *cmpd, n *html.Node) bool {
	for i := range c.simples {
		s := &c.simples[i]
		if !m.charge(1) {
			return false
		}
		m.work++
		switch s.kind {
		case simUniversal:
		case simTag:
			if n.Data != s.name {
				return false
			}
		case simClass:
			if !m.hasClass(n, s.name) {
				return false
			}
		case simID:
			if !m.hasID(n, s.name) {
				return false
			}
		case simState:
			if (m.states[n]&s.state != 0) == s.not {
				return false
			}
		case simNot:
			r := m.matchGroup(s.group, n, nil)
			if m.spent() || r {
				return false
			}
		case simHas:
			if !m.hasDescendant(s.group, n) {
				return false
			}
		case simHasChild:
			if !m.hasChild(s.group, n) {
				return false
			}
		case simPosition:
			p, ok := m.position(n)
			if !ok || !s.nth.matches(p) {
				return false
			}
		case simEnabled, simDisabled:
			en, dis, ok := m.formState(n)
			if !ok || (s.kind == simEnabled && !en) || (s.kind == simDisabled && !dis) {
				return false
			}
		case simLeaf:
			extra := 0
			switch s.cost {
			case costAttrs:
				extra = m.attrBytes(n) >> 6
			case costSiblings:
				extra = siblings(n)
			case costAncestors:
				extra = depth(n)
			}
			if !m.charge(extra) {
				return false
			}
			m.work += extra
			if !s.leaf.Match(n) {
				return false
			}
		}
	}
	return true
}

// matchGroup reports whether n matches one of the complex selectors. When
// scope is not nil, the compounds to the left must lie inside it: the
// argument of :has() is relative to the :has() element, so ".a .b" in
// div:has(.a .b) needs the .a inside the div.
func (m *matcher) matchGroup(g []*cplx, n, scope *html.Node) bool {
	for _, x := range g {
		if m.matchInner(x, len(x.parts)-1, n, scope) == matches {
			return true
		}
		if m.spent() {
			return false
		}
	}
	return false
}

// hasDescendant reports whether some descendant element of n matches g,
// every compound of it inside n; each element looked at costs a step.
func (m *matcher) hasDescendant(g []*cplx, n *html.Node) bool {
	for d := NextNode(n, n, true); d != nil; d = NextNode(d, n, true) {
		if d.Type != html.ElementNode {
			continue
		}
		if !m.charge(1) {
			return false
		}
		m.work++
		if m.matchGroup(g, d, n) {
			return true
		}
		if m.spent() {
			return false
		}
	}
	return false
}

// hasChild reports whether some child element of n matches g, which the
// selector library's :haschild() matches without a scope.
func (m *matcher) hasChild(g []*cplx, n *html.Node) bool {
	for d := n.FirstChild; d != nil; d = d.NextSibling {
		if d.Type != html.ElementNode {
			continue
		}
		if !m.charge(1) {
			return false
		}
		m.work++
		if m.matchGroup(g, d, nil) {
			return true
		}
		if m.spent() {
			return false
		}
	}
	return false
}

// matchInner matches parts[0..i] of a complex selector inside a
// pseudo-class with parts[i] on n, right to left with the same early exits
// as matchFrom. Ancestor walks stop below scope when it is not nil.
func (m *matcher) matchInner(x *cplx, i int, n, scope *html.Node) matchResult {
	if !m.matchCompound(x.parts[i], n) {
		if m.spent() {
			return failsCompletely
		}
		return failsLocally
	}
	if i == 0 {
		return matches
	}
	// The walk along the combinator, as in matchFrom.
	switch x.comb[i] {
	case ' ':
		for a := parentElement(n); a != nil && a != scope; a = parentElement(a) {
			if r := m.matchInner(x, i-1, a, scope); r == matches || r == failsCompletely {
				return r
			}
		}
		return failsCompletely
	case '>':
		if a := parentElement(n); a != nil && a != scope {
			return m.matchInner(x, i-1, a, scope)
		}
		return failsCompletely
	case '+':
		if s := prevElement(n); s != nil {
			return m.matchInner(x, i-1, s, scope)
		}
		return failsAllSiblings
	case '~':
		for s := prevElement(n); s != nil; s = prevElement(s) {
			if r := m.matchInner(x, i-1, s, scope); r == matches || r == failsAllSiblings || r == failsCompletely {
				return r
			}
		}
		return failsAllSiblings
	}
	return failsCompletely
}
