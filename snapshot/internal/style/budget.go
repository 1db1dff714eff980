package style

import (
	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/domtree"
)

// MatchSteps bounds the matching work the author style sheets may cost one
// document, in steps. A step is one simple selector tested on one element
// (a type, class, id, attribute or pseudo-class test; a compound with
// nothing to test costs one step all the same), or one element visited by a
// search that a selector makes by itself: a sibling or ancestor a combinator
// passes costs the step of the compound tried there, a descendant or child
// that :has() looks at costs one, and so does a sibling that
// :nth-child(An+B of S) counts. A positional pseudo-class (:first-child,
// :nth-of-type(2n), :last-child, ...) costs its one step: the first time
// one of a parent's children is tested, the parent's child nodes are
// numbered, one step each, once for every later test of any of them (see
// position). :enabled and :disabled cost their one step likewise: whether
// an element lies in a disabled fieldset is worked out once per element,
// one step each, the first time a test passes it, and a disabled
// fieldset's first legend is found once, one step per child node (see
// formState). Other tests whose own work grows with the element charge for
// it up front: :lang(), which walks the ancestors, one step per ancestor,
// a positional pseudo-class whose numbers are too big to read itself (left
// to the selector library, which counts the siblings) one per child of the
// parent, and an attribute selector one per 64 bytes of the element's
// attributes.
//
// 2^25 steps take well under a second; a page that needs more is analysed
// without its author style sheets.
const MatchSteps = 1 << 25

// infoCacheSize bounds how many elements keep their split class list at
// once; past it the cache starts afresh. A document is styled in tree
// order, so the elements a selector looks at (the element, its ancestors and
// siblings) were usually split moments before.
const infoCacheSize = 1 << 16

// elemInfo is what matching reads from an element again and again: its
// class list, split once, its id, and the sizes its costlier tests charge.
type elemInfo struct {
	classes []string
	set     map[string]struct{} // the classes, for long lists
	id      string
	// attrBytes is the length of every attribute name and value.
	attrBytes int
}

// setThreshold is the class-list length from which a set is built: shorter
// lists are faster to scan than to hash.
const setThreshold = 8

func (in *elemInfo) hasClass(c string) bool {
	if in.set != nil {
		_, ok := in.set[c]
		return ok
	}
	for _, x := range in.classes {
		if x == c {
			return true
		}
	}
	return false
}

// matcher holds the state of matching for one document: what is left of
// the budget and the element cache.
type matcher struct {
	// steps is what is left of MatchSteps; -1 once a charge found too few.
	steps int
	// charged is what was taken from the budget.
	charged int
	// work counts the tests and visits actually made, charged or not, so
	// that tests can check that nothing runs without being paid for.
	work  int
	cache map[*html.Node]*elemInfo
	// cur is the element being styled, whose information is kept apart
	// in curInfo, reusing its storage from one element to the next: most
	// tests are on it, and most elements are never looked at again.
	cur     *html.Node
	curInfo elemInfo
	// pos numbers the element children of every parent one of whose
	// children a positional pseudo-class tested (see position); it holds
	// at most one entry per element of the document, for as long as the
	// document is styled, since styles may be computed in any order.
	pos map[*html.Node]sibPos
	// perTag is position's scratch count of the children of each tag.
	perTag map[string]int32
	// fieldset answers, for every element an :enabled or :disabled test
	// passed, whether it lies in a disabled fieldset (see formState), and
	// legends holds each disabled fieldset's first legend; climb is
	// formState's scratch list of the elements it is answering.
	fieldset map[*html.Node]bool
	legends  map[*html.Node]*html.Node
	climb    []*html.Node
	// states are the elements' states (Options.States).
	states States
	// quirks makes class and id names match ASCII case-insensitively; the
	// selectors' names are lower case already.
	quirks bool
}

func newMatcher(opts Options) matcher {
	return matcher{steps: MatchSteps, cache: map[*html.Node]*elemInfo{}, states: opts.States, quirks: opts.Quirks}
}

// charge takes k steps from the budget. When fewer are left the budget is
// spent: steps becomes -1, charge reports false, and every later charge
// fails too, so matching unwinds at once.
func (m *matcher) charge(k int) bool {
	if m.steps < k {
		m.steps = -1
		return false
	}
	m.steps -= k
	m.charged += k
	return true
}

