//go:build browser

package live

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/pageserve"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot"
)

// walkScript is the in-page counterpart of one extraction: the same bounded
// pre-order walk to the first visible table (CollectionScanNodes), the same
// row scan (RowScanNodes) and the same bounded cell walks (CellNodes nodes,
// CellUnits units), reading computed display and visibility as the capture
// does. It is what a page script would have to do to answer the same
// question, and it is only a yardstick: domsnap never runs script in a page.
var walkScript = `(() => {
  const SCAN = ` + strconv.Itoa(limits.CollectionScanNodes) + `, ROWS = ` + strconv.Itoa(limits.RowScanNodes) +
	`, CELL = ` + strconv.Itoa(limits.CellNodes) + `, UNITS = ` + strconv.Itoa(limits.CellUnits) + `;
  const skip = new Set(["HEAD","SCRIPT","STYLE","TEMPLATE","NOSCRIPT","TITLE"]);
  const shown = el => { const cs = getComputedStyle(el); return cs.display !== "none" && !skip.has(el.tagName); };
  const visible = el => getComputedStyle(el).visibility === "visible";
  const after = (n, root) => { while (n && n !== root && !n.nextSibling) n = n.parentNode; return n && n !== root ? n.nextSibling : null; };
  let n = document, visited = 0, table = null;
  while (n && visited < SCAN) {
    visited++;
    if (n.nodeType === 1 && !shown(n)) { n = after(n, document); continue; }
    if (n.nodeType === 1 && n.tagName === "TABLE" && visible(n)) { table = n; break; }
    n = n.firstChild || after(n, document);
  }
  if (!table) return {found: false, visited};
  const cellText = cell => {
    let t = "", m = cell, count = 0;
    while (m && count < CELL) {
      count++;
      if (m.nodeType === 3) t += m.data;
      else if (m.nodeType === 1 && m !== cell && !shown(m)) { m = after(m, cell); continue; }
      m = m.firstChild || after(m, cell);
    }
    return t.replace(/[\t\n\f\r ]+/g, " ").trim().slice(0, UNITS);
  };
  const rows = []; let spent = 0;
  for (const sec of table.children) {
    const trs = sec.tagName === "TR" ? [sec] : sec.children;
    for (const tr of trs) {
      if (spent++ >= ROWS) break;
      if (tr.tagName !== "TR" || !shown(tr) || !visible(tr)) continue;
      const cells = [];
      for (const c of tr.children) { spent++; if (shown(c) && visible(c)) cells.push(cellText(c)); }
      rows.push(cells);
    }
  }
  return {found: true, visited, rows: rows.slice(0, 20)};
})()`

var benchReq = domsnap.Request{Kind: aria.Table, Index: 0, Fields: []domsnap.Field{
	{Name: "name", Column: 0, Type: typed.String}, {Name: "qty", Column: 1, Type: typed.Integer}}}

// BenchmarkLiveCaptureVsScript compares, on flat pages of about 1k, 10k and
// 90k nodes with the table near the start, one live extraction (capture,
// decode, tree build and analysis) against the in-page script doing the same
// bounded walk through Runtime.evaluate. Custom metrics split the
// extraction's time and give the ratio.
func BenchmarkLiveCaptureVsScript(b *testing.B) {
	br, err := Launch(context.Background(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	req := benchReq
	if err := req.Validate(); err != nil {
		b.Fatal(err)
	}
	for _, nodes := range []int{1000, 10000, 90000} {
		b.Run("nodes="+strconv.Itoa(nodes), func(b *testing.B) {
			ctx := context.Background()
			srv, err := pageserve.Serve(flatPage(nodes, "A"), "utf-8")
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			p, err := br.NewPage(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			if err := p.Navigate(ctx, srv.URL()); err != nil {
				b.Fatal(err)
			}
			var capture, decode, analysis, script time.Duration
			treeNodes := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				tree, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{})
				if err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				res, err := domsnap.Extract(tree, "r1.bench.n1.o1", req)
				if err != nil || !res.Collection.Found {
					b.Fatalf("extract: %v", err)
				}
				t3 := time.Now()
				out, err := p.Evaluate(ctx, walkScript)
				if err != nil {
					b.Fatal(err)
				}
				var sr struct{ Found bool }
				if json.Unmarshal(out, &sr) != nil || !sr.Found {
					b.Fatalf("script found no table: %s", out)
				}
				t4 := time.Now()
				capture += t1.Sub(t0)
				decode += t2.Sub(t1)
				analysis += t3.Sub(t2)
				script += t4.Sub(t3)
				treeNodes = tree.Len()
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
			b.ReportMetric(float64(treeNodes), "tree-nodes")
			b.ReportMetric(ms(capture), "capture-ms/op")
			b.ReportMetric(ms(decode), "decode+build-ms/op")
			b.ReportMetric(ms(analysis), "analysis-ms/op")
			b.ReportMetric(ms(script), "script-ms/op")
			b.ReportMetric(float64(capture+decode+analysis)/float64(script), "live/script")
		})
	}
}
