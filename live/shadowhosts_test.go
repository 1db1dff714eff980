package live

import (
	"strings"
	"testing"
)

// TestMarksShadow: a capture marks shadow content when any of its
// documents lists a marked node; a frame document's empty list, before or
// after the document that has marks, does not hide them.
func TestMarksShadow(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[],"value":[]}}}]}`, false},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[4,5],"value":[1,1]}}}]}`, true},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[4],"value":[1]}}},{"nodes":{"shadowRootType":{"index":[],"value":[]}}}]}`, true},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[],"value":[]}}},{"nodes":{"shadowRootType":{"index":[7],"value":[1]}}}]}`, true},
		{`{"documents":[{"nodes":{}}]}`, false},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[`, false},
	} {
		if got := marksShadow([]byte(c.raw)); got != c.want {
			t.Errorf("%s: %v, want %v", c.raw, got, c.want)
		}
	}
}

// TestReadDescription: every node of a description is read, through
// children and shadow roots, with whether it hosts a root other than the
// browser's own and whether it is a slot with nodes assigned; a frame's
// document is not entered, and a reply cut short gives the nodes read
// before the cut.
func TestReadDescription(t *testing.T) {
	const reply = `{"node":{"backendNodeId":1,"nodeName":"BODY","attributes":["id","x"],"children":[
{"backendNodeId":2,"nodeName":"X-A","shadowRoots":[{"backendNodeId":3,"shadowRootType":"open","children":[
  {"backendNodeId":4,"nodeName":"SLOT","distributedNodes":[{"backendNodeId":9,"nodeName":"SPAN"}]},
  {"backendNodeId":5,"nodeName":"DIV","shadowRoots":[{"backendNodeId":6,"shadowRootType":"closed","children":[]}]}]}],
 "children":[{"backendNodeId":9,"nodeName":"SPAN"}]},
{"backendNodeId":7,"nodeName":"INPUT","shadowRoots":[{"backendNodeId":8,"shadowRootType":"user-agent"}]},
{"backendNodeId":10,"nodeName":"IFRAME","contentDocument":{"backendNodeId":11,"children":[{"backendNodeId":12,"shadowRoots":[{"shadowRootType":"open"}]}]}},
{"backendNodeId":13,"nodeName":"SLOT","distributedNodes":[]}]}}`
	got := map[int64]string{}
	read := func(r string) {
		clear(got)
		readDescription([]byte(r), func(b int64, host, assigned bool) {
			got[b] = map[bool]string{true: "host", false: ""}[host] + map[bool]string{true: "assigned", false: ""}[assigned]
		})
	}
	read(reply)
	want := map[int64]string{1: "", 2: "host", 3: "", 4: "assigned", 5: "host", 6: "", 7: "", 8: "", 9: "", 10: "", 13: ""}
	if len(got) != len(want) {
		t.Fatalf("read %v, want %v", got, want)
	}
	for b, w := range want {
		if g, ok := got[b]; !ok || g != w {
			t.Errorf("node %d: %q (read %v), want %q", b, g, ok, w)
		}
	}
	read(reply[:strings.Index(reply, `{"backendNodeId":7`)+5])
	if got[4] != "assigned" || got[5] != "host" || got[2] != "host" {
		t.Errorf("a cut reply: %v", got)
	}
	if _, ok := got[7]; ok {
		t.Errorf("a cut reply read past its cut: %v", got)
	}
}
