package snapshot

import (
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// frameButtons lists the composed tree's button texts, each with the
// frame it lies in marked by a star.
func frameButtons(t *domtree.Tree) []string {
	var out []string
	for n := range t.Composed().All() {
		if n.Is("button") {
			mark := ""
			if _, ok := n.Frame(); ok {
				mark = "*"
			}
			out = append(out, mark+n.FirstChild().Data())
		}
	}
	return out
}

// TestHTMLSrcdocFrames: an HTML file's srcdoc frames are read into the
// composed tree under their iframes, in flat-tree order (nested ones too),
// the first limits.MaxFrames of them and limits.MaxFrameDepth deep; a frame
// loaded by URL is counted, never fetched; the light tree holds no frame
// content.
func TestHTMLSrcdocFrames(t *testing.T) {
	nest := func(depth int) string {
		s := `<button>L` + strconv.Itoa(depth) + `</button>`
		for i := depth - 1; i >= 1; i-- {
			s = `<button>L` + strconv.Itoa(i) + `</button><iframe srcdoc="` + html.EscapeString(s) + `"></iframe>`
		}
		return `<button>Main</button><iframe srcdoc="` + html.EscapeString(s) + `"></iframe>`
	}
	for _, c := range []struct {
		name    string
		page    string
		want    string
		omitted int
	}{
		{"one", `<button>Main</button><iframe srcdoc="<button>In</button>"></iframe><button>After</button>`, "Main,*In,After", 0},
		{"by URL", `<button>Main</button><iframe src="https://elsewhere.test/"></iframe>`, "Main", 1},
		{"blank", `<button>Main</button><iframe></iframe>`, "Main", 0},
		{"depth under", nest(limits.MaxFrameDepth - 1), "Main,*L1,*L2,*L3", 0},
		{"depth at", nest(limits.MaxFrameDepth), "Main,*L1,*L2,*L3,*L4", 0},
		{"depth over", nest(limits.MaxFrameDepth + 1), "Main,*L1,*L2,*L3,*L4", 1},
	} {
		light, _, err := ParseHTML([]byte(c.page), HTMLOptions{})
		if err != nil {
			t.Fatal(c.name, err)
		}
		if got := strings.Join(frameButtons(light), ","); got != c.want {
			t.Errorf("%s: buttons %s, want %s", c.name, got, c.want)
		}
		if got := light.Composed().FramesOmitted(); got != c.omitted {
			t.Errorf("%s: %d omitted, want %d", c.name, got, c.omitted)
		}
		for n := range light.All() {
			if n.Is("button") && n.FirstChild().Data() != "Main" && n.FirstChild().Data() != "After" {
				t.Errorf("%s: the light tree holds a frame's button", c.name)
			}
		}
	}
	for _, n := range []int{limits.MaxFrames - 1, limits.MaxFrames, limits.MaxFrames + 1} {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(`<iframe srcdoc="<button>B` + strconv.Itoa(i) + `</button>"></iframe>`)
		}
		light, _, err := ParseHTML([]byte(b.String()), HTMLOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := frameButtons(light)
		read := min(n, limits.MaxFrames)
		if len(got) != read || got[read-1] != "*B"+strconv.Itoa(read-1) || light.Composed().FramesOmitted() != n-read {
			t.Errorf("%d frames: buttons %v, %d omitted", n, got, light.Composed().FramesOmitted())
		}
	}
}

// TestHTMLSrcdocFrameShadows: a srcdoc frame document's declarative shadow
// roots are read as the main document's are: their content, slotted light
// content included, lies in the frame (each shadow tree in a scope of its
// own), shadow roots nested in them and frames inside their content are
// read in turn, and the shadow trees do not count against MaxFrames.
func TestHTMLSrcdocFrameShadows(t *testing.T) {
	shadowed := func(label string) string {
		return `<my-card><template shadowrootmode="open"><button>` + label + `</button><slot></slot></template>` +
			`<button>Slotted` + label + `</button></my-card>`
	}
	inner := `<x-outer><template shadowrootmode="closed"><x-inner><template shadowrootmode="open"><button>Deep</button>` +
		`<iframe srcdoc="` + html.EscapeString(shadowed("Nested")) + `"></iframe></template></x-inner></template></x-outer>`
	for _, c := range []struct {
		name, page, want string
	}{
		{"one root", `<button>Main</button><iframe srcdoc="` + html.EscapeString(shadowed("S")) + `"></iframe>`, "Main,*S,*SlottedS"},
		{"nested roots and a frame inside", `<button>Main</button><iframe srcdoc="` + html.EscapeString(inner) + `"></iframe>`, "Main,*Deep,*Nested,*SlottedNested"},
		{"a template that declares nothing", `<iframe srcdoc="` + html.EscapeString(`<template shadowrootmode="open"><button>T</button></template><button>B</button>`) + `"></iframe>`, "*B"},
	} {
		light, _, err := ParseHTML([]byte(c.page), HTMLOptions{})
		if err != nil {
			t.Fatal(c.name, err)
		}
		if got := strings.Join(frameButtons(light), ","); got != c.want {
			t.Errorf("%s: buttons %s, want %s", c.name, got, c.want)
		}
		if got := light.Composed().FramesOmitted(); got != 0 {
			t.Errorf("%s: %d omitted, want 0", c.name, got)
		}
	}

	// The shadow tree's nodes are in a scope of their own, not the frame
	// document's, and an ID reference resolves inside it.
	page := `<iframe srcdoc="` + html.EscapeString(`<label for="f">Outside</label><my-field><template shadowrootmode="open">`+
		`<label for="f">Inside</label><input id="f"></template></my-field><input id="f">`) + `"></iframe>`
	light, _, err := ParseHTML([]byte(page), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []domtree.Node
	for n := range light.Composed().All() {
		if n.Is("input") {
			inputs = append(inputs, n)
		}
	}
	if len(inputs) != 2 {
		t.Fatalf("%d inputs in the composed tree, want 2", len(inputs))
	}
	if inputs[0].Scope() == inputs[1].Scope() {
		t.Errorf("the shadow tree's input shares the frame document's scope %d", inputs[0].Scope())
	}
	for i, want := range []string{"Inside", "Outside"} {
		if _, ok := inputs[i].Frame(); !ok {
			t.Errorf("input %d is not in the frame", i)
		}
		var labels []string
		for l := range inputs[i].LabelsFor("f") {
			labels = append(labels, l.FirstChild().Data())
		}
		if len(labels) != 1 || labels[0] != want {
			t.Errorf("input %d is labelled by %v, want the one saying %s", i, labels, want)
		}
	}

	// MaxFrames counts frame documents, not the shadow trees inside them.
	var b strings.Builder
	for i := 0; i < limits.MaxFrames; i++ {
		b.WriteString(`<iframe srcdoc="` + html.EscapeString(shadowed("B"+strconv.Itoa(i))) + `"></iframe>`)
	}
	b.WriteString(`<iframe srcdoc="<button>Over</button>"></iframe>`)
	light, _, err = ParseHTML([]byte(b.String()), HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := frameButtons(light)
	if len(got) != 2*limits.MaxFrames || got[len(got)-1] != "*SlottedB"+strconv.Itoa(limits.MaxFrames-1) || light.Composed().FramesOmitted() != 1 {
		t.Errorf("%d frames with a shadow root each and one more: %d buttons (last %q), %d omitted; want %d, 1 omitted",
			limits.MaxFrames, len(got), got[len(got)-1], light.Composed().FramesOmitted(), 2*limits.MaxFrames)
	}
}
