package snapshot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/domsnapshot"
	"pgregory.net/rapid"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// genNode is one node of a generated capture, before encoding.
type genNode struct {
	parent   int
	typ      int
	name     string
	value    string
	id       string
	pseudo   bool
	shadow   bool
	layout   bool
	display  string
	visible  string
	checked  bool
	frame    bool
	secret   string // an input value (inputValue) or textarea text (textValue)
	valueAtt bool   // input carries a value attribute holding secret
	// editable is the contenteditable attribute's value when hasEditable;
	// text inside an editing host holds "TYPED", which a saved capture
	// must not keep.
	editable    string
	hasEditable bool
}

// genEditable are contenteditable values, with whether each makes an
// editing host. The test keeps its own list rather than ask the rule it
// tests.
var genEditable = map[string]bool{"": true, "true": true, "TRUE": true, "plaintext-only": true, "PlainText-Only": true, "false": false, "bogus": false, "truex": false}

// genInsideHost reports whether node i is an editing host or lies inside one.
func genInsideHost(nodes []genNode, i int) bool {
	for ; i >= 0; i = nodes[i].parent {
		if nodes[i].hasEditable && genEditable[nodes[i].editable] {
			return true
		}
	}
	return false
}

var genNames = []string{"DIV", "SPAN", "TABLE", "TR", "TD", "UL", "LI", "INPUT", "TEXTAREA", "TEMPLATE", "IFRAME", "P", "B"}
var genDisplays = []string{"block", "inline", "inline-block", "none", "table-row", "list-item", "inline flow-root", "contents"}

// genCapture draws a pre-order tree: each new node's parent is a node on
// the path from the root to the node drawn last, as in a DOM walk.
func genCapture(t *rapid.T) []genNode {
	n := rapid.IntRange(1, 120).Draw(t, "nodes")
	nodes := []genNode{{parent: -1, typ: nodeDocument, name: "#document", layout: true}}
	open := []int{0}
	for i := 1; i < n; i++ {
		// Keep only element or document parents on the path.
		k := rapid.IntRange(0, len(open)-1).Draw(t, "depth")
		open = open[:k+1]
		p := open[k]
		g := genNode{parent: p}
		switch kind := rapid.IntRange(0, 9).Draw(t, "kind"); {
		case kind < 6:
			g.typ = nodeElement
			g.name = rapid.SampledFrom(genNames).Draw(t, "name")
			if rapid.IntRange(0, 3).Draw(t, "hasID") == 0 {
				g.id = fmt.Sprintf("id%d", rapid.IntRange(0, 5).Draw(t, "id"))
			}
			g.pseudo = rapid.IntRange(0, 15).Draw(t, "pseudo") == 0
			g.shadow = rapid.IntRange(0, 15).Draw(t, "shadow") == 0 || nodes[p].shadow
			g.frame = g.name == "IFRAME"
			if g.name == "INPUT" {
				g.checked = rapid.Bool().Draw(t, "checked")
				g.secret = fmt.Sprintf("SECRET%dINPUT", i)
				g.valueAtt = rapid.Bool().Draw(t, "valueAtt")
			}
			if g.name == "TEXTAREA" {
				g.secret = fmt.Sprintf("SECRET%dAREA", i)
			}
			if g.name == "DIV" || g.name == "SPAN" || g.name == "P" || g.name == "TD" {
				if rapid.IntRange(0, 4).Draw(t, "hasEditable") == 0 {
					g.hasEditable = true
					g.editable = rapid.SampledFrom([]string{"", "true", "TRUE", "plaintext-only", "PlainText-Only", "false", "bogus", "truex"}).Draw(t, "editable")
				}
			}
		case kind < 9:
			g.typ = nodeText
			g.value = fmt.Sprintf("text%d", i)
			if genInsideHost(nodes, p) {
				g.value = fmt.Sprintf("TYPED%d", i)
			}
			if nodes[p].name == "TEXTAREA" {
				g.value = nodes[p].secret
			}
			g.shadow = nodes[p].shadow
		default:
			g.typ = nodeComment
			g.value = "c"
			g.shadow = nodes[p].shadow
		}
		g.layout = rapid.IntRange(0, 2).Draw(t, "layout") > 0
		g.display = rapid.SampledFrom(genDisplays).Draw(t, "display")
		g.visible = rapid.SampledFrom([]string{"visible", "hidden", "collapse"}).Draw(t, "visibility")
		nodes = append(nodes, g)
		if g.typ == nodeElement {
			open = append(open, i)
		}
	}
	return nodes
}

