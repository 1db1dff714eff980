package htmlsource

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/domtree"
)

// bodyNodes parses page and describes the nodes under <body> in tree order:
// kind and data, elements by name.
func bodyNodes(t *testing.T, page string) string {
	t.Helper()
	tr, _, err := parseAll([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for n := range tr.Root().Subtree() {
		if !n.Parent().Valid() || n.Kind() == domtree.Document {
			continue
		}
		inBody := false
		for a := n.Parent(); a.Valid(); a = a.Parent() {
			if a.IsElement() && a.Is("body") {
				inBody = true
			}
		}
		if !inBody {
			continue
		}
		switch n.Kind() {
		case domtree.Element:
			out = append(out, "<"+n.Name()+">")
		default:
			out = append(out, strings.ToLower(n.Kind().String())+":"+n.Data())
		}
	}
	return strings.Join(out, " ")
}

// TestEmptyEndTagEmitsNothing: "</>" in data is dropped, as the Standard's
// tokenizer drops it, and the text around it is one node; elsewhere (inside
// comments, raw text, attribute values) its bytes stay what they were.
func TestEmptyEndTagEmitsNothing(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{"<p>a</>b</p>", "<p> text:ab"},
		{"<p></></p>", "<p>"},
		{"<p>a</></></>b</p>", "<p> text:ab"},
		{"<table></><tr><td>x</></td></tr></table>", "<table> <tbody> <tr> <td> text:x"},
		{"<p>a<!-- </> -->b</p>", "<p> text:a comment: </>  text:b"},
		{"<p title='</>'>a</p>", "<p> text:a"},
		{"<textarea>a</>b</textarea><p>c</p>", "<textarea> text: <p> text:c"},
		{"<p>a</ >b</p>", "<p> text:a comment:  text:b"}, // "</ " starts a bogus comment
	} {
		if got := bodyNodes(t, "<!DOCTYPE html><body>"+c.page); got != c.want {
			t.Errorf("%q: %s, want %s", c.page, got, c.want)
		}
	}
}

// TestCommentReferencesKept: character references in comments, proper and
// bogus, are not decoded; in text they are.
func TestCommentReferencesKept(t *testing.T) {
	for _, c := range []struct{ page, want string }{
		{"<p><!-- &amp; &lt; &#38; & &amp;amp; --></p>", "<p> comment: &amp; &lt; &#38; & &amp;amp; "},
		{"<p><!--&--></p>", "<p> comment:&"},
		{"<p><?x &amp;></p>", "<p> comment:?x &amp;"},
		{"<p><!x &copy;></p>", "<p> comment:x &copy;"},
		{"<p>a &amp; b<!--&amp;-->c &lt;</p>", "<p> text:a & b comment:&amp; text:c <"},
	} {
		if got := bodyNodes(t, "<!DOCTYPE html><body>"+c.page); got != c.want {
			t.Errorf("%q: %s, want %s", c.page, got, c.want)
		}
	}
}

// TestEditReader: the reader gives the edited text whatever the sizes of
// the reads, and never changes the caller's bytes.
func TestEditReader(t *testing.T) {
	page := []byte("<!-- &a --><!DOCTYPE HTML><p>x</>y<!--&&-->z</>")
	orig := bytes.Clone(page)
	pre := htmlScan(page, 100)
	want := "<!-- &amp;a --><!DOCTYPE html><p>xy<!--&amp;&amp;-->z"
	if err := iotest.TestReader(htmlReader(page, pre), []byte(want)); err != nil {
		t.Error(err)
	}
	if !bytes.Equal(page, orig) {
		t.Errorf("input now %q", page)
	}
	if len(pre.edits) != 5 {
		t.Errorf("%d edits, want 5", len(pre.edits))
	}
	// No edit: the caller's bytes are read as they are.
	if err := iotest.TestReader(htmlReader([]byte("<p>a</p>"), htmlScan([]byte("<p>a</p>"), 100)), []byte("<p>a</p>")); err != nil {
		t.Error(err)
	}
}

// TestUpstreamEmptyEndTagComment pins the golang.org/x/net/html behaviour
// that htmlReader works around: "</>" becomes an empty comment. When this
// test fails, the parser has been fixed: remove editDrop and this test.
func TestUpstreamEmptyEndTagComment(t *testing.T) {
	doc, err := html.Parse(strings.NewReader("<p>a</>b"))
	if err != nil {
		t.Fatal(err)
	}
	comments := 0
	for n := doc; n != nil; n = nextHTML(n) {
		if n.Type == html.CommentNode && n.Data == "" {
			comments++
		}
	}
	if comments != 1 {
		t.Fatal("golang.org/x/net/html no longer makes a comment of </>: the editDrop workaround in html_edit.go can go")
	}
}

// TestUpstreamCommentReferences pins the other: character references in a
// comment are decoded. When this test fails, remove editEscapeAmp and this
// test.
func TestUpstreamCommentReferences(t *testing.T) {
	doc, err := html.Parse(strings.NewReader("<p><!--&amp;--></p>"))
	if err != nil {
		t.Fatal(err)
	}
	for n := doc; n != nil; n = nextHTML(n) {
		if n.Type == html.CommentNode && n.Data != "&" {
			t.Fatalf("golang.org/x/net/html reads the comment as %q, not decoded: the editEscapeAmp workaround in html_edit.go can go", n.Data)
		}
	}
}
