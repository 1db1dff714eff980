package capture

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// pnode is one node of a made-up single-document capture for the host
// plan: its parent, name ("#text" for text) and shadow mark ("" none).
type pnode struct {
	parent int
	name   string
	mark   string
}

// planCapture writes a capture of nodes after the document node (index
// 0), their backend ids their index plus 100.
func planCapture(nodes []pnode) string {
	strs := []string{"#document", "open", "closed", "#text"}
	str := interner(&strs)
	parent, typ, name, backend := []int{-1}, []int{9}, []int{0}, []int{100}
	var marked, marks, pseudo, pseudoTypes []int
	for i, n := range nodes {
		if strings.HasPrefix(n.name, "::") {
			pseudo, pseudoTypes = append(pseudo, i+1), append(pseudoTypes, str(n.name[2:]))
		}
		parent, name, backend = append(parent, n.parent), append(name, str(n.name)), append(backend, i+101)
		if n.name == "#text" {
			typ = append(typ, 3)
		} else {
			typ = append(typ, 1)
		}
		if n.mark != "" {
			marked, marks = append(marked, i+1), append(marks, str(n.mark))
		}
	}
	doc := map[string]any{"documentURL": str("http://x/"), "frameId": str("F"), "nodes": map[string]any{
		"parentIndex": parent, "nodeType": typ, "nodeName": name, "backendNodeId": backend,
		"shadowRootType": map[string]any{"index": marked, "value": marks},
		"pseudoType":     map[string]any{"index": pseudo, "value": pseudoTypes}},
		"layout": map[string]any{"nodeIndex": []int{}, "styles": [][]int{}}}
	b, _ := json.Marshal(map[string]any{"documents": []any{doc}, "strings": strs})
	return string(b)
}

// component appends to nodes a custom element under parent whose open
// shadow tree holds a chain of depth divs (each a candidate: a div with a
// child of its tree's mode), and returns the element's index.
func component(nodes []pnode, parent, depth int) ([]pnode, int) {
	host := len(nodes) + 1
	nodes = append(nodes, pnode{parent, "X-ITEM", ""})
	at := host
	for d := 0; d < depth; d++ {
		nodes = append(nodes, pnode{at, "DIV", "open"})
		at = len(nodes)
	}
	nodes = append(nodes, pnode{at, "#text", "open"})
	return nodes, host
}