// spent reports whether the budget ran out.
func (m *matcher) spent() bool { return m.steps < 0 }

// info returns n's element information, splitting its class list the first
// time n is seen.
func (m *matcher) info(n *html.Node) *elemInfo {
	if n == m.cur {
		return &m.curInfo
	}
	in, ok := m.cache[n]
	if !ok {
		if len(m.cache) >= infoCacheSize {
			clear(m.cache)
		}
		in = &elemInfo{}
		in.read(n, m.quirks)
		m.cache[n] = in
	}
	return in
}

// smallAttrs and smallValue bound an element that is read in place rather
// than cached: at most smallAttrs attributes, none longer than smallValue
// bytes, so a test reads a bounded amount however many rules try it.
const (
	smallAttrs = 8
	smallValue = 128
)

// small reports whether n's attributes are few and short enough to read
// in place.
func small(n *html.Node) bool {
	if len(n.Attr) > smallAttrs {
		return false
	}
	for _, a := range n.Attr {
		if len(a.Val) > smallValue {
			return false
		}
	}
	return true
}

// hasClass reports whether n's class list holds c (in quirks mode, c in
// lower case, ASCII case-insensitively).
func (m *matcher) hasClass(n *html.Node, c string) bool {
	if n != m.cur && small(n) {
		for _, a := range n.Attr {
			if a.Key == "class" {
				return includes(a.Val, c, m.quirks)
			}
		}
		return false
	}
	return m.info(n).hasClass(c)
}

// hasID reports whether n's id is id (in quirks mode, id in lower case,
// ASCII case-insensitively).
func (m *matcher) hasID(n *html.Node, id string) bool {
	if n != m.cur && small(n) {
		for _, a := range n.Attr {
			if a.Key == "id" {
				return a.Val == id || m.quirks && domtree.EqualFold(a.Val, id)
			}
		}
		return id == ""
	}
	return m.info(n).id == id
}

// attrBytes returns the length of n's attribute names and values.
func (m *matcher) attrBytes(n *html.Node) int {
	if n != m.cur && small(n) {
		b := 0
		for _, a := range n.Attr {
			b += len(a.Key) + len(a.Val)
		}
		return b
	}
	return m.info(n).attrBytes
}

// includes reports whether the whitespace-separated list s holds c, ASCII
// case-insensitively when fold is true.
func includes(s, c string, fold bool) bool {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r' {
			if start >= 0 && (s[start:i] == c || fold && domtree.EqualFold(s[start:i], c)) {
				return true
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return false
}

// styling makes n the element being styled.
func (m *matcher) styling(n *html.Node) *elemInfo {
	if n != m.cur {
		m.cur = n
		m.curInfo.read(n, m.quirks)
	}
	return &m.curInfo
}

// read fills in from n's attributes, reusing in's storage; in quirks mode
// the classes and the id are kept in lower case, as the selectors' are.
func (in *elemInfo) read(n *html.Node, quirks bool) {
	in.classes, in.set, in.id, in.attrBytes = in.classes[:0], nil, "", 0
	seenClass, seenID := false, false
	for _, a := range n.Attr {
		in.attrBytes += len(a.Key) + len(a.Val)
		switch {
		case a.Key == "class" && !seenClass:
			seenClass = true
			in.classes = appendFields(in.classes, a.Val)
		case a.Key == "id" && !seenID:
			seenID = true
			in.id = a.Val
		}
	}
	if quirks {
		in.id = domtree.ToLowerASCII(in.id)
		for i, c := range in.classes {
			in.classes[i] = domtree.ToLowerASCII(c)
		}
	}
	if len(in.classes) > setThreshold {
		in.set = make(map[string]struct{}, len(in.classes))
		for _, c := range in.classes {
			in.set[c] = struct{}{}
		}
	}
}

// appendFields appends the names of a class attribute, split at ASCII
// whitespace, to out.
func appendFields(out []string, s string) []string {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// depth counts n's ancestors, the cost of a test that walks them.
func depth(n *html.Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent {
		d++
	}
	return d
}

// siblings counts the child nodes of n's parent, the cost of a test that
// counts positions.
func siblings(n *html.Node) int {
	c := 1
	if p := n.Parent; p != nil {
		c = 0
		for s := p.FirstChild; s != nil; s = s.NextSibling {
			c++
		}
	}
	return c
}
