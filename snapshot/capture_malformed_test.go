package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/mafredri/cdp/protocol/domsnapshot"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
)

// baseCapture is a small consistent capture:
//
//	0 #document
//	1   html
//	2     head
//	3     body
//	4       div id=d
//	5         #text "hello"
//	6       input type=text value=SECRET
//	7     (layout only for html, body, div, text, input)
//
// with a frame document as documents[1].
func baseCapture() map[string]any {
	strs := []string{"#document", "HTML", "HEAD", "BODY", "DIV", "#text", "hello", "INPUT", "id", "d", "type", "text", "value", "SECRETVALUE", "block", "visible", "inline-block", "IFRAME"}
	doc := map[string]any{
		"documentURL": 0, "title": -1,
		"nodes": map[string]any{
			"parentIndex":   []any{-1, 0, 1, 1, 3, 4, 3},
			"nodeType":      []any{9, 1, 1, 1, 1, 3, 1},
			"nodeName":      []any{0, 1, 2, 3, 4, 5, 7},
			"nodeValue":     []any{-1, -1, -1, -1, -1, 6, -1},
			"backendNodeId": []any{1, 2, 3, 4, 5, 6, 7},
			"attributes":    []any{[]any{}, []any{}, []any{}, []any{}, []any{8, 9}, []any{}, []any{10, 11, 12, 13}},
			"inputValue":    map[string]any{"index": []any{6}, "value": []any{13}},
			"inputChecked":  map[string]any{"index": []any{}},
			"shadowRootType": map[string]any{
				"index": []any{}, "value": []any{},
			},
			"pseudoType":           map[string]any{"index": []any{}, "value": []any{}},
			"contentDocumentIndex": map[string]any{"index": []any{}, "value": []any{}},
		},
		"layout": map[string]any{
			"nodeIndex": []any{0, 1, 3, 4, 5, 6},
			"styles":    []any{[]any{}, []any{14, 15}, []any{14, 15}, []any{14, 15}, []any{14, 15}, []any{16, 15}},
			"bounds":    []any{[]any{0, 0, 1, 1}},
			"text":      []any{-1, -1, -1, -1, 6, -1},
		},
		"textBoxes": map[string]any{},
	}
	frame := map[string]any{"nodes": map[string]any{"parentIndex": []any{-1}}, "layout": map[string]any{}}
	return map[string]any{"documents": []any{doc, frame}, "strings": toAny(strs)}
}

func toAny[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// at follows a JSON pointer into generic test data.
func at(v any, ptr string) any {
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			v = c[i]
		}
	}
	return v
}

// set replaces the value at a JSON pointer in generic test data.
func set(v any, ptr, key string, val any) {
	switch c := at(v, ptr).(type) {
	case map[string]any:
		c[key] = val
	case []any:
		i, _ := strconv.Atoi(key)
		c[i] = val
	}
}

const nd = "/documents/0/nodes"

