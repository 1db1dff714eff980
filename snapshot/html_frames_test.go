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
