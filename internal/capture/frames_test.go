package capture

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// fdoc is one document of a made-up capture: a body holding a button
// with text, then one iframe per entry of frames (a document index, or -1
// for a frame whose document the capture does not hold).
type fdoc struct {
	url, text string
	frames    []int
	// value, when set, adds an input pre-filled with it.
	value string
}

// interner is the string table's index of a string in a made-up
// capture's strings, added at the end the first time.
func interner(strs *[]string) func(string) int {
	return func(s string) int {
		for i, x := range *strs {
			if x == s {
				return i
			}
		}
		*strs = append(*strs, s)
		return len(*strs) - 1
	}
}

// frameCapture writes a capture of docs, documents[0] the main one.
func frameCapture(docs []fdoc) string {
	var strs []string
	str := interner(&strs)
	var out []any
	for k, d := range docs {
		parent := []int{-1, 0, 1, 2, 3}
		typ := []int{9, 1, 1, 1, 3}
		name := []int{str("#document"), str("HTML"), str("BODY"), str("BUTTON"), str("#text")}
		value := []int{-1, -1, -1, -1, str(d.text)}
		attrs := [][]int{{}, {}, {}, {}, {}}
		layout := []int{1, 2, 3, 4}
		var owners, owned []int
		if d.value != "" {
			layout = append(layout, len(parent))
			parent, typ, name, value = append(parent, 2), append(typ, 1), append(name, str("INPUT")), append(value, -1)
			attrs = append(attrs, []int{str("value"), str(d.value)})
		}
		for _, f := range d.frames {
			i := len(parent)
			parent, typ, name, value, attrs = append(parent, 2), append(typ, 1), append(name, str("IFRAME")), append(value, -1), append(attrs, []int{})
			layout = append(layout, i)
			if f >= 0 {
				owners, owned = append(owners, i), append(owned, f)
			}
		}
		styles := make([][]int, len(layout))
		for i := range styles {
			styles[i] = []int{str("block"), str("visible")}
		}
		backend := make([]int, len(parent))
		for i := range backend {
			backend[i] = 1000*k + i + 1
		}
		nodes := map[string]any{"parentIndex": parent, "nodeType": typ, "nodeName": name, "nodeValue": value, "attributes": attrs, "backendNodeId": backend,
			"contentDocumentIndex": map[string]any{"index": owners, "value": owned}}
		out = append(out, map[string]any{"documentURL": str(d.url), "frameId": str("F" + strconv.Itoa(k)), "nodes": nodes,
			"layout": map[string]any{"nodeIndex": layout, "styles": styles}})
	}
	b, _ := json.Marshal(map[string]any{"documents": out, "strings": strs})
	return string(b)
}

// buttons lists the composed tree's button texts and their frames' ids.
func buttons(t *domtree.Tree) (texts, frames []string) {
	for n := range t.Composed().All() {
		if n.Is("button") {
			texts = append(texts, n.FirstChild().Data())
			id, _ := n.Frame()
			frames = append(frames, id)
		}
	}
	return texts, frames
}

// TestFramesUnderAtOverMaxFrames: the composed tree holds the first
// MaxFrames frame documents in flat-tree order and counts the rest; the
// light tree holds none of them.
func TestFramesUnderAtOverMaxFrames(t *testing.T) {
	for _, n := range []int{limits.MaxFrames - 1, limits.MaxFrames, limits.MaxFrames + 1} {
		docs := []fdoc{{url: "https://a.test/", text: "Main"}}
		for i := 1; i <= n; i++ {
			docs[0].frames = append(docs[0].frames, i)
			docs = append(docs, fdoc{url: "https://a.test/f", text: "B" + strconv.Itoa(i)})
		}
		light, err := Decode([]byte(frameCapture(docs)), nil, 0)
		if err != nil {
			t.Fatal(n, err)
		}
		texts, frames := buttons(light)
		read := min(n, limits.MaxFrames)
		if len(texts) != read+1 || texts[read] != "B"+strconv.Itoa(read) || frames[0] != "" || frames[1] != "F1" {
			t.Errorf("%d frames: buttons %v in frames %v", n, texts, frames)
		}
		if got, want := light.Composed().FramesOmitted(), n-read; got != want {
			t.Errorf("%d frames: %d omitted, want %d", n, got, want)
		}
		for m := range light.All() {
			if m.Is("button") && m.FirstChild().Data() != "Main" {
				t.Errorf("%d frames: the light tree holds a frame's button", n)
			}
		}
	}
}

// TestFramesUnderAtOverMaxFrameDepth: frames nested MaxFrameDepth deep are
// read; one deeper is counted.
func TestFramesUnderAtOverMaxFrameDepth(t *testing.T) {
	for _, depth := range []int{limits.MaxFrameDepth - 1, limits.MaxFrameDepth, limits.MaxFrameDepth + 1} {
		docs := []fdoc{{url: "https://a.test/", text: "L0"}}
		for i := 1; i <= depth; i++ {
			docs[i-1].frames = []int{i}
			docs = append(docs, fdoc{url: "https://a.test/f", text: "L" + strconv.Itoa(i)})
		}
		light, err := Decode([]byte(frameCapture(docs)), nil, 0)
		if err != nil {
			t.Fatal(depth, err)
		}
		texts, _ := buttons(light)
		read := min(depth, limits.MaxFrameDepth)
		if len(texts) != read+1 || texts[read] != "L"+strconv.Itoa(read) {
			t.Errorf("depth %d: buttons %v", depth, texts)
		}
		if got, want := light.Composed().FramesOmitted(), depth-read; got != want {
			t.Errorf("depth %d: %d omitted, want %d", depth, got, want)
		}
	}
}

