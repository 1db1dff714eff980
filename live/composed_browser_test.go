//go:build browser

package live

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// composedPages are hostile pages built of shadow roots by script, as no
// HTML file could hold them.
var composedPages = map[string]string{
	// 10,000 open shadow roots, each inside the last; a button at the bottom.
	"/deep": `<!DOCTYPE html><title>deep</title><div id="top"></div><script>
let host = document.getElementById("top");
for (let i = 0; i < 10000; i++) {
  const r = host.attachShadow({mode: "open"});
  const d = document.createElement("div");
  r.appendChild(d);
  host = d;
}
host.innerHTML = "<button>Bottom</button>";
</script>`,
	// 100,000 light spans slotted into one default slot, a button first.
	"/slotted": `<!DOCTYPE html><title>slotted</title><div id="h"></div><script>
const h = document.getElementById("h");
h.attachShadow({mode: "open"}).innerHTML = "<button>Before the slot</button><p><slot></slot></p>";
const f = document.createDocumentFragment();
for (let i = 0; i < 100000; i++) { const s = document.createElement("span"); s.textContent = "item " + i + " "; f.appendChild(s); }
h.appendChild(f);
</script>`,
	// A closed shadow root whose content is replaced on every task.
	"/swap": `<!DOCTYPE html><title>swap</title><x-swap id="h"></x-swap><script>
const r = document.getElementById("h").attachShadow({mode: "closed"});
let n = 0;
const swap = () => { r.innerHTML = n++ % 2 ? "<button>Alpha</button>" : "<button>Beta</button><p>beta text</p>"; setTimeout(swap, 0); };
swap();
</script>`,
	// A field inside a closed shadow root, labelled in its own tree; the
	// page keeps the field so the test can read what arrived.
	"/field": `<!DOCTYPE html><title>field</title><label for="f">Outer label</label><x-form id="h"></x-form><script>
const r = document.getElementById("h").attachShadow({mode: "closed"});
r.innerHTML = '<label for="f">Inner name</label><input id="f">';
window.field = r.getElementById("f");
</script>`,
}

// TestComposedObservationCost: an observation of a page of a hundred
// components, each an open shadow root whose divs hold the page's slotted
// words and a button, and a field in a root nested inside, reads every
// button and field (named in its own root) and pays for the composed tree
// with one script in its isolated world and no description (it asked one
// question per div, 512, the most it asked, leaving the rest unanswered;
// then one description of the whole page), and with one wait for a
// rendered frame, the bounded walker's: the whole snapshot it gives up for
// is taken without waiting again (it did). The same cards with closed
// roots are beyond every script: the browser's descriptions tell their
// nested roots apart.
func TestComposedObservationCost(t *testing.T) {
	var page strings.Builder
	page.WriteString(`<!DOCTYPE html><title>cards</title><main>`)
	for i := 0; i < 100; i++ {
		page.WriteString(`<x-card><span>words of card ` + strconv.Itoa(i) + `</span></x-card>`)
	}
	page.WriteString(`</main><script>
for (const [i, c] of [...document.querySelectorAll("x-card")].entries()) {
  const r = c.attachShadow({mode: "open"});
  r.innerHTML = "<div><div><div><slot></slot></div><div><button>Card " + i + "</button></div></div></div>" +
    "<label for=q>Outer " + i + "</label><div class=in></div>";
  r.querySelector(".in").attachShadow({mode: "open"}).innerHTML = "<label for=q>Inner " + i + "</label><input id=q>";
}
</script>`)
	for _, mode := range []string{"open", "closed"} {
		site := newActSite(t, map[string]string{"/cards": strings.ReplaceAll(page.String(), `"open"`, `"`+mode+`"`)})
		a, p := openComposed(t, actBrowser(t), site.srv.URL+"/cards")
		asked, reached, waits := hostQuestions.Load(), hostReaches.Load(), p.frameWaits.Load()
		o := a.observe()
		n, r, w := hostQuestions.Load()-asked, hostReaches.Load()-reached, p.frameWaits.Load()-waits
		if mode == "open" && (n != 0 || r != 1) || mode == "closed" && (n == 0 || r != 0) || w != 0 {
			t.Errorf("%s roots: an observation asked %d descriptions, ran %d scripts and waited %d times in the whole capture", mode, n, r, w)
		}
		// Each card's field is named in its own root, which the answers
		// tell apart from the card's (read as one scope, the card's label
		// named it).
		buttons, fields := 0, 0
		for _, c := range o.Controls {
			switch {
			case c.Role == "button" && strings.HasPrefix(c.Name, "Card "):
				buttons++
			case c.Role == "textbox" && strings.HasPrefix(c.Name, "Inner "):
				fields++
			case c.Role == "textbox":
				t.Errorf("%s roots: a card's field is named %q", mode, c.Name)
			}
		}
		if buttons != 100 || fields != 100 || !strings.Contains(o.Text, "words of card 0 ") {
			t.Errorf("%s roots: %d card buttons and %d fields in the view, slotted words %v", mode, buttons, fields, strings.Contains(o.Text, "words of card 0 "))
		}
	}
}

