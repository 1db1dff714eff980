package style

import "golang.org/x/net/html"

// matchResult is the outcome of matching part of a complex selector, with
// the distinctions that let the matcher stop early: when a part cannot match
// any earlier sibling, or any ancestor either, trying more of them is
// pointless. This is what keeps descendant and sibling combinators linear.
type matchResult uint8

const (
	matches matchResult = iota
	failsLocally
	failsAllSiblings
	failsCompletely
)

// matchComplex reports whether element n matches the complex selector,
// charging m's budget for every test (see MatchSteps). Once the budget is
// spent the answer is false and the caller must treat the whole cascade as
// over budget.
func matchComplex(cs *complexSel, n *html.Node, m *matcher) bool {
	return len(cs.parts) > 0 && matchFrom(cs, len(cs.parts)-1, n, m) == matches
}

// matchFrom matches parts[0..i] with parts[i] on n. Its recursion depth is at
// most MaxCompounds, a property of the style sheet and not of the document.
func matchFrom(cs *complexSel, i int, n *html.Node, m *matcher) matchResult {
	p := &cs.parts[i]
	if !m.matchCompound(p.m, n) {
		if m.spent() {
			return failsCompletely
		}
		return failsLocally
	}
	for k := range p.nth {
		if !p.nth[k].match(n, m) {
			if m.spent() {
				return failsCompletely
			}
			return failsLocally
		}
	}
	if i == 0 {
		return matches
	}
	// Walk along the combinator, stopping as soon as trying more
	// ancestors or siblings cannot help.
	switch p.comb {
	case ' ':
		for a := parentElement(n); a != nil; a = parentElement(a) {
			if r := matchFrom(cs, i-1, a, m); r == matches || r == failsCompletely {
				return r
			}
		}
		return failsCompletely
	case '>':
		if a := parentElement(n); a != nil {
			return matchFrom(cs, i-1, a, m)
		}
		return failsCompletely
	case '+':
		if s := prevElement(n); s != nil {
			return matchFrom(cs, i-1, s, m)
		}
		return failsAllSiblings
	case '~':
		for s := prevElement(n); s != nil; s = prevElement(s) {
			if r := matchFrom(cs, i-1, s, m); r == matches || r == failsAllSiblings || r == failsCompletely {
				return r
			}
		}
		return failsAllSiblings
	}
	return failsCompletely
}

func parentElement(n *html.Node) *html.Node {
	if p := n.Parent; p != nil && p.Type == html.ElementNode {
		return p
	}
	return nil
}

func prevElement(n *html.Node) *html.Node {
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode {
			return s
		}
	}
	return nil
}