// encodeCapture turns generated nodes into mafredri/cdp's reply type.
func encodeCapture(nodes []genNode) *domsnapshot.CaptureSnapshotReply {
	var strs []string
	idx := map[string]int{}
	str := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(strs)
		strs = append(strs, s)
		return len(strs) - 1
	}
	var nt domsnapshot.NodeTreeSnapshot
	var lt domsnapshot.LayoutTreeSnapshot
	nt.ShadowRootType = &domsnapshot.RareStringData{Index: []int{}, Value: []domsnapshot.StringIndex{}}
	nt.PseudoType = &domsnapshot.RareStringData{Index: []int{}, Value: []domsnapshot.StringIndex{}}
	nt.InputValue = &domsnapshot.RareStringData{Index: []int{}, Value: []domsnapshot.StringIndex{}}
	nt.TextValue = &domsnapshot.RareStringData{Index: []int{}, Value: []domsnapshot.StringIndex{}}
	nt.InputChecked = &domsnapshot.RareBooleanData{Index: []int{}}
	nt.ContentDocumentIndex = &domsnapshot.RareIntegerData{Index: []int{}, Value: []int{}}
	for i, g := range nodes {
		nt.ParentIndex = append(nt.ParentIndex, g.parent)
		nt.NodeType = append(nt.NodeType, g.typ)
		nt.NodeName = append(nt.NodeName, domsnapshot.StringIndex(str(g.name)))
		v := -1
		if g.typ == nodeText || g.typ == nodeComment {
			v = str(g.value)
		}
		nt.NodeValue = append(nt.NodeValue, domsnapshot.StringIndex(v))
		nt.BackendNodeID = append(nt.BackendNodeID, dom.BackendNodeID(1000+i))
		var attrs domsnapshot.ArrayOfStrings
		if g.id != "" {
			attrs = append(attrs, domsnapshot.StringIndex(str("id")), domsnapshot.StringIndex(str(g.id)))
		}
		if g.valueAtt {
			attrs = append(attrs, domsnapshot.StringIndex(str("value")), domsnapshot.StringIndex(str(g.secret)))
		}
		if g.hasEditable {
			attrs = append(attrs, domsnapshot.StringIndex(str("contenteditable")), domsnapshot.StringIndex(str(g.editable)))
		}
		nt.Attributes = append(nt.Attributes, attrs)
		if g.pseudo {
			nt.PseudoType.Index = append(nt.PseudoType.Index, i)
			nt.PseudoType.Value = append(nt.PseudoType.Value, domsnapshot.StringIndex(str("before")))
		}
		if g.shadow {
			nt.ShadowRootType.Index = append(nt.ShadowRootType.Index, i)
			nt.ShadowRootType.Value = append(nt.ShadowRootType.Value, domsnapshot.StringIndex(str("open")))
		}
		if g.name == "INPUT" {
			nt.InputValue.Index = append(nt.InputValue.Index, i)
			nt.InputValue.Value = append(nt.InputValue.Value, domsnapshot.StringIndex(str(g.secret)))
			if g.checked {
				nt.InputChecked.Index = append(nt.InputChecked.Index, i)
			}
		}
		if g.name == "TEXTAREA" {
			nt.TextValue.Index = append(nt.TextValue.Index, i)
			nt.TextValue.Value = append(nt.TextValue.Value, domsnapshot.StringIndex(str(g.secret)))
		}
		if g.frame {
			nt.ContentDocumentIndex.Index = append(nt.ContentDocumentIndex.Index, i)
			nt.ContentDocumentIndex.Value = append(nt.ContentDocumentIndex.Value, 1)
		}
		if g.layout && g.display != "none" && g.display != "contents" {
			lt.NodeIndex = append(lt.NodeIndex, i)
			if i == 0 {
				lt.Styles = append(lt.Styles, domsnapshot.ArrayOfStrings{})
			} else {
				lt.Styles = append(lt.Styles, domsnapshot.ArrayOfStrings{domsnapshot.StringIndex(str(g.display)), domsnapshot.StringIndex(str(g.visible))})
			}
		}
	}
	frame := domsnapshot.DocumentSnapshot{Nodes: domsnapshot.NodeTreeSnapshot{ParentIndex: []int{-1}, NodeType: []int{9}, NodeName: []domsnapshot.StringIndex{0}}}
	return &domsnapshot.CaptureSnapshotReply{
		Documents: []domsnapshot.DocumentSnapshot{{Nodes: nt, Layout: lt}, frame},
		Strings:   strs,
	}
}

