package treediff

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot"
)

func parse(t *testing.T, page string) *domtree.Tree {
	t.Helper()
	tr, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestCompareSame(t *testing.T) {
	page := `<!DOCTYPE html><p>a<b class=x id=y>b</b></p><p>c</p>`
	diffs, n := Compare(parse(t, page), parse(t, page))
	if len(diffs) != 0 || n == 0 {
		t.Fatalf("same page: %d nodes, diffs %v", n, diffs)
	}
}

func TestCompareDiffers(t *testing.T) {
	a := parse(t, `<!DOCTYPE html><p>a</p><p>b</p>`)
	b := parse(t, `<!DOCTYPE html><p>a</p><p hidden>b</p>`)
	diffs, _ := Compare(a, b)
	if len(diffs) != 1 || diffs[0].What != Node || Path(diffs[0].Offline) != "/html/body/p[2]" {
		t.Fatalf("diffs %v", diffs)
	}
	if got := diffs[0].String(); !strings.HasPrefix(got, "node: at offline ") || !strings.Contains(got, `live element <p hidden="">`) {
		t.Errorf("String = %q", got)
	}
	c := parse(t, `<!DOCTYPE html><p>a</p>`)
	diffs, _ = Compare(a, c)
	if len(diffs) != 1 || diffs[0].Live.Valid() || !strings.Contains(diffs[0].String(), "one tree ended first") {
		t.Fatalf("shorter tree: %v", diffs)
	}
}

func TestDescribeIgnoresAttributeOrder(t *testing.T) {
	a := parse(t, `<!DOCTYPE html><div id=y class=x></div>`)
	b := parse(t, `<!DOCTYPE html><div class=x id=y></div>`)
	if diffs, _ := Compare(a, b); len(diffs) != 0 {
		t.Errorf("attribute order counted: %v", diffs)
	}
}

func TestPath(t *testing.T) {
	tr := parse(t, `<!DOCTYPE html><div>x<p>a</p><!--c--><p>b<i>i</i></p></div>`)
	var got []string
	root := tr.Root()
	for n := root; n.Valid(); n = n.Next(root, true) {
		got = append(got, Path(n))
	}
	want := "/ /#doctype /html /html/head /html/body /html/body/div /html/body/div/#text /html/body/div/p[1] /html/body/div/p[1]/#text " +
		"/html/body/div/#comment /html/body/div/p[2] /html/body/div/p[2]/#text /html/body/div/p[2]/i /html/body/div/p[2]/i/#text"
	if strings.Join(got, " ") != want {
		t.Errorf("paths\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}
