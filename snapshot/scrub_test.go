package snapshot

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mafredri/cdp/protocol/domsnapshot"
	"pgregory.net/rapid"

	"github.com/domsnap/domsnap/errcode"
)

// rescrub rewrites the committed captures through ScrubCapture. They must
// already be scrubbed, which TestCommittedCapturesScrubbed checks.
var rescrub = flag.Bool("rescrub", false, "rewrite the committed captures through ScrubCapture")

// plantCanaries returns a copy of a capture with a canary planted in every
// place a control value can sit, in every document: an input value
// (inputValue) and a value attribute on each input that is not a button, a
// textarea value (textValue) and the text of each text node under a
// textarea, and the selected state of every option (optionSelected, which
// holds no string). Button, submit and reset inputs keep their captions.
// A value attribute it replaces leaves its old string in the table,
// referenced by nothing. It returns the canaries planted, each once.
func plantCanaries(t testing.TB, data []byte, tag string) ([]byte, []string) {
	t.Helper()
	var c map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&c); err != nil {
		t.Fatal(err)
	}
	strs, _ := c["strings"].([]any)
	str := func(i any) string {
		n, _ := strconv.Atoi(string(i.(json.Number)))
		if n < 0 || n >= len(strs) {
			return ""
		}
		return strs[n].(string)
	}
	add := func(s string) json.Number {
		strs = append(strs, s)
		return json.Number(strconv.Itoa(len(strs) - 1))
	}
	num := func(i int) json.Number { return json.Number(strconv.Itoa(i)) }
	var canaries []string
	docs, _ := c["documents"].([]any)
	for di, d := range docs {
		nodes, _ := d.(map[string]any)["nodes"].(map[string]any)
		if nodes == nil || nodes["nodeType"] == nil || nodes["nodeName"] == nil || nodes["parentIndex"] == nil {
			continue
		}
		types, names, parents := nodes["nodeType"].([]any), nodes["nodeName"].([]any), nodes["parentIndex"].([]any)
		attrs, _ := nodes["attributes"].([]any)
		values, _ := nodes["nodeValue"].([]any)
		inputValue := map[string]any{"index": []any{}, "value": []any{}}
		textValue := map[string]any{"index": []any{}, "value": []any{}}
		selected := map[string]any{"index": []any{}}
		appendRare := func(r map[string]any, i int, v any) {
			r["index"] = append(r["index"].([]any), num(i))
			if v != nil {
				r["value"] = append(r["value"].([]any), v)
			}
		}
		canary := func(kind string, i int) string {
			s := fmt.Sprintf("%s-%s-%d-%d", tag, kind, di, i)
			canaries = append(canaries, s)
			return s
		}
		for i := range types {
			typ := string(types[i].(json.Number))
			name := strings.ToUpper(str(names[i]))
			switch {
			case typ == "1" && name == "INPUT" && attrs != nil:
				a, _ := attrs[i].([]any)
				button := false
				for k := 0; k+1 < len(a); k += 2 {
					if strings.EqualFold(str(a[k]), "type") {
						v := strings.ToLower(str(a[k+1]))
						button = v == "button" || v == "submit" || v == "reset"
						break
					}
				}
				if button {
					break // its value is a caption, left as it is
				}
				var kept []any
				for k := 0; k+1 < len(a); k += 2 {
					if !strings.EqualFold(str(a[k]), "value") {
						kept = append(kept, a[k], a[k+1])
					}
				}
				kept = append(kept, add("value"), add(canary("ATTR", i)))
				appendRare(inputValue, i, add(canary("TYPED", i)))
				attrs[i] = kept
			case typ == "1" && name == "TEXTAREA":
				appendRare(textValue, i, add(canary("TAVAL", i)))
			case typ == "1" && name == "OPTION":
				appendRare(selected, i, nil)
			case (typ == "3" || typ == "4") && values != nil:
				p, _ := strconv.Atoi(string(parents[i].(json.Number)))
				if p >= 0 && string(types[p].(json.Number)) == "1" && strings.EqualFold(str(names[p]), "textarea") {
					values[i] = add(canary("TA", i))
				}
			}
		}
		nodes["inputValue"], nodes["textValue"], nodes["optionSelected"] = inputValue, textValue, selected
	}
	c["strings"] = strs
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range canaries {
		if !bytes.Contains(out, []byte(`"`+s+`"`)) {
			t.Fatalf("canary %s was not planted", s)
		}
	}
	return out, canaries
}

