//go:build browser

package live

import (
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/domsnap/domsnap/limits"
)

// dialogPages are pages whose buttons raise dialogs: a Delete guarded by
// confirm(), a prompt that writes its answer into the page, a confirm()
// asked again until refused, a 1 MB message, and an alert a timer raises
// outside any action.
var dialogPages = map[string]string{
	"/delete": `<ul id=list><li id=item>Report Q3</li></ul>
<button id=b onclick="if (confirm('Delete\n  Report   Q3?')) document.getElementById('item').remove(); else document.title = 'kept'">Delete</button>`,
	"/prompt": `<p id=out></p><button id=b onclick="const v = prompt('Your name?', 'default-answer'); document.getElementById('out').textContent = v === null ? 'null' : 'len:' + v.length + (v === 'default-answer' ? ':default' : '')">Ask</button>`,
	"/loop":   `<p id=out></p><button id=b onclick="let n = 0; while (confirm('again ' + n) && n < 1000) n++; document.getElementById('out').textContent = String(n)">Loop</button>`,
	"/huge":   `<button id=b onclick="alert('x'.repeat(1 << 20))">Huge</button>`,
	"/timer":  `<script>setTimeout(() => alert('not asked'), 0)</script><button id=b onclick="document.title = 'clicked'">Go</button>`,
}

// TestActDialogs: every dialog an action raises is answered as the action
// asked (dismissed by default) and reported with its type and bounded
// message; an accepted prompt returns the action's text, which no result
// holds; a page that asks again until refused is refused after
// MaxActionDialogs; a dialog outside any action is dismissed and counted.
// Before dialogs were reported, a confirm() answered nothing and its click
// answered done with no trace of it.
func TestActDialogs(t *testing.T) {
	site := newActSite(t, dialogPages)
	b := actBrowser(t)
	const d = 10 * time.Second

	// Dismissed by default: nothing is deleted, and the answer says why.
	a := openActTab(t, b, site.url("/delete"))
	res, err := a.act(Action{Kind: ActClick}, a.target("#b", "button"), d)
	wantOutcome(t, res, err, OutcomeDone)
	if len(res.Dialogs) != 1 || res.Dialogs[0] != (Dialog{Type: "confirm", Message: "Delete Report Q3?"}) {
		t.Fatalf("dismissed confirm reported as %+v", res.Dialogs)
	}
	var left int
	a.eval(`document.querySelectorAll('#item').length`, &left)
	if left != 1 {
		t.Fatal("a dismissed confirm deleted the item")
	}

	// Accepted: the item goes.
	res, err = a.act(Action{Kind: ActClick, Dialog: DialogAccept}, a.target("#b", "button"), d)
	wantOutcome(t, res, err, OutcomeDone)
	a.eval(`document.querySelectorAll('#item').length`, &left)
	if left != 0 || len(res.Dialogs) != 1 || res.Dialogs[0].Type != "confirm" {
		t.Fatalf("accepted confirm: %d items left, %+v", left, res.Dialogs)
	}

	// A prompt: dismissed returns null, accepted without text its
	// default, accepted with text exactly that text, which no result or
	// observation holds.
	a = openActTab(t, b, site.url("/prompt"))
	const canary = "prompt-canary-7f3a"
	for _, c := range []struct {
		act  Action
		want string
	}{
		{Action{Kind: ActClick}, "null"},
		{Action{Kind: ActClick, Dialog: DialogAccept}, "len:14:default"},
		{Action{Kind: ActClick, Dialog: DialogAccept, DialogText: canary, DialogTextSet: true}, "len:18"},
	} {
		res, err := a.act(c.act, a.target("#b", "button"), d)
		wantOutcome(t, res, err, OutcomeDone)
		var got string
		a.eval(`document.getElementById('out').textContent`, &got)
		if got != c.want || len(res.Dialogs) != 1 || res.Dialogs[0] != (Dialog{Type: "prompt", Message: "Your name?"}) {
			t.Errorf("prompt %+v: page says %q, reported %+v", c.act.Dialog, got, res.Dialogs)
		}
		if strings.Contains(fmtResult(res), canary) {
			t.Error("the prompt's text is in the result")
		}
	}

	// Asked again until refused: accepted MaxActionDialogs times, then
	// dismissed, which ends the loop.
	a = openActTab(t, b, site.url("/loop"))
	res, err = a.act(Action{Kind: ActClick, Dialog: DialogAccept}, a.target("#b", "button"), d)
	wantOutcome(t, res, err, OutcomeDone)
	var n string
	a.eval(`document.getElementById('out').textContent`, &n)
	if len(res.Dialogs) != limits.MaxActionDialogs || res.DialogsOmitted != 1 || n != "8" {
		t.Errorf("confirm loop: %d reported, %d omitted, page counted %s", len(res.Dialogs), res.DialogsOmitted, n)
	}

	// A 1 MB message is cut to a cell summary's bound.
	a = openActTab(t, b, site.url("/huge"))
	res, err = a.act(Action{Kind: ActClick}, a.target("#b", "button"), d)
	wantOutcome(t, res, err, OutcomeDone)
	if len(res.Dialogs) != 1 || !res.Dialogs[0].MessageTruncated || len(utf16.Encode([]rune(res.Dialogs[0].Message))) != limits.CellUnits {
		t.Errorf("huge message: %d dialogs, truncated %v", len(res.Dialogs), len(res.Dialogs) > 0 && res.Dialogs[0].MessageTruncated)
	}

	// An alert a timer raised as the page loaded: dismissed, counted by
	// the next action, and not one of its dialogs.
	a = openActTab(t, b, site.url("/timer"))
	res, err = a.act(Action{Kind: ActClick}, a.target("#b", "button"), d)
	wantOutcome(t, res, err, OutcomeDone)
	if res.DialogsOutside != 1 || len(res.Dialogs) != 0 {
		t.Errorf("timer alert: %d outside, %+v", res.DialogsOutside, res.Dialogs)
	}
	res, err = a.act(Action{Kind: ActClick}, a.target("#b", "button"), d)
	wantOutcome(t, res, err, OutcomeDone)
	if res.DialogsOutside != 0 {
		t.Errorf("the timer's alert counted twice: %d", res.DialogsOutside)
	}
}