// checkTree asserts the structural invariants of any tree: parents precede
// children, a bounded pre-order walk reaches every node exactly once and
// ends, subtree ranges match the parent links, and the id index names the
// first element in tree order with that id.
func checkTree(t interface {
	Helper()
	Fatalf(string, ...any)
}, tr *domtree.Tree) {
	t.Helper()
	n := tr.Len()
	root := tr.Root()
	if root.Kind() != domtree.Document {
		t.Fatalf("root is %s", root.Kind())
	}
	steps := 0
	for c := root; c.Valid(); c = c.Next(root, true) {
		if c.Index() != steps {
			t.Fatalf("walk reached %d at step %d", c.Index(), steps)
		}
		steps++
		if steps > n {
			t.Fatalf("walk did not end")
		}
	}
	if steps != n {
		t.Fatalf("walk reached %d of %d nodes", steps, n)
	}
	firstID := map[string]int{}
	for i := 0; i < n; i++ {
		node := tr.At(i)
		if i > 0 && node.Parent().Index() >= i {
			t.Fatalf("node %d has parent %d", i, node.Parent().Index())
		}
		// Brute force: j is in i's subtree when i is on j's parent chain.
		size := 0
		for j := i; j < n; j++ {
			for a := tr.At(j); a.Valid(); a = a.Parent() {
				if a.Index() == i {
					size++
					break
				}
			}
		}
		if size != node.SubtreeSize() {
			t.Fatalf("node %d: subtree %d by parents, %d by range", i, size, node.SubtreeSize())
		}
		if id, ok := node.Attr("id"); ok && node.IsElement() && id != "" {
			if _, seen := firstID[id]; !seen {
				firstID[id] = i
			}
		}
		// Exclusion is inherited.
		if node.Parent().Valid() && node.Parent().Excluded() && !node.Excluded() {
			t.Fatalf("node %d not excluded under excluded parent", i)
		}
	}
	for id, i := range firstID {
		if got, _ := tr.ElementByID(id); got.Index() != i {
			t.Fatalf("ElementByID(%q) = %d, want %d", id, got.Index(), i)
		}
	}
}

