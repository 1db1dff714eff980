package domsnap_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// The fixture pages live in testdata/html. Each page <name>.html comes with
// <name>.requests.json, a JSON array of extract requests (docs/reference.md#the-request),
// and <name>.golden.json, a JSON array holding, for each request in the same
// order, the canonical result (docs/reference.md#the-result) or {"error":"<code>"} when
// the request or the page is refused. The golden file puts one result on a
// line so that a change shows up in review as the lines of the requests it
// touches.
//
// go test -run TestFixtures -update rewrites the golden files from the
// current code. A rewrite is only the start: every changed line must be read
// against the spec before it is committed, because a golden that records a
// bug protects the bug.
const fixtureDir = "testdata/html"

// canary marks values planted in form controls. The secret rule (docs/reference.md#form-columns) says no such value may appear in any output.
const canary = "CANARY-SECRET"

// minFixturePages keeps the suite from passing by finding nothing: a
// misplaced working directory or a renamed folder must fail loudly.
const minFixturePages = 45

func init() {
	// Another test file of this binary may already own -update; share it
	// rather than defining it twice (which would panic at start-up).
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata from the current results")
	}
}

func updateGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// knownWrong lists golden results that record what the code does today but
// not what the spec asks for. Each entry names the request, a JSON pointer
// into its result, the value the spec asks for there, and the package at
// fault. The test fails when such a value starts to agree with the spec, so
// the entry is removed and the golden regenerated in the same change that
// fixes the bug; until then the golden pins the wrong value on purpose, so
// that nothing else drifts unnoticed.
type wrongCase struct {
	page    string // page name without .html
	request int    // index into the page's requests
	pointer string // JSON pointer into the result
	want    string // the JSON value the spec asks for at pointer
	pkg     string // the package at fault
	why     string // the spec rule
}

var knownWrong = []wrongCase{}

type fixtureOutcome struct {
	bytes []byte
	err   error
}

// runFixture loads the page and runs one request on it, from the bytes up,
// exactly as a caller of the library would.
func runFixture(page, request []byte) fixtureOutcome {
	in, err := snapshot.Load(page, snapshot.LoadOptions{})
	if err != nil {
		return fixtureOutcome{err: err}
	}
	req, err := domsnap.DecodeRequest(request)
	if err != nil {
		return fixtureOutcome{err: err}
	}
	res, err := domsnap.Extract(in.Tree, in.Revision, req)
	if err != nil {
		return fixtureOutcome{err: err}
	}
	return fixtureOutcome{bytes: res.Canonical()}
}

// goldenLine is what the golden file holds for one outcome.
func (o fixtureOutcome) goldenLine() []byte {
	if o.err != nil {
		code := errcode.CodeOf(o.err)
		if code == "" {
			code = "uncoded"
		}
		b, _ := json.Marshal(map[string]string{"error": string(code)})
		return b
	}
	return o.bytes
}

func fixturePages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(fixtureDir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < minFixturePages {
		t.Fatalf("found %d fixture pages in %s, want at least %d", len(pages), fixtureDir, minFixturePages)
	}
	names := make([]string, len(pages))
	for i, p := range pages {
		names[i] = strings.TrimSuffix(filepath.Base(p), ".html")
	}
	slices.Sort(names)
	return names
}

func readRequests(t *testing.T, name string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureDir, name+".requests.json"))
	if err != nil {
		t.Fatalf("every page needs its requests: %v", err)
	}
	var reqs []json.RawMessage
	if err := json.Unmarshal(data, &reqs); err != nil {
		t.Fatalf("%s.requests.json: %v", name, err)
	}
	if len(reqs) == 0 {
		t.Fatalf("%s.requests.json holds no request", name)
	}
	return reqs
}

