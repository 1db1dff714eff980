package style

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// :enabled and :disabled ask whether a control sits in a disabled fieldset,
// which walks its ancestors, and whether a legend on the way is the
// fieldset's first, which looks at the legend's earlier siblings. Doing that
// for every test makes input:enabled quadratic in a form's size, so the
// answer is kept for every element the walk passes: a later test reads its
// own answer, or stops at the first ancestor that has one. The rules are the
// selector library's, so that the results stay what they were when it
// matched these two pseudo-classes itself.

// formState reports whether n matches :enabled and :disabled. It charges
// one step for each element whose fieldset answer it works out, once per
// element of the document, and one per child node of a disabled fieldset
// the first time a legend in it is asked about. ok is false when the budget
// ran out.
func (m *matcher) formState(n *html.Node) (enabled, disabled, ok bool) {
	if n.Type != html.ElementNode {
		return false, false, true
	}
	switch n.DataAtom {
	case atom.A, atom.Area, atom.Link:
		return anyAttr(n, "href"), false, true
	case atom.Optgroup, atom.Menuitem, atom.Fieldset:
		d := anyAttr(n, "disabled")
		return !d, d, true
	case atom.Button, atom.Input, atom.Select, atom.Textarea, atom.Option:
		if anyAttr(n, "disabled") {
			return false, true, true
		}
		in, ok := m.inDisabledFieldset(n)
		return !in && ok, in, ok
	}
	return false, false, true
}

// inDisabledFieldset reports whether n, or one of its ancestors, is a child
// of a disabled fieldset other than the fieldset's first legend.
func (m *matcher) inDisabledFieldset(n *html.Node) (in, ok bool) {
	if v, ok := m.fieldset[n]; ok {
		return v, true
	}
	// Climb to the first ancestor already answered (or the root), then
	// answer the elements passed on the way back down.
	m.climb = m.climb[:0]
	x := n
	for {
		m.climb = append(m.climb, x)
		if x.Parent == nil {
			break
		}
		if _, ok := m.fieldset[x.Parent]; ok {
			break
		}
		x = x.Parent
	}
	k := len(m.climb)
	if !m.charge(k) {
		return false, false
	}
	m.work += k
	if m.fieldset == nil {
		m.fieldset = map[*html.Node]bool{}
	}
	for i := len(m.climb) - 1; i >= 0; i-- {
		x := m.climb[i]
		p := x.Parent
		v := false
		if p != nil {
			v = m.fieldset[p]
			if !v && p.DataAtom == atom.Fieldset && anyAttr(p, "disabled") {
				if x.DataAtom != atom.Legend {
					v = true
				} else {
					first, ok := m.firstLegend(p)
					if !ok {
						return false, false
					}
					v = first != x
				}
			}
		}
		m.fieldset[x] = v
	}
	return m.fieldset[n], true
}

// firstLegend returns the first legend among p's child nodes, looking for
// it once per parent at one step per child node.
func (m *matcher) firstLegend(p *html.Node) (*html.Node, bool) {
	if f, ok := m.legends[p]; ok {
		return f, true
	}
	k := 0
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		k++
	}
	if !m.charge(k) {
		return nil, false
	}
	m.work += k
	var first *html.Node
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Legend {
			first = c
			break
		}
	}
	if m.legends == nil {
		m.legends = map[*html.Node]*html.Node{}
	}
	m.legends[p] = first
	return first, true
}

// anyAttr reports whether n has the attribute key in any namespace, as the
// selector library reads it for these tests.
func anyAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
