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
	return m.combine(p.comb, n, func(a *html.Node) matchResult { return matchFrom(cs, i-1, a, m) })
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
