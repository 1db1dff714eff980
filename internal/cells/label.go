package cells

import (
	"unicode/utf8"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// label is the label column of a form control (docs/reference.md#form-columns): the first
// non-empty source, or the text of the source a bound cut.
func label(control domtree.Node) Summary {
	w := newWalker()
	l := labeler{w: w, control: control}
	if !l.labelledBy() || !w.text.empty() {
		return w.summary()
	}
	if s, ok := attrSource(control, "aria-label"); ok {
		return s
	}
	if !l.native() || !w.text.empty() {
		return w.summary()
	}
	if controlRole(control) == "button" {
		if control.Is("input") {
			name := ""
			switch inputType(control) {
			case "button", "submit", "reset":
				name = "value"
			case "image":
				name = "alt"
			}
			if name != "" {
				if s, ok := attrSource(control, name); ok {
					return s
				}
			}
		} else if !insideEditable(control) {
			// A button's content reads an image's alt where it stands, as
			// browsers name it: <button><img alt="Delete"></button> is
			// "Delete", not a button without a name.
			w.alt = true
			done := w.walk(control)
			w.alt = false
			if !done || !w.text.empty() {
				return w.summary()
			}
		}
	}
	if s, ok := attrSource(control, "title"); ok {
		return s
	}
	if s, ok := attrSource(control, "placeholder"); ok {
		return s
	}
	return Summary{}
}

// AttributeText is an attribute's text read as a label's attribute source
// (docs/reference.md#form-columns): ASCII whitespace collapsed and trimmed, at most
// limits.CellUnits UTF-16 units, never half a surrogate pair. ok is false when
// the attribute is absent or only whitespace. An inventory name reads
// aria-label with it.
func AttributeText(n domtree.Node, name string) (Summary, bool) { return attrSource(n, name) }

// attrSource normalises and bounds an attribute like a summary. ok is false
// when the attribute is absent or only whitespace, so the next source is
// consulted.
func attrSource(n domtree.Node, name string) (Summary, bool) {
	v, present := n.Attr(name)
	if !present {
		return Summary{}, false
	}
	var t textBuf
	if !t.writeString(v) {
		return Summary{Text: string(t.b), Truncated: true, Why: TruncText}, true
	}
	if t.empty() {
		return Summary{}, false
	}
	return Summary{Text: string(t.b)}, true
}

// labeler resolves the label elements of one control against one walker:
// one node budget, one joined text, one count of label elements.
type labeler struct {
	w       *walker
	control domtree.Node
	// counted holds the distinct label elements met so far, from every source.
	counted [limits.MaxLabels]domtree.Node
	n       int
}

// admit counts el as a label element of the control. fresh is false when el
// was counted before (it contributes once, at its first position); ok is
// false when el would be one label element too many, which truncates the
// cell and stops the fall-through.
func (l *labeler) admit(el domtree.Node) (fresh, ok bool) {
	for _, c := range l.counted[:l.n] {
		if c == el {
			return false, true
		}
	}
	if l.n == len(l.counted) {
		l.w.stop(TruncLabels)
		return false, false
	}
	l.counted[l.n] = el
	l.n++
	return true, true
}

// contribute appends a label element's text, joined to what came before by
// one space. It pays the ancestor check first, one node per ancestor up to
// and including the document; it reports false when a bound cut it.
func (l *labeler) contribute(el domtree.Node) bool {
	inside := false
	for p := el.Parent(); p.Valid(); p = p.Parent() {
		if !l.w.budget.Spend() {
			l.w.stop(TruncNodes)
			return false
		}
		if editable(p) || optionLike(p) {
			inside = true
		}
	}
	// Excluded is inherited, so it already answers "it or an ancestor".
	if inside || el.Excluded() || el.Invisible() || editable(el) || optionLike(el) {
		return true
	}
	l.w.text.space()
	if v, ok := el.Attr("aria-label"); ok && hasText(v) {
		if !l.w.text.writeString(v) {
			l.w.stop(TruncText)
			return false
		}
		return true
	}
	// A label's text reads an image's alt, as a control's content name
	// does: a label holding only <img alt="Search"> names its control
	// "Search". The walker is shared with the other sources, which read
	// attributes or text alone, so the switch is set for this walk only.
	l.w.alt = true
	done := l.w.walk(el)
	l.w.alt = false
	return done
}

// labelledBy reads source 1, aria-labelledby. It reports false when a bound
// cut it.
func (l *labeler) labelledBy() bool {
	v, ok := l.control.Attr("aria-labelledby")
	if !ok {
		return true
	}
	ids, clipped := clipIDs(v)
	// IDs resolve in the control's own tree scope (a shadow tree's ids are
	// its own), as browsers resolve them.
	t := l.control
	for i := 0; i < len(ids); {
		for i < len(ids) && domtree.IsASCIISpace(ids[i]) {
			i++
		}
		j := i
		for j < len(ids) && !domtree.IsASCIISpace(ids[j]) {
			j++
		}
		tok := ids[i:j]
		i = j
		el, found := t.ElementByID(tok)
		if !found {
			continue // names nothing: skipped, not counted
		}
		fresh, ok := l.admit(el)
		if !ok {
			return false
		}
		if fresh && !l.contribute(el) {
			return false
		}
	}
	if clipped {
		l.w.stop(TruncLabels)
		return false
	}
	return true
}

// clipIDs returns the part of an aria-labelledby value that is read: its
// first MaxIDChars UTF-16 units, less a token the bound cut in two. clipped
// reports whether anything but whitespace lay beyond the bound.
func clipIDs(v string) (read string, clipped bool) {
	units, cut := 0, len(v)
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		u := 1
		if r >= 0x10000 {
			u = 2
		}
		if units+u > limits.MaxIDChars {
			cut = i
			break
		}
		units += u
		i += size
	}
	if cut == len(v) {
		return v, false
	}
	read = v[:cut]
	if !domtree.IsASCIISpace(v[cut]) {
		// The bound fell inside a token: drop its read part.
		k := cut
		for k > 0 && !domtree.IsASCIISpace(v[k-1]) {
			k--
		}
		read = v[:k]
	}
	return read, hasText(v[cut:])
}

