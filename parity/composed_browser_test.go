//go:build browser

package parity

import (
	"context"
	"html"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// composedPage writes a random page of declarative shadow roots from seed:
// hosts (open or closed) nested in light and shadow content alike, named
// and default slots (some taking nothing, some with fallback), light
// children with slot attributes that may match no slot, ids repeated
// across tree scopes, labels for them, aria-labelledby references, and
// controls, aria-hidden hosts and hidden elements among them, and srcdoc
// frames (at most two deep) whose documents hold the same, their own
// declarative shadow roots included. A frame is never put under a hidden
// element: offline a frame document inherits from its frame element, a
// listed divergence. No text is whitespace alone, so nothing depends on
// how a line box treats it.
func composedPage(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>composed</title></head><body>`)
	hosts, frames, frameDepth := 0, 0, 0
	// shown is false under a hidden or aria-hidden element.
	shown := true
	var node func(depth int, inShadow bool)
	ids := []string{"a", "b", "c"}
	slots := []string{"", "s1", "s2"}
	node = func(depth int, inShadow bool) {
		k := r.IntN(12)
		if depth > 4 {
			k = r.IntN(6)
		}
		switch k {
		case 0:
			b.WriteString(`<button>Act ` + strconv.Itoa(r.IntN(50)) + `</button>`)
		case 1:
			b.WriteString(`<input id="` + ids[r.IntN(3)] + `">`)
		case 2:
			id := ids[r.IntN(3)]
			b.WriteString(`<label for="` + id + `">Label ` + id + strconv.Itoa(r.IntN(9)) + `</label>`)
		case 3:
			b.WriteString(`<span id="` + ids[r.IntN(3)] + `">Name ` + strconv.Itoa(r.IntN(9)) + `</span><input aria-labelledby="` + ids[r.IntN(3)] + `">`)
		case 4:
			b.WriteString(`<a href="/x` + strconv.Itoa(r.IntN(9)) + `">Link</a>`)
		case 5:
			b.WriteString(`<b>word` + strconv.Itoa(r.IntN(99)) + `</b>`)
		case 6, 7:
			if inShadow {
				name := slots[r.IntN(3)]
				if name == "" {
					b.WriteString(`<slot>`)
				} else {
					b.WriteString(`<slot name="` + name + `">`)
				}
				if r.IntN(2) == 0 {
					b.WriteString(`<i>fallback ` + strconv.Itoa(r.IntN(9)) + `</i>`)
				}
				b.WriteString(`</slot>`)
				return
			}
			fallthrough
		case 8:
			tag := []string{"div", "section", "p"}[r.IntN(3)]
			attr := ""
			switch r.IntN(8) {
			case 0:
				attr = ` hidden`
			case 1:
				attr = ` style="visibility:hidden"`
			}
			was := shown
			shown = shown && attr == ""
			b.WriteString(`<` + tag + attr + `>`)
			for range 1 + r.IntN(3) {
				node(depth+1, inShadow)
			}
			b.WriteString(`</` + tag + `>`)
			shown = was
		case 9:
			if !shown || frameDepth >= 2 || frames >= 6 {
				b.WriteString(`<b>no frame</b>`)
				return
			}
			frames++
			frameDepth++
			outer := b
			b = strings.Builder{}
			for range 1 + r.IntN(3) {
				node(depth+1, false)
			}
			doc := b.String()
			b = outer
			frameDepth--
			b.WriteString(`<iframe title="frame ` + strconv.Itoa(frames) + `" srcdoc="` + html.EscapeString(doc) + `"></iframe>`)
		default:
			hosts++
			name := "x-h" + strconv.Itoa(hosts)
			attr := ""
			if r.IntN(8) == 0 {
				attr = ` aria-hidden="true"`
			}
			mode := []string{"open", "closed"}[r.IntN(2)]
			was := shown
			shown = shown && attr == ""
			defer func() { shown = was }()
			b.WriteString(`<` + name + attr + `><template shadowrootmode="` + mode + `">`)
			for range 1 + r.IntN(4) {
				node(depth+1, true)
			}
			b.WriteString(`</template>`)
			for range r.IntN(4) {
				s := slots[r.IntN(4)%3]
				if r.IntN(4) == 0 {
					s = "nowhere"
				}
				if s == "" {
					b.WriteString(`<span>`)
				} else {
					b.WriteString(`<span slot="` + s + `">`)
				}
				node(depth+1, false)
				b.WriteString(`</span>`)
			}
			b.WriteString(`</` + name + `>`)
		}
	}
	for range 3 + r.IntN(4) {
		node(0, false)
	}
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}

// TestComposedPagesOfflineEqualLive is a property over random pages of
// declarative shadow roots and srcdoc frames: the observation (inventory and page view:
// controls, names resolved per tree scope, regions, text) of the HTML
// file offline is the live page's byte for byte. The extraction is left
// out: it walks the light tree, where the light children of shadow hosts
// are a listed divergence.
func TestComposedPagesOfflineEqualLive(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	shadowControls, frameControls := 0, 0
	for seed := uint64(1); seed <= 48; seed++ {
		page := composedPage(seed)
		rep, err := Check(ctx, b, page, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Inventory.Differences) > 0 {
			t.Errorf("seed %d: offline and live observations differ: %v\npage: %s", seed, rep.Inventory.Differences, page)
		}
		if strings.Contains(string(rep.Inventory.Offline), `"role":"button"`) && strings.Contains(string(page), "<template") {
			shadowControls++
		}
		if strings.Contains(string(rep.Inventory.Offline), `"role":"button"`) && strings.Contains(string(page), "srcdoc=") {
			frameControls++
		}
	}
	// The property must have seen pages with controls and shadow roots.
	if shadowControls < 5 || frameControls < 5 {
		t.Errorf("only %d pages with controls and shadow roots, %d with controls and frames", shadowControls, frameControls)
	}
}
