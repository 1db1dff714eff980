package capture

// HostQuestion is one description the live layer asks the browser for to
// answer a whole capture's shadow-host candidates (ShadowHostQuestions):
// the node whose backend node id is Backend, alone, or, when Whole, with
// its whole subtree, through shadow roots (DOM.describeNode with depth -1
// and pierce), which answers every candidate inside it.
type HostQuestion struct {
	Backend int64
	Whole   bool
}

// The prices of the plan, in nodes of description: a call costs about as
// much as describing describeCallNodes nodes (as the bounded walker's plan
// measured it), and a subtree is described whole only up to
// wholeDescribeNodes nodes and wholeDescribeHeight levels (the browser
// refuses replies nested much deeper: each level is two).
const (
	describeCallNodes   = 43
	wholeDescribeNodes  = 65536
	wholeDescribeHeight = 100
)

// ShadowHostQuestions reads a whole capture and returns its shadow-host
// candidates (docHostCandidates, all of them), what is known of each, and
// the cheapest descriptions that answer the others, in document order.
// reach, when given, first answers the main document's candidates a
// script can reach (reachable: those in open shadow trees), in one call
// for all of them; a page built of open components then needs no
// description at all. For the rest, for each subtree, the plan takes
// either its whole description or its candidates' own and its
// children's plans, whichever costs fewer nodes of description. So a page
// of many components, whose shadow trees hold hundreds of candidates,
// takes a few descriptions of subtrees rather than one call per
// candidate, and a page with a few candidates among many nodes one small
// call each. A subtree holding a frame owner is never described whole
// (its description would take in the frame's document, which the capture
// lists apart), nor one too large or too deep. At most maxQuestions are
// returned; the candidates the others would have answered are read as
// their marks suggest.
func ShadowHostQuestions(data []byte, maxNodes, maxQuestions int, reach Reach) ([]HostCandidate, []HostAnswer, []HostQuestion, error) {
	rc, err := decodeRaw(data, maxNodes)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := validate(rc); err != nil {
		return nil, nil, nil, err
	}
	var cands []HostCandidate
	var qs []HostQuestion
	var known []HostAnswer
	for k := 0; k <= len(rc.frames); k++ {
		d := &rc.doc
		if k > 0 {
			if d = &rc.frames[k-1]; d.bad {
				continue
			}
		}
		from := len(cands)
		cands = docHostCandidates(rc, d, int32(k), int(^uint(0)>>1), cands)
		for len(known) < len(cands) {
			known = append(known, HostUnknown)
		}
		if k == 0 && reach != nil && len(cands) > from {
			if query, which := reachable(rc, d, cands[from:]); len(which) > 0 {
				if got, err := reach(query); err == nil && len(got) == len(which) {
					for j, a := range got {
						if a <= HostAssigned {
							known[from+which[j]] = a
						}
					}
				}
			}
		}
		var open []HostCandidate
		for j := from; j < len(cands); j++ {
			if known[j] == HostUnknown {
				open = append(open, cands[j])
			}
		}
		if len(open) > 0 && len(qs) < maxQuestions {
			qs = docHostPlan(rc, d, open, maxQuestions, qs)
		}
	}
	return cands, known, qs, nil
}

// docHostPlan appends to out the descriptions that answer document d's
// candidates (ShadowHostQuestions), up to most in all. Nodes come in tree
// order, each after its parent, so one pass from the last node to the
// first sees every subtree whole before its root, and one from the first
// to the last sees every root before its subtree.
func docHostPlan(rc *rawCapture, d *rawDoc, cands []HostCandidate, most int, out []HostQuestion) []HostQuestion {
	n := len(d.parent)
	cand := make([]bool, n)
	for _, c := range cands {
		cand[c.Node] = true
	}
	size := make([]int, n)
	height := make([]int, n)
	split := make([]int, n) // the cost of answering a subtree's candidates below its root
	holds := make([]bool, n)
	framed := make([]bool, n)
	whole := make([]bool, n)
	parent := func(i int) int {
		if p := int(d.parent[i]); p >= 0 && p < i {
			return p
		}
		return -1
	}
	for i := n - 1; i >= 0; i-- {
		size[i]++
		height[i]++
		if d.nodeType[i] == nodeElement && isFrameName(rc.lowerName(d.nodeName[i])) {
			framed[i] = true
		}
		holds[i] = holds[i] || cand[i]
		cost := 0
		if holds[i] {
			cost = split[i]
			if cand[i] {
				cost += describeCallNodes
			}
			if !framed[i] && d.backend[i] != 0 && size[i] <= wholeDescribeNodes && height[i] <= wholeDescribeHeight &&
				describeCallNodes+size[i] < cost {
				cost, whole[i] = describeCallNodes+size[i], true
			}
		}
		if p := parent(i); p >= 0 {
			size[p] += size[i]
			height[p] = max(height[p], height[i])
			split[p] += cost
			holds[p] = holds[p] || holds[i]
			framed[p] = framed[p] || framed[i]
		}
	}
	covered := make([]bool, n)
	for i := 0; i < n && len(out) < most; i++ {
		if p := parent(i); p >= 0 && (covered[p] || whole[p] && holds[p]) {
			covered[i] = true
			continue
		}
		switch {
		case !holds[i]:
		case whole[i]:
			out = append(out, HostQuestion{Backend: d.backend[i], Whole: true})
		case cand[i] && d.backend[i] != 0:
			out = append(out, HostQuestion{Backend: d.backend[i]})
		}
	}
	return out
}