// native reads source 3: every label for=ID naming the control in tree
// order, then its nearest ancestor label when that has no for or its for
// names the control. It reports false when a bound cut it.
func (l *labeler) native() bool {
	c := l.control
	id := c.AttrValue("id")
	named := false
	if id != "" {
		first, ok := c.ElementByID(id)
		named = ok && first == c // for=ID names the first element with the id
	}
	if named {
		for lab := range c.LabelsFor(id) {
			if !l.nativeLabel(lab) {
				return false
			}
		}
	}
	for p := c.Parent(); p.Valid(); p = p.Parent() {
		if !p.Is("label") {
			continue
		}
		if f, has := p.Attr("for"); !has || (named && f == id) {
			return l.nativeLabel(p)
		}
		return true // the nearest ancestor label belongs to another control
	}
	return true
}

func (l *labeler) nativeLabel(lab domtree.Node) bool {
	fresh, ok := l.admit(lab)
	if !ok {
		return false
	}
	return !fresh || l.contribute(lab)
}

// LabelledBy is the text of the elements el's aria-labelledby names, read
// with the rules of label source 1 (docs/reference.md#form-columns) on one fresh CellNodes
// budget: the first MaxIDChars units, unknown IDs skipped, each element once,
// at most MaxLabels elements, ancestor checks paid, hidden and editable
// references contributing nothing. ok is false when el has no
// aria-labelledby or the text is empty and nothing cut it, so a caller falls
// through to its next source. An inventory name (docs/reference.md#the-observation) can use it
// to read aria-labelledby exactly as a label cell does.
func LabelledBy(el domtree.Node) (s Summary, ok bool) {
	if !el.HasAttr("aria-labelledby") {
		return Summary{}, false
	}
	w := newWalker()
	l := labeler{w: w, control: el}
	l.labelledBy()
	s = w.summary()
	return s, !s.Missing()
}
