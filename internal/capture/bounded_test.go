package capture

import (
	"errors"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// boundedDoc is a walker's capture of <html><body><ul><li>one, cut after
// the text: document, html, body, ul, li, text.
const boundedDoc = `{"documents":[{"nodes":{"parentIndex":[-1,0,1,2,3,4],"nodeType":[9,1,1,1,1,3],
"nodeName":[0,1,2,3,4,5],"nodeValue":[-1,-1,-1,-1,-1,6],"attributes":[[],[],[],[7,8],[],[]]},
"layout":{"nodeIndex":[1,2,3,4],"styles":[[9,10],[9,10],[9,10],[11,10]]}}],
"strings":["#document","HTML","BODY","UL","LI","#text","one","id","list","block","visible","list-item"],
"horizon":{"cut":true,"labelsBeyond":false}}`

func TestDecodeBoundedCutGivesAPartialTree(t *testing.T) {
	tr, err := DecodeBounded([]byte(boundedDoc), 0, nil, func(i int) int64 { return int64(i) + 1 }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Partial() || tr.Horizon() != 6 {
		t.Fatalf("partial %v horizon %d, want a partial tree of 6 nodes", tr.Partial(), tr.Horizon())
	}
	li := tr.At(4)
	if li.Name() != "li" || li.FirstChild().Data() != "one" || li.BackendNodeID() != 5 {
		t.Fatalf("li %q text %q backend %d", li.Name(), li.FirstChild().Data(), li.BackendNodeID())
	}
	if tr.HorizonReached() {
		t.Fatal("reading the prefix set the mark")
	}
	li.NextSibling()
	if !tr.HorizonReached() {
		t.Fatal("the li's next sibling lies past the horizon")
	}
	whole := strings.Replace(boundedDoc, `"cut":true`, `"cut":false`, 1)
	tr, err = DecodeBounded([]byte(whole), 0, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Partial() || tr.Len() != 6 || tr.HasBackendIDs() {
		t.Fatalf("an uncut capture is a whole tree: partial %v len %d", tr.Partial(), tr.Len())
	}
}

func TestDecodeBoundedIsCheckedLikeACapture(t *testing.T) {
	for name, c := range map[string]struct {
		data    string
		resolve bool
		path    string
	}{
		"no horizon":                {strings.Replace(boundedDoc, `"horizon":{"cut":true,"labelsBeyond":false}`, `"other":1`, 1), false, "/horizon"},
		"horizon without cut":       {strings.Replace(boundedDoc, `"cut":true,`, ``, 1), false, "/horizon/cut"},
		"horizon not boolean":       {strings.Replace(boundedDoc, `"cut":true`, `"cut":1`, 1), false, "/horizon/cut"},
		"horizon extra member":      {strings.Replace(boundedDoc, `"cut":true`, `"cut":true,"x":true`, 1), false, "/horizon/x"},
		"parent after child":        {strings.Replace(boundedDoc, `[-1,0,1,2,3,4]`, `[-1,0,1,2,5,4]`, 1), false, "/documents/0/nodes/parentIndex/4"},
		"backend ids in the tables": {strings.Replace(boundedDoc, `"nodeType"`, `"backendNodeId":[1,2,3,4,5,6],"nodeType"`, 1), true, "/documents/0/nodes/backendNodeId"},
		"style not a display":       {strings.Replace(boundedDoc, `[11,10]]`, `[6,10]]`, 1), false, "/documents/0/layout/styles/3/0"},
	} {
		var resolve func(int) int64
		if c.resolve {
			resolve = func(int) int64 { return 1 }
		}
		_, err := DecodeBounded([]byte(c.data), 0, nil, resolve, nil)
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.MalformedSnapshot || e.Path != c.path {
			t.Errorf("%s: got %v, want malformed_snapshot at %s", name, err, c.path)
		}
	}
}

func TestDecodeBoundedKeepsTheSecretRule(t *testing.T) {
	data := `{"documents":[{"nodes":{"parentIndex":[-1,0,1],"nodeType":[9,1,1],"nodeName":[0,1,2],
"attributes":[[],[],[3,4,5,6]]},"layout":{"nodeIndex":[1,2],"styles":[[7,8],[9,8]]}}],
"strings":["#document","HTML","INPUT","type","text","value","CANARY","block","visible","inline-block"],
"horizon":{"cut":false,"labelsBeyond":false}}`
	tr, err := DecodeBounded([]byte(data), 0, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := tr.At(2).Attr("value"); ok {
		t.Fatalf("an input's value attribute reached the tree: %q", v)
	}
}

func TestDecodeBoundedLeavesOutAHostsLightChildren(t *testing.T) {
	whole := strings.Replace(boundedDoc, `"cut":true`, `"cut":false`, 1)
	tr, err := DecodeBounded([]byte(whole), 0, []int{3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ul := tr.At(3)
	if tr.Len() != 4 || !ul.Is("ul") || ul.FirstChild().Valid() || ul.Flags()&domtree.ShadowHost == 0 {
		t.Fatalf("len %d, the host has children %v, flags %v", tr.Len(), ul.FirstChild().Valid(), ul.Flags())
	}
	if _, err := DecodeBounded([]byte(whole), 0, []int{9}, nil, nil); errcode.CodeOf(err) != errcode.MalformedSnapshot {
		t.Fatalf("a host out of range: %v", err)
	}
}

// TestDecodeBoundedFindsNodesByID: the caller's way back from a backend id
// to a node of the tables is the tree's: the node found keeps the id
// without asking resolve, an index the tables do not hold is no node, and
// a node past the horizon marks the partial tree.
func TestDecodeBoundedFindsNodesByID(t *testing.T) {
	resolved := 0
	resolve := func(i int) int64 { resolved++; return int64(i) + 1000 }
	find := func(id int64) (int, bool) {
		switch id {
		case 77:
			return 4, false
		case 78:
			return 6, false // past the tables
		case 79:
			return -1, true
		}
		return -1, false
	}
	tr, err := DecodeBounded([]byte(boundedDoc), 0, nil, resolve, find)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := tr.NodeByBackendID(77); !ok || n.Name() != "li" || n.BackendNodeID() != 77 || resolved != 0 {
		t.Fatalf("id 77: %q %v %d, resolved %d", n.Name(), ok, n.BackendNodeID(), resolved)
	}
	for _, id := range []int64{78, 80} {
		if _, ok := tr.NodeByBackendID(id); ok || tr.HorizonReached() {
			t.Fatalf("id %d: found %v, reached %v", id, ok, tr.HorizonReached())
		}
	}
	if _, ok := tr.NodeByBackendID(79); ok || !tr.HorizonReached() {
		t.Fatal("a node past the horizon must mark the tree")
	}
	if tr.At(3).BackendNodeID() != 1003 || resolved != 1 {
		t.Fatalf("resolve: %d calls", resolved)
	}
}
