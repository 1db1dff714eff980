package domsnap

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

const projectionDir = "testdata/projections"

// projectionBudgets are the budgets the goldens are made at, each chosen for
// the branch of Project it shows on testdata/projections/page.html, whose
// observation is 3,228 bytes and whose complete projection is 3,348.
var projectionBudgets = []struct {
	budget int
	shows  string
}{
	{16384, "the default budget: everything"},
	{3348, "exactly everything"},
	{3100, "trailing inventory entries dropped"},
	{2000, "no inventory, trailing rows dropped"},
	{777, "exactly the extraction without rows"},
	{600, "the extraction omitted whole, inventory fitted into the space it freed"},
	{254, "the smallest projection: revision, artifact, omitted extraction and counts"},
}

// smallestGoldenBudget is one byte under the smallest projection.
const smallestGoldenBudget = 253

func init() {
	// The fixture tests of this package share -update; whichever file comes
	// first defines it.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata from the current results")
	}
}

// updateProjections reports whether -update asks for the goldens to be
// rewritten.
func updateProjections() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func TestProjectionGoldens(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(projectionDir, "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	rq, err := os.ReadFile(filepath.Join(projectionDir, "request.json"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := snapshot.Load(page, snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req, err := DecodeRequest(rq)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Observe(in.Tree, in.Revision, &req)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got []byte) {
		t.Helper()
		if strings.Contains(string(got), "CANARY") {
			t.Errorf("%s: a form value reached the output", name)
		}
		path := filepath.Join(projectionDir, name)
		got = append(got, '\n')
		if updateProjections() {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run TestProjectionGoldens -update, then review the files)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	check("page.observation.golden.json", o.Canonical())
	for _, c := range projectionBudgets {
		p, err := Project(o, c.budget)
		if err != nil {
			t.Fatalf("budget %d (%s): %v", c.budget, c.shows, err)
		}
		if n := len(p.Canonical()); n > c.budget {
			t.Errorf("budget %d: %d bytes", c.budget, n)
		}
		check("page."+strconv.Itoa(c.budget)+".golden.json", p.Canonical())
	}
	if _, err := Project(o, smallestGoldenBudget); errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Errorf("budget %d: %v, want invalid_request", smallestGoldenBudget, err)
	}

	// The budgets show what they claim: read the goldens back.
	shape := func(budget int) (inv, rows int, omittedEx bool) {
		data, err := os.ReadFile(filepath.Join(projectionDir, "page."+strconv.Itoa(budget)+".golden.json"))
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Inventory  []json.RawMessage
			Extraction *struct{ Rows []json.RawMessage }
			Omitted    bool `json:"extraction_omitted"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		if p.Extraction != nil {
			rows = len(p.Extraction.Rows)
		}
		return len(p.Inventory), rows, p.Omitted
	}
	nInv, nRows := len(o.Inventory), len(o.Extraction.Rows)
	for _, c := range []struct {
		budget, inv, rows int
		omitted           bool
	}{
		{16384, nInv, nRows, false},
		{3348, nInv, nRows, false},
		{2000, 0, -1, false},
		{777, 0, 0, false},
		{254, 0, 0, true},
	} {
		inv, rows, om := shape(c.budget)
		if inv != c.inv || (c.rows >= 0 && rows != c.rows) || om != c.omitted {
			t.Errorf("golden at %d shows %d entries, %d rows, omitted %v", c.budget, inv, rows, om)
		}
	}
	if inv, rows, _ := shape(3100); inv == 0 || inv == nInv || rows != nRows {
		t.Errorf("golden at 3100 should drop some entries and keep every row: %d entries, %d rows", inv, rows)
	}
	if _, rows, _ := shape(2000); rows == 0 || rows == nRows {
		t.Errorf("golden at 2000 should keep some rows: %d", rows)
	}
	if inv, _, om := shape(600); !om || inv == 0 {
		t.Errorf("golden at 600 should omit the extraction and show entries: %d entries, omitted %v", inv, om)
	}
}
