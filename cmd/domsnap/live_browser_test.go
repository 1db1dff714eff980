//go:build browser

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/pageserve"

	"github.com/domsnap/domsnap/snapshot"
)

func servePage(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := pageserve.Serve(data, info.Charset)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.URL()
}

// browserTimeout is the --timeout the browser tests give a live command
// whose deadline is not what they test. The default covers the browser's
// launch too, which a loaded machine can stretch past it: these tests are
// about what the command answers, not about how fast the machine is.
const browserTimeout = "4m"

// runLive runs a live command (its name first) with browserTimeout, given
// before the caller's own flags so that a --timeout among them wins.
func runLive(t *testing.T, args ...string) result {
	t.Helper()
	return runCmd(t, "", append([]string{args[0], "--timeout", browserTimeout}, args[1:]...)...)
}

// captureToFile runs `domsnap capture URL -o FILE` into a fresh folder and
// returns the file's path and bytes; a .gz name asks for gzip.
func captureToFile(t *testing.T, url, name string) (string, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	if r := runLive(t, "capture", url, "-o", out); r.code != exitOK {
		t.Fatalf("capture: exit %d, stderr %q", r.code, r.stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, data
}

// TestCaptureThenExtract captures a live page into a snapshot file and
// extracts from it offline: the file keeps the live revision, and the result
// finds the table.
func TestCaptureThenExtract(t *testing.T) {
	url := servePage(t, example)
	for _, name := range []string{"snap.json", "snap.json.gz"} {
		out, data := captureToFile(t, url, name)
		in, err := snapshot.Load(data, snapshot.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if in.Format != snapshot.FormatEnvelope || in.Gzip != strings.HasSuffix(name, ".gz") || !strings.HasPrefix(in.Revision, "r1.") || strings.HasPrefix(in.Revision, "r1.file.") {
			t.Fatalf("loaded %s: format %v gzip %v revision %q", name, in.Format, in.Gzip, in.Revision)
		}
		if !strings.HasPrefix(in.Envelope.Browser, "Chrome/") {
			t.Fatalf("browser %q", in.Envelope.Browser)
		}
		r := runCmd(t, "", append(append([]string{"extract"}, exampleArgs...), out)...)
		if r.code != exitOK {
			t.Fatalf("extract: exit %d, stderr %q", r.code, r.stderr)
		}
		var got struct {
			Revision   string
			Collection struct{ Found bool }
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || !got.Collection.Found || got.Revision != in.Revision {
			t.Fatalf("extract of the capture: %v %+v", err, got)
		}
	}
}

// TestExtractLiveMatchesOffline runs the example request live and offline:
// everything but the revision and evidence references agrees, so the digests
// are equal.
func TestExtractLiveMatchesOffline(t *testing.T) {
	url := servePage(t, example)
	liveRun := runLive(t, append(append([]string{"extract"}, exampleArgs...), "--live", url)...)
	if liveRun.code != exitOK {
		t.Fatalf("live: exit %d, stderr %q", liveRun.code, liveRun.stderr)
	}
	offRun := runCmd(t, "", append(append([]string{"extract"}, exampleArgs...), example)...)
	var l, o struct{ Revision, Digest string }
	json.Unmarshal([]byte(liveRun.stdout), &l)
	json.Unmarshal([]byte(offRun.stdout), &o)
	if !strings.HasSuffix(l.Revision, ".n1.o1") || l.Digest == "" || l.Digest != o.Digest {
		t.Fatalf("live %+v, offline %+v", l, o)
	}
	// A request naming another session's revision is refused with exit 3.
	req := writeTemp(t, "req.json", `{"expected_revision":"r1.0123456789abcdef.n1.o1","kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`)
	r := runLive(t, "extract", "--request", req, "--live", url)
	if r.code != exitRevision || !strings.HasPrefix(r.stderr, "foreign_revision: ") {
		t.Fatalf("foreign revision: exit %d, stderr %q", r.code, r.stderr)
	}
	obs := runLive(t, "extract", "--observation", "--live", url)
	if obs.code != exitOK || !strings.Contains(obs.stdout, `"inventory":[`) {
		t.Fatalf("observation: exit %d, stdout %q, stderr %q", obs.code, obs.stdout, obs.stderr)
	}
}

func TestParityCommand(t *testing.T) {
	agree := filepath.Join("..", "..", "testdata", "html", "table-basic.html")
	r := runLive(t, "parity", agree)
	if r.code != exitOK || !strings.Contains(r.stdout, "agree") {
		t.Fatalf("agreeing page: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	// Offline analysis does not compute content-visibility; the browser gives
	// the descendants of a content-visibility: hidden element no layout
	// object, so this table is not rendered live only. The command reports
	// the differences and fails.
	differ := writeTemp(t, "cv.html", `<!DOCTYPE html><div style="content-visibility: hidden">`+
		`<table><tr><td>only offline</td></tr></table></div>`)
	r = runLive(t, "parity", agree, differ)
	if r.code != exitFailure || !strings.Contains(r.stdout, "cv.html: request 0: /collection/found: offline true, live false") ||
		!strings.Contains(r.stdout, "table-basic.html: offline and live agree") {
		t.Fatalf("differing page: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestVersionShowsBrowser(t *testing.T) {
	r := runCmd(t, "", "version", "--browser")
	if r.code != exitOK || !strings.Contains(r.stdout, "browser Chrome/") {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestParityKnown: with the project's divergence table, a page whose every
// difference is listed passes and the rows seen are named; a difference the
// table does not list fails, and a listed row that agrees is reported.
func TestParityKnown(t *testing.T) {
	html := filepath.Join("..", "..", "testdata", "html")
	agree := filepath.Join(html, "table-basic.html")
	listed := filepath.Join(html, "css-csp-meta.html")
	table := filepath.Join("..", "..", "docs", "divergences.md")
	r := runLive(t, "parity", "--known", table, agree, listed)
	if r.code != exitOK {
		t.Fatalf("listed differences only: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"table-basic.html: offline and live agree",
		"css-csp-meta.html: request 1: /coverage/rows_returned: offline 1, live 3 (listed: css-csp-meta 1)\n",
		"listed in " + table + " and seen: 3 rows: css-csp-meta 1, css-csp-meta 2, css-csp-meta inventory\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "parity: 1 of 2 files differ, every difference listed in "+table+"\n" {
		t.Errorf("stderr %q", r.stderr)
	}

	// A page the table does not list, and a table row for a page that agrees.
	unlisted := writeTemp(t, "cv.html", `<!DOCTYPE html><div style="content-visibility: hidden">`+
		`<table><tr><td>only offline</td></tr></table></div>`)
	own := writeTemp(t, "known.md", "| fixture | request | cause |\n|---|---|---|\n"+
		"| `css-csp-meta` | all | a meta content security policy |\n| `table-basic` | 0 | a row that no longer differs |\n")
	r = runLive(t, "parity", "--known", own, agree, listed, unlisted)
	if r.code != exitFailure || r.stderr != "parity: 1 of 3 files differ in ways "+own+" does not list\n" {
		t.Fatalf("unlisted difference: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, want := range []string{
		"cv.html: request 0: /collection/found: offline true, live false\n",
		"(listed: css-csp-meta all)",
		"listed in " + own + " and seen: 1 rows: css-csp-meta all\n",
		"listed in " + own + " but agreeing now: table-basic 0\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}
