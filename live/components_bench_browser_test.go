//go:build browser

package live

import (
	"context"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/testkit/realapps"
)

// BenchmarkObserveComponents times one observation with its page view on
// pages built of web components from the libraries' own npm builds
// (Shoelace, Material Web, a LitElement) and on the staff table of plain
// markup, and reports the questions the capture asked the browser about
// shadow hosts (askShadowHosts), which a page of many components pays for
// in round trips.
func BenchmarkObserveComponents(b *testing.B) {
	base := realapps.LibraryPages(b)
	br, err := Launch(context.Background(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	for _, page := range []string{"shoelace.html", "material.html", "lit.html", "table.html"} {
		b.Run(page, func(b *testing.B) {
			ctx := context.Background()
			p, err := br.NewPage(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			if err := p.Navigate(ctx, base+"/"+page); err != nil {
				b.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond) // the components' modules load after the document
			s, err := NewSession(p, SessionOptions{})
			if err != nil {
				b.Fatal(err)
			}
			asked, reached := hostQuestions.Load(), hostReaches.Load()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := s.Observe(ctx, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(hostQuestions.Load()-asked)/float64(b.N), "host-questions/op")
			b.ReportMetric(float64(hostReaches.Load()-reached)/float64(b.N), "host-scripts/op")
		})
	}
}
