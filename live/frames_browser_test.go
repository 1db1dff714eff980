//go:build browser

package live

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// framePages are pages with frames of the page's own origin.
var framePages = map[string]string{
	// A consent banner: a frame over the whole page, whose button removes
	// it; the page's own button lies below it.
	"/banner": `<!DOCTYPE html><title>banner</title><h1>News</h1><button id="read" onclick="document.title='read'">Read more</button>
<iframe id="cmp" src="/cmp" style="position:fixed;inset:0;width:100vw;height:100vh;border:0;z-index:9"></iframe>`,
	"/cmp": `<!DOCTYPE html><title>cmp</title><p>We value your privacy</p>
<button onclick="parent.document.getElementById('cmp').remove()">Accept all</button>`,
	// A form in a frame, placed lower on the page.
	"/form": `<!DOCTYPE html><title>form</title><div style="height:1500px">Top</div>
<iframe src="/inner" style="width:400px;height:200px;border:5px solid;padding:7px"></iframe>`,
	"/inner": `<!DOCTYPE html><title>inner</title><label>Email <input id="e"></label>
<button onclick="document.body.dataset.sent=document.getElementById('e').value.length">Subscribe</button>`,
	// Frames past the limits.
	"/many": `<!DOCTYPE html><title>many</title><div id="m"></div><script>
const m = document.getElementById("m");
for (let i = 0; i < 1000; i++) { const f = document.createElement("iframe"); f.srcdoc = "<button>B" + i + "</button>"; m.appendChild(f); }
</script>`,
	"/nest": `<!DOCTYPE html><title>nest</title><iframe src="/nest1"></iframe>`,
	"/self": `<!DOCTYPE html><title>self</title><button>Outer</button><iframe src="/self"></iframe>`,
}

func init() {
	for i := 1; i <= 50; i++ {
		next := ""
		if i < 50 {
			next = `<iframe src="/nest` + itoa(uint64(i+1)) + `"></iframe>`
		}
		framePages["/nest"+itoa(uint64(i))] = `<!DOCTYPE html><button>Level ` + itoa(uint64(i)) + `</button>` + next
	}
}

// TestFramesConsentBanner: a same-origin frame covering the page is read
// into the page view; the page's own button below it is obscured; the
// frame's button is clicked in the frame and takes the banner away, after
// which the page's button is clicked.
func TestFramesConsentBanner(t *testing.T) {
	site := newActSite(t, framePages)
	a, p := openComposed(t, actBrowser(t), site.srv.URL+"/banner")
	if !strings.Contains(a.o.Text, "We value your privacy") {
		t.Errorf("the frame's text is not in the page view: %q", a.o.Text)
	}
	read := a.control("button", "Read more")
	_, err := a.s.Act(a.ctx, a.o.Revision, read.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(time.Minute)})
	if Reason(err) != ReasonObscured {
		t.Fatalf("a click below the banner: %v, want obscured", err)
	}
	if strings.Contains(err.Error(), "Accept") || strings.Contains(err.Error(), "privacy") {
		t.Errorf("the refusal names the frame's content: %v", err)
	}
	a.observe()
	a.act(a.control("button", "Accept all"), Action{Kind: ActClick}, OutcomeDone)
	if strings.Contains(a.o.Text, "privacy") {
		t.Errorf("the banner is still in the page view: %q", a.o.Text)
	}
	a.act(a.control("button", "Read more"), Action{Kind: ActClick}, OutcomeDone)
	raw, err := p.Evaluate(a.ctx, "document.title")
	if err != nil || string(raw) != `"read"` {
		t.Errorf("the page's button was not clicked: %s %v", raw, err)
	}
}

