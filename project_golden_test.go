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
	{4240, "exactly everything"},
	{4239, "the text dropped whole"},
	{3800, "no text, trailing regions dropped"},
	{3500, "no regions, trailing inventory entries dropped"},
	{3150, "no inventory, trailing controls dropped"},
	{2000, "no controls, trailing rows dropped"},
	{938, "exactly the extraction without rows"},
	{760, "the extraction omitted whole, controls and inventory fitted into the space it freed"},
	{415, "the smallest projection: revision, artifact, view scan, omitted extraction and counts"},
}

// smallestGoldenBudget is one byte under the smallest projection.
const smallestGoldenBudget = 414

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
	shape := func(budget int) [nParts]int {
		data, err := os.ReadFile(filepath.Join(projectionDir, "page."+strconv.Itoa(budget)+".golden.json"))
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Inventory, Controls, Regions []json.RawMessage
			Text                         *string
			Extraction                   *struct{ Rows []json.RawMessage }
		}
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		var k [nParts]int
		if p.Text != nil {
			k[partText] = 1
		}
		k[partRegions], k[partInventory], k[partControls] = len(p.Regions), len(p.Inventory), len(p.Controls)
		if p.Extraction != nil {
			k[partRows], k[partExtraction] = len(p.Extraction.Rows), 1
		}
		return k
	}
	full := fullParts(o)
	// -1 means "some, but neither none nor all": the part that was cut.
	for _, c := range []struct {
		budget int
		want   [nParts]int
	}{
		{16384, full},
		{4240, full},
		{4239, [nParts]int{0, full[1], full[2], full[3], full[4], 1}},
		{3800, [nParts]int{0, -1, full[2], full[3], full[4], 1}},
		{3500, [nParts]int{0, 0, -1, full[3], full[4], 1}},
		{3150, [nParts]int{0, 0, 0, -1, full[4], 1}},
		{2000, [nParts]int{0, 0, 0, 0, -1, 1}},
		{938, [nParts]int{0, 0, 0, 0, 0, 1}},
		{760, [nParts]int{0, 0, -1, full[3], 0, 0}},
		{415, [nParts]int{}},
	} {
		got := shape(c.budget)
		for d, w := range c.want {
			if w == -1 && (got[d] == 0 || got[d] == full[d]) || w >= 0 && got[d] != w {
				t.Errorf("golden at %d shows %v, want %v (-1: cut)", c.budget, got, c.want)
				break
			}
		}
	}
}