// TestFramesNotHeld: a frame whose document the capture does not hold (an
// out-of-process frame), one left out as an empty object, one that does
// not hold together, and one a second owner names again are counted; a
// page with only such frames has no composed twin, and its light tree
// says how many.
func TestFramesNotHeld(t *testing.T) {
	docs := []fdoc{{url: "https://a.test/", text: "Main", frames: []int{-1}}}
	light, err := Decode([]byte(frameCapture(docs)), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if light.Composed() != light || light.FramesOmitted() != 1 {
		t.Errorf("an out-of-process frame alone: twin %v, %d omitted", light.Composed() != light, light.FramesOmitted())
	}
	docs = []fdoc{{url: "https://a.test/", text: "Main", frames: []int{1, 2, 3, 3}}, {text: "gone"}, {text: "bad"}, {url: "about:srcdoc", text: "kept"}}
	var top map[string]json.RawMessage
	json.Unmarshal([]byte(frameCapture(docs)), &top)
	var ds []json.RawMessage
	json.Unmarshal(top["documents"], &ds)
	ds[1] = json.RawMessage(`{}`)
	ds[2] = json.RawMessage(`{"nodes":{"parentIndex":[5]},"layout":{}}`)
	top["documents"], _ = json.Marshal(ds)
	b, _ := json.Marshal(top)
	light, err = Decode(b, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	texts, _ := buttons(light)
	if strings.Join(texts, ",") != "Main,kept" || light.Composed().FramesOmitted() != 3 {
		t.Errorf("buttons %v, %d omitted; want Main and kept, 3 omitted", texts, light.Composed().FramesOmitted())
	}
}

// TestScrubFramesLeavesOutRefusedOrigins: a frame of an origin the policy
// refuses is written as an empty document, and so is an about:srcdoc
// document inside it; an about:blank frame of the main document stays;
// nothing of what was left out is in the bytes, and the composed tree
// counts the refused frame.
func TestScrubFramesLeavesOutRefusedOrigins(t *testing.T) {
	docs := []fdoc{
		{url: "https://a.test/", text: "Main", frames: []int{1, 3}},
		{url: "https://b.test/ad", text: "CANARY-B", frames: []int{2}},
		{url: "about:srcdoc", text: "CANARY-B-INSIDE"},
		{url: "about:blank", text: "Blank"},
	}
	allow := func(u string) bool {
		p, err := url.Parse(u)
		return err == nil && p.Host == "a.test"
	}
	out, err := ScrubFrames([]byte(frameCapture(docs)), allow)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CANARY-B", "b.test"} {
		if strings.Contains(string(out), s) {
			t.Errorf("the scrubbed capture holds %q: %s", s, out)
		}
	}
	light, err := Decode(out, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	texts, _ := buttons(light)
	if strings.Join(texts, ",") != "Main,Blank" || light.Composed().FramesOmitted() != 1 {
		t.Errorf("buttons %v, %d omitted; want Main and Blank, 1 omitted", texts, light.Composed().FramesOmitted())
	}
	again, err := ScrubFrames(out, allow)
	if err != nil || string(again) != string(out) {
		t.Errorf("scrubbing again changed the bytes (%v)", err)
	}
	all, err := ScrubFrames([]byte(frameCapture(docs)), nil)
	if err != nil || !strings.Contains(string(all), "CANARY-B-INSIDE") {
		t.Errorf("without a policy every frame stays (%v)", err)
	}
}

// withSubframe adds to capture main (one document) the capture sub as an
// out-of-process frame under main's node owner.
func withSubframe(main, sub string, owner int) string {
	return strings.TrimSuffix(main, "}") + `,"subframes":[{"owner":[0,` + strconv.Itoa(owner) + `],"capture":` + sub + `}]}`
}

// TestSubframesComposedAndScrubbed: an out-of-process frame's capture is
// read under its owner, its backend ids set apart by RemoteIDShift and its
// frame id kept; the scrub takes a value out of it, and drops it whole
// when the policy refuses its origin.
func TestSubframesComposedAndScrubbed(t *testing.T) {
	main := frameCapture([]fdoc{{url: "https://a.test/", text: "Main", frames: []int{-1}}})
	// A pre-filled input in the frame: its value must go.
	sub := frameCapture([]fdoc{{url: "https://b.test/form", text: "Join", value: "CANARY-VALUE-77"}})
	both := withSubframe(main, sub, 5)
	light, err := Decode([]byte(both), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	texts, frames := buttons(light)
	if strings.Join(texts, ",") != "Main,Join" || frames[1] != "F0" || light.Composed().FramesOmitted() != 0 {
		t.Fatalf("buttons %v in frames %v, %d omitted", texts, frames, light.Composed().FramesOmitted())
	}
	for n := range light.Composed().All() {
		if n.Is("button") && n.FirstChild().Data() == "Join" && n.BackendNodeID()>>RemoteIDShift != 1 {
			t.Errorf("the frame's button has backend id %d, not set apart", n.BackendNodeID())
		}
	}
	out, err := Scrub([]byte(both))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "CANARY-VALUE-77") || !strings.Contains(string(out), "Join") {
		t.Errorf("the scrubbed capture: %s", out)
	}
	out, err = ScrubFrames([]byte(both), func(u string) bool { return strings.HasPrefix(u, "https://a.test/") })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "Join") || strings.Contains(string(out), "b.test") {
		t.Errorf("a refused frame's capture stayed: %s", out)
	}
	light, err = Decode(out, nil, 0)
	if err != nil || light.Composed().FramesOmitted() != 1 {
		t.Errorf("the refused frame is not counted (%v)", err)
	}
}