func encodeGolden(lines [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, l := range lines {
		b.Write(l)
		if i < len(lines)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return b.Bytes()
}

func TestFixtures(t *testing.T) {
	names := fixturePages(t)
	wrongSeen := make(map[int]bool)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			page, err := os.ReadFile(filepath.Join(fixtureDir, name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			reqs := readRequests(t, name)
			lines := make([][]byte, len(reqs))
			for i, raw := range reqs {
				first := runFixture(page, raw)
				second := runFixture(page, raw)
				checkOutcome(t, fmt.Sprintf("request %d", i), first, second)
				lines[i] = first.goldenLine()
			}

			goldenPath := filepath.Join(fixtureDir, name+".golden.json")
			if updateGoldens() {
				if err := os.WriteFile(goldenPath, encodeGolden(lines), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("no golden results (run go test -run TestFixtures -update, then review them): %v", err)
			}
			var want []json.RawMessage
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%s: %v", goldenPath, err)
			}
			if len(want) != len(lines) {
				t.Fatalf("%s holds %d results for %d requests", goldenPath, len(want), len(lines))
			}
			for i := range lines {
				if !bytes.Equal(want[i], lines[i]) {
					t.Errorf("request %d: result differs from %s (-want +got):\n%s", i, goldenPath, resultDiff(want[i], lines[i]))
				}
			}
			for k, w := range knownWrong {
				if w.page != name {
					continue
				}
				wrongSeen[k] = true
				if w.request >= len(lines) {
					t.Errorf("known-wrong entry %d names request %d of %d", k, w.request, len(lines))
					continue
				}
				got, ok := pointerValue(lines[w.request], w.pointer)
				if ok && jsonEqual(got, []byte(w.want)) {
					t.Errorf("request %d %s now agrees with the spec (%s): remove the known-wrong entry and review the regenerated golden", w.request, w.pointer, w.want)
				}
			}
		})
	}
	for k, w := range knownWrong {
		if !wrongSeen[k] && !slices.Contains(names, w.page) {
			t.Errorf("known-wrong entry %d names page %q, which does not exist", k, w.page)
		}
	}
}

// checkOutcome asserts what must hold for every result, golden or not:
// determinism, valid JSON, the byte cap, and the secret rule.
func checkOutcome(t *testing.T, what string, first, second fixtureOutcome) {
	t.Helper()
	if (first.err == nil) != (second.err == nil) || !bytes.Equal(first.goldenLine(), second.goldenLine()) {
		t.Errorf("%s: two runs differ:\n%s", what, cmp.Diff(string(first.goldenLine()), string(second.goldenLine())))
	}
	if first.err != nil {
		if strings.Contains(first.err.Error(), canary) {
			t.Errorf("%s: error message carries a planted form value", what)
		}
		t.Logf("%s: refused: %v", what, first.err)
		return
	}
	got := first.bytes
	if !json.Valid(got) {
		t.Errorf("%s: canonical result is not valid JSON", what)
	}
	if len(got) > limits.ExtractionBytes {
		t.Errorf("%s: canonical result is %d bytes, above the cap of %d", what, len(got), limits.ExtractionBytes)
	}
	if bytes.Contains(got, []byte(canary)) {
		t.Errorf("%s: canonical result carries a planted form value", what)
	}
	if bytes.HasSuffix(got, []byte("\n")) || bytes.Contains(got, []byte("\n")) {
		t.Errorf("%s: canonical result holds a raw newline", what)
	}
}

// resultDiff shows a structural diff when both sides are JSON, so a changed
// cell is named by its path rather than buried in one long line; when the
// values are equal but the bytes are not (key order, escaping, number
// form), it shows the bytes.
func resultDiff(want, got []byte) string {
	w, werr := decodeNumbers(want)
	g, gerr := decodeNumbers(got)
	if werr == nil && gerr == nil {
		if d := cmp.Diff(w, g); d != "" {
			return d
		}
	}
	return cmp.Diff(string(want), string(got))
}

// decodeNumbers decodes JSON keeping numbers as their text, so that -0 and
// 0, or 1e3 and 1000, still differ in a structural diff.
func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// pointerValue resolves an RFC 6901 JSON pointer in a JSON document.
func pointerValue(doc []byte, pointer string) (json.RawMessage, bool) {
	cur := json.RawMessage(doc)
	if pointer == "" {
		return cur, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		trimmed := bytes.TrimLeft(cur, " \t\r\n")
		switch {
		case len(trimmed) > 0 && trimmed[0] == '{':
			var obj map[string]json.RawMessage
			if json.Unmarshal(cur, &obj) != nil {
				return nil, false
			}
			next, ok := obj[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case len(trimmed) > 0 && trimmed[0] == '[':
			var arr []json.RawMessage
			if json.Unmarshal(cur, &arr) != nil {
				return nil, false
			}
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(arr) {
				return nil, false
			}
			cur = arr[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func jsonEqual(a, b []byte) bool {
	x, err := decodeNumbers(a)
	if err != nil {
		return false
	}
	y, err := decodeNumbers(b)
	if err != nil {
		return false
	}
	return cmp.Equal(x, y)
}

// TestFixtureObservations runs every page's requests through Observe and
// Project as well: the secret rule covers every output, the inventory and
// the model projection included, and both must be deterministic and, for the
// projection, within its default budget. The revision must be the file
// revision of the page's bytes (docs/reference.md#revisions).
func TestFixtureObservations(t *testing.T) {
	for _, name := range fixturePages(t) {
		t.Run(name, func(t *testing.T) {
			page, err := os.ReadFile(filepath.Join(fixtureDir, name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			in, err := snapshot.Load(page, snapshot.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want := snapshot.FileRevision(page); in.Revision != want {
				t.Errorf("revision %q, want the file revision %q", in.Revision, want)
			}
			reqs := readRequests(t, name)
			for i := -1; i < len(reqs); i++ {
				var req *domsnap.Request
				what := "no request"
				if i >= 0 {
					r, err := domsnap.DecodeRequest(reqs[i])
					if err != nil {
						t.Fatalf("request %d: %v", i, err)
					}
					req, what = &r, fmt.Sprintf("request %d", i)
				}
				first, err := observeBytes(in, req)
				if err != nil {
					t.Errorf("%s: %v", what, err)
					continue
				}
				second, _ := observeBytes(in, req)
				if !bytes.Equal(first.obs, second.obs) || !bytes.Equal(first.proj, second.proj) {
					t.Errorf("%s: two observations differ", what)
				}
				for _, b := range [][]byte{first.obs, first.proj} {
					if !json.Valid(b) {
						t.Errorf("%s: not valid JSON", what)
					}
					if bytes.Contains(withoutOptions(t, b), []byte(canary)) {
						t.Errorf("%s: output carries a planted form value", what)
					}
				}
				if len(first.proj) > limits.ModelBytes {
					t.Errorf("%s: projection is %d bytes, above its budget of %d", what, len(first.proj), limits.ModelBytes)
				}
			}
		})
	}
}

type observed struct{ obs, proj []byte }

func observeBytes(in *snapshot.Input, req *domsnap.Request) (observed, error) {
	o, err := domsnap.Observe(in.Tree, in.Revision, req)
	if err != nil {
		return observed{}, err
	}
	p, err := domsnap.Project(o, limits.ModelBytes)
	if err != nil {
		return observed{}, err
	}
	return observed{o.Canonical(), p.Canonical()}, nil
}

// TestFixtureCanariesArePlanted keeps the secret assertions meaningful: the
// pages that fill form controls must still carry their canaries in the
// input, so "no canary in the output" is a finding and not a tautology.
func TestFixtureCanariesArePlanted(t *testing.T) {
	pages := []string{"cells-editable", "form-labels-native", "form-labels-fallbacks", "form-labels-labelledby", "form-layout", "live-filled-form", "live-shadow-root", "live-iframe"}
	for _, name := range pages {
		data, err := os.ReadFile(filepath.Join(fixtureDir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(canary)) {
			t.Errorf("%s.html carries no %s value", name, canary)
		}
	}
}

// TestFixtureRequestsAreValid keeps the request files honest on their own:
// every request must pass the strict decoder, so a golden never records a
// typo in a request as if it were a finding about the page.
func TestFixtureRequestsAreValid(t *testing.T) {
	for _, name := range fixturePages(t) {
		for i, raw := range readRequests(t, name) {
			if _, err := domsnap.DecodeRequest(raw); err != nil {
				t.Errorf("%s request %d: %v", name, i, err)
			}
		}
	}
}

// TestFixturePagesAreSelfContained checks what the live parity run relies
// on: a page loads nothing from outside and runs no script, and says at the
// top what it shows.
func TestFixturePagesAreSelfContained(t *testing.T) {
	forbidden := []string{"<script src", "<link", "@import", "http://", "https://", "<object", "<embed"}
	// Pages that show an offline/live divergence of docs/divergences.md may
	// hold exactly the construct they show; parity serves any request they
	// make as a failure, and a data: URL needs no request.
	allowed := map[string]string{"css-import": "@import", "css-link-stylesheet": "<link"}
	// Quirks mode needs a page without a doctype.
	noDoctype := map[string]bool{"css-quirks-mode": true}
	for _, name := range fixturePages(t) {
		data, err := os.ReadFile(filepath.Join(fixtureDir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		lower := strings.ToLower(string(data))
		for _, f := range forbidden {
			if strings.Contains(lower, f) && allowed[name] != f {
				t.Errorf("%s.html contains %q", name, f)
			}
		}
		head := lower
		if len(head) > 400 {
			head = head[:400]
		}
		if (!noDoctype[name] && !strings.HasPrefix(lower, "<!doctype html>")) || !strings.Contains(head, "<!--") {
			t.Errorf("%s.html must start with a doctype and a comment saying what it shows", name)
		}
	}
}

// TestPointerValue covers the small JSON-pointer reader the known-wrong list
// relies on, so an entry cannot pass by naming a path that resolves to nothing.
func TestPointerValue(t *testing.T) {
	doc := []byte(`{"a":{"b/c":[1,{"d~e":"x"}]},"n":null}`)
	cases := []struct {
		ptr  string
		want string
		ok   bool
	}{
		{"", string(doc), true},
		{"/a/b~1c/0", "1", true},
		{"/a/b~1c/1/d~0e", `"x"`, true},
		{"/n", "null", true},
		{"/a/b~1c/2", "", false},
		{"/a/missing", "", false},
		{"/a/b~1c/-1", "", false},
		{"a", "", false},
	}
	for _, c := range cases {
		got, ok := pointerValue(doc, c.ptr)
		if ok != c.ok || (ok && !jsonEqual(got, []byte(c.want))) {
			t.Errorf("pointerValue(%q) = %s, %v; want %s, %v", c.ptr, got, ok, c.want, c.ok)
		}
	}
}

// withoutOptions is an observation or projection with every control's
// options list removed. A select's options are what the page offers, and
// the page view lists them all, never saying which one is chosen
// (docs/reference.md#the-page-view); the fixtures plant canaries in option
// texts to prove that nothing else reads them: no cell, label, name or
// page text.
func withoutOptions(t *testing.T, b []byte) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	controls, _ := v["controls"].([]any)
	for _, c := range controls {
		delete(c.(map[string]any), "options")
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
