package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/snapshot"
)

const example = "../../examples/products.html"

// result is one in-process run of the command.
type result struct {
	code           int
	stdout, stderr string
}

func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var exampleArgs = []string{"--kind", "table", "--index", "0", "--field", "product:0:string:required", "--field", "price:2:number"}

func TestExtractExample(t *testing.T) {
	r := runCmd(t, "", append(append([]string{"extract"}, exampleArgs...), example)...)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if !strings.HasSuffix(r.stdout, "}\n") || strings.HasSuffix(r.stdout, "\n\n") {
		t.Errorf("output must end with exactly one newline: %q", r.stdout[max(0, len(r.stdout)-10):])
	}
	var got struct {
		Revision   string
		Collection struct{ Found bool }
		Rows       []struct {
			Valid bool
			Cells []struct {
				Name, Status string
				Value        any
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(example)
	if !got.Collection.Found || got.Revision != snapshot.FileRevision(data) || len(got.Rows) < 3 {
		t.Fatalf("unexpected result %s", r.stdout)
	}
	var sawInvalidPrice, sawValidPrice bool
	for _, row := range got.Rows[1:] {
		if row.Cells[1].Status == "invalid" && !row.Valid {
			sawInvalidPrice = true
		}
		if _, ok := row.Cells[1].Value.(float64); ok && row.Valid {
			sawValidPrice = true
		}
	}
	if !sawInvalidPrice || !sawValidPrice {
		t.Errorf("the example should show a typed price and an invalid one: %s", r.stdout)
	}

	// Flags after INPUT, and the input on standard input, print the same bytes.
	after := runCmd(t, "", append([]string{"extract", example}, exampleArgs...)...)
	stdin := runCmd(t, string(data), append(append([]string{"extract"}, exampleArgs[:4]...), append([]string{"-"}, exampleArgs[4:]...)...)...)
	for _, other := range []result{after, stdin} {
		if other.code != exitOK || other.stdout != r.stdout {
			t.Errorf("exit %d, output differs:\n%s\n%s", other.code, r.stdout, other.stdout+other.stderr)
		}
	}
}

func TestExtractTableFormat(t *testing.T) {
	r := runCmd(t, "", append(append([]string{"extract", "--format", "table"}, exampleArgs...), example)...)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"table 0 (native)", "product (string)", "price (number)", `invalid "sold out"`, "header", "complete: yes"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("table output lacks %q:\n%s", want, r.stdout)
		}
	}

	hostile := writeTemp(t, "hostile.html", "<table><tr><td>&#x1b;[31mred&#x202e;evil&#7;</td><td>"+strings.Repeat("long ", 40)+"</td></tr></table>")
	r = runCmd(t, "", "extract", "--format", "table", "--kind", "table", "--field", "a:0:string", "--field", "b:1:string", hostile)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.ContainsAny(r.stdout, "\x1b\u202e\x07") {
		t.Errorf("control characters reach the terminal: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, `\x1b[31mred\u202eevil\a`) || !strings.Contains(r.stdout, "…") {
		t.Errorf("escaped or shortened text missing: %q", r.stdout)
	}
}

func TestExtractExitCodes(t *testing.T) {
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	rev := snapshot.FileRevision(data)
	reqFile := func(body string) string { return writeTemp(t, "req.json", body) }
	okReq := `{"kind":"table","index":0,"fields":[{"name":"product","column":0,"type":"string"}]`
	cases := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string // prefix of the first line
	}{
		{"no arguments", "", nil, exitUsage, "usage:"},
		{"unknown command", "", []string{"frobnicate"}, exitUsage, "usage: unknown command"},
		{"no input", "", []string{"extract", "--kind", "table", "--field", "a:0:string"}, exitUsage, "usage: extract needs an INPUT"},
		{"two inputs as a table", "", []string{"extract", "--format", "table", "--kind", "table", "--field", "a:0:string", example, example}, exitUsage, "usage: several inputs print one JSON line each"},
		{"no kind", "", []string{"extract", example}, exitUsage, "usage: extract needs --kind"},
		{"unknown flag", "", []string{"extract", "--selector", "#x", example}, exitUsage, "usage: unknown flag \"-selector\"\n"},
		{"bad index flag", "", []string{"extract", "--index", "x", example}, exitUsage, "usage: invalid value"},
		{"request with kind", "", []string{"extract", "--request", reqFile(okReq + "}"), "--kind", "table", example}, exitUsage, "usage: --request cannot be combined with --kind"},
		{"request with rows", "", []string{"extract", example, "--rows", "3", "--request", reqFile(okReq + "}")}, exitUsage, "usage: --request cannot be combined with --rows"},
		{"request and input both stdin", "", []string{"extract", "--request", "-", "-"}, exitUsage, "usage: standard input cannot be both"},
		{"bad format", "", []string{"extract", "--format", "xml", "--kind", "table", "--field", "a:0:string", example}, exitUsage, "usage: --format"},
		{"field shape", "", []string{"extract", "--kind", "table", "--field", "a:0", example}, exitUsage, "usage: --field"},
		{"field flag", "", []string{"extract", "--kind", "table", "--field", "a:0:string:optional", example}, exitUsage, "usage: --field"},
		{"live with input", "", []string{"extract", "--live", "http://127.0.0.1/", "--kind", "table", "--field", "a:0:string", example}, exitUsage, "usage: --live takes no INPUT"},

		{"index out of range", "", []string{"extract", "--kind", "table", "--index", "16", "--field", "a:0:string", example}, exitUsage, "invalid_request: /index: "},
		{"bad kind", "", []string{"extract", "--kind", "grid", "--field", "a:0:string", example}, exitUsage, "invalid_request: /kind: "},
		{"bad name", "", []string{"extract", "--kind", "table", "--field", "a:0:string", "--field", "B:1:string", example}, exitUsage, "invalid_request: /fields/1/name: "},
		{"bad type", "", []string{"extract", "--kind", "table", "--field", "a:0:float", example}, exitUsage, "invalid_request: /fields/0/type: "},
		{"list column", "", []string{"extract", "--kind", "list", "--field", "a:1:string", example}, exitUsage, "invalid_request: /fields/0/column: "},
		{"rows zero", "", []string{"extract", "--kind", "table", "--rows", "0", "--field", "a:0:string", example}, exitUsage, "invalid_request: /row_limit: "},
		{"rows 51", "", []string{"extract", "--kind", "table", "--rows", "51", "--field", "a:0:string", example}, exitUsage, "invalid_request: /row_limit: "},
		{"no fields", "", []string{"extract", "--kind", "table", example}, exitUsage, "invalid_request: /fields: "},
		{"request file name", "", []string{"extract", "--request", reqFile(`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"},{"name":"Bad","column":1,"type":"string"}]}`), example}, exitUsage, "invalid_request: /fields/1/name: "},
		{"request unknown key", "", []string{"extract", "--request", reqFile(`{"kind":"table","script":"alert(1)"}`), example}, exitUsage, "invalid_request: /script: "},
		{"request trailing data", "", []string{"extract", "--request", reqFile(okReq + "}}"), example}, exitUsage, "invalid_request: trailing data"},
		{"request on stdin", okReq + `,"index":1}`, []string{"extract", "--request", "-", example}, exitUsage, "invalid_request: /index: duplicate key"},

		{"foreign revision", "", []string{"extract", "--request", reqFile(okReq + `,"expected_revision":"r1.file.0000000000000000"}`), example}, exitRevision, "foreign_revision: "},
		{"live revision against a file", "", []string{"extract", "--request", reqFile(okReq + `,"expected_revision":"r1.abc.n1.o1"}`), example}, exitRevision, "foreign_revision: "},
		{"malformed revision", "", []string{"extract", "--request", reqFile(okReq + `,"expected_revision":"yesterday"}`), example}, exitRevision, "foreign_revision: "},
		{"matching revision", "", []string{"extract", "--request", reqFile(okReq + `,"expected_revision":"` + rev + `"}`), example}, exitOK, ""},

		{"missing file", "", []string{"extract", "--kind", "table", "--field", "a:0:string", filepath.Join(t.TempDir(), "nope.html")}, exitFailure, "unsupported_input: cannot stat the input"},
		{"not found is a result", "", []string{"extract", "--kind", "table", "--index", "3", "--field", "a:0:string", example}, exitOK, ""},
		{"help", "", []string{"help"}, exitOK, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCmd(t, c.stdin, c.args...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, c.code, r.stderr)
			}
			if !strings.HasPrefix(r.stderr, c.stderr) || c.stderr == "" && r.stderr != "" {
				t.Errorf("stderr %q, want prefix %q", r.stderr, c.stderr)
			}
			if c.code != exitOK && r.stdout != "" {
				t.Errorf("a failed run printed %q", r.stdout)
			}
			if c.code == exitOK && c.args[0] == "extract" && !json.Valid([]byte(r.stdout)) {
				t.Errorf("output is not JSON: %q", r.stdout)
			}
		})
	}
}

