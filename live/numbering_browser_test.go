//go:build browser

package live

import (
	"strconv"
	"strings"
	"testing"

	domsnap "github.com/domsnap/domsnap"
)

// numbers maps each control's name to the number n of its reference.
func numbers(t *testing.T, o *domsnap.Observation) (map[string]int, int) {
	t.Helper()
	out, top := map[string]int{}, 0
	for _, c := range o.Controls {
		_, n, ok := domsnap.ParseActionRef(c.Ref)
		if !ok {
			t.Fatalf("control reference %q", c.Ref)
		}
		out[c.Name], top = n, max(top, n)
	}
	return out, top
}

// TestNumbersOnALivePage: on real Chromium, through bounded captures, the
// controls of one document keep their numbers across observations, also
// after the page's script rebuilt everything around them and the
// renderer collected its garbage; an element the script put in the place
// of another is new (a number above all used), whatever its name; the
// answer's changes say exactly that; and a page whose content-visibility
// makes the session read it whole keeps numbering by the browser's own
// node ids.
func TestNumbersOnALivePage(t *testing.T) {
	b := actBrowser(t)
	var links strings.Builder
	for i := 0; i < 40; i++ {
		links.WriteString(`<a href="#` + strconv.Itoa(i) + `">link ` + strconv.Itoa(i) + `</a> `)
	}
	page := `<!DOCTYPE html><title>n</title><main><h1>Numbers</h1><div id="links">` + links.String() + `</div>` +
		`<button id="old">Old</button><button id="keep">Keep</button></main>`
	site := newActSite(t, map[string]string{
		"/":       page,
		"/hidden": `<!DOCTYPE html><div style="content-visibility:auto"><p>far</p></div>` + page,
	})
	for _, path := range []string{"/", "/hidden"} {
		a := openActTab(t, b, site.url(path))
		o1, _, err := a.s.Observe(a.ctx, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		before, top := numbers(t, o1)
		if len(before) != 42 {
			t.Fatalf("%s: %d controls", path, len(before))
		}
		// The script moves every link into a new container, replaces Old
		// by an element named the same, and the renderer collects garbage.
		if _, err := a.p.Evaluate(a.ctx, `(() => {
			const box = document.createElement('section'), old = document.getElementById('links');
			box.append(...old.childNodes);
			old.before(box);
			old.remove();
			const n = document.createElement('button'); n.textContent = 'Old';
			document.getElementById('old').replaceWith(n);
			return 1;
		})()`); err != nil {
			t.Fatal(err)
		}
		if err := a.p.client.HeapProfiler.CollectGarbage(a.ctx); err != nil {
			t.Fatal(err)
		}
		o2, _, err := a.s.Observe(a.ctx, ReadOptions{View: domsnap.ViewChanges})
		if err != nil {
			t.Fatal(err)
		}
		after, _ := numbers(t, o2)
		for name, n := range before {
			if name != "Old" && after[name] != n {
				t.Errorf("%s: %s was %d, now %d", path, name, n, after[name])
			}
		}
		if after["Old"] <= top {
			t.Errorf("%s: the new Old button took %d, not above %d", path, after["Old"], top)
		}
		c := o2.Changes
		if c == nil || c.Since != o1.Revision || len(c.Controls) != 1 || c.Controls[0].Name != "Old" ||
			len(c.ControlsRemoved) != 1 || c.ControlsRemoved[0] != before["Old"] || c.TextChanged {
			t.Errorf("%s: changes %+v", path, c)
		}
	}
}
