package treediff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/domsnap/domsnap/domtree"
)

// Difference kinds.
const (
	// Node: the two trees hold different nodes at the same step of the
	// walk; the walk ends there.
	Node = "node"
	// State: the same node with different exclusion, flags, display or
	// visibility.
	State = "state"
	// LightChildren: a live shadow host without children whose offline
	// twin has some (Chromium's snapshot walks the flat tree).
	LightChildren = "light-children"
)

// Diff is one difference between the trees.
type Diff struct {
	// What is Node, State or LightChildren.
	What string
	// Offline and Live are the nodes where the trees differ; one of them is
	// the zero Node when its tree ended first.
	Offline, Live domtree.Node
	// OfflineNode and LiveNode describe the nodes (Describe).
	OfflineNode, LiveNode string
	// OfflineState and LiveState are the nodes' states (State), for State.
	OfflineState, LiveState string
	// Skipped is the number of offline light children, for LightChildren.
	Skipped int
}

// String is "what: description", the form the capture parity test matches.
func (d Diff) String() string {
	switch d.What {
	case State:
		return fmt.Sprintf("state: %s: offline %s, live %s", d.OfflineNode, d.OfflineState, d.LiveState)
	case LightChildren:
		return fmt.Sprintf("light-children: %s: %d offline nodes", d.OfflineNode, d.Skipped)
	}
	if !d.Offline.Valid() || !d.Live.Valid() {
		return fmt.Sprintf("node: one tree ended first: offline at %d, live at %d", d.Offline.Index(), d.Live.Index())
	}
	return fmt.Sprintf("node: at offline %d live %d: offline %s, live %s", d.Offline.Index(), d.Live.Index(), d.OfflineNode, d.LiveNode)
}

// Describe describes one node for the comparison: kind, name, attributes
// sorted by name, and text. Attribute order is left out: nothing in analysis
// depends on it, and golang.org/x/net/html sorts the attributes of the
// formatting elements it records (a, b, i, font, ...), so offline
// `<a href class>` is `<a class href>` while Chromium keeps source order.
func Describe(n domtree.Node) string {
	var b strings.Builder
	b.WriteString(n.Kind().String())
	switch n.Kind() {
	case domtree.Element:
		b.WriteString(" <" + n.Name())
		attrs := slices.Clone(n.Attrs())
		slices.SortStableFunc(attrs, func(x, y domtree.Attr) int { return strings.Compare(x.Name, y.Name) })
		for _, a := range attrs {
			if a.Name == "nonce" {
				// Chromium empties nonce attributes (nonce hiding) whenever
				// the document came with a Content-Security-Policy header,
				// and parity's server always sends one; the value is not
				// compared, only that the attribute is there.
				a.Value = "(not compared)"
			}
			fmt.Fprintf(&b, " %s=%q", a.Name, a.Value)
		}
		b.WriteString(">")
	case domtree.Text, domtree.Comment, domtree.Doctype:
		fmt.Fprintf(&b, " %q", n.Data())
	}
	return b.String()
}

// Scrubbed reports whether n is a text node whose text the scrub of saved
// captures (snapshot.ScrubCapture) empties: one under a textarea or with an
// editing host among its ancestors (domtree's EditingHost). A saved capture
// cannot hold that text, so a tree decoded from one has it empty whatever
// the page says.
func Scrubbed(n domtree.Node) bool {
	if n.Kind() != domtree.Text {
		return false
	}
	p := n.Parent()
	if p.Is("textarea") {
		return true
	}
	for ; p.Valid(); p = p.Parent() {
		if p.EditingHost() {
			return true
		}
	}
	return false
}

// describeScrubbed is Describe of the node as a scrubbed capture holds it:
// the text Scrubbed names is empty.
func describeScrubbed(n domtree.Node) string {
	if Scrubbed(n) {
		return domtree.Text.String() + ` ""`
	}
	return Describe(n)
}

// StateOf is a node's exclusion and flags, and for elements that are not
// excluded, display and visibility.
func StateOf(n domtree.Node) string {
	return stateWith(n, n.Flags())
}

