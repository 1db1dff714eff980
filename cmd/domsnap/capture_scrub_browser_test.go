//go:build browser

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/livehook"
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
	raw, err := livehook.Capture(ctx, p, snapshot.DefaultComputedStyles())
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

// editablePage types canaries into contenteditable regions by script once
// the page has loaded, as a person or an editor widget would: an editing
// host, text nested inside one, and a plaintext-only host. The paragraph
// beside them must survive.
const editablePage = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Editable</title></head><body>
<div id="host" contenteditable="true">draft</div>
<div contenteditable><p>intro <b id="deep">x</b></p></div>
<span id="plain" contenteditable="PLAINTEXT-ONLY"></span>
<p>page text stays</p>
<table><tr><th>a</th></tr><tr><td>1</td></tr></table>
<script>addEventListener("load", () => {
  // Spelled in two halves, so the script's own text holds no canary.
  const c = "CANA" + "RY-CE-";
  document.getElementById("host").innerText = c + "HOST";
  document.getElementById("deep").textContent = c + "DEEP";
  document.getElementById("plain").innerText = c + "PLAIN";
});</script>
</body></html>`

var editableCanaries = []string{"CANARY-CE-HOST", "CANARY-CE-DEEP", "CANARY-CE-PLAIN"}

// TestCaptureCommandScrubsEditable: text set in contenteditable regions
// after load is in what the browser sends, and in none of the files
// `domsnap capture` writes; the node count and the page's other text stay.
func TestCaptureCommandScrubsEditable(t *testing.T) {
	url := hostilePage(t, editablePage)
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
	raw, err := livehook.Capture(ctx, p, snapshot.DefaultComputedStyles())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range editableCanaries {
		if !bytes.Contains(raw, []byte(c)) {
			t.Fatalf("%s not in the raw capture: the test would prove nothing", c)
		}
	}
	rawTree, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"editable.json", "editable.json.gz"} {
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
		for _, c := range append(editableCanaries, "CANARY") {
			if bytes.Contains(file, []byte(c)) {
				t.Errorf("%s: %s in the saved snapshot", name, c)
			}
		}
		if !bytes.Contains(file, []byte(`"page text stays"`)) {
			t.Errorf("%s: the page's own text was lost", name)
		}
		in, err := snapshot.Load(data, snapshot.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.Tree.Len() != rawTree.Len() {
			t.Errorf("%s: %d nodes saved, %d in the raw capture", name, in.Tree.Len(), rawTree.Len())
		}
		r := runCmd(t, "", "extract", "--kind", "table", "--field", "a:0:string", out)
		if r.code != exitOK || !strings.Contains(r.stdout, `"found":true`) {
			t.Errorf("%s: extract: exit %d, stdout %q, stderr %q", name, r.code, r.stdout, r.stderr)
		}
	}
}