// TestShadowHostQuestions: the plan answers every candidate, with one
// description of a subtree where that costs fewer nodes than a call per
// candidate, one call per candidate where the candidates are few among
// many nodes, never a whole description of a subtree holding a frame or
// deeper than the browser answers, and at most the questions asked for.
func TestShadowHostQuestions(t *testing.T) {
	plan := func(nodes []pnode, most int) ([]HostCandidate, []HostQuestion) {
		t.Helper()
		cands, _, qs, err := ShadowHostQuestions([]byte(planCapture(nodes)), 0, most, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cands, qs
	}
	base := []pnode{{0, "HTML", ""}, {1, "BODY", ""}}
	const body = 2

	// Forty components of three candidates each: one description of the
	// body answers all 120 (about 250 nodes against 120 calls).
	many := append([]pnode(nil), base...)
	for i := 0; i < 40; i++ {
		many, _ = component(many, body, 3)
	}
	cands, qs := plan(many, 512)
	if len(cands) != 120 {
		t.Fatalf("%d candidates, want 120", len(cands))
	}
	if len(qs) != 1 || !qs[0].Whole {
		t.Fatalf("plan %+v, want one whole description", qs)
	}

	// One candidate among 2,000 plain nodes: a call of its own.
	few := append([]pnode(nil), base...)
	for i := 0; i < 2000; i++ {
		few = append(few, pnode{body, "P", ""})
	}
	few, host := component(few, body, 1)
	cands, qs = plan(few, 512)
	if len(cands) != 1 || len(qs) != 1 || qs[0].Whole || qs[0].Backend != int64(host+1+100) {
		t.Fatalf("candidates %+v, plan %+v, want the one div alone (backend %d)", cands, qs, host+101)
	}

	// A frame owner beside the components: nothing holding it is
	// described whole, so each component's shadow tree is, from its top
	// div (the host itself is no candidate: its children's marks say
	// they are its root's).
	framed := append([]pnode(nil), base...)
	framed = append(framed, pnode{body, "IFRAME", ""})
	var hosts []int
	for i := 0; i < 3; i++ {
		var h int
		framed, h = component(framed, body, 40)
		hosts = append(hosts, h)
	}
	_, qs = plan(framed, 512)
	if len(qs) != 3 {
		t.Fatalf("plan %+v, want the three components", qs)
	}
	for k, q := range qs {
		if !q.Whole || q.Backend != int64(hosts[k]+101) {
			t.Fatalf("question %d: %+v, want %d whole", k, q, hosts[k]+101)
		}
	}

	// A chain deeper than the browser describes: its lower part is
	// described whole from the highest node that is shallow enough,
	// and the candidates above it one by one.
	deep := append([]pnode(nil), base...)
	deep, _ = component(deep, body, 150)
	cands, qs = plan(deep, 512)
	wholeQs := 0
	for _, q := range qs {
		if q.Whole {
			wholeQs++
		}
	}
	if len(cands) != 150 || wholeQs != 1 || len(qs) != 1+(150-99) {
		t.Fatalf("%d candidates, plan of %d (%d whole), want 150, %d (1 whole)", len(cands), len(qs), wholeQs, 1+150-99)
	}
	// Capped: the first questions in document order.
	_, capped := plan(deep, 10)
	if len(capped) != 10 || capped[0] != qs[0] {
		t.Fatalf("capped plan %+v", capped)
	}

	// A capture that is not one is refused as the reader refuses it.
	if _, _, _, err := ShadowHostQuestions([]byte(strings.Repeat("[", 3)), 0, 512, nil); err == nil {
		t.Fatal("a broken capture gave a plan")
	}
}

// TestShadowHostQuestionsWholeBounds: a subtree is described whole up to
// wholeDescribeNodes nodes and wholeDescribeHeight levels, under, at and
// one over each.
func TestShadowHostQuestionsWholeBounds(t *testing.T) {
	plan := func(nodes []pnode) []HostQuestion {
		t.Helper()
		_, _, qs, err := ShadowHostQuestions([]byte(planCapture(nodes)), 0, 1<<20, nil)
		if err != nil {
			t.Fatal(err)
		}
		return qs
	}
	base := []pnode{{0, "HTML", ""}, {1, "BODY", ""}}
	// Height: the top div of a chain of depth divs stands depth+1 levels
	// high (the text at the bottom is one); past the bound the next div
	// down is described whole and the top one alone.
	for _, c := range []struct{ depth, questions int }{
		{wholeDescribeHeight - 2, 1}, {wholeDescribeHeight - 1, 1}, {wholeDescribeHeight, 2},
	} {
		nodes, host := component(append([]pnode(nil), base...), 2, c.depth)
		qs := plan(nodes)
		if len(qs) != c.questions || !qs[len(qs)-1].Whole || qs[0].Backend != int64(host+101) {
			t.Errorf("a chain of %d: %+v, want %d questions, the last whole", c.depth, qs, c.questions)
		}
	}
	// Nodes: a host whose shadow tree holds k divs of one text each and
	// extra texts, the host's subtree 1+extra+2k nodes.
	const k = (wholeDescribeNodes - 2) / 2
	for _, c := range []struct {
		extra int
		whole bool
	}{{0, true}, {1, true}, {2, false}} {
		nodes := append([]pnode(nil), base...)
		nodes = append(nodes, pnode{2, "X-ITEM", ""})
		host := len(nodes)
		for i := 0; i < c.extra; i++ {
			nodes = append(nodes, pnode{host, "#text", "open"})
		}
		for i := 0; i < k; i++ {
			nodes = append(nodes, pnode{host, "DIV", "open"})
			nodes = append(nodes, pnode{len(nodes), "#text", "open"})
		}
		qs := plan(nodes)
		size := 1 + c.extra + 2*k
		if c.whole && (len(qs) != 1 || !qs[0].Whole || qs[0].Backend != int64(host+100)) {
			t.Errorf("a subtree of %d nodes: %d questions, want the host whole", size, len(qs))
		}
		if !c.whole && (len(qs) != k || qs[0].Whole) {
			t.Errorf("a subtree of %d nodes: %d questions (first whole %v), want %d alone", size, len(qs), len(qs) > 0 && qs[0].Whole, k)
		}
	}
}

// TestShadowHostsReached: the candidates in open shadow trees are put to a
// script in one query, each with the way to it through the flat tree
// (pseudo-elements left out of every count), and what it answers is not
// asked of the browser; a candidate in a closed tree is. A script that
// fails, answers too few or answers out of range leaves its candidates to
// the descriptions.
func TestShadowHostsReached(t *testing.T) {
	nodes := []pnode{
		{0, "HTML", ""},      // 1
		{1, "BODY", ""},      // 2
		{2, "::before", ""},  // 3
		{2, "X-A", ""},       // 4
		{4, "DIV", "open"},   // 5: a candidate
		{5, "SPAN", "open"},  // 6
		{4, "SLOT", "open"},  // 7: a candidate
		{7, "#text", "open"}, // 8
		{2, "X-C", ""},       // 9
		{9, "DIV", "closed"}, // 10: a candidate beyond scripts
		{10, "I", "closed"},  // 11
	}
	data := []byte(planCapture(nodes))
	var asked []string
	answer := func(codes ...HostAnswer) Reach {
		return func(q []byte) ([]HostAnswer, error) {
			asked = append(asked, string(q))
			return codes, nil
		}
	}
	cands, known, qs, err := ShadowHostQuestions(data, 0, 512, answer(HostRoot, HostAssigned))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"nodes":[[-1,0,1,"HTML"],[0,0,1,"BODY"],[1,0,2,"X-A"],[2,0,2,"DIV"],[2,1,2,"SLOT"]],"cands":[[3,false,1],[4,true,1]]}`
	if len(asked) != 1 || asked[0] != want {
		t.Fatalf("queries %q, want %q", asked, want)
	}
	if len(cands) != 3 || !slices.Equal(known, []HostAnswer{HostRoot, HostAssigned, HostUnknown}) {
		t.Fatalf("candidates %+v known %v", cands, known)
	}
	if len(qs) != 1 || qs[0] != (HostQuestion{Backend: 110}) {
		t.Fatalf("plan %+v, want the closed tree's div alone", qs)
	}
	for name, reach := range map[string]Reach{
		"an error":     func([]byte) ([]HostAnswer, error) { return nil, errors.New("gone") },
		"too few":      answer(HostRoot),
		"out of range": answer(HostRoot, HostAnswer(9)),
	} {
		_, known, qs, err := ShadowHostQuestions(data, 0, 512, reach)
		if err != nil {
			t.Fatal(err)
		}
		unknown := 0
		for _, a := range known {
			if a == HostUnknown {
				unknown++
			}
		}
		if name == "out of range" {
			if unknown != 2 || known[0] != HostRoot {
				t.Errorf("%s: known %v", name, known)
			}
			continue
		}
		if unknown != 3 || len(qs) == 0 {
			t.Errorf("%s: known %v, plan %+v", name, known, qs)
		}
	}
	// No candidate in an open tree: no query.
	asked = nil
	closedOnly := append(append([]pnode(nil), nodes[:2]...), pnode{2, "X-C", ""}, pnode{3, "DIV", "closed"}, pnode{4, "I", "closed"})
	if _, _, qs, _ := ShadowHostQuestions([]byte(planCapture(closedOnly)), 0, 512, answer()); len(asked) != 0 || len(qs) != 1 {
		t.Fatalf("a page of closed roots: queries %q, plan %+v", asked, qs)
	}
}
