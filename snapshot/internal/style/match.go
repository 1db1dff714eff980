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

// matchComplex reports whether element n matches the complex selector.
// steps is decremented once for every compound tried; when a compound is to
// be tried with none left, it becomes -1, the match gives up (answering
// false) and the caller must treat the whole cascade as over budget.
func matchComplex(cs *complexSel, n *html.Node, steps *int) bool {
	return len(cs.parts) > 0 && matchFrom(cs, len(cs.parts)-1, n, steps) == matches
}

// matchFrom matches parts[0..i] with parts[i] on n. Its recursion depth is at
// most MaxCompounds, a property of the style sheet and not of the document.
func matchFrom(cs *complexSel, i int, n *html.Node, steps *int) matchResult {
	if *steps <= 0 {
		*steps = -1 // a step was needed and none was left
		return failsCompletely
	}
	*steps--
	if !cs.parts[i].sel.Match(n) {
		return failsLocally
	}
	for k := range cs.parts[i].nth {
		if !cs.parts[i].nth[k].match(n, steps) {
			if *steps < 0 {
				return failsCompletely
			}
			return failsLocally
		}
	}
	if i == 0 {
		return matches
	}
	switch cs.parts[i].comb {
	case ' ':
		for a := parentElement(n); a != nil; a = parentElement(a) {
			r := matchFrom(cs, i-1, a, steps)
			if r == matches || r == failsCompletely {
				return r
			}
		}
		return failsCompletely
	case '>':
		a := parentElement(n)
		if a == nil {
			return failsCompletely
		}
		return matchFrom(cs, i-1, a, steps)
	case '+':
		s := prevElement(n)
		if s == nil {
			return failsAllSiblings
		}
		return matchFrom(cs, i-1, s, steps)
	case '~':
		for s := prevElement(n); s != nil; s = prevElement(s) {
			r := matchFrom(cs, i-1, s, steps)
			if r == matches || r == failsAllSiblings || r == failsCompletely {
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
