package style

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// Positional pseudo-classes (:first-child, :nth-of-type(2n), :only-child,
// :nth-last-child(3), ...) test where an element stands among its element
// siblings. Counting the siblings for every test makes a striping rule such
// as tr:nth-child(2n) quadratic in the number of rows, so each parent's
// children are numbered once, the first time one of them is tested, and
// every later test reads its numbers. Browsers keep such a cache too.

// nthPos is one positional pseudo-class: the element's position, counted
// among its element siblings (of its own tag when ofType), from the first
// or from the last when last, must be An+B for some n >= 0; when only, the
// element must be the only one counted.
type nthPos struct {
	a, b   int
	last   bool
	ofType bool
	only   bool
}

// sibPos is an element's place among its parent's element children: idx
// from the first and last from the last, and tidx and tlast the same among
// the children of its tag. Positions count from 1.
type sibPos struct{ idx, last, tidx, tlast int32 }

// readPosition reads a positional pseudo-class from the selector library's
// own writing of it, which spells the An+B it parsed in one canonical form,
// so both agree on what the text meant. ok is false for anything else (or
// numbers too big to read), which the library then matches itself.
func readPosition(sel cascadia.Sel) (q nthPos, ok bool) {
	s := sel.String()
	switch s {
	case ":first-child":
		return nthPos{b: 1}, true
	case ":last-child":
		return nthPos{b: 1, last: true}, true
	case ":first-of-type":
		return nthPos{b: 1, ofType: true}, true
	case ":last-of-type":
		return nthPos{b: 1, last: true, ofType: true}, true
	case ":only-child":
		return nthPos{only: true}, true
	case ":only-of-type":
		return nthPos{only: true, ofType: true}, true
	}
	for _, f := range []struct {
		prefix       string
		last, ofType bool
	}{
		{":nth-child(", false, false},
		{":nth-last-child(", true, false},
		{":nth-of-type(", false, true},
		{":nth-last-of-type(", true, true},
	} {
		if arg, found := strings.CutPrefix(s, f.prefix); found && strings.HasSuffix(arg, ")") {
			a, b, ok := parseAnB(arg[:len(arg)-1])
			if !ok {
				return nthPos{}, false
			}
			return nthPos{a: a, b: b, last: f.last, ofType: f.ofType}, true
		}
	}
	return nthPos{}, false
}

// matches reports whether an element at p passes q.
func (q *nthPos) matches(p sibPos) bool {
	i, j := p.idx, p.last
	if q.ofType {
		i, j = p.tidx, p.tlast
	}
	if q.only {
		return i == 1 && j == 1
	}
	if q.last {
		i = j
	}
	d := int(i) - q.b
	if q.a == 0 {
		return d == 0
	}
	return d%q.a == 0 && d/q.a >= 0
}

// position returns n's place among its siblings, numbering the children of
// n's parent the first time one of them is asked about; that costs one step
// per child node of the parent, charged here once for the parent. ok is
// false when n has no parent (it then matches no positional test, as in the
// selector library) or when the budget ran out.
func (m *matcher) position(n *html.Node) (p sibPos, ok bool) {
	if p, ok := m.pos[n]; ok {
		return p, true
	}
	parent := n.Parent
	if parent == nil {
		return sibPos{}, false
	}
	k := siblings(n)
	if !m.charge(k) {
		return sibPos{}, false
	}
	m.work += k
	if m.pos == nil {
		m.pos = map[*html.Node]sibPos{}
		m.perTag = map[string]int32{}
	}
	clear(m.perTag)
	var idx int32
	for c := parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		idx++
		m.perTag[c.Data]++
		m.pos[c] = sibPos{idx: idx, tidx: m.perTag[c.Data]}
	}
	for c := parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		q := m.pos[c]
		q.last = idx - q.idx + 1
		q.tlast = m.perTag[c.Data] - q.tidx + 1
		m.pos[c] = q
	}
	return m.pos[n], true
}