// TestFramesForm: a field and a button in a frame lower down the page
// (with a border and padding around the frame's viewport) are scrolled to,
// typed into and clicked at the right page coordinates; the typed canary is
// in no observation.
func TestFramesForm(t *testing.T) {
	const canary = "CANARY-FRAME-51d2@example.test"
	site := newActSite(t, framePages)
	a, p := openComposed(t, actBrowser(t), site.srv.URL+"/form")
	a.act(a.control("textbox", "Email"), Action{Kind: ActType, Text: canary}, OutcomeDone)
	a.act(a.control("button", "Subscribe"), Action{Kind: ActClick}, OutcomeDone)
	raw, err := p.Evaluate(a.ctx, "document.querySelector('iframe').contentDocument.body.dataset.sent")
	if err != nil || string(raw) != `"`+itoa(uint64(len(canary)))+`"` {
		t.Errorf("the frame's form got %s (%v), want the canary's length", raw, err)
	}
	for _, b := range [][]byte{a.o.Canonical(), a.observe().Canonical()} {
		if strings.Contains(string(b), canary) {
			t.Error("an observation holds the typed canary")
		}
	}
}

// TestFramesHostile: 1,000 frames, frames nested 50 deep and a frame that
// loads itself end within the deadline, reading at most limits.MaxFrames
// frame documents nested at most limits.MaxFrameDepth deep and counting
// the rest. (Chromium itself refuses a frame of its own ancestor's URL.)
func TestFramesHostile(t *testing.T) {
	site := newActSite(t, framePages)
	b := actBrowser(t)
	for _, c := range []struct {
		path     string
		omitted  int
		controls int
		last     string
	}{
		{"/many", 1000 - limits.MaxFrames, limits.MaxFrames, "B15"},
		{"/nest", 1, limits.MaxFrameDepth, "Level 4"},
		// Chromium stops loading a frame of its own ancestor's URL
		// past a few levels; whatever it nests, the bound holds.
		{"/self", -1, -1, ""},
	} {
		start := time.Now()
		at := openActTab(t, b, site.srv.URL+c.path)
		t.Logf("%s: loaded in %v", c.path, time.Since(start).Round(time.Millisecond))
		start = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		o, _, err := at.s.Observe(ctx, ReadOptions{})
		cancel()
		if d := time.Since(start); d > 65*time.Second {
			t.Errorf("%s: the observation took %v past a 60 s deadline", c.path, d)
		}
		if err != nil {
			// Laying out a thousand documents keeps a busy machine's
			// renderer from drawing its first frame for a minute: the
			// deadline's code is then the clear answer.
			if errcode.CodeOf(err) != errcode.Timeout {
				t.Errorf("%s: %v, want an answer or timeout", c.path, err)
			}
			continue
		}
		t.Logf("%s: %d controls, %d frames omitted in %v", c.path, len(o.Controls), o.ViewScan.FramesOmitted, time.Since(start).Round(time.Millisecond))
		if c.omitted >= 0 && o.ViewScan.FramesOmitted != c.omitted {
			t.Errorf("%s: %d frames omitted, want %d", c.path, o.ViewScan.FramesOmitted, c.omitted)
		}
		if c.controls >= 0 && len(o.Controls) != c.controls {
			t.Errorf("%s: %d controls, want %d", c.path, len(o.Controls), c.controls)
		}
		if c.last != "" && o.Controls[len(o.Controls)-1].Name != c.last {
			t.Errorf("%s: last control %q, want %q", c.path, o.Controls[len(o.Controls)-1].Name, c.last)
		}
		if c.path == "/self" && len(o.Controls) > limits.MaxFrameDepth+1 {
			t.Errorf("/self: %d controls, more than %d levels", len(o.Controls), limits.MaxFrameDepth+1)
		}
	}
}

// crossSitePages hold a frame of another site: the page is served on
// 127.0.0.1 and its frame on localhost, which the browser renders in a
// process of its own.
var crossSitePages = map[string]string{
	"/outer": `<!DOCTYPE html><title>outer</title><div style="height:900px">Top</div><button>Like</button>
<iframe id="x" style="width:420px;height:160px;border:3px solid;padding:5px"></iframe>
<script>document.getElementById("x").src = location.href.replace("127.0.0.1", "localhost").replace("/outer", "/remote");</script>`,
	"/remote": `<!DOCTYPE html><title>remote</title><label>Work email <input id="e"></label>
<button onclick="location = '/sent?n=' + document.getElementById('e').value.length">Join</button>`,
	"/sent": `<!DOCTYPE html><title>sent</title><p>Joined.</p>`,
}

