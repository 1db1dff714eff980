package capture

import (
	"testing"

	"github.com/domsnap/domsnap/limits"
)

// TestSecretStringsNeverDecoded: the strings only form values refer to (an
// input's value attribute, the inputValue and textValue tables, a
// textarea's text) are never even turned into Go strings: after a build the
// string table's cache has decoded none of them, though it has decoded the
// names the tree keeps.
func TestSecretStringsNeverDecoded(t *testing.T) {
	data := []byte(`{"documents":[{"nodes":{` +
		`"parentIndex":[-1,0,1,1,3],"nodeType":[9,1,1,1,3],"nodeName":[0,1,2,3,4],` +
		`"nodeValue":[-1,-1,-1,-1,8],"attributes":[[],[],[9,10,5,6],[],[]],` +
		`"inputValue":{"index":[2],"value":[7]},"textValue":{"index":[3],"value":[8]}},` +
		`"layout":{"nodeIndex":[1,2,3],"styles":[[11,12],[11,12],[11,12]]}}],` +
		`"strings":["#document","HTML","INPUT","TEXTAREA","#text","value","CANARY-ATTR",` +
		`"CANARY-INPUT","CANARY-TEXT","type","text","block","visible"]}`)
	secret := map[int]bool{6: true, 7: true, 8: true}
	rc, err := decodeRaw(data, limits.MaxTreeNodes)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := buildCapture(rc, styleCols{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 5 {
		t.Fatalf("tree of %d nodes, want 5", tr.Len())
	}
	if len(rc.strs.cached) != 13 || !rc.strs.cached[11] {
		t.Fatalf("the cache shows no decoded style string (%v): the check below would prove nothing", rc.strs.cached)
	}
	for i := range rc.strs.spans {
		if secret[i] && rc.strs.cached[i] {
			t.Errorf("secret string %d (%s) was decoded", i, rc.strs.cache[i])
		}
	}
}
