package capture

import (
	"encoding/json"

	"github.com/domsnap/domsnap/domtree"
)

// HostAnswer is what is known of a shadow-host candidate
// (ShadowHostQuestions): nothing yet, neither a host nor a slot holding
// assigned nodes, the host of a shadow root, or a slot whose children are
// assigned nodes.
type HostAnswer uint8

const (
	HostUnknown HostAnswer = iota
	HostNeither
	HostRoot
	HostAssigned
)

// Reach answers, by a script in the page, the candidates a query names
// (ReachQuery's format). It returns one answer per candidate of the
// query, in its order; an error, or a reply of another length, leaves
// them all to the browser's descriptions.
type Reach func(query []byte) ([]HostAnswer, error)

// ReachQuery is the query a Reach gets, as JSON: the nodes of the main
// document on the way to each candidate a script can reach, and the
// candidates. A script reaches a node in an open shadow tree through the
// flat tree as Chromium's capture lists it: an element's children are its
// open shadow root's when it has one, a slot's are the nodes assigned to
// it when there are any, and any other node's are its own. Each node
// entry is [up, at, count, name]: the entry of its parent (-1 for the
// document node), its place among the parent's flat children, how many
// those are, and its node name, so a script checks every step against the
// capture and reaches nothing else. Each candidate entry is [node, slot,
// count]: the entry of the candidate, whether it is a slot, and how many
// flat children the capture lists for it. The answer for a slot is
// whether nodes are assigned to it, for any other element whether it has
// an open shadow root: a candidate in an open tree with children of that
// tree's mode hosts no closed root (its children would be that root's,
// marked closed).
type ReachQuery struct {
	Nodes [][4]any `json:"nodes"`
	Cands [][3]any `json:"cands"`
}

// reachable builds the query for the candidates of the main document (d,
// document 0) a script can reach, and returns it with the index in cands
// of each of its candidates; none when no candidate is reachable. A
// candidate is reachable when it lies in an open shadow tree and every
// node on the way to it is of the main tree or an open shadow tree, and
// no fragment, pseudo-element or node of a browser's own (user-agent)
// shadow tree: a closed tree's nodes are beyond every script, and a
// user-agent tree's are not its children to a script.
func reachable(rc *rawCapture, d *rawDoc, cands []HostCandidate) ([]byte, []int) {
	n := len(d.parent)
	// The composed tree's marks (markNone, markOpen), with every mark that
	// does not say open read as closed: beyond a script.
	mark := make([]uint8, n)
	for k, i := range d.shadow.index {
		mark[i] = markClosed
		if k < len(d.shadow.value) && d.shadow.value[k] >= 0 && domtree.EqualFold(rc.strs.get(d.shadow.value[k]), "open") {
			mark[i] = markOpen
		}
	}
	pseudo := make([]bool, n)
	for _, i := range d.pseudo.index {
		pseudo[i] = true
	}
	// ok: the node is on a way a script can follow; at: its place among
	// its parent's flat children, which kids counts. Parents come before
	// their children (validate), so one pass sees every parent first.
	ok := make([]bool, n)
	at := make([]int32, n)
	kids := make([]int32, n)
	ok[0] = true
	for i := 1; i < n; i++ {
		p := d.parent[i]
		if pseudo[i] {
			continue
		}
		at[i] = kids[p]
		kids[p]++
		ok[i] = ok[p] && mark[i] != markClosed && d.nodeType[i] != nodeDocFragment
	}
	entry := make([]int32, n)
	for i := range entry {
		entry[i] = -1
	}
	need := 0
	var which []int
	for k, c := range cands {
		if c.Doc != 0 || !ok[c.Node] || mark[c.Node] != markOpen {
			continue
		}
		which = append(which, k)
		for i := c.Node; i > 0 && entry[i] == -1; i = d.parent[i] {
			entry[i] = -2 // needed; numbered below, in document order
			need++
		}
	}
	if len(which) == 0 {
		return nil, nil
	}
	var q ReachQuery
	q.Nodes = make([][4]any, 0, need)
	for i := int32(1); i < int32(n); i++ {
		if entry[i] != -2 {
			continue
		}
		entry[i] = int32(len(q.Nodes))
		up := int32(-1)
		if p := d.parent[i]; p > 0 {
			up = entry[p]
		}
		q.Nodes = append(q.Nodes, [4]any{up, at[i], kids[d.parent[i]], rc.strs.get(d.nodeName[i])})
	}
	for _, k := range which {
		c := cands[k].Node
		slot := d.nodeType[c] == nodeElement && domtree.EqualFold(rc.strs.get(d.nodeName[c]), "slot")
		q.Cands = append(q.Cands, [3]any{entry[c], slot, kids[c]})
	}
	data, err := json.Marshal(q)
	if err != nil {
		return nil, nil
	}
	return data, which
}