func TestMalformedCatalogue(t *testing.T) {
	type tc struct {
		name string
		edit func(m map[string]any)
		raw  string // used instead of edit when set
		path string
		code errcode.Code
	}
	del := func(ptr, key string) func(map[string]any) {
		return func(m map[string]any) { delete(at(m, ptr).(map[string]any), key) }
	}
	put := func(ptr, key string, val any) func(map[string]any) {
		return func(m map[string]any) { set(m, ptr, key, val) }
	}
	appendTo := func(ptr, key string, val any) func(map[string]any) {
		return func(m map[string]any) {
			c := at(m, ptr).(map[string]any)
			c[key] = append(c[key].([]any), val)
		}
	}
	cases := []tc{
		{name: "parent out of range", edit: put(nd+"/parentIndex", "3", 99), path: nd + "/parentIndex/3"},
		{name: "parent negative", edit: put(nd+"/parentIndex", "3", -2), path: nd + "/parentIndex/3"},
		{name: "parent after child", edit: put(nd+"/parentIndex", "3", 5), path: nd + "/parentIndex/3"},
		{name: "parent is itself", edit: put(nd+"/parentIndex", "3", 3), path: nd + "/parentIndex/3"},
		{name: "second root", edit: put(nd+"/parentIndex", "3", -1), path: nd + "/parentIndex/3"},
		{name: "first node has a parent", edit: put(nd+"/parentIndex", "0", 0), path: nd + "/parentIndex/0"},
		{name: "root not a document", edit: put(nd+"/nodeType", "0", 1), path: nd + "/nodeType/0"},
		{name: "document below root", edit: put(nd+"/nodeType", "3", 9), path: nd + "/nodeType/3"},
		{name: "attribute node type", edit: put(nd+"/nodeType", "3", 2), path: nd + "/nodeType/3"},
		{name: "not pre-order", edit: func(m map[string]any) {
			// 5's parent 2 (head) closed when 3 (body) opened.
			set(m, nd+"/parentIndex", "5", 2)
		}, path: nd + "/parentIndex/5"},
		{name: "child of a text node", edit: func(m map[string]any) {
			appendTo(nd, "parentIndex", 5)(m)
			appendTo(nd, "nodeType", 3)(m)
			appendTo(nd, "nodeName", 5)(m)
			appendTo(nd, "nodeValue", 6)(m)
			appendTo(nd, "backendNodeId", 8)(m)
			appendTo(nd, "attributes", []any{})(m)
		}, path: nd + "/parentIndex/7"},
		{name: "doctype under an element", edit: put(nd+"/nodeType", "5", 10), path: nd + "/parentIndex/5"},
		{name: "nodeType short", edit: put(nd, "nodeType", []any{9, 1, 1}), path: nd + "/nodeType"},
		{name: "nodeName long", edit: appendTo(nd, "nodeName", 1), path: nd + "/nodeName"},
		{name: "nodeValue short", edit: put(nd, "nodeValue", []any{}), path: nd + "/nodeValue"},
		{name: "backendNodeId long", edit: appendTo(nd, "backendNodeId", 9), path: nd + "/backendNodeId"},
		{name: "attributes short", edit: put(nd, "attributes", []any{[]any{}}), path: nd + "/attributes"},
		{name: "parentIndex missing", edit: del(nd, "parentIndex"), path: nd + "/parentIndex"},
		{name: "nodeType missing", edit: del(nd, "nodeType"), path: nd + "/nodeType"},
		{name: "nodeName missing", edit: del(nd, "nodeName"), path: nd + "/nodeName"},
		{name: "no nodes at all", edit: func(m map[string]any) {
			n := at(m, nd).(map[string]any)
			for _, k := range []string{"parentIndex", "nodeType", "nodeName", "nodeValue", "backendNodeId", "attributes"} {
				n[k] = []any{}
			}
			set(m, "/documents/0/layout", "nodeIndex", []any{})
			set(m, "/documents/0/layout", "styles", []any{})
		}, path: nd + "/parentIndex"},
		{name: "nodeName index out of range", edit: put(nd+"/nodeName", "3", 18), path: nd + "/nodeName/3"},
		{name: "nodeName index none", edit: put(nd+"/nodeName", "3", -1), path: nd + "/nodeName/3"},
		{name: "nodeValue index below none", edit: put(nd+"/nodeValue", "5", -2), path: nd + "/nodeValue/5"},
		{name: "attributes odd", edit: put(nd+"/attributes", "4", []any{8}), path: nd + "/attributes/4"},
		{name: "attribute name none", edit: put(nd+"/attributes", "4", []any{-1, 9}), path: nd + "/attributes/4/0"},
		{name: "attribute value out of range", edit: put(nd+"/attributes", "6", []any{10, 11, 12, 100}), path: nd + "/attributes/6/3"},
		{name: "shadowRootType unequal", edit: put(nd, "shadowRootType", map[string]any{"index": []any{4}, "value": []any{}}), path: nd + "/shadowRootType/value"},
		{name: "shadowRootType node out of range", edit: put(nd, "shadowRootType", map[string]any{"index": []any{7}, "value": []any{0}}), path: nd + "/shadowRootType/index/0"},
		{name: "shadowRootType string out of range", edit: put(nd, "shadowRootType", map[string]any{"index": []any{4}, "value": []any{18}}), path: nd + "/shadowRootType/value/0"},
		{name: "shadowRootType no value", edit: put(nd, "shadowRootType", map[string]any{"index": []any{4}}), path: nd + "/shadowRootType/value"},
		// The form control tables are never read for their values, but a
		// capture is checked whole before it is trusted.
		{name: "inputValue unequal", edit: put(nd, "inputValue", map[string]any{"index": []any{6}, "value": []any{}}), path: nd + "/inputValue/value"},
		{name: "inputValue longer value", edit: put(nd, "inputValue", map[string]any{"index": []any{6}, "value": []any{13, 13}}), path: nd + "/inputValue/value"},
		{name: "inputValue node out of range", edit: put(nd, "inputValue", map[string]any{"index": []any{7}, "value": []any{13}}), path: nd + "/inputValue/index/0"},
		{name: "inputValue node negative", edit: put(nd, "inputValue", map[string]any{"index": []any{-1}, "value": []any{13}}), path: nd + "/inputValue/index/0"},
		{name: "inputValue string out of range", edit: put(nd, "inputValue", map[string]any{"index": []any{6}, "value": []any{18}}), path: nd + "/inputValue/value/0"},
		{name: "inputValue no index", edit: put(nd, "inputValue", map[string]any{"value": []any{13}}), path: nd + "/inputValue/index"},
		{name: "inputValue no value", edit: put(nd, "inputValue", map[string]any{"index": []any{6}}), path: nd + "/inputValue/value"},
		{name: "inputValue index not integers", edit: put(nd, "inputValue", map[string]any{"index": []any{"6"}, "value": []any{13}}), path: nd + "/inputValue/index/0"},
		{name: "inputValue an array", edit: put(nd, "inputValue", []any{}), path: nd + "/inputValue"},
		{name: "inputValue twice", raw: `{"documents":[{"nodes":{"inputValue":{"index":[],"value":[]},"inputValue":{"index":[],"value":[]}}}],"strings":[]}`, path: nd + "/inputValue"},
		{name: "textValue unequal", edit: put(nd, "textValue", map[string]any{"index": []any{}, "value": []any{13}}), path: nd + "/textValue/value"},
		{name: "textValue node out of range", edit: put(nd, "textValue", map[string]any{"index": []any{99}, "value": []any{13}}), path: nd + "/textValue/index/0"},
		{name: "textValue string out of range", edit: put(nd, "textValue", map[string]any{"index": []any{6}, "value": []any{-2}}), path: nd + "/textValue/value/0"},
		{name: "optionSelected node out of range", edit: put(nd, "optionSelected", map[string]any{"index": []any{7}}), path: nd + "/optionSelected/index/0"},
		{name: "optionSelected no index", edit: put(nd, "optionSelected", map[string]any{}), path: nd + "/optionSelected/index"},
		{name: "optionSelected index a string", edit: put(nd, "optionSelected", map[string]any{"index": "0"}), path: nd + "/optionSelected/index"},
		{name: "pseudoType node out of range", edit: put(nd, "pseudoType", map[string]any{"index": []any{-1}, "value": []any{0}}), path: nd + "/pseudoType/index/0"},
		{name: "inputChecked node out of range", edit: put(nd, "inputChecked", map[string]any{"index": []any{6, 70}}), path: nd + "/inputChecked/index/1"},
		{name: "inputChecked no index", edit: put(nd, "inputChecked", map[string]any{}), path: nd + "/inputChecked/index"},
		{name: "contentDocumentIndex main document", edit: put(nd, "contentDocumentIndex", map[string]any{"index": []any{4}, "value": []any{0}}), path: nd + "/contentDocumentIndex/value/0"},
		{name: "contentDocumentIndex beyond documents", edit: put(nd, "contentDocumentIndex", map[string]any{"index": []any{4}, "value": []any{2}}), path: nd + "/contentDocumentIndex/value/0"},
		{name: "contentDocumentIndex unequal", edit: put(nd, "contentDocumentIndex", map[string]any{"index": []any{4}, "value": []any{}}), path: nd + "/contentDocumentIndex/value"},
		{name: "layout node out of range", edit: put("/documents/0/layout/nodeIndex", "2", 7), path: "/documents/0/layout/nodeIndex/2"},
		{name: "layout styles short", edit: put("/documents/0/layout", "styles", []any{[]any{}}), path: "/documents/0/layout/styles"},
		{name: "layout style string out of range", edit: put("/documents/0/layout/styles", "3", []any{14, 99}), path: "/documents/0/layout/styles/3/1"},
		{name: "layout nodeIndex missing", edit: del("/documents/0/layout", "nodeIndex"), path: "/documents/0/layout/nodeIndex"},
		{name: "layout styles missing", edit: del("/documents/0/layout", "styles"), path: "/documents/0/layout/styles"},
		{name: "layout missing", edit: del("/documents/0", "layout"), path: "/documents/0/layout"},
		{name: "nodes missing", edit: del("/documents/0", "nodes"), path: "/documents/0/nodes"},
		{name: "documents missing", edit: func(m map[string]any) { delete(m, "documents") }, path: "/documents"},
		{name: "strings missing", edit: func(m map[string]any) { delete(m, "strings") }, path: "/strings"},
		{name: "documents empty", edit: func(m map[string]any) { m["documents"] = []any{} }, path: "/documents"},
		{name: "documents an object", edit: func(m map[string]any) { m["documents"] = map[string]any{} }, path: "/documents"},
		{name: "frame document not an object", edit: func(m map[string]any) { m["documents"].([]any)[1] = 7 }, path: "/documents/1"},
		{name: "string not a string", edit: put("/strings", "2", 5), path: "/strings/2"},
		{name: "parent a string", edit: put(nd+"/parentIndex", "2", "1"), path: nd + "/parentIndex/2"},
		{name: "parent a fraction", edit: put(nd+"/parentIndex", "2", 1.5), path: nd + "/parentIndex/2"},
		{name: "parent null", edit: put(nd+"/parentIndex", "2", nil), path: nd + "/parentIndex/2"},
		{name: "parent too large", edit: put(nd+"/parentIndex", "2", 1<<40), path: nd + "/parentIndex/2"},
		{name: "nodeType null", edit: put(nd, "nodeType", nil), path: nd + "/nodeType"},
		{name: "nodes an array", edit: put("/documents/0", "nodes", []any{}), path: "/documents/0/nodes"},
		{name: "attributes entry a number", edit: put(nd+"/attributes", "1", 0), path: nd + "/attributes/1"},
		{name: "attribute index a string", edit: put(nd+"/attributes", "4", []any{8, "d"}), path: nd + "/attributes/4/1"},
		{name: "styles entry an object", edit: put("/documents/0/layout/styles", "1", map[string]any{}), path: "/documents/0/layout/styles/1"},
		{name: "rare data an array", edit: put(nd, "pseudoType", []any{}), path: nd + "/pseudoType"},
		{name: "backend id a float", edit: put(nd+"/backendNodeId", "1", 2.5), path: nd + "/backendNodeId/1"},
		{name: "top level an array", raw: `[]`, path: ""},
		{name: "top level a string", raw: `"x"`, path: ""},
		{name: "empty input", raw: ``, path: ""},
		{name: "space only", raw: " \n", path: ""},
		{name: "duplicate documents", raw: `{"documents":[],"documents":[],"strings":[]}`, path: "/documents"},
		{name: "duplicate strings", raw: `{"strings":[],"strings":[],"documents":[]}`, path: "/strings"},
		{name: "duplicate parentIndex", raw: `{"documents":[{"nodes":{"parentIndex":[-1],"parentIndex":[-1]}}],"strings":[]}`, path: nd + "/parentIndex"},
		{name: "duplicate nodes", raw: `{"documents":[{"nodes":{},"nodes":{}}],"strings":[]}`, path: "/documents/0/nodes"},
		{name: "trailing data", raw: `{"documents":[],"strings":[]} {}`, path: ""},
		{name: "leading zero", raw: `{"documents":[{"nodes":{"parentIndex":[01]}}],"strings":[]}`, path: nd + "/parentIndex/0"},
		{name: "bad escape in string", raw: `{"strings":["\x"],"documents":[]}`, path: "/strings/0"},
		{name: "control character in string", raw: "{\"strings\":[\"a\x01\"],\"documents\":[]}", path: "/strings/0"},
		{name: "bad literal in skipped value", raw: `{"x":[tru],"documents":[],"strings":[]}`, path: "/x"},
		{name: "missing colon", raw: `{"documents" []}`, path: ""},
		{name: "unclosed skipped object", raw: `{"x":{"a":1,}`, path: "/x"},
		{name: "computed styles lack display", raw: "", path: "", code: errcode.UnsupportedInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.raw)
			opts := CaptureOptions{}
			if c.edit != nil {
				m := baseCapture()
				c.edit(m)
				data = marshal(t, m)
			}
			want := c.code
			if want == "" {
				want = errcode.MalformedSnapshot
			} else {
				opts.ComputedStyles = []string{"visibility"}
				data = marshal(t, baseCapture())
			}
			tr, err := DecodeCapture(data, opts)
			var e *errcode.Error
			if !errors.As(err, &e) {
				t.Fatalf("got tree %v, err %v; want %s at %q", tr != nil, err, want, c.path)
			}
			if e.Code != want || e.Path != c.path || e.Pkg != "snapshot" {
				t.Errorf("got %s %q (%v), want %s at %q", e.Code, e.Path, err, want, c.path)
			}
			if !errors.Is(err, errcode.Sentinel(want)) {
				t.Errorf("errors.Is(%v, %s) is false", err, want)
			}
			if strings.Contains(err.Error(), "SECRETVALUE") {
				t.Errorf("error quotes the input value: %v", err)
			}
		})
	}
}

