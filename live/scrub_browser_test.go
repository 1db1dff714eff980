//go:build browser

package live

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mafredri/cdp/protocol/input"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// savedCanaryPage pre-fills a canary in the value attribute of a text,
// password, email, hidden and checkbox input and in a textarea; the button
// inputs' captions must survive a save.
const savedCanaryPage = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Saved canaries</title></head><body>
<form>
<label>Name <input name="name" value="CANARY-SAVED-TEXT"></label>
<label>Pass <input type="password" value="CANARY-SAVED-PASS"></label>
<label>Mail <input type="EMAIL" value="CANARY-SAVED-MAIL"></label>
<input type="hidden" value="CANARY-SAVED-HIDDEN">
<label>Agree <input type="checkbox" value="CANARY-SAVED-CHECK" checked></label>
<label>Notes <textarea>CANARY-SAVED-AREA</textarea></label>
<label>Plan <select><option>Basic</option><option>Pro</option></select></label>
<input type="submit" value="Send now"><input type="reset" value="Start over"><input type="button" value="Press me">
</form></body></html>`

// TestSavedSnapshotSecretCanaries: a live capture of a page whose controls
// hold pre-filled canaries, one typed by a person, a textarea value set by
// script and an option chosen after load holds all of them as the browser
// sent it; the snapshot saved from it holds none, keeps the button captions
// and the node count, and gives the live results.
func TestSavedSnapshotSecretCanaries(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	srv := serve(t, []byte(savedCanaryPage))
	s, p := openSession(t, b, srv.URL())
	// The extraction below must take a whole snapshot, whose bytes hold
	// the values; a bounded one never reads them (TestBoundedNeverReadsValues).
	s.drv = wholeOnly{p}
	var sent []byte
	s.onCapture = func(raw []byte) { sent = append(sent[:0], raw...) }
	if _, err := p.Evaluate(ctx, `(() => { const e = document.querySelector("input[name=name]"); e.focus(); e.select(); return true })()`); err != nil {
		t.Fatal(err)
	}
	if err := p.Client().Input.InsertText(ctx, input.NewInsertTextArgs("CANARY-SAVED-TYPED")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Evaluate(ctx, `(() => { document.querySelector("textarea").value = "CANARY-SAVED-TAVAL"; document.querySelector("select").selectedIndex = 1; return true })()`); err != nil {
		t.Fatal(err)
	}
	fields := []domsnap.Field{}
	for c := 0; c <= limits.MaxFormColumn; c++ {
		fields = append(fields, domsnap.Field{Name: "c" + string(rune('0'+c)), Column: c, Type: typed.String})
	}
	snap, err := s.Capture(ctx, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req := domsnap.Request{ExpectedRevision: snap.Revision, Kind: aria.Form, Index: 0, Fields: fields, RowLimit: limits.MaxRowLimit}
	res, snap, err := s.Extract(ctx, ReadOptions{Query: req})
	if err != nil {
		t.Fatal(err)
	}
	canaries := []string{"CANARY-SAVED-TEXT", "CANARY-SAVED-PASS", "CANARY-SAVED-MAIL", "CANARY-SAVED-HIDDEN",
		"CANARY-SAVED-CHECK", "CANARY-SAVED-AREA", "CANARY-SAVED-TYPED", "CANARY-SAVED-TAVAL"}
	for _, c := range append(canaries, `"optionSelected":{"index":[`) {
		if !bytes.Contains(sent, []byte(c)) {
			t.Fatalf("%s is not in what the browser sent: the test would prove nothing", c)
		}
	}
	for _, gz := range []bool{false, true} {
		file, in := saveAndLoad(t, snap.Envelope(), gz)
		if gz {
			file = gunzipAll(t, file)
		}
		for _, c := range append(canaries, "optionSelected", "inputValue", "textValue") {
			if bytes.Contains(file, []byte(c)) {
				t.Errorf("gzip=%t: %s in the saved snapshot", gz, c)
			}
		}
		for _, caption := range []string{`"Send now"`, `"Start over"`, `"Press me"`} {
			if !bytes.Contains(file, []byte(caption)) {
				t.Errorf("gzip=%t: button caption %s lost", gz, caption)
			}
		}
		if in.Tree.Len() != snap.Tree.Len() {
			t.Errorf("gzip=%t: %d nodes saved, %d live", gz, in.Tree.Len(), snap.Tree.Len())
		}
		saved := req
		saved.ExpectedRevision = in.Revision
		off, err := domsnap.Extract(in.Tree, in.Revision, saved)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(res.Canonical(), off.Canonical()) {
			t.Errorf("gzip=%t: saved result differs:\n%v", gz, jsonDiff(res.Canonical(), off.Canonical()))
		}
	}
}

// TestScrubKeepsLiveResults: for every fixture page, the results and the
// observation computed from a live capture as the browser sent it are the
// bytes computed from that capture scrubbed and saved.
func TestScrubKeepsLiveResults(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	pages, err := filepath.Glob(filepath.Join("..", "testdata", "html", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no fixture pages: %v", err)
	}
	sort.Strings(pages)
	compared := 0
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := captureHTML(ctx, b, data, "")
			if err != nil {
				t.Fatal(err)
			}
			const rev = "r1.0123456789abcdef.n1.o1"
			tree, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
			if err != nil {
				t.Fatal(err)
			}
			env := snapshot.Envelope{Revision: rev, ComputedStyles: snapshot.DefaultComputedStyles(), Capture: raw}
			_, in := saveAndLoad(t, env, false)
			reqs := loadRequests(t, strings.TrimSuffix(page, ".html")+".requests.json")
			for i, req := range reqs {
				req.ExpectedRevision = rev
				want, err := domsnap.Extract(tree, rev, req)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				got, err := domsnap.Extract(in.Tree, in.Revision, req)
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				if !bytes.Equal(want.Canonical(), got.Canonical()) {
					t.Errorf("request %d: scrubbed result differs:\n%v", i, jsonDiff(want.Canonical(), got.Canonical()))
				}
				compared++
			}
			want, err := domsnap.Observe(tree, rev, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := domsnap.Observe(in.Tree, in.Revision, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Canonical(), got.Canonical()) {
				t.Errorf("scrubbed observation differs:\n%v", jsonDiff(want.Canonical(), got.Canonical()))
			}
		})
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

func gunzipAll(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
