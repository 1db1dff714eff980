package htmlsource

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/testkit/heapcost"
	"github.com/domsnap/domsnap/limits"
)

// htmlBenchPage generates a page of about the given number of nodes: a
// style sheet, then navigation lists, tables and forms, repeated.
func htmlBenchPage(nodes int) []byte {
	one, _, err := parseAll(htmlBenchRepeat(1))
	two, _, err2 := parseAll(htmlBenchRepeat(2))
	if err != nil || err2 != nil {
		panic("bench page does not parse")
	}
	per := two.Len() - one.Len()
	return htmlBenchRepeat(max(1, (nodes-one.Len()+per)/per))
}

// htmlBenchRepeat generates the bench page with reps repetitions.
func htmlBenchRepeat(reps int) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><meta charset=utf-8><title>bench</title><style>
body{margin:0} .nav li{display:inline-block} .hidden{display:none} table.data td.num{visibility:visible}
.card>p{display:block} .row:nth-child(2n){visibility:visible} .sr-only{position:absolute}
form .field label{display:block} :is(h1,h2).title{display:block} .grid{display:grid} .grid>*{float:none}
a:hover{display:none} .tip::before{display:none} @media (max-width:600px){.nav{display:none}}
</style></head><body><header class=top><h1 class=title>Title</h1></header>`)
	for i := 0; i < reps; i++ {
		fmt.Fprintf(&b, `<nav class=nav><ul><li><a href="#a%d">One</a></li><li><a href="#b%d">Two</a></li><li class=hidden>Three</li></ul></nav>`, i, i)
		fmt.Fprintf(&b, `<table class=data id=t%d><thead><tr><th>Name</th><th>Price</th></tr></thead><tbody>`, i)
		for r := 0; r < 5; r++ {
			fmt.Fprintf(&b, `<tr class=row><td>Item %d</td><td class=num>%d.50</td></tr>`, r, r)
		}
		b.WriteString(`</tbody></table><div class="grid card"><p>Some <b>text</b> here.</p><span class=sr-only>sr</span></div>`)
		fmt.Fprintf(&b, `<form class=f><div class=field><label for=q%d>Query</label><input id=q%d name=q><input type=checkbox checked></div><button>Go</button></form>`, i, i)
	}
	b.WriteString(`</body></html>`)
	return []byte(b.String())
}

// BenchmarkParseHTML compares, in one run, ParseHTML against html.Parse of
// the same bytes: time (ratio-vs-html.Parse) and retained heap per node of
// the resulting trees (B/node-ours, B/node-html, mem-ratio). Retained heap is
// measured with runtime.MemStats after a forced GC, with the tree alive.
func BenchmarkParseHTML(b *testing.B) {
	for _, size := range []int{1_000, 10_000, 100_000} {
		page := htmlBenchPage(size)
		tr, _, err := parseAll(page)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("nodes=%d", tr.Len())
		b.Run(name, func(b *testing.B) {
			var ours, theirs time.Duration
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				t0 := time.Now()
				if _, err := html.Parse(bytes.NewReader(page)); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, _, err := parseAll(page); err != nil {
					b.Fatal(err)
				}
				ours += time.Since(t1)
				theirs += t1.Sub(t0)
			}
			b.ReportMetric(float64(ours)/float64(theirs), "ratio-vs-html.Parse")
			b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N), "ns/ParseHTML")
			b.ReportMetric(float64(theirs.Nanoseconds())/float64(b.N), "ns/html.Parse")

			nodes := tr.Len()
			ourBytes := heapcost.Retained(func() any {
				t, _, _ := parseAll(page)
				return t
			})
			htmlBytes := heapcost.Retained(func() any {
				d, _ := html.Parse(bytes.NewReader(page))
				return d
			})
			b.ReportMetric(float64(ourBytes)/float64(nodes), "B/node-ours")
			b.ReportMetric(float64(htmlBytes)/float64(nodes), "B/node-html")
			b.ReportMetric(float64(ourBytes)/float64(htmlBytes), "mem-ratio")
		})
	}
}

// parseAll is snapshot.ParseHTML: the contract's node bound, sniffed
// charset, and no count of the matching work.
func parseAll(data []byte) (*domtree.Tree, Info, error) {
	t, info, _, err := Parse(data, "", limits.MaxTreeNodes)
	return t, info, err
}