// TestBaseCapture pins the tree of the catalogue's valid capture, so every
// malformed case above differs from a capture known to build.
func TestBaseCapture(t *testing.T) {
	tr, err := DecodeCapture(marshal(t, baseCapture()), CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`0<-1 document "" excluded=false backend=1`,
		`1<0 element html display=block visibility=visible flags=0 checked=false excluded=false backend=2`,
		`2<1 element head display=none visibility=visible flags=0 checked=false excluded=true backend=3`,
		`3<1 element body display=block visibility=visible flags=0 checked=false excluded=false backend=4`,
		`4<3 element div id="d" display=block visibility=visible flags=0 checked=false excluded=false backend=5`,
		`5<4 text "hello" excluded=false backend=6`,
		`6<3 element input type="text" display=inline visibility=visible flags=0 checked=false excluded=false backend=7`,
	}
	assertLines(t, want, dumpTree(tr))
}

func assertLines(t *testing.T, want, got []string) {
	t.Helper()
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("tree differs\nwant:\n%s\ngot:\n%s", strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
}

// TestValidVariants are inputs that look unusual but are consistent: each
// must build the same tree as the base capture.
func TestValidVariants(t *testing.T) {
	base := dumpTree(mustDecode(t, marshal(t, baseCapture())))
	b := string(marshal(t, baseCapture()))
	for _, c := range []struct{ name, data string }{
		{"unknown keys everywhere", strings.NewReplacer(
			`"documents":`, `"zz":{"a":[1,{"b":null}],"c":"\u00e9"},"documents":`,
			`"nodes":{`, `"nodes":{"unknownTable":[[1,2],[true,false,null]],`,
			`"layout":{"bounds"`, `"layout":{"paintOrders":[1,2,3e5,-0.5],"bounds"`,
		).Replace(b)},
		{"escaped member names", strings.NewReplacer(`"documents":`, `"\u0064ocuments":`, `"parentIndex":`, `"parent\u0049ndex":`).Replace(b)},
		{"space around everything", strings.NewReplacer(`,`, " ,\n\t", `:`, "\r: ", `[`, "[ ", `{`, "{ ").Replace(b)},
		{"frame document arbitrary", strings.Replace(b, `{"layout":{},"nodes":{"parentIndex":[-1]}}`, `{"nodes":"not read","x":[[[[]]]]}`, 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.data == b {
				t.Fatal("the variant did not change the input")
			}
			assertLines(t, base, dumpTree(mustDecode(t, []byte(c.data))))
		})
	}
}

func mustDecode(t testing.TB, data []byte) *domtree.Tree {
	t.Helper()
	tr, err := DecodeCapture(data, CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestTruncatedEverywhere cuts a real capture at every byte: each prefix is
// malformed_snapshot, never a tree and never a panic.
func TestTruncatedEverywhere(t *testing.T) {
	for _, name := range []string{"features", "shadow"} {
		data := readChromium(t, name)
		data = bytes.TrimSpace(data)
		for cut := 0; cut < len(data); cut++ {
			_, err := DecodeCapture(data[:cut], CaptureOptions{})
			if errcode.CodeOf(err) != errcode.MalformedSnapshot {
				t.Fatalf("%s cut at %d: got %v", name, cut, err)
			}
		}
	}
}

// TestStringsDecoded checks escapes, surrogates and invalid UTF-8 against
// encoding/json, which FromReply callers use.
func TestStringsDecoded(t *testing.T) {
	for _, raw := range []string{
		`plain`, `tab\there`, `\u00e9\u4e2d`, `\ud83d\ude00`, `lone \ud800 high`, `lone \udc00 low`,
		`\ud800\u0041`, `\"\\\/\b\f\n\r\t`, "bad \xff utf8", "cut \xe2\x82 seq", `\u0000`,
	} {
		m := baseCapture()
		m["strings"].([]any)[6] = "PLACEHOLDER"
		data := bytes.Replace(marshal(t, m), []byte(`"PLACEHOLDER"`), []byte(`"`+raw+`"`), 1)
		var r domsnapshot.CaptureSnapshotReply
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		tr := mustDecode(t, data)
		if got, want := tr.At(5).Data(), r.Strings[6]; got != want {
			t.Errorf("%q decoded to %q, encoding/json gives %q", raw, got, want)
		}
	}
}

// TestHugeValues: a 16 MiB attribute value and text survive whole, and a
// nesting of a million brackets in a skipped value costs no call stack.
func TestHugeValues(t *testing.T) {
	big := strings.Repeat("x", 16<<20)
	m := baseCapture()
	m["strings"].([]any)[6] = big
	tr := mustDecode(t, marshal(t, m))
	if tr.At(5).Data() != big {
		t.Error("huge text not kept whole")
	}
	deep := `{"deep":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `,` + string(marshal(t, baseCapture())[1:])
	mustDecode(t, []byte(deep))
	deepCut := `{"deep":` + strings.Repeat(`{"a":`, 1<<20)
	if _, err := DecodeCapture([]byte(deepCut), CaptureOptions{}); errcode.CodeOf(err) != errcode.MalformedSnapshot {
		t.Errorf("deep truncated: %v", err)
	}
}

// flatCapture writes the wire JSON of a document with n elements under
// body, alternating div and span with a text node each, every second one
// with an attribute. It is how tests and benchmarks get large captures.
func flatCapture(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 60)
	total := 3 + 2*n
	b.WriteString(`{"documents":[{"documentURL":0,"nodes":{"parentIndex":[-1,0,1`)
	for i := 0; i < n; i++ {
		b.WriteString(",2,")
		b.WriteString(strconv.Itoa(3 + 2*i))
	}
	b.WriteString(`],"nodeType":[9,1,1`)
	for i := 0; i < n; i++ {
		b.WriteString(",1,3")
	}
	b.WriteString(`],"nodeName":[0,1,2`)
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			b.WriteString(",3,5")
		} else {
			b.WriteString(",4,5")
		}
	}
	b.WriteString(`],"nodeValue":[-1,-1,-1`)
	for i := 0; i < n; i++ {
		b.WriteString(",-1,6")
	}
	b.WriteString(`],"backendNodeId":[1,2,3`)
	for i := 0; i < n; i++ {
		b.WriteString(",")
		b.WriteString(strconv.Itoa(4 + 2*i))
		b.WriteString(",")
		b.WriteString(strconv.Itoa(5 + 2*i))
	}
	b.WriteString(`],"attributes":[[],[],[]`)
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			b.WriteString(",[7,8],[]")
		} else {
			b.WriteString(",[],[]")
		}
	}
	b.WriteString(`],"inputValue":{"index":[],"value":[]}},"layout":{"nodeIndex":[0,1,2`)
	for i := 0; i < total-3; i++ {
		b.WriteString(",")
		b.WriteString(strconv.Itoa(3 + i))
	}
	b.WriteString(`],"styles":[[],[9,11],[9,11]`)
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			b.WriteString(",[9,11],[9,11]")
		} else {
			b.WriteString(",[10,11],[10,11]")
		}
	}
	// Geometry as Chromium sends it: a rectangle and a text index per
	// layout object. The tree needs none of it, but a decoder must read
	// past it.
	b.WriteString(`],"bounds":[[0,0,800,600],[8,8,784,584],[8,8,784,584]`)
	for i := 0; i < total-3; i++ {
		b.WriteString(`,[8,`)
		b.WriteString(strconv.Itoa(8 + 18*i))
		b.WriteString(`.5,120.25,18]`)
	}
	b.WriteString(`],"text":[-1,-1,-1`)
	for i := 0; i < n; i++ {
		b.WriteString(",-1,6")
	}
	b.WriteString(`]},"textBoxes":{"layoutIndex":[],"bounds":[],"start":[],"length":[]}}],`)
	b.WriteString(`"strings":["#document","HTML","BODY","DIV","SPAN","#text","some text","class","row","block","inline","visible"]}`)
	return b.Bytes()
}

func TestMillionNodes(t *testing.T) {
	const n = 500000 // elements; with their text nodes a million nodes
	tr := mustDecode(t, flatCapture(n))
	if tr.Len() != 3+2*n {
		t.Fatalf("len %d, want %d", tr.Len(), 3+2*n)
	}
	last := tr.At(tr.Len() - 2)
	if !last.Is("span") || last.Display() != domtree.DisplayInline || last.FirstChild().Data() != "some text" {
		t.Errorf("last element: %s", dumpNode(last))
	}
	if tr.At(3).AttrValue("class") != "row" {
		t.Errorf("first element: %s", dumpNode(tr.At(3)))
	}
}

// TestFormTablesCheckedFromReply: a reply decoded by encoding/json gets the
// same whole check of the form control tables as the wire decoder.
func TestFormTablesCheckedFromReply(t *testing.T) {
	for _, c := range []struct {
		key   string
		table map[string]any
		path  string
	}{
		{"inputValue", map[string]any{"index": []any{6}, "value": []any{}}, nd + "/inputValue/value"},
		{"textValue", map[string]any{"index": []any{7}, "value": []any{13}}, nd + "/textValue/index/0"},
		{"optionSelected", map[string]any{"index": []any{9}}, nd + "/optionSelected/index/0"},
	} {
		m := baseCapture()
		set(m, nd, c.key, c.table)
		var r domsnapshot.CaptureSnapshotReply
		if err := json.Unmarshal(marshal(t, m), &r); err != nil {
			t.Fatal(err)
		}
		_, err := fromReply(&r, CaptureOptions{})
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.MalformedSnapshot || e.Path != c.path {
			t.Errorf("%s: %v, want malformed_snapshot at %s", c.key, err, c.path)
		}
	}
}