// TestComposedHostilePages: shadow content a page builds to hurt the
// reader ends within the call's deadline with an answer bounded like any
// other: 10,000 nested shadow roots and 100,000 slotted nodes cost the view
// scan's 8,192 nodes and say it was exhausted; a closed root whose content
// changes on every task gives one of its states whole, never a mix.
func TestComposedHostilePages(t *testing.T) {
	site := newActSite(t, composedPages)
	b := actBrowser(t)
	// The deep page keeps Chromium's renderer busy (laying out 10,000
	// nested shadow trees costs the browser itself minutes): the
	// observation ends at its deadline with the timeout code, or answers
	// with the view scan's budget spent.
	at := openActTab(t, b, "")
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	at.p.Goto(ctx, site.srv.URL+"/deep", UntilLoad, time.Now().Add(10*time.Second))
	octx, ocancel := context.WithTimeout(context.Background(), 15*time.Second)
	start := time.Now()
	o, _, err := at.s.Observe(octx, ReadOptions{})
	ocancel()
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("/deep: the observation took %v past a 15 s deadline", d)
	} else {
		t.Logf("/deep: %v in %v", errcode.CodeOf(err), d.Round(time.Millisecond))
	}
	switch {
	case err != nil && errcode.CodeOf(err) != errcode.Timeout:
		t.Errorf("/deep: %v, want an answer or timeout", err)
	case err == nil && (!o.ViewScan.Exhausted || o.ViewScan.Visited != limits.ViewScanNodes):
		t.Errorf("/deep: view scan %+v, want the whole budget spent", o.ViewScan)
	}
	a, _ := openComposed(t, b, site.srv.URL+"/slotted")
	start = time.Now()
	o = a.observe()
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("/slotted: the observation took %v", d)
	}
	if !o.ViewScan.Exhausted || o.ViewScan.Visited != limits.ViewScanNodes {
		t.Errorf("/slotted: view scan %+v, want the whole budget spent", o.ViewScan)
	}
	// The button lies before the slot: found; the spans are text there.
	a.control("button", "Before the slot")
	if !strings.Contains(o.Text, "item 0 item 1 ") {
		t.Errorf("/slotted: the slotted spans are not the text where the slot is: %.80q", o.Text)
	}
	a, _ = openComposed(t, b, site.srv.URL+"/swap")
	for i := 0; i < 5; i++ {
		o := a.observe()
		var names []string
		for _, c := range o.Controls {
			names = append(names, c.Name)
		}
		got := strings.Join(names, ",")
		switch {
		case got == "Alpha" && !strings.Contains(o.Text, "beta text"):
		case got == "Beta" && strings.Contains(o.Text, "beta text"):
		default:
			t.Errorf("swap %d: controls %q, text %q: not one state of the root", i, got, o.Text)
		}
	}
}

// TestComposedClosedField: a field inside a closed shadow root is named by
// the label of its own tree (not by the document's label for the same id),
// and typing into it through its reference reaches it; the typed canary is
// in no observation.
func TestComposedClosedField(t *testing.T) {
	const canary = "CANARY-CLOSED-7c20"
	site := newActSite(t, composedPages)
	a, p := openComposed(t, actBrowser(t), site.srv.URL+"/field")
	c := a.control("textbox", "Inner name")
	for _, x := range a.o.Controls {
		if x.Name == "Outer label" {
			t.Errorf("the document's label named a field inside the shadow root: %+v", x)
		}
	}
	a.act(c, Action{Kind: ActType, Text: canary}, OutcomeDone)
	var got string
	raw, err := p.Evaluate(a.ctx, "window.field.value")
	if err != nil {
		t.Fatal(err)
	}
	got = string(raw)
	if !strings.Contains(got, canary) {
		t.Errorf("the field holds %s after typing", got)
	}
	o := a.observe()
	for _, b := range [][]byte{o.Canonical(), a.o.Canonical()} {
		if strings.Contains(string(b), canary) {
			t.Error("an observation holds the typed canary")
		}
	}
}

// openComposed opens url in a tab of b and takes its first observation.
func openComposed(t *testing.T, b *Browser, url string) (*appTab, *Page) {
	t.Helper()
	at := openActTab(t, b, url)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	a := &appTab{t: t, ctx: ctx, s: at.s}
	a.observe()
	return a, at.p
}
