package snapshot

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// dumpTreeScrubbed is dumpTree with the text inside editing hosts emptied:
// what the tree of a capture looks like once scrubbed. Analysis never
// enters an editing host, so it reads nothing this changes.
func dumpTreeScrubbed(t *domtree.Tree) []string {
	var out []string
	for n := range t.All() {
		line := dumpNode(n)
		if n.Kind() == domtree.Text && n.Data() != "" {
			for a := range n.Ancestors() {
				if a.EditingHost() {
					// The quoted text follows "index<parent text ", which
					// cannot hold a quote.
					line = strings.Replace(line, strconv.Quote(n.Data()), `""`, 1)
					break
				}
			}
		}
		out = append(out, line)
	}
	return out
}

// TestScrubContentEditable: text typed into a contenteditable region, or
// set there by script, is emptied in the saved capture, nested text and
// layout text included; the text nodes stay, so node counts do not change.
// Which elements are editing hosts follows the rule the cell walks use:
// "", "true" and "plaintext-only" in any ASCII case, the first
// contenteditable attribute deciding. Text beside a host, in a comment
// under it, or under a host that is not one ("false", an unknown value)
// stays.
func TestScrubContentEditable(t *testing.T) {
	doc := []scrubNode{
		{-1, 9, "#document", "", nil, ""},
		{0, 1, "BODY", "", nil, ""},
		{1, 1, "DIV", "", []string{"contenteditable", ""}, ""},                                  // 2
		{2, 3, "#text", "S-CE-EMPTY", nil, "S-CE-LAYOUT"},                                       // 3
		{1, 1, "SPAN", "", []string{"CONTENTEDITABLE", "TRUE"}, ""},                             // 4
		{4, 1, "B", "", []string{"title", "kept-attr"}, ""},                                     // 5
		{5, 3, "#text", "S-CE-DEEP", nil, ""},                                                   // 6
		{1, 1, "SPAN", "", []string{"contenteditable", "Plaintext-Only"}, ""},                   // 7
		{7, 3, "#text", "S-CE-PLAIN", nil, ""},                                                  // 8
		{7, 8, "#comment", "kept-comment", nil, ""},                                             // 9
		{1, 1, "DIV", "", []string{"contenteditable", "true"}, ""},                              // 10
		{10, 1, "SPAN", "", []string{"contenteditable", "false"}, ""},                           // 11
		{11, 3, "#text", "S-CE-ISLAND", nil, ""},                                                // 12
		{1, 3, "#text", "kept-after", nil, "kept-after"},                                        // 13
		{1, 1, "SPAN", "", []string{"contenteditable", "false"}, ""},                            // 14
		{14, 3, "#text", "kept-false", nil, ""},                                                 // 15
		{1, 1, "SPAN", "", []string{"contenteditable", "truex"}, ""},                            // 16
		{16, 3, "#text", "kept-unknown", nil, ""},                                               // 17
		{1, 1, "SPAN", "", []string{"contenteditable", "false", "contenteditable", "true"}, ""}, // 18
		{18, 3, "#text", "kept-first-false", nil, ""},                                           // 19
		{1, 1, "SPAN", "", []string{"contenteditable", "true", "contenteditable", "false"}, ""}, // 20
		{20, 3, "#text", "S-CE-FIRST", nil, ""},                                                 // 21
		{1, 1, "SPAN", "", []string{"data-contenteditable", "true"}, ""},                        // 22
		{22, 3, "#text", "kept-other-name", nil, ""},                                            // 23
	}
	// The frame document is not inside the host that holds its iframe in
	// the capture's terms: its text is another document's.
	frame := []scrubNode{
		{-1, 9, "#document", "", nil, ""},
		{0, 1, "P", "", []string{"contenteditable", "true"}, ""},
		{1, 3, "#text", "S-CE-FRAME", nil, ""},
	}
	raw := scrubCapture(nil, doc, frame)
	out := mustScrub(t, raw)
	for _, s := range []string{"S-CE-EMPTY", "S-CE-LAYOUT", "S-CE-DEEP", "S-CE-PLAIN", "S-CE-ISLAND", "S-CE-FIRST", "S-CE-FRAME"} {
		if !bytes.Contains(raw, []byte(s)) {
			t.Fatalf("%s not in the input", s)
		}
		if bytes.Contains(out, []byte(s)) {
			t.Errorf("%s survived", s)
		}
	}
	for _, s := range []string{"kept-attr", "kept-comment", "kept-after", "kept-false", "kept-unknown", "kept-first-false", "kept-other-name"} {
		if !bytes.Contains(out, []byte(`"`+s+`"`)) {
			t.Errorf("%s was removed", s)
		}
	}
	if diff := cmp.Diff(nodeCounts(t, raw), nodeCounts(t, out)); diff != "" {
		t.Errorf("node counts (-raw +scrubbed):\n%s", diff)
	}
	var c struct {
		Documents []struct {
			Nodes  struct{ NodeValue []int }
			Layout struct{ Text []int }
		}
		Strings []string
	}
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{3, 6, 8, 12, 21} {
		if v := c.Documents[0].Nodes.NodeValue[i]; v < 0 || c.Strings[v] != "" {
			t.Errorf("text node %d points at string %d", i, v)
		}
	}
	if v := c.Documents[0].Layout.Text[3]; v != -1 {
		t.Errorf("layout text inside a host kept: %d", v)
	}
	if v := c.Documents[0].Layout.Text[13]; v < 0 || c.Strings[v] != "kept-after" {
		t.Errorf("layout text beside a host lost: %d", v)
	}
	if diff := cmp.Diff(dumpTreeScrubbed(mustDecode(t, raw)), dumpTree(mustDecode(t, out))); diff != "" {
		t.Errorf("tree (-raw with editable text emptied +scrubbed):\n%s", diff)
	}
	if again := mustScrub(t, out); !bytes.Equal(again, out) {
		t.Error("not idempotent")
	}
}

// TestScrubEditableNeedsOrder: finding the text inside an editing host
// follows parents up, which needs each parent before its child. With a host
// in the document, a parent out of order is malformed; without one, the
// scrub does not look at the order, as before.
func TestScrubEditableNeedsOrder(t *testing.T) {
	withHost := `{"documents":[{"nodes":{"parentIndex":[-1,2,0],"nodeType":[9,3,1],"nodeName":[0,1,2],"nodeValue":[-1,3,-1],"attributes":[[],[],[4,5]]}}],` +
		`"strings":["#document","#text","DIV","S-LATE","contenteditable","true"]}`
	_, err := ScrubCapture([]byte(withHost))
	var e *errcode.Error
	if !errorsAs(err, &e) || e.Code != errcode.MalformedSnapshot || e.Path != "/documents/0/nodes/parentIndex/1" || bytes.Contains([]byte(err.Error()), []byte("S-LATE")) {
		t.Errorf("host with a late parent: %v", err)
	}
	without := `{"documents":[{"nodes":{"parentIndex":[-1,2,0],"nodeType":[9,3,1],"nodeName":[0,1,2],"nodeValue":[-1,3,-1],"attributes":[[],[],[4,5]]}}],` +
		`"strings":["#document","#text","DIV","late","contenteditable","false"]}`
	if _, err := ScrubCapture([]byte(without)); err != nil {
		t.Errorf("no host, late parent: %v", err)
	}
}
