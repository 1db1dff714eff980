//go:build browser

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// scrubPage pre-fills a canary in the value attribute of a text, password,
// email, hidden and checkbox input and in a textarea, and selects an option;
// the button captions must survive.
const scrubPage = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Canaries</title></head><body>
<form>
<label>Name <input name="name" value="CANARY-CMD-TEXT"></label>
<label>Pass <input type="password" value="CANARY-CMD-PASS"></label>
<label>Mail <input type="email" value="CANARY-CMD-MAIL"></label>
<input type="hidden" value="CANARY-CMD-HIDDEN">
<label>Agree <input type="checkbox" value="CANARY-CMD-CHECK" checked></label>
<label>Notes <textarea>CANARY-CMD-AREA</textarea></label>
<label>Plan <select><option>Basic</option><option selected>Pro</option></select></label>
<input type="submit" value="Send now"><input type="reset" value="Start over">
</form>
<table><tr><th>a</th></tr><tr><td>1</td></tr></table>
</body></html>`

var cmdCanaries = []string{"CANARY-CMD-TEXT", "CANARY-CMD-PASS", "CANARY-CMD-MAIL", "CANARY-CMD-HIDDEN", "CANARY-CMD-CHECK", "CANARY-CMD-AREA"}

// TestCaptureCommandScrubs: what the browser sends for the page holds every
// canary and the selected option, and the file `domsnap capture` writes,
// plain or gzipped, holds none of them, keeps the captions, and extracts.
func TestCaptureCommandScrubs(t *testing.T) {
	url := servePage(t, writeTemp(t, "canaries.html", scrubPage))

	// The proof that the test can fail: the raw capture holds them.
	ctx := context.Background()
	b, err := live.Launch(ctx, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	raw, err := p.CaptureSnapshot(ctx, live.DefaultComputedStyles)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range append(cmdCanaries, `"optionSelected":{"index":[`) {
		if !bytes.Contains(raw, []byte(c)) {
			t.Fatalf("%s not in the raw capture: the test would prove nothing", c)
		}
	}
	rawTree, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}

	for _, name := range []string{"snap.json", "snap.json.gz"} {
		out, data := captureToFile(t, url, name)
		file := data
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if file, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range append(cmdCanaries, "CANARY", "optionSelected", "inputValue", "textValue") {
			if bytes.Contains(file, []byte(c)) {
				t.Errorf("%s: %s in the saved snapshot", name, c)
			}
		}
		for _, caption := range []string{`"Send now"`, `"Start over"`} {
			if !bytes.Contains(file, []byte(caption)) {
				t.Errorf("%s: caption %s lost", name, caption)
			}
		}
		in, err := snapshot.Load(data, snapshot.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.Tree.Len() != rawTree.Len() {
			t.Errorf("%s: %d nodes saved, %d in the raw capture", name, in.Tree.Len(), rawTree.Len())
		}
		r := runCmd(t, "", "extract", "--kind", "form", "--field", "label:0:string", "--field", "role:1:string", out)
		if r.code != exitOK || strings.Contains(r.stdout, "CANARY") || !strings.Contains(r.stdout, `"found":true`) {
			t.Errorf("%s: extract: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
	}
}
