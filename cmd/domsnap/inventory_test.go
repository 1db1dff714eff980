package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

const projectionPage = "../../testdata/projections/page.html"
const projectionRequest = "../../testdata/projections/request.json"

// observeFile is the library's observation of a file, for comparison with
// what the command prints.
func observeFile(t *testing.T, path string, req *domsnap.Request) *domsnap.Observation {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := snapshot.Load(data, snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := domsnap.Observe(in.Tree, in.Revision, req)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestInventoryTable(t *testing.T) {
	r := runCmd(t, "", "inventory", projectionPage)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	o := observeFile(t, projectionPage, nil)
	want := "revision " + o.Revision + "; content is external-untrusted\n" +
		"kind   index  source  rows  name\n" +
		"list   0      native  3     \"Site sections\"\n" +
		"table  0      native  9     \"Spare parts & \\\"tools\\\"\"\n" +
		"table  1      native  2     \"Opening hours\"\n" +
		"list   1      native  3     \"Steps\"\n" +
		"form   0      native  2     \"Newsletter\"\n"
	view := "\nview scan: 134 of 8192 nodes visited\n" +
		"ref   role     name     state     in\n" +
		"a0.1  textbox  \"Email\"  required  form 0 row 0\n" +
		"a0.2  button   \"Join\"   -         form 0 row 1\n" +
		"\n" +
		"ref   role        level  name\n" +
		"g0.1  navigation  -      -\n" +
		"g0.2  main        -      -\n" +
		"g0.3  heading     1      \"Spare parts & \\\"tools\\\"\"\n" +
		"g0.4  form        -      \"Newsletter\"\n"
	if diff := cmp.Diff(want+view, r.stdout); diff != "" {
		t.Errorf("inventory table (-want +got):\n%s", diff)
	}
	if strings.Contains(r.stdout, "CANARY") {
		t.Error("a form value reached the output")
	}
	r = runCmd(t, "", "inventory", "--collections-only", projectionPage)
	if diff := cmp.Diff(want, r.stdout); r.code != exitOK || diff != "" {
		t.Errorf("--collections-only: exit %d (-want +got):\n%s", r.code, diff)
	}
	r = runCmd(t, "", "inventory", "--collections-only", "--format", "json", projectionPage)
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, "usage: --collections-only shapes the table") {
		t.Errorf("--collections-only with json: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A page with more controls than a view lists says how many it left out,
// and states read in words.
func TestInventoryTableStates(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<!doctype html><body><div role=tab aria-selected=true aria-expanded=false>T</div>` +
		`<select aria-label=S><option>a<option>b</select><input type=checkbox checked disabled aria-label=C>`)
	for range limits.MaxControls {
		b.WriteString(`<a href=x>l</a>`)
	}
	page := writeTemp(t, "states.html", b.String())
	r := runCmd(t, "", "inventory", page)
	// Column widths depend on the longest cell; compare words.
	out := strings.Join(strings.Fields(r.stdout), " ")
	for _, want := range []string{
		`a0.1 tab "T" expanded=false selected -`,
		`a0.2 combobox "S" 2 options -`,
		`a0.3 checkbox "C" disabled checked=true -`,
		"3 more controls not listed no regions",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q:\n%s", want, r.stdout[:min(len(r.stdout), 600)])
		}
	}
}

// Counts a table declares beyond its document read in words, and so does
// a sortable header's state.
func TestInventoryTableDeclaredCounts(t *testing.T) {
	r := runCmd(t, "", "inventory", "../../testdata/html/aria-grid-rowcount.html")
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	out := strings.Join(strings.Fields(r.stdout), " ")
	for _, want := range []string{
		`table 0 aria 6 of 1001 "Products"`,
		`table 1 native 3 -`,
		`table 2 aria 2, of 6 columns "Wide"`,
		`table 3 native 2 of an unknown number "Feed"`,
		`table 4 native 2 "Whole"`,
		`a0.1 columnheader "Product" sort=none table 0 row 0`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q:\n%s", want, r.stdout)
		}
	}
}

func TestInventoryJSON(t *testing.T) {
	o := observeFile(t, projectionPage, nil)
	want := string(o.Canonical()) + "\n"
	data, err := os.ReadFile(projectionPage)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"inventory", "--format", "json", projectionPage}},
		{"", []string{"inventory", projectionPage, "--format", "json"}},
		{string(data), []string{"inventory", "--format=json", "-"}},
	} {
		r := runCmd(t, c.stdin, c.args...)
		if r.code != exitOK || r.stdout != want {
			t.Errorf("%v: exit %d, stderr %q, output differs:\n%s", c.args, r.code, r.stderr, cmp.Diff(want, r.stdout))
		}
	}
}

func TestInventoryEdgeCases(t *testing.T) {
	empty := writeTemp(t, "empty.html", "<p>nothing to see</p>")
	r := runCmd(t, "", "inventory", empty)
	if r.code != exitOK || !strings.Contains(r.stdout, "no visible table, list or form") {
		t.Errorf("empty page: exit %d, output %q", r.code, r.stdout)
	}

	// A table whose rows outrun the row scan says its count is a floor.
	var b strings.Builder
	b.WriteString(`<table aria-label="` + "\x1b[2J" + `big">`)
	for i := 0; i < limits.RowScanNodes; i++ {
		b.WriteString("<tr><td>" + strconv.Itoa(i) + "</td></tr>")
	}
	b.WriteString("</table>")
	big := writeTemp(t, "big.html", b.String())
	r = runCmd(t, "", "inventory", big)
	if r.code != exitOK || !strings.Contains(r.stdout, " or more ") {
		t.Errorf("incomplete rows not shown as a floor: exit %d\n%s", r.code, r.stdout)
	}
	if strings.Contains(r.stdout, "\x1b") || !strings.Contains(r.stdout, `"\x1b[2Jbig"`) {
		t.Errorf("a control character reached the terminal: %q", r.stdout)
	}

	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no input", []string{"inventory"}, exitUsage, "usage: inventory needs an INPUT"},
		{"two inputs as a table", []string{"inventory", "--format", "table", empty, empty}, exitUsage, "usage: several inputs print one JSON line each"},
		{"bad format", []string{"inventory", "--format", "xml", empty}, exitUsage, "usage: --format must be table or json"},
		{"unknown flag", []string{"inventory", "--selector", "x", empty}, exitUsage, ""},
		{"missing file", []string{"inventory", empty + ".nope"}, exitFailure, "unsupported_input: cannot stat the input"},
		{"unrecognised input", []string{"inventory", writeTemp(t, "bin", "\x00\x01\x02binary")}, exitFailure, "unsupported_input"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != c.code || !strings.HasPrefix(r.stderr, c.stderr) || r.stdout != "" {
			t.Errorf("%s: exit %d (want %d), stderr %q, stdout %q", c.name, r.code, c.code, r.stderr, r.stdout)
		}
	}
}

// readProjectionRequest decodes the request the projection goldens use.
func readProjectionRequest(t *testing.T) domsnap.Request {
	t.Helper()
	rq, err := os.ReadFile(projectionRequest)
	if err != nil {
		t.Fatal(err)
	}
	req, err := domsnap.DecodeRequest(rq)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestExtractObservation(t *testing.T) {
	req := readProjectionRequest(t)
	withReq := observeFile(t, projectionPage, &req)
	without := observeFile(t, projectionPage, nil)

	r := runCmd(t, "", "extract", "--observation", "--request", projectionRequest, projectionPage)
	if r.code != exitOK || r.stdout != string(withReq.Canonical())+"\n" {
		t.Errorf("observation with a request: exit %d, stderr %q\n%s", r.code, r.stderr, cmp.Diff(string(withReq.Canonical())+"\n", r.stdout))
	}
	r = runCmd(t, "", "extract", projectionPage, "--observation")
	if r.code != exitOK || r.stdout != string(without.Canonical())+"\n" {
		t.Errorf("observation without a request: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCmd(t, "", "extract", "--observation", "--format", "table", "--request", projectionRequest, projectionPage)
	for _, want := range []string{"kind   index  source", "table 0 (native)", `"Hex bolt M6"`, "rows: 9 returned"} {
		if r.code != exitOK || !strings.Contains(r.stdout, want) {
			t.Errorf("table observation lacks %q: exit %d\n%s", want, r.code, r.stdout)
		}
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, "CANARY") {
			t.Error("a form value reached the output")
		}
	}
}

func TestExtractModelBytes(t *testing.T) {
	req := readProjectionRequest(t)
	o := observeFile(t, projectionPage, &req)
	for _, budget := range []int{limits.ModelBytes, 2000, 600, 415} {
		p, err := domsnap.Project(o, budget)
		if err != nil {
			t.Fatal(err)
		}
		r := runCmd(t, "", "extract", "--request", projectionRequest, "--model-bytes", strconv.Itoa(budget), projectionPage)
		if r.code != exitOK || r.stdout != string(p.Canonical())+"\n" {
			t.Errorf("budget %d: exit %d, stderr %q", budget, r.code, r.stderr)
		}
		if n := len(strings.TrimSuffix(r.stdout, "\n")); n > budget {
			t.Errorf("budget %d: %d bytes printed", budget, n)
		}
		var got struct{ Artifact string }
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got.Artifact != o.Artifact() {
			t.Errorf("budget %d: artifact %q, want %q (%v)", budget, got.Artifact, o.Artifact(), err)
		}
	}
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"one byte under the smallest", []string{"--model-bytes", "414"}, exitUsage, "invalid_request: "},
		{"zero", []string{"--model-bytes", "0"}, exitUsage, "invalid_request: "},
		{"negative", []string{"--model-bytes", "-5"}, exitUsage, "invalid_request: "},
		{"not a number", []string{"--model-bytes", "lots"}, exitUsage, ""},
		{"table format", []string{"--model-bytes", "2000", "--format", "table"}, exitUsage, "usage: --model-bytes prints the JSON projection"},
	} {
		args := append(append([]string{"extract", "--request", projectionRequest}, c.args...), projectionPage)
		r := runCmd(t, "", args...)
		if r.code != c.code || !strings.HasPrefix(r.stderr, c.stderr) || r.stdout != "" {
			t.Errorf("%s: exit %d (want %d), stderr %q", c.name, r.code, c.code, r.stderr)
		}
	}
}
