package domsnap_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/snapshot"
	"golang.org/x/net/html"
)

// benchPage is a table of rows rows followed by n paragraphs (2n nodes):
// the collection sits near the start, so analysis must cost the same
// whatever n is, while parsing grows with it.
func benchPage(n, rows int) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><body><table><tr><th>Product</th><th>Price</th></tr>")
	for i := range rows {
		fmt.Fprintf(&b, "<tr><td>Item %d</td><td>%d.5</td></tr>", i, i)
	}
	b.WriteString("</table>")
	for i := range n {
		fmt.Fprintf(&b, "<p>paragraph %d</p>", i)
	}
	b.WriteString("</body></html>")
	return []byte(b.String())
}

var benchRequest = []byte(`{"kind":"table","index":0,"fields":[{"name":"product","column":0,"type":"string","required":true},{"name":"price","column":1,"type":"number"}],"row_limit":50}`)

func BenchmarkDecodeRequest(b *testing.B) {
	b.SetBytes(int64(len(benchRequest)))
	for b.Loop() {
		if _, err := domsnap.DecodeRequest(benchRequest); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtract measures analysis alone (tree already built) and the
// whole offline path against html.Parse of the same bytes.
func BenchmarkExtract(b *testing.B) {
	req, err := domsnap.DecodeRequest(benchRequest)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{500, 5000, 50000} {
		page := benchPage(n, 60)
		tree, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rev := snapshot.FileRevision(page)
		b.Run(fmt.Sprintf("analysis/p=%d", n), func(b *testing.B) {
			for b.Loop() {
				res, err := domsnap.Extract(tree, rev, req)
				if err != nil || len(res.Rows) != 50 {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("html.Parse/p=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				if _, err := html.Parse(bytes.NewReader(page)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("offline/p=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				in, err := snapshot.Load(page, snapshot.LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := domsnap.Extract(in.Tree, in.Revision, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkExtractExample(b *testing.B) {
	page, err := os.ReadFile("examples/products.html")
	if err != nil {
		b.Fatal(err)
	}
	in, err := snapshot.Load(page, snapshot.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	req, _ := domsnap.DecodeRequest([]byte(`{"kind":"table","index":0,"fields":[{"name":"product","column":0,"type":"string","required":true},{"name":"price","column":2,"type":"number"}]}`))
	for b.Loop() {
		res, err := domsnap.Extract(in.Tree, in.Revision, req)
		if err != nil {
			b.Fatal(err)
		}
		_ = res.Canonical()
	}
}