// fixtureCaptures lists every committed capture.
func fixtureCaptures(t *testing.T) []string {
	t.Helper()
	a, err := filepath.Glob(filepath.Join("..", "testdata", "captures", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := filepath.Glob(filepath.Join("testdata", "chromium", "*.capture.json"))
	if err != nil {
		t.Fatal(err)
	}
	all := append(a, b...)
	if len(a) == 0 || len(b) == 0 {
		t.Fatalf("captures missing: %d fixture, %d chromium", len(a), len(b))
	}
	sort.Strings(all)
	return all
}

func mustScrub(t testing.TB, data []byte) []byte {
	t.Helper()
	out, err := ScrubCapture(data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fataler is what the helpers need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// nodeCounts is the length of each document's parentIndex table.
func nodeCounts(t fataler, data []byte) []int {
	t.Helper()
	var c struct {
		Documents []struct {
			Nodes struct {
				ParentIndex []int `json:"parentIndex"`
			} `json:"nodes"`
		} `json:"documents"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, d := range c.Documents {
		out = append(out, len(d.Nodes.ParentIndex))
	}
	return out
}

// viaReply builds the tree through encoding/json and FromReply.
func viaReply(t testing.TB, data []byte) []string {
	t.Helper()
	var r domsnapshot.CaptureSnapshotReply
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	tr, err := fromReply(&r, CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dumpTree(tr)
}

// TestCommittedCapturesScrubbed: every committed capture is already
// scrubbed (scrubbing it changes nothing), so the repository holds no
// control value of any captured page. -rescrub rewrites them.
func TestCommittedCapturesScrubbed(t *testing.T) {
	for _, path := range fixtureCaptures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := mustScrub(t, data)
		if *rescrub {
			if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal(bytes.TrimSpace(data), out) {
			t.Errorf("%s is not scrubbed: run go test ./snapshot -run TestCommittedCapturesScrubbed -rescrub", path)
		}
		for _, table := range []string{`"inputValue"`, `"textValue"`, `"optionSelected"`} {
			if bytes.Contains(data, []byte(table)) {
				t.Errorf("%s holds %s", path, table)
			}
		}
	}
}

// TestScrubFixtureCanaries plants canaries in every committed capture and
// checks that they are in the planted bytes (so the test can fail), in none
// of the scrubbed bytes, and that the scrubbed capture has the same node
// counts and builds the same tree, through both decoders, as the planted one
// and as the committed one.
func TestScrubFixtureCanaries(t *testing.T) {
	planted := 0
	for _, path := range fixtureCaptures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			raw, canaries := plantCanaries(t, data, "PLANTED")
			planted += len(canaries)
			for _, c := range canaries {
				if !bytes.Contains(raw, []byte(c)) {
					t.Fatalf("canary %s not in the planted capture", c)
				}
			}
			out := mustScrub(t, raw)
			for _, c := range canaries {
				if at := bytes.Index(out, []byte(c)); at >= 0 {
					t.Errorf("canary %s survived: ...%s...", c, out[max(0, at-80):min(len(out), at+40)])
				}
			}
			for _, table := range []string{`"inputValue"`, `"textValue"`, `"optionSelected"`} {
				if !bytes.Contains(raw, []byte(table)) {
					t.Fatalf("planted capture lacks %s", table)
				}
				if bytes.Contains(out, []byte(table)) {
					t.Errorf("scrubbed capture holds %s", table)
				}
			}
			if diff := cmp.Diff(nodeCounts(t, raw), nodeCounts(t, out)); diff != "" {
				t.Errorf("node counts (-planted +scrubbed):\n%s", diff)
			}
			want := dumpTree(mustDecode(t, data))
			if diff := cmp.Diff(want, dumpTree(mustDecode(t, raw))); diff != "" {
				t.Fatalf("planting changed the tree (-committed +planted):\n%s", diff)
			}
			if diff := cmp.Diff(want, dumpTree(mustDecode(t, out))); diff != "" {
				t.Errorf("DecodeCapture (-committed +scrubbed):\n%s", diff)
			}
			if diff := cmp.Diff(want, viaReply(t, out)); diff != "" {
				t.Errorf("FromReply (-committed +scrubbed):\n%s", diff)
			}
			if again := mustScrub(t, out); !bytes.Equal(again, out) {
				t.Errorf("scrubbing twice differs from once")
			}
		})
	}
	if planted == 0 {
		t.Fatal("no canary planted in any capture")
	}
}

// scrubCase is a hand-made capture: one document (or two) with the given
// nodes, written out as wire JSON.
type scrubNode struct {
	parent int
	typ    int
	name   string
	value  string // text; "" is a -1 node value
	attrs  []string
	layout string // layout text; "" is none
}

func scrubCapture(strs []string, docs ...[]scrubNode) []byte {
	idx := map[string]int{}
	for i, s := range strs {
		if _, ok := idx[s]; !ok {
			idx[s] = i
		}
	}
	str := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		strs = append(strs, s)
		idx[s] = len(strs) - 1
		return len(strs) - 1
	}
	var out []map[string]any
	for _, nodes := range docs {
		var parent, typ, name, value []int
		var attrs [][]int
		var lnode, ltext []int
		var styles [][]int
		for i, n := range nodes {
			parent, typ, name = append(parent, n.parent), append(typ, n.typ), append(name, str(n.name))
			v := -1
			if n.value != "" {
				v = str(n.value)
			}
			value = append(value, v)
			a := []int{}
			for _, s := range n.attrs {
				a = append(a, str(s))
			}
			attrs = append(attrs, a)
			lnode = append(lnode, i)
			lt := -1
			if n.layout != "" {
				lt = str(n.layout)
			}
			ltext = append(ltext, lt)
			styles = append(styles, []int{str("inline"), str("visible")})
		}
		out = append(out, map[string]any{
			"documentURL": str("about:blank"),
			"nodes": map[string]any{
				"parentIndex": parent, "nodeType": typ, "nodeName": name, "nodeValue": value, "attributes": attrs,
			},
			"layout": map[string]any{"nodeIndex": lnode, "styles": styles, "text": ltext, "bounds": [][]int{}},
		})
	}
	b, _ := json.Marshal(map[string]any{"documents": out, "strings": strs})
	return b
}

// strsOf returns the string table of a capture.
func strsOf(t *testing.T, data []byte) []string {
	t.Helper()
	var c struct{ Strings []string }
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c.Strings
}

// attrsOf returns node i's attributes in document d, resolved.
func attrsOf(t *testing.T, data []byte, d, i int) []string {
	t.Helper()
	var c struct {
		Documents []struct {
			Nodes struct{ Attributes [][]int }
		}
		Strings []string
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range c.Documents[d].Nodes.Attributes[i] {
		out = append(out, c.Strings[s])
	}
	return out
}

func TestScrubRules(t *testing.T) {
	doc := []scrubNode{
		{-1, 9, "#document", "", nil, ""},
		{0, 1, "HTML", "", nil, ""},
		{1, 1, "INPUT", "", []string{"id", "a", "value", "S-TEXT", "type", "text"}, ""},         // 2
		{1, 1, "INPUT", "", []string{"type", "PassWord", "value", "S-PASS"}, ""},                // 3
		{1, 1, "INPUT", "", []string{"type", "email", "Value", "S-EMAIL"}, ""},                  // 4
		{1, 1, "INPUT", "", []string{"type", "hidden", "value", "S-HIDDEN"}, ""},                // 5
		{1, 1, "INPUT", "", []string{"type", "checkbox", "value", "S-CHECK"}, ""},               // 6
		{1, 1, "INPUT", "", []string{"value", "S-NOTYPE"}, ""},                                  // 7
		{1, 1, "INPUT", "", []string{"type", "SUBMIT", "value", "Send"}, ""},                    // 8
		{1, 1, "INPUT", "", []string{"type", "button", "value", "Push"}, ""},                    // 9
		{1, 1, "INPUT", "", []string{"type", "reset", "value", "Clear"}, ""},                    // 10
		{1, 1, "INPUT", "", []string{"type", "text", "type", "submit", "value", "S-FIRST"}, ""}, // 11
		{1, 1, "INPUT", "", []string{"type", "submit", "type", "text", "value", "Kept"}, ""},    // 12
		{1, 1, "INPUT", "", []string{"value", "Shared"}, "S-LAYOUT"},                            // 13
		{1, 1, "LI", "", []string{"value", "3"}, ""},                                            // 14
		{1, 1, "OPTION", "", []string{"value", "opt"}, ""},                                      // 15
		{1, 1, "TEXTAREA", "", nil, ""},                                                         // 16
		{16, 3, "#text", "S-AREA", nil, ""},                                                     // 17
		{16, 8, "#comment", "a comment", nil, ""},                                               // 18
		{1, 3, "#text", "Shared", nil, "Shared"},                                                // 19
		{1, 1, "INPUT", "", []string{"type", "image", "value", "S-IMAGE", "alt", "Go"}, ""},     // 20
		{1, 1, "SPAN", "", []string{"type", "text", "value", "span value"}, ""},                 // 21
		{1, 1, "INPUT", "", []string{"type", "Button ", "value", "S-SPACE"}, ""},                // 22
	}
	frame := []scrubNode{
		{-1, 9, "#document", "", nil, ""},
		{0, 1, "INPUT", "", []string{"value", "S-FRAME"}, ""},
		{0, 1, "TEXTAREA", "", nil, ""},
		{2, 3, "#text", "S-FRAMEAREA", nil, ""},
	}
	raw := scrubCapture(nil, doc, frame)
	out := mustScrub(t, raw)
	for _, s := range []string{"S-TEXT", "S-PASS", "S-EMAIL", "S-HIDDEN", "S-CHECK", "S-NOTYPE", "S-FIRST", "S-LAYOUT", "S-AREA", "S-IMAGE", "S-SPACE", "S-FRAME", "S-FRAMEAREA"} {
		if !bytes.Contains(raw, []byte(s)) {
			t.Fatalf("%s not in the input", s)
		}
		if bytes.Contains(out, []byte(s)) {
			t.Errorf("%s survived", s)
		}
	}
	for _, c := range []struct {
		doc, node int
		want      []string
	}{
		{0, 2, []string{"id", "a", "type", "text"}},
		{0, 3, []string{"type", "PassWord"}},
		{0, 4, []string{"type", "email"}},
		{0, 7, nil},
		{0, 8, []string{"type", "SUBMIT", "value", "Send"}},
		{0, 9, []string{"type", "button", "value", "Push"}},
		{0, 10, []string{"type", "reset", "value", "Clear"}},
		{0, 11, []string{"type", "text", "type", "submit"}},
		{0, 12, []string{"type", "submit", "type", "text", "value", "Kept"}},
		{0, 14, []string{"value", "3"}},
		{0, 15, []string{"value", "opt"}},
		{0, 20, []string{"type", "image", "alt", "Go"}},
		{0, 21, []string{"type", "text", "value", "span value"}},
		{1, 1, nil},
	} {
		if diff := cmp.Diff(c.want, attrsOf(t, out, c.doc, c.node)); diff != "" {
			t.Errorf("document %d node %d attributes (-want +got):\n%s", c.doc, c.node, diff)
		}
	}
	// "Shared" is a value and also page text: the string stays for the text.
	if !bytes.Contains(out, []byte(`"Shared"`)) {
		t.Error("a string page text uses was blanked")
	}
	if diff := cmp.Diff(nodeCounts(t, raw), nodeCounts(t, out)); diff != "" {
		t.Errorf("node counts (-raw +scrubbed):\n%s", diff)
	}
	// Textarea text points at an empty string; the comment stays.
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
	for _, x := range []struct{ doc, node int }{{0, 17}, {1, 3}} {
		if v := c.Documents[x.doc].Nodes.NodeValue[x.node]; v < 0 || c.Strings[v] != "" {
			t.Errorf("textarea text of document %d node %d is string %d", x.doc, x.node, v)
		}
	}
	if v := c.Documents[0].Nodes.NodeValue[18]; c.Strings[v] != "a comment" {
		t.Errorf("comment under a textarea changed to %q", c.Strings[v])
	}
	if v := c.Documents[0].Layout.Text[13]; v != -1 {
		t.Errorf("layout text of a secret input kept: %d", v)
	}
	if v := c.Documents[0].Layout.Text[19]; v < 0 || c.Strings[v] != "Shared" {
		t.Errorf("layout text of page text lost: %d", v)
	}
	if diff := cmp.Diff(dumpTree(mustDecode(t, raw)), dumpTree(mustDecode(t, out))); diff != "" {
		t.Errorf("tree (-raw +scrubbed):\n%s", diff)
	}
	if len(strsOf(t, out)) != len(strsOf(t, raw)) {
		t.Errorf("string table grew from %d to %d with blanked entries to point at", len(strsOf(t, raw)), len(strsOf(t, out)))
	}
}

// TestScrubEmptyStringAppended: when no empty string is left in the table
// (the textarea's text is also page text elsewhere), one is appended for
// the textarea's text node; every other index stays.
func TestScrubEmptyStringAppended(t *testing.T) {
	doc := []scrubNode{
		{-1, 9, "#document", "", nil, ""},
		{0, 1, "TEXTAREA", "", nil, ""},
		{1, 3, "#text", "same", nil, ""},
		{0, 3, "#text", "same", nil, ""},
	}
	raw := scrubCapture(nil, doc)
	out := mustScrub(t, raw)
	before, after := strsOf(t, raw), strsOf(t, out)
	if diff := cmp.Diff(append(before, ""), after); diff != "" {
		t.Errorf("strings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(dumpTree(mustDecode(t, raw)), dumpTree(mustDecode(t, out))); diff != "" {
		t.Errorf("tree (-raw +scrubbed):\n%s", diff)
	}
	if again := mustScrub(t, out); !bytes.Equal(again, out) {
		t.Errorf("not idempotent:\n%s\n%s", out, again)
	}
}

// TestScrubKeepsOtherBytes: members the scrub does not read are copied byte
// for byte, spaces inside them included, in their order.
func TestScrubKeepsOtherBytes(t *testing.T) {
	in := `{ "future" : {"a": [1, 2.5e3, "x"]},"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[9],"nodeName":[0],` +
		`"isClickable":{"index": [0]},"inputValue":{"index":[],"value":[]}},"layout":{"nodeIndex":[0],"bounds":[[0, 0.5,1,1]]},"scrollOffsetX": 1.25}],` +
		`"strings":["#document","caf\u00e9"] }`
	want := `{"future":{"a": [1, 2.5e3, "x"]},"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[9],"nodeName":[0],` +
		`"isClickable":{"index": [0]}},"layout":{"nodeIndex":[0],"bounds":[[0, 0.5,1,1]]},"scrollOffsetX":1.25}],` +
		`"strings":["#document","caf\u00e9"]}`
	got := mustScrub(t, []byte(in))
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	empty := mustScrub(t, []byte(` {"documents":[],"strings":[]} `))
	if string(empty) != `{"documents":[],"strings":[]}` {
		t.Errorf("empty capture: %s", empty)
	}
}

func TestScrubMalformed(t *testing.T) {
	good := scrubCapture(nil, []scrubNode{
		{-1, 9, "#document", "", nil, ""},
		{0, 1, "INPUT", "", []string{"value", "S"}, ""},
		{0, 1, "TEXTAREA", "", nil, ""},
		{2, 3, "#text", "T", nil, ""},
	})
	for _, c := range []struct{ name, in, path string }{
		{"not an object", `[]`, ""},
		{"two values", `{} {}`, ""},
		{"documents not an array", `{"documents":{},"strings":[]}`, "/documents"},
		{"document not an object", `{"documents":[1],"strings":[]}`, "/documents/0"},
		{"duplicate documents", `{"documents":[],"documents":[],"strings":[]}`, "/documents"},
		{"duplicate nodes", `{"documents":[{"nodes":{},"nodes":{}}],"strings":[]}`, "/documents/0/nodes"},
		{"duplicate inputValue", `{"documents":[{"nodes":{"inputValue":{"index":[],"value":[]},"inputValue":{"index":[],"value":[]}}}],"strings":[]}`, "/documents/0/nodes/inputValue"},
		{"inputValue not rare data", `{"documents":[{"nodes":{"inputValue":[1]}}],"strings":["x"]}`, "/documents/0/nodes/inputValue"},
		{"string not a string", `{"documents":[],"strings":[1]}`, "/strings/0"},
		{"unequal lengths", `{"documents":[{"nodes":{"parentIndex":[-1,0],"nodeType":[9],"nodeName":[0]}}],"strings":["#document"]}`, "/documents/0/nodes/nodeType"},
		{"name out of range", `{"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[1],"nodeName":[5],"attributes":[[]]}}],"strings":["x"]}`, "/documents/0/nodes/nodeName/0"},
		{"attribute name out of range", `{"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[1],"nodeName":[0],"attributes":[[7,0]]}}],"strings":["INPUT"]}`, "/documents/0/nodes/attributes/0/0"},
		{"attributes without names", `{"documents":[{"nodes":{"attributes":[[0,0]]}}],"strings":["INPUT"]}`, "/documents/0/nodes/nodeName"},
		{"values without parents", `{"documents":[{"nodes":{"nodeType":[3],"nodeName":[0],"nodeValue":[0]}}],"strings":["x"]}`, "/documents/0/nodes/parentIndex"},
		{"nodes an array", `{"documents":[{"nodes":[]}],"strings":[]}`, "/documents/0/nodes"},
		{"layout a string", `{"documents":[{"layout":"x"}],"strings":[]}`, "/documents/0/layout"},
		{"fraction in a table", `{"documents":[{"nodes":{"nodeType":[1.5]}}],"strings":[]}`, "/documents/0/nodes/nodeType/0"},
	} {
		_, err := ScrubCapture([]byte(c.in))
		var e *errcode.Error
		if !errorsAs(err, &e) || e.Code != errcode.MalformedSnapshot || e.Path != c.path {
			t.Errorf("%s: got %v, want malformed_snapshot at %q", c.name, err, c.path)
		}
	}
	// Every truncation of a good capture is malformed, never a panic.
	for n := 0; n < len(good); n++ {
		if _, err := ScrubCapture(good[:n]); errcode.CodeOf(err) != errcode.MalformedSnapshot {
			t.Fatalf("truncated at %d: %v", n, err)
		}
	}
	if _, err := ScrubCapture(good); err != nil {
		t.Fatal(err)
	}
}

// TestScrubErrorsQuoteNoValue: an error never carries a value's bytes.
func TestScrubErrorsQuoteNoValue(t *testing.T) {
	in := `{"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[1],"nodeName":[0],"attributes":[[1,2,9,2]]}}],"strings":["INPUT","value","SECRET-Q"]}`
	_, err := ScrubCapture([]byte(in))
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("error %v", err)
	}
}

// TestWriteSnapshotScrubs: the file WriteSnapshot writes holds none of the
// canaries the envelope's capture holds, and loads to the capture's tree.
func TestWriteSnapshotScrubs(t *testing.T) {
	raw, canaries := plantCanaries(t, readChromium(t, "features"), "CANARY")
	for _, gz := range []bool{false, true} {
		var b bytes.Buffer
		e := Envelope{Revision: "r1.abc.n1.o1", Capture: raw}
		if err := WriteSnapshot(&b, e, gz); err != nil {
			t.Fatal(err)
		}
		file := b.Bytes()
		if gz {
			var err error
			if file, err = gunzip(file, MaxDecompressedBytes); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range canaries {
			if bytes.Contains(file, []byte(c)) {
				t.Errorf("gzip=%t: canary %s in the file", gz, c)
			}
		}
		in, err := Load(b.Bytes(), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(dumpTree(mustDecode(t, raw)), dumpTree(in.Tree)); diff != "" {
			t.Errorf("gzip=%t: tree (-capture +file):\n%s", gz, diff)
		}
	}
}

// TestPropertyScrub: for generated captures (inputs with typed values and
// value attributes, textareas, contenteditable regions, shadow and pseudo
// nodes, a frame document), the scrubbed capture builds the same tree but
// for the text inside editing hosts, which is empty, holds no secret and no
// typed text, keeps its node count, and scrubs to itself.
func TestPropertyScrub(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw, err := json.Marshal(encodeCapture(genCapture(t)))
		if err != nil {
			t.Fatal(err)
		}
		out, err := ScrubCapture(raw)
		if err != nil {
			t.Fatalf("scrub: %v", err)
		}
		if bytes.Contains(out, []byte("SECRET")) || bytes.Contains(out, []byte("TYPED")) {
			t.Fatalf("a secret survived: %s", out)
		}
		a, errA := DecodeCapture(raw, CaptureOptions{})
		b, errB := DecodeCapture(out, CaptureOptions{})
		if errcode.CodeOf(errA) != errcode.CodeOf(errB) {
			t.Fatalf("decode raw %v, scrubbed %v", errA, errB)
		}
		if errA == nil {
			if diff := cmp.Diff(dumpTreeScrubbed(a), dumpTree(b)); diff != "" {
				t.Fatalf("tree (-raw, editable text emptied +scrubbed):\n%s", diff)
			}
		}
		if !cmp.Equal(nodeCounts(t, raw), nodeCounts(t, out)) {
			t.Fatalf("node counts %v, %v", nodeCounts(t, raw), nodeCounts(t, out))
		}
		if again, err := ScrubCapture(out); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second scrub: %v", err)
		}
	})
}

// FuzzScrubCapture: any input either fails with malformed_snapshot or
// scrubs to a capture that scrubs to itself and decodes as the input does,
// but for the text inside editing hosts, which is empty.
func FuzzScrubCapture(f *testing.F) {
	f.Add([]byte(`{"documents":[],"strings":[]}`))
	f.Add(scrubCapture(nil, []scrubNode{{-1, 9, "#document", "", nil, ""}, {0, 1, "INPUT", "", []string{"value", "S"}, ""}}))
	f.Add(scrubCapture(nil, []scrubNode{{-1, 9, "#document", "", nil, ""}, {0, 1, "DIV", "", []string{"contenteditable", "TRUE"}, ""},
		{1, 1, "SPAN", "", []string{"contenteditable", "false"}, ""}, {2, 3, "#text", "typed", nil, "typed"}, {0, 3, "#text", "typed", nil, ""}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ScrubCapture(data)
		if err != nil {
			if errcode.CodeOf(err) != errcode.MalformedSnapshot {
				t.Fatalf("code %s", errcode.CodeOf(err))
			}
			return
		}
		again, err := ScrubCapture(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second scrub: %v", err)
		}
		a, errA := DecodeCapture(data, CaptureOptions{})
		b, errB := DecodeCapture(out, CaptureOptions{})
		if errA == nil && errB == nil && !cmp.Equal(dumpTreeScrubbed(a), dumpTree(b)) {
			t.Fatal("the scrub changed the tree")
		}
		if errA == nil && errB != nil {
			t.Fatalf("a decodable capture scrubbed to one that is not: %v", errB)
		}
	})
}

// BenchmarkScrubCapture measures the scrub at the decode benchmark's sizes;
// ns/byte staying flat across sizes shows the work is linear in the input.
func BenchmarkScrubCapture(b *testing.B) {
	for _, n := range benchSizes {
		data := flatCapture(n)
		b.Run(fmt.Sprintf("nodes=%d", 3+2*n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := ScrubCapture(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
