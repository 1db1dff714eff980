//go:build browser

package live

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/capture"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/limits"
)

// BenchmarkLiveBoundedVsScript is BenchmarkLiveCaptureVsScript for the
// bounded path: one live extraction through a Session (bounded capture,
// backend ids, decode, analysis, retakes if any) against the in-page
// script doing the same bounded walk. It also times one bounded capture at
// the default horizon on its own and the part of it that finds backend
// node ids, and reports the tree's nodes and the captures an extraction
// took.
func BenchmarkLiveBoundedVsScript(b *testing.B) {
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
			var extract, script, walk time.Duration
			treeNodes, captures := 0, uint64(0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, err := NewSession(p, SessionOptions{})
				if err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				res, snap, err := s.Extract(ctx, ReadOptions{Query: req, Once: true})
				if err != nil || !res.Collection.Found {
					b.Fatalf("extract: %v", err)
				}
				t1 := time.Now()
				out, err := p.Evaluate(ctx, walkScript)
				if err != nil {
					b.Fatal(err)
				}
				var sr struct{ Found bool }
				if json.Unmarshal(out, &sr) != nil || !sr.Found {
					b.Fatalf("script found no table: %s", out)
				}
				t2 := time.Now()
				c, err := p.CaptureBounded(ctx, DefaultBudget, true)
				if err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				if _, err := capture.DecodeBounded(c.Raw, limits.MaxTreeNodes, c.Hosts, c.Resolve, c.Find); err != nil {
					b.Fatal(err)
				}
				c.Close()
				extract += t1.Sub(t0)
				script += t2.Sub(t1)
				walk += t3.Sub(t2)
				treeNodes = snap.Tree.Horizon()
				captures += s.Captures()
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
			b.ReportMetric(float64(treeNodes), "tree-nodes")
			b.ReportMetric(float64(captures)/n, "captures/op")
			b.ReportMetric(ms(extract), "extract-ms/op")
			b.ReportMetric(ms(walk), "bounded-capture-ms/op")
			b.ReportMetric(ms(script), "script-ms/op")
			b.ReportMetric(float64(extract)/float64(script), "bounded/script")
		})
	}
}