// TestFramesOutOfProcess: a frame of another site, rendered by the browser
// in another process, is captured in its own process and read into the
// page view under its frame element; its field is typed into and its
// button clicked at the page's coordinates (the frame lies below the fold,
// with a border and padding), and the frame's navigation answers done;
// the typed canary is in no observation.
func TestFramesOutOfProcess(t *testing.T) {
	const canary = "CANARY-REMOTE-0d4e@example.test"
	site := newActSite(t, crossSitePages)
	a, _ := openComposed(t, actBrowser(t), site.srv.URL+"/outer")
	if a.o.ViewScan.FramesOmitted != 0 {
		t.Errorf("%d frames omitted, want the remote frame read", a.o.ViewScan.FramesOmitted)
	}
	// A saved capture keeps the frame's document: read back, it gives
	// the same observation.
	o, snap, err := a.s.Observe(a.ctx, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a.o = o
	_, in := saveAndLoad(t, snap.Envelope(), false)
	back, err := domsnap.Observe(in.Tree, in.Revision, nil)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := domsnap.Observe(snap.Tree, snap.Revision, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(saved.Canonical(), back.Canonical()) || !strings.Contains(string(back.Canonical()), "Work email") {
		t.Errorf("the saved capture reads back differently:\n%v", jsonDiff(saved.Canonical(), back.Canonical()))
	}
	a.act(a.control("textbox", "Work email"), Action{Kind: ActType, Text: canary}, OutcomeDone)
	a.act(a.control("button", "Join"), Action{Kind: ActClick}, OutcomeDone)
	want := "GET /sent?n=" + itoa(uint64(len(canary)))
	found := false
	for _, s := range site.requests() {
		found = found || s == want
	}
	if !found {
		t.Errorf("the frame's button sent %v, want %q", site.requests(), want)
	}
	if !strings.Contains(a.observe().Text, "Joined.") {
		t.Errorf("the frame's new document is not in the page view: %q", a.o.Text)
	}
	for _, b := range [][]byte{a.o.Canonical()} {
		if strings.Contains(string(b), canary) {
			t.Error("an observation holds the typed canary")
		}
	}
}

// nestedScopePages nest two open shadow roots in one another in three
// documents: the page's, a srcdoc frame's (rendered in the page's process)
// and a frame's of another site (rendered in a process of its own). In
// each, the inner root's button and the outer root's button are labelled
// by an element id=n of their own tree, and both trees have one.
var nestedScopePages = map[string]string{
	"/scopes": `<!DOCTYPE html><title>scopes</title>` + nestedScopes("Page") + `
<iframe srcdoc="` + strings.ReplaceAll(nestedScopes("Srcdoc"), `"`, "&quot;") + `"></iframe>
<iframe id="x"></iframe>
<script>document.getElementById("x").src = location.href.replace("127.0.0.1", "localhost").replace("/scopes", "/scopes-remote");</script>`,
	"/scopes-remote": `<!DOCTYPE html><title>remote scopes</title>` + nestedScopes("Remote"),
}

// nestedScopes is a host whose open root holds an id=n, a button
// labelled by it and a host whose open root holds its own.
func nestedScopes(doc string) string {
	return `<x-outer><template shadowrootmode="open"><span id="n">` + doc + ` outer</span>` +
		`<x-inner><template shadowrootmode="open"><span id="n">` + doc + ` inner</span>` +
		`<button aria-labelledby="n">i</button></template></x-inner>` +
		`<button aria-labelledby="n">o</button></template></x-outer>`
}

// TestFramesNestedShadowScopes: nested shadow roots of one mode are told
// apart in a frame's document as in the page's, whether the frame is
// rendered in the page's process or another (the capture's marks cannot
// tell them apart, so the browser is asked in each), so each button is
// named from its own tree, as Chromium names it; a saved capture keeps
// what the browser said and reads back to the same names.
func TestFramesNestedShadowScopes(t *testing.T) {
	site := newActSite(t, nestedScopePages)
	a, _ := openComposed(t, actBrowser(t), site.srv.URL+"/scopes")
	if a.o.ViewScan.FramesOmitted != 0 {
		t.Errorf("%d frames omitted, want both read", a.o.ViewScan.FramesOmitted)
	}
	want := []string{"Page outer", "Page inner", "Srcdoc outer", "Srcdoc inner", "Remote outer", "Remote inner"}
	names := func(o *domsnap.Observation) map[string]int {
		got := map[string]int{}
		for _, c := range o.Controls {
			if c.Role == "button" {
				got[c.Name]++
			}
		}
		return got
	}
	got := names(a.o)
	for _, w := range want {
		if got[w] != 1 {
			t.Errorf("%d buttons named %q, want 1; the buttons: %v", got[w], w, got)
		}
	}
	o, snap, err := a.s.Observe(a.ctx, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, in := saveAndLoad(t, snap.Envelope(), false)
	back, err := domsnap.Observe(in.Tree, in.Revision, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(names(o), names(back)) || !maps.Equal(names(o), got) {
		t.Errorf("read back from the saved capture: %v, want %v", names(back), names(o))
	}
}

// movingFramePages hold frames that change while the page is read.
var movingFramePages = map[string]string{
	// A frame removed and put back on every task.
	"/flap": `<!DOCTYPE html><title>flap</title><button>Stay</button><div id="d"></div><script>
const d = document.getElementById("d");
let n = 0;
const flap = () => { d.innerHTML = n++ % 2 ? "" : '<iframe srcdoc="<button>Flapping</button>"></iframe>'; setTimeout(flap, 0); };
flap();
</script>`,
	// A frame of another site that loads itself again and again.
	"/renav-outer": `<!DOCTYPE html><title>renav</title><button>Stay</button><iframe id="x"></iframe>
<script>document.getElementById("x").src = location.href.replace("127.0.0.1", "localhost").replace("/renav-outer", "/renav");</script>`,
	"/renav": `<!DOCTYPE html><title>renav inner</title><button>Moving</button><script>setTimeout(() => location.reload(), 5)</script>`,
	// A frame that removes itself when its button is pressed down.
	"/gone": `<!DOCTYPE html><title>gone</title><iframe id="g" srcdoc="<button>Vanish</button>"></iframe>`,
}

// TestFramesMovingWhileCaptured: frames that are removed and put back on
// every task, or that load themselves again and again in another
// process, end every observation within its deadline with one state of
// the page (the frame read whole, or counted); acting on a control of a
// frame removed since the observation is refused as detached, with
// nothing sent.
func TestFramesMovingWhileCaptured(t *testing.T) {
	site := newActSite(t, movingFramePages)
	b := actBrowser(t)
	for _, path := range []string{"/flap", "/renav-outer"} {
		at := openActTab(t, b, site.srv.URL+path)
		for i := 0; i < 3; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			start := time.Now()
			o, _, err := at.s.Observe(ctx, ReadOptions{})
			cancel()
			if d := time.Since(start); d > 25*time.Second {
				t.Errorf("%s: the observation took %v past a 20 s deadline", path, d)
			}
			if err != nil {
				if c := errcode.CodeOf(err); c != errcode.Timeout {
					t.Errorf("%s: %v, want an answer or timeout", path, err)
				}
				continue
			}
			var names []string
			for _, c := range o.Controls {
				names = append(names, c.Name)
			}
			got := strings.Join(names, ",")
			switch {
			case got == "Stay" && o.ViewScan.FramesOmitted <= 1:
			case (got == "Stay,Flapping" || got == "Stay,Moving") && o.ViewScan.FramesOmitted == 0:
			default:
				t.Errorf("%s: controls %q with %d frames omitted: not one state of the page", path, got, o.ViewScan.FramesOmitted)
			}
			t.Logf("%s: %q, %d omitted", path, got, o.ViewScan.FramesOmitted)
		}
	}
	a, p := openComposed(t, b, site.srv.URL+"/gone")
	c := a.control("button", "Vanish")
	if _, err := p.Evaluate(a.ctx, `document.getElementById("g").remove(), 1`); err != nil {
		t.Fatal(err)
	}
	_, err := a.s.Act(a.ctx, a.o.Revision, c.Ref, Action{Kind: ActClick}, ActOptions{Deadline: time.Now().Add(time.Minute)})
	var sent *SentError
	if Reason(err) != ReasonDetached || errors.As(err, &sent) {
		t.Errorf("a click in a removed frame: %v, want detached with nothing sent", err)
	}
}
