//go:build browser

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/accessibility"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/livehook"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// benchPage is a flat page of about nodes DOM nodes: a 20-row table near
// the start, then paragraphs of text (two nodes each).
func benchPage(nodes int) []byte {
	var sb strings.Builder
	sb.WriteString("<!DOCTYPE html><html><head><meta charset=utf-8><title>bench</title></head><body><table>")
	n := 8
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&sb, "<tr><td>item %d</td><td>%d</td></tr>", i, i)
		n += 5
	}
	sb.WriteString("</table>")
	for ; n < nodes; n += 2 {
		fmt.Fprintf(&sb, "<p>paragraph %d</p>", n)
	}
	sb.WriteString("</body></html>")
	return []byte(sb.String())
}

// BenchmarkAgentTools measures, on pages of about 1k, 10k and 90k nodes,
// browser_navigate and an extracting browser_observe through the SDK's
// client (in process), next to a plain capture of the same page, and the
// size of each answer next to the page's full accessibility tree
// (Accessibility.getFullAXTree as JSON), as ratios. Run it by hand:
//
//	go test -tags browser -run '^$' -bench BenchmarkAgentTools -benchtime 5x ./mcp
func BenchmarkAgentTools(b *testing.B) {
	srv, err := New(Config{StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	defer func() { cancel(); <-done }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	callJSON := func(name string, args map[string]any) []byte {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: wholeView(name, args)})
		if err != nil {
			b.Fatal(err)
		}
		text := []byte(res.Content[0].(*sdk.TextContent).Text)
		if res.IsError {
			b.Fatalf("%s: %s", name, text)
		}
		return text
	}
	for _, nodes := range []int{1000, 10000, 90000} {
		b.Run("nodes="+strconv.Itoa(nodes), func(b *testing.B) {
			page := benchPage(nodes)
			web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(page)
			}))
			defer web.Close()
			var navT, obsT, capT time.Duration
			var navBytes, obsBytes, axBytes int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				nav := callJSON("browser_navigate", map[string]any{"url": web.URL + "/"})
				t1 := time.Now()
				var p struct{ Revision string }
				json.Unmarshal(nav, &p)
				obs := callJSON("browser_observe", map[string]any{"extract": map[string]any{
					"expected_revision": p.Revision, "kind": "table", "index": 0,
					"fields": []any{map[string]any{"name": "name", "column": 0, "type": "string"}, map[string]any{"name": "n", "column": 1, "type": "integer"}},
				}})
				t2 := time.Now()
				tab := srv.onlyPage(b)
				if _, err := livehook.Capture(ctx, tab, snapshot.DefaultComputedStyles()); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				ax, err := livehook.Client(tab).Accessibility.GetFullAXTree(ctx, accessibility.NewGetFullAXTreeArgs())
				if err != nil {
					b.Fatal(err)
				}
				axJSON, _ := json.Marshal(ax)
				navT += t1.Sub(t0)
				obsT += t2.Sub(t1)
				capT += t3.Sub(t2)
				navBytes, obsBytes, axBytes = len(nav), len(obs), len(axJSON)
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
			b.ReportMetric(ms(navT), "navigate-ms/op")
			b.ReportMetric(ms(obsT), "observe-extract-ms/op")
			b.ReportMetric(ms(capT), "capture-ms/op")
			b.ReportMetric(float64(navT)/float64(capT), "navigate/capture")
			b.ReportMetric(float64(obsT)/float64(capT), "observe/capture")
			b.ReportMetric(float64(navBytes), "navigate-bytes")
			b.ReportMetric(float64(obsBytes), "observe-bytes")
			b.ReportMetric(float64(axBytes), "axtree-bytes")
			b.ReportMetric(float64(obsBytes)/float64(axBytes), "observe/axtree")
			b.ReportMetric(float64(navBytes)/float64(axBytes), "navigate/axtree")
		})
	}
}

// onlyPage is the tab of the server's one session.
func (s *Server) onlyPage(tb testing.TB) *live.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		if p, _ := sess.current(); p != nil {
			return p
		}
	}
	tb.Fatal("no session has a page")
	return nil
}
