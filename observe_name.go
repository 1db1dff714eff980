package domsnap

import (
	"unicode/utf8"

	"github.com/domsnap/domsnap/cells"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// collectionName is an inventory entry's name (SPEC section 11): the first
// non-empty of the texts named by aria-labelledby, the aria-label, and, for
// a native <table>, its first <caption> child. It is "" when all are empty.
//
// The spec leaves the bounds to us; they follow the label rules of section 8
// so that a name costs no more than one label cell:
//
//   - Only the first limits.MaxIDChars UTF-16 units of aria-labelledby are
//     read, a token cut by that bound dropped; IDs that name no element are
//     skipped; an element named twice contributes once; at most
//     limits.MaxLabels elements are resolved.
//   - A referenced element contributes nothing when it is excluded or
//     invisible, or when it is an editable control or lies inside one; else
//     its non-empty aria-label, else its section 7 summary (cells.Summarize,
//     one fresh limits.CellNodes budget each).
//   - The caption is looked for among the table's first limits.CellNodes
//     child nodes and summarised with one CellNodes budget.
//   - Attribute texts are normalised like a summary: runs of ASCII
//     whitespace become one space, none at either end.
//   - The joined name keeps at most limits.CellUnits UTF-16 units, never
//     half a surrogate pair, a space left at the bound trimmed.
//
// A name cut by a bound keeps its retained prefix: the inventory has no key
// to say so, and a prefix still tells a reader which collection is meant.
// Work per name is at most MaxLabels+1 summaries plus the ancestor walks of
// the referenced elements, whatever the page.
func collectionName(el domtree.Node) string {
	if v, ok := el.Attr("aria-labelledby"); ok {
		if s := labelledByName(el.Tree(), v); s != "" {
			return s
		}
	}
	if v, ok := el.Attr("aria-label"); ok {
		if s := boundUnits(normalizeSpace(v)); s != "" {
			return s
		}
	}
	if el.Is("table") {
		c := el.FirstChild()
		for i := 0; c.Valid() && i < limits.CellNodes; i++ {
			if c.Is("caption") {
				return cells.Summarize(c).Text
			}
			c = c.NextSibling()
		}
	}
	return ""
}

// labelledByName joins the texts of the elements an aria-labelledby value
// names, in the order of the IDs, each non-empty one separated by a space.
func labelledByName(t *domtree.Tree, value string) string {
	value = firstUnits(value, limits.MaxIDChars)
	var seen [limits.MaxLabels]domtree.Node
	n := 0
	joined := ""
	for _, id := range domtree.Fields(value) {
		el, ok := t.ElementByID(id)
		if !ok || contains(seen[:n], el) {
			continue
		}
		if n == len(seen) {
			break
		}
		seen[n] = el
		n++
		s := referencedText(el)
		if s == "" {
			continue
		}
		if joined != "" {
			joined += " "
		}
		joined += s
		if utf16Len(joined) > limits.CellUnits {
			break // every later part would be cut anyway
		}
	}
	return boundUnits(joined)
}

func contains(nodes []domtree.Node, n domtree.Node) bool {
	for _, m := range nodes {
		if m == n {
			return true
		}
	}
	return false
}

// referencedText is what one element named by aria-labelledby contributes.
func referencedText(el domtree.Node) string {
	if el.Excluded() || el.Invisible() || editableControl(el) {
		return ""
	}
	for p := el.Parent(); p.Valid(); p = p.Parent() {
		if editableControl(p) {
			return ""
		}
	}
	if v, ok := el.Attr("aria-label"); ok {
		if s := boundUnits(normalizeSpace(v)); s != "" {
			return s
		}
	}
	return cells.Summarize(el).Text
}

// editableControl reports whether n holds text a person types or a page
// pre-fills (SPEC section 7): such text never names anything. Options are
// inside a <select> and so covered by the ancestor check.
func editableControl(n domtree.Node) bool {
	if !n.IsElement() {
		return false
	}
	if n.Is("input") || n.Is("textarea") || n.Is("select") {
		return true
	}
	v, ok := n.Attr("contenteditable")
	return ok && (v == "" || domtree.EqualFold(v, "true") || domtree.EqualFold(v, "plaintext-only"))
}

// normalizeSpace collapses runs of ASCII whitespace to one space and trims
// both ends. Bytes that are not UTF-8 become U+FFFD, so the name is always
// valid UTF-8 and its length in UTF-16 units is well defined.
func normalizeSpace(s string) string {
	b := make([]byte, 0, len(s))
	pending := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && domtree.IsASCIISpace(c) {
			pending = len(b) > 0
			i++
			continue
		}
		if pending {
			b = append(b, ' ')
			pending = false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// units is the length of r in UTF-16 code units.
func units(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += units(r)
	}
	return n
}

// firstUnits is the longest prefix of s of at most max UTF-16 units that
// does not end inside a token: a token the bound cuts is dropped whole.
func firstUnits(s string, max int) string {
	n := 0
	for i, r := range s {
		n += units(r)
		if n > max {
			k := i
			if !domtree.IsASCIISpace(s[i]) {
				for k > 0 && !domtree.IsASCIISpace(s[k-1]) {
					k--
				}
			}
			return s[:k]
		}
	}
	return s
}

// boundUnits keeps the longest prefix of normalised text s of at most
// limits.CellUnits UTF-16 units, never splitting a surrogate pair, with a
// space left at the bound trimmed.
func boundUnits(s string) string {
	n := 0
	for i, r := range s {
		n += units(r)
		if n > limits.CellUnits {
			s = s[:i]
			for len(s) > 0 && s[len(s)-1] == ' ' {
				s = s[:len(s)-1]
			}
			return s
		}
	}
	return s
}