// TestNoFormValueInOutput plants a canary in every place a form value can
// hide and runs every output path over the page.
func TestNoFormValueInOutput(t *testing.T) {
	const canary = "CANARY-5b1d"
	page := writeTemp(t, "form.html", `<!DOCTYPE html><form>
<label for="a">Name</label><input id="a" value="`+canary+`">
<label>Secret <input type="password" value="`+canary+`"></label>
<textarea aria-label="Notes">`+canary+`</textarea>
<select aria-label="Pick"><option selected>`+canary+`</option></select>
<input type="hidden" value="`+canary+`">
<span id="ref">Ref <input value="`+canary+`"></span><input aria-labelledby="ref" value="`+canary+`">
<div role="textbox" contenteditable="true" aria-label="Rich">`+canary+`</div>
<input type="search" placeholder="Find" value="`+canary+`">
</form><table><tr><td><input value="`+canary+`"> <textarea>`+canary+`</textarea></td></tr></table>
<ul><li><input value="`+canary+`"></li></ul>`)
	var runs []result
	for _, format := range []string{"json", "table"} {
		var fields []string
		for col, name := range []string{"label", "role", "disabled", "checked", "required"} {
			fields = append(fields, "--field", name+":"+string(rune('0'+col))+":string")
		}
		runs = append(runs,
			runCmd(t, "", append([]string{"extract", "--format", format, "--kind", "form", page}, fields...)...),
			runCmd(t, "", "extract", "--format", format, "--kind", "table", "--field", "a:0:string", page),
			runCmd(t, "", "extract", "--format", format, "--kind", "list", "--field", "a:0:string", page),
			runCmd(t, "", "extract", "--format", format, "--kind", "table", "--index", "20", "--field", "a:0:string", page),
		)
	}
	for i, r := range runs {
		if strings.Contains(r.stdout+r.stderr, canary) {
			t.Errorf("run %d leaked a form value:\n%s%s", i, r.stdout, r.stderr)
		}
	}
	if runs[0].code != exitOK || !strings.Contains(runs[0].stdout, `"Name"`) {
		t.Errorf("the form extraction did not run: %d %s %s", runs[0].code, runs[0].stdout, runs[0].stderr)
	}
}

