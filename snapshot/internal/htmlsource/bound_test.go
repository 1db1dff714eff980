package htmlsource

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"
)

// parentOfTable parses page and names the parent element of its table.
func parentOfTable(t *testing.T, page string) string {
	t.Helper()
	tr, _, err := parseAll([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for n := range tr.Root().Subtree() {
		if n.IsElement() && n.Is("table") {
			return n.Parent().Name()
		}
	}
	t.Fatalf("no table in %q", page)
	return ""
}

// TestDoctypeNameCase: the doctype name is compared after lower-casing, so
// "<!DOCTYPE HTML>" is no-quirks and a table start tag closes an open
// paragraph, as in a browser. In quirks mode the table would go inside it.
func TestDoctypeNameCase(t *testing.T) {
	for _, c := range []struct {
		doctype string
		quirks  bool
	}{
		{"<!DOCTYPE html>", false},
		{"<!DOCTYPE HTML>", false},
		{"<!doctype HtMl>", false},
		{"<!DOCTYPE\tHTML\n>", false},
		{"<!-- first --> \n<!DOCTYPE HTML>", false},
		{`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">`, false},
		{`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">`, true},
		{"<!DOCTYPE HTMLX>", true},
		{"<!DOCTYPE>", true},
		{"", true},
		{"x<!DOCTYPE HTML>", true}, // text first: the doctype comes too late
	} {
		page := c.doctype + "<p>a<table><tr><td>x</td></tr></table>"
		want := "body"
		if c.quirks {
			want = "p"
		}
		if got := parentOfTable(t, page); got != want {
			t.Errorf("%q: table inside %s, want %s", c.doctype, got, want)
		}
		// The style engine's quirks check and the parser's agree.
		doc, err := html.Parse(htmlReader([]byte(page), htmlScan([]byte(page), 1000)))
		if err != nil {
			t.Fatal(err)
		}
		if htmlQuirks(doc) != c.quirks {
			t.Errorf("%q: htmlQuirks %t, want %t", c.doctype, htmlQuirks(doc), c.quirks)
		}
	}
}

// TestDoctypeRewriteLeavesInput: the rewrite is made in what the parser
// reads, never in the caller's bytes, and only on the name.
func TestDoctypeRewriteLeavesInput(t *testing.T) {
	page := []byte("<!-- c --><!DOCTYPE HTML><p>HTML</p>")
	orig := bytes.Clone(page)
	pre := htmlScan(page, 100)
	if got := string(page[pre.nameStart:pre.nameEnd]); got != "HTML" || pre.nameStart != len("<!-- c --><!DOCTYPE ") {
		t.Fatalf("name span %d-%d %q", pre.nameStart, pre.nameEnd, got)
	}
	var read bytes.Buffer
	read.ReadFrom(htmlReader(page, pre))
	if read.String() != "<!-- c --><!DOCTYPE html><p>HTML</p>" || !bytes.Equal(page, orig) {
		t.Errorf("read %q; input now %q", read.String(), page)
	}
}

// TestUpstreamDoctypeCaseBug pins the golang.org/x/net/html behaviour that
// htmlReader works around: it takes "<!DOCTYPE HTML>" for quirks mode,
// where the HTML Standard lower-cases the name first. When this test
// fails, the parser has been fixed: remove htmlDoctypeName, the rewrite in
// htmlReader, and this test.
func TestUpstreamDoctypeCaseBug(t *testing.T) {
	doc, err := html.Parse(bytes.NewReader([]byte("<!DOCTYPE HTML><p>a<table></table>")))
	if err != nil {
		t.Fatal(err)
	}
	var table *html.Node
	for n := doc; n != nil; n = nextHTML(n) {
		if n.Type == html.ElementNode && n.Data == "table" {
			table = n
		}
	}
	if table == nil || table.Parent.Data != "p" {
		t.Fatal("golang.org/x/net/html now parses <!DOCTYPE HTML> in no-quirks mode: the doctype workaround in html_bound.go can go")
	}
}
