package parity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/errcode"
)

func TestReadDivergences(t *testing.T) {
	table := "# Title\n\nProse with `code` | and a bar.\n\n| fixture | request | cause |\n|---|---|---|\n" +
		"| `a` | 1 | one |\n| `b` | inventory | two |\n|  `c`  |  all  | three, with a | bar |\n"
	got, err := ReadDivergences(strings.NewReader(table))
	if err != nil {
		t.Fatal(err)
	}
	want := []Divergence{{"a", 1, "one"}, {"b", InventoryRequest, "two"}, {"c", AllRequests, "three, with a | bar"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		fixture string
		req     int
		want    []bool
	}{
		{"a", 1, []bool{true, false, false}},
		{"a", 0, []bool{false, false, false}},
		{"b", -1, []bool{false, true, false}},
		{"c", 7, []bool{false, false, true}},
		{"c", -1, []bool{false, false, true}},
	} {
		for i, d := range got {
			if d.Covers(c.fixture, c.req) != c.want[i] {
				t.Errorf("row %s %s covers %s %d: %t", d.Fixture, d.RequestName(), c.fixture, c.req, !c.want[i])
			}
		}
	}

	for _, bad := range []string{"| `a` | x | cause |\n", "| `a` | -1 | cause |\n", "| `a` | 1 |  |\n", "| `a` | 1 |\n", "| `` | 1 | c |\n"} {
		_, err := ReadDivergences(strings.NewReader("text\n" + bad))
		if errcode.CodeOf(err) != errcode.UnsupportedInput || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	// A line beyond the bound is refused, not read in part.
	long := "| `a` | 1 | " + strings.Repeat("x", maxTableLine) + " |\n"
	if _, err := ReadDivergences(strings.NewReader(long)); errcode.CodeOf(err) != errcode.UnsupportedInput {
		t.Errorf("an over-long line: %v", err)
	}
	justUnder := "| `a` | 1 | " + strings.Repeat("x", maxTableLine-20) + " |\n"
	if rows, err := ReadDivergences(strings.NewReader(justUnder)); err != nil || len(rows) != 1 {
		t.Errorf("a long line under the bound: %d rows, %v", len(rows), err)
	}
}

// TestProjectDivergenceTable: the project's own table reads, and every row
// names a fixture page that exists.
func TestProjectDivergenceTable(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "docs", "divergences.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadDivergences(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, d := range rows {
		if _, err := os.Stat(filepath.Join("..", "testdata", "html", d.Fixture+".html")); err != nil {
			t.Errorf("row %s %s: %v", d.Fixture, d.RequestName(), err)
		}
	}
}