// stateWith is StateOf with the flags given.
func stateWith(n domtree.Node, flags domtree.Flags) string {
	s := fmt.Sprintf("excluded=%t flags=%d", n.Excluded(), flags)
	if n.IsElement() && !n.Excluded() {
		s += fmt.Sprintf(" display=%s visibility=%s", n.Display(), n.Visibility())
	}
	return s
}

// Compare walks both trees in step and returns every difference and the
// number of node pairs compared. At a live shadow host whose offline twin
// has children, the offline children are skipped as one LightChildren
// difference. A structural mismatch ends the walk.
func Compare(offline, live *domtree.Tree) (diffs []Diff, compared int) {
	return compare(offline, live, Describe)
}

// CompareSaved is Compare for a live tree decoded from a saved capture,
// which the scrub has emptied of typed text: the offline tree's text that
// Scrubbed names is compared as the empty text the scrub leaves, so the
// offline side is scrubbed as the live side was. The live tree is taken as
// it is, so a saved capture still holding such text is a difference.
func CompareSaved(offline, live *domtree.Tree) (diffs []Diff, compared int) {
	return compare(offline, live, describeScrubbed)
}

// compare is Compare with the offline nodes described by describeOffline.
func compare(offline, live *domtree.Tree, describeOffline func(domtree.Node) string) (diffs []Diff, compared int) {
	o, l := offline.Root(), live.Root()
	for o.Valid() && l.Valid() {
		on, ln := describeOffline(o), Describe(l)
		if on != ln {
			diffs = append(diffs, Diff{What: Node, Offline: o, Live: l, OfflineNode: on, LiveNode: ln})
			return diffs, compared
		}
		compared++
		if os, ls := stateWith(o, offlineFlags(o, l)), StateOf(l); os != ls {
			diffs = append(diffs, Diff{What: State, Offline: o, Live: l, OfflineNode: on, LiveNode: ln, OfflineState: os, LiveState: ls})
		}
		enterO := true
		if l.Flags()&domtree.ShadowHost != 0 && !l.FirstChild().Valid() && o.FirstChild().Valid() {
			diffs = append(diffs, Diff{What: LightChildren, Offline: o, Live: l, OfflineNode: on, LiveNode: ln, Skipped: o.SubtreeSize() - 1})
			enterO = false
		}
		o, l = o.Next(offline.Root(), enterO), l.Next(live.Root(), true)
	}
	if o.Valid() || l.Valid() {
		diffs = append(diffs, Diff{What: Node, Offline: o, Live: l})
	}
	return diffs, compared
}

// offlineFlags are the flags of offline node o as compared with live node
// l. Offline every iframe, frame and embedded document owns a frame
// document, as in a browser. A live capture marks only the frames whose
// document the snapshot holds: under parity, which fails every request but
// the page's own, a frame with an external src holds none (on the real
// pages tried, every such frame). The flag is compared only when live has
// it; a frame live has and offline lacks is still a difference.
func offlineFlags(o, l domtree.Node) domtree.Flags {
	f := o.Flags()
	if l.Flags()&domtree.FrameOwner == 0 {
		f &^= domtree.FrameOwner
	}
	return f
}

// Path names a node by its ancestors, without any text or attribute value:
// "/html/body/div[2]/#text[1]", each step the node's name (or #text,
// #comment, ...) and, when its parent has more than one child of that name,
// its position among them from 1. The zero Node is "(end)".
func Path(n domtree.Node) string {
	if !n.Valid() {
		return "(end)"
	}
	var steps []string
	for ; n.Valid() && n.Parent().Valid(); n = n.Parent() {
		name := stepName(n)
		pos, count := 0, 0
		for c := n.Parent().FirstChild(); c.Valid(); c = c.NextSibling() {
			if stepName(c) == name {
				count++
				if c.Index() == n.Index() {
					pos = count
				}
			}
		}
		if count > 1 {
			name += "[" + strconv.Itoa(pos) + "]"
		}
		steps = append(steps, name)
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString("/" + steps[i])
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

func stepName(n domtree.Node) string {
	if n.Kind() == domtree.Element {
		return n.Name()
	}
	return "#" + strings.ToLower(n.Kind().String())
}