// TestVersion: version prints build information only, so it needs no
// browser: a --chrome-less run with $DOMSNAP_CHROME pointing nowhere still
// succeeds and names no browser. --version is the same command.
func TestVersion(t *testing.T) {
	t.Setenv("DOMSNAP_CHROME", "/nonexistent/chromium")
	r := runCmd(t, "", "version")
	if r.code != exitOK || !strings.Contains(r.stdout, "\ngo go1.") || r.stderr != "" {
		t.Fatalf("exit %d: %q %q", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "browser") {
		t.Errorf("version without --browser looked for a browser: %q", r.stdout)
	}
	for _, alias := range []string{"--version", "-version"} {
		if a := runCmd(t, "", alias); a != r {
			t.Errorf("%s: %+v, want %+v", alias, a, r)
		}
	}
	if b := runCmd(t, "", "version", "--browser"); b.code != exitOK || !strings.HasSuffix(b.stdout, "browser not found\n") {
		t.Errorf("--browser with no browser: exit %d %q", b.code, b.stdout)
	}
	if r := runCmd(t, "", "version", "extra"); r.code != exitUsage {
		t.Errorf("version with an argument: exit %d", r.code)
	}
}

// TestExtractSnapshots runs a bare capture, its envelope and its gzipped
// envelope: the envelope keeps its revision and numbers evidence under the
// revision's sequence, and the digest ignores both.
func TestExtractSnapshots(t *testing.T) {
	capture, err := os.ReadFile("../../testdata/captures/aria-table.json")
	if err != nil {
		t.Fatal(err)
	}
	bare := writeTemp(t, "bare.json", string(capture))
	const rev = "r1.abc123.n2.o7"
	var env, gz bytes.Buffer
	e := snapshot.Envelope{Revision: rev, CapturedAt: "2026-11-30T08:00:00Z", Browser: "Chrome/156.0.8078.108", Capture: capture}
	if err := snapshot.WriteSnapshot(&env, e, false); err != nil {
		t.Fatal(err)
	}
	if err := snapshot.WriteSnapshot(&gz, e, true); err != nil {
		t.Fatal(err)
	}
	envFile := writeTemp(t, "env.json", env.String())
	gzFile := writeTemp(t, "env.json.gz", gz.String())
	args := []string{"extract", "--kind", "table", "--field", "order:0:string:required", "--field", "qty:1:integer"}
	type out struct {
		Revision   string
		Collection struct {
			Found    bool
			Evidence string
		}
		Digest string
	}
	var got []out
	for _, in := range []string{bare, envFile, gzFile} {
		r := runCmd(t, "", append(args, in)...)
		if r.code != exitOK {
			t.Fatalf("%s: exit %d: %s", in, r.code, r.stderr)
		}
		var o out
		if err := json.Unmarshal([]byte(r.stdout), &o); err != nil {
			t.Fatal(err)
		}
		got = append(got, o)
	}
	if got[0].Revision != snapshot.FileRevision(capture) || got[0].Collection.Evidence != "e0.1" || !got[0].Collection.Found {
		t.Errorf("bare capture: %+v", got[0])
	}
	for _, o := range got[1:] {
		if o.Revision != rev || o.Collection.Evidence != "e7.1" || o.Digest != got[0].Digest {
			t.Errorf("envelope: %+v, bare digest %s", o, got[0].Digest)
		}
	}
	// The envelope's own revision is what an expected revision is checked against.
	r := runCmd(t, `{"expected_revision":"r1.abc123.n2.o6","kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`,
		"extract", "--request", "-", envFile)
	if r.code != exitRevision || !strings.HasPrefix(r.stderr, "stale_revision: ") {
		t.Errorf("older sequence: exit %d, %q", r.code, r.stderr)
	}
}

func TestExtractCharset(t *testing.T) {
	// "café" in windows-1252 is not valid UTF-8, so sniffing picks
	// windows-1252; --charset forces another reading.
	page := writeTemp(t, "latin.html", "<ul><li>caf\xe9</li></ul>")
	args := []string{"extract", "--kind", "list", "--field", "a:0:string", page}
	r := runCmd(t, "", args...)
	if r.code != exitOK || !strings.Contains(r.stdout, `"value":"café"`) {
		t.Fatalf("sniffed: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "", append(args, "--charset", "iso-8859-7")...)
	if r.code != exitOK || !strings.Contains(r.stdout, `"value":"cafι"`) {
		t.Errorf("--charset iso-8859-7: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// TestExampleRequestFile: the bundled request file asks exactly what the
// flags of the documented command ask.
func TestExampleRequestFile(t *testing.T) {
	flags := runCmd(t, "", append(append([]string{"extract"}, exampleArgs...), example)...)
	file := runCmd(t, "", "extract", "--request", "../../examples/products.request.json", example)
	if flags.code != exitOK || file.code != exitOK || flags.stdout != file.stdout {
		t.Fatalf("exit %d and %d, outputs differ:\n%s\n%s%s", flags.code, file.code, flags.stdout, file.stdout, file.stderr)
	}
}

func TestExtractTableNotFoundAndDashDash(t *testing.T) {
	r := runCmd(t, "", "extract", "--format", "table", "--kind", "form", "--index", "4", "--field", "l:0:string", "--", example)
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "form 4 not found: absent\n") || !strings.Contains(r.stdout, "complete: yes") {
		t.Fatalf("exit %d: %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "", "extract", "-h")
	if r.code != exitOK || !strings.Contains(r.stdout, "-field") || r.stderr != "" {
		t.Errorf("-h: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// A row with an unsupported span has no cells; the rows after it must stay
// aligned with the rows before it, and no line ends in padding.
func TestExtractTableFormatSpanRowKeepsColumns(t *testing.T) {
	page := writeTemp(t, "span.html", `<table><tr><td>alpha</td><td>1</td></tr>`+
		`<tr><td colspan=2>wide</td></tr><tr><td>b</td><td>2</td></tr></table>`)
	r := runCmd(t, "", "extract", "--format", "table", "--kind", "table",
		"--field", "name:0:string", "--field", "n:1:integer", page)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	var first, last string
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line ends in padding: %q", l)
		}
		switch {
		case strings.Contains(l, `"alpha"`):
			first = l
		case strings.Contains(l, `"b"`):
			last = l
		}
	}
	if !strings.Contains(r.stdout, "(unsupported_span: no cells)") {
		t.Fatalf("span row not shown:\n%s", r.stdout)
	}
	if strings.LastIndex(first, "1") != strings.LastIndex(last, "2") {
		t.Errorf("columns after the span row moved:\n%s", r.stdout)
	}
}

// TestMissingInputHasACode: one INPUT that cannot be read fails with a
// coded error line, the same code and message a many-inputs line gives it,
// and never the path (the person typed it; the line holds it).
func TestMissingInputHasACode(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.html")
	for _, c := range []struct {
		input, want string
	}{
		{missing, "unsupported_input: cannot stat the input: no such file or directory"},
		{dir, "unsupported_input: the input is a directory, not a file"},
	} {
		one := runCmd(t, "", "extract", "--kind", "table", "--field", "a:0:string", c.input)
		if one.code != 1 || strings.TrimSpace(one.stderr) != c.want {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", filepath.Base(c.input), one.code, one.stderr, c.want)
		}
		if strings.Contains(one.stderr, dir) {
			t.Errorf("the error repeats the path: %q", one.stderr)
		}
		many := runCmd(t, "", "extract", "--kind", "table", "--field", "a:0:string", c.input, c.input)
		lines := manyLines(t, many.stdout)
		if len(lines) != 2 || lines[0].Error == nil || string(lines[0].Error.Code)+": "+lines[0].Error.Message != c.want {
			t.Errorf("%s: many-inputs line %+v, want %q", filepath.Base(c.input), lines, c.want)
		}
	}
}