func TestPropertyGeneratedCaptures(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genCapture(t)
		reply := encodeCapture(nodes)
		data, err := json.Marshal(reply)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := DecodeCapture(data, CaptureOptions{})
		if err != nil {
			t.Fatalf("valid capture refused: %v", err)
		}
		checkTree(t, tr)

		// Brute force: which nodes are kept, and what each element's
		// display and visibility must be.
		skip := make([]bool, len(nodes))
		hasLayout := func(i int) bool {
			g := nodes[i]
			return g.layout && g.display != "none" && g.display != "contents"
		}
		var want []string
		vis := make([]string, len(nodes))
		vis[0] = "visible"
		for i := 1; i < len(nodes); i++ {
			g := nodes[i]
			skip[i] = g.pseudo || g.shadow || skip[g.parent]
			vis[i] = vis[g.parent]
			if skip[i] {
				continue
			}
			switch g.typ {
			case nodeElement:
				display, v := "none", vis[g.parent]
				if hasLayout(i) {
					v = map[string]string{"visible": "visible", "hidden": "hidden", "collapse": "hidden"}[g.visible]
					display = map[string]string{"block": "block", "inline": "inline", "inline-block": "inline", "table-row": "block", "list-item": "block", "inline flow-root": "inline"}[g.display]
				} else {
					// Rendered descendants, by brute force over all later nodes.
					for j := i + 1; j < len(nodes); j++ {
						for a := nodes[j].parent; a >= 0; a = nodes[a].parent {
							if a == i && hasLayout(j) {
								display = "block"
							}
						}
					}
				}
				vis[i] = v
				want = append(want, fmt.Sprintf("element %s %s %s", strings.ToLower(g.name), display, v))
			case nodeText:
				text := g.value
				if nodes[g.parent].name == "TEXTAREA" {
					text = ""
				}
				want = append(want, "text "+text)
			case nodeComment:
				want = append(want, "comment "+g.value)
			}
		}
		var got []string
		for n := range tr.All() {
			switch n.Kind() {
			case domtree.Element:
				got = append(got, fmt.Sprintf("element %s %s %s", n.Name(), n.Display(), n.Visibility()))
			case domtree.Text, domtree.Comment:
				got = append(got, n.Kind().String()+" "+n.Data())
			}
			for _, a := range n.Attrs() {
				if strings.Contains(a.Value, "SECRET") {
					t.Fatalf("secret in attribute: %s", dumpNode(n))
				}
			}
			if strings.Contains(n.Data(), "SECRET") {
				t.Fatalf("secret in node data: %s", dumpNode(n))
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("tree differs from brute force (-want +got):\n%s", diff)
		}
		fromReply, err := fromReply(reply, CaptureOptions{})
		if err != nil {
			t.Fatalf("FromReply: %v", err)
		}
		if diff := cmp.Diff(dumpTree(tr), dumpTree(fromReply)); diff != "" {
			t.Fatalf("FromReply differs (-DecodeCapture +FromReply):\n%s", diff)
		}
	})
}

// TestPropertyCorruptedCaptures changes one integer of a valid capture:
// the decoder either builds a tree that keeps every invariant or returns
// malformed_snapshot; it never panics.
func TestPropertyCorruptedCaptures(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data, err := json.Marshal(encodeCapture(genCapture(t)))
		if err != nil {
			t.Fatal(err)
		}
		checkDecode(t, corrupt(t, data))
	})
}

// corrupt replaces one run of digits with another integer.
func corrupt(t *rapid.T, data []byte) []byte {
	var starts []int
	for i := 0; i < len(data); i++ {
		if data[i] >= '0' && data[i] <= '9' && (i == 0 || data[i-1] < '0' || data[i-1] > '9') {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return data
	}
	s := rapid.SampledFrom(starts).Draw(t, "at")
	e := s
	for e < len(data) && data[e] >= '0' && data[e] <= '9' {
		e++
	}
	v := rapid.SampledFrom([]string{"-1", "0", "1", "2", "-2", "99999", "2147483648", "1.5"}).Draw(t, "to")
	out := append([]byte{}, data[:s]...)
	out = append(out, v...)
	return append(out, data[e:]...)
}

// checkDecode is the property shared by the rapid tests and the fuzz
// target: a tree that keeps its invariants, or malformed_snapshot.
func checkDecode(t interface {
	Helper()
	Fatalf(string, ...any)
}, data []byte) {
	t.Helper()
	tr, err := DecodeCapture(data, CaptureOptions{})
	if err != nil {
		if errcode.CodeOf(err) != errcode.MalformedSnapshot {
			t.Fatalf("error without the malformed_snapshot code: %v", err)
		}
		return
	}
	checkTree(t, tr)
}

func FuzzDecodeCapture(f *testing.F) {
	f.Add([]byte(`{"documents":[],"strings":[]}`))
	for _, s := range hostileSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}
