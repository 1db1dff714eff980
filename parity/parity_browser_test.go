//go:build browser

package parity

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/live"
)

// loadRequests reads a fixture's requests file: a JSON array of docs/reference.md#the-request requests.
func loadRequests(t testing.TB, path string) []domsnap.Request {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return DefaultRequests()
	}
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var reqs []domsnap.Request
	for _, raw := range raws {
		req, err := domsnap.DecodeRequest(raw)
		if err != nil {
			// A fixture may hold a deliberately invalid request; parity has
			// nothing to compare for it.
			continue
		}
		reqs = append(reqs, req)
	}
	return reqs
}

// inventoryRow stands for the request-less observation in the table.
const inventoryRow = InventoryRequest

// divergence is one row of the divergence table.
type divergence struct {
	fixture string
	request int // -1 for every request of the fixture
}

// readDivergences reads the table in docs/divergences.md with
// ReadDivergences, the reader domsnap parity --known uses, keyed by fixture
// and request (-1 for "all", inventoryRow for the inventory).
func readDivergences(t testing.TB) map[divergence]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "docs", "divergences.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadDivergences(f)
	if err != nil {
		t.Fatal(err)
	}
	table := map[divergence]string{}
	for _, d := range rows {
		table[divergence{fixture: d.Fixture, request: d.Request}] = d.Cause
	}
	return table
}

// TestParityFixtures analyzes every testdata/html page offline and live with
// each of its requests and requires byte-identical results, except where the
// divergence table lists the page and request. A listed divergence that no
// longer differs fails too, so the table never goes stale.
func TestParityFixtures(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "testdata", "html", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no fixture pages: %v", err)
	}
	sort.Strings(pages)
	table := readDivergences(t)
	used := map[divergence]bool{}
	b := launch(t)
	ctx := context.Background()
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			reqs := loadRequests(t, strings.TrimSuffix(page, ".html")+".requests.json")
			rep, err := Check(ctx, b, data, reqs)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range append(rep.Results, rep.Inventory) {
				listed := ""
				row := r.Request
				if row < 0 {
					row = inventoryRow
				}
				for _, d := range []divergence{{name, row}, {name, -1}} {
					if cause, ok := table[d]; ok {
						listed = cause
						if len(r.Differences) > 0 {
							used[d] = true
						}
					}
				}
				if len(r.Differences) == 0 || listed != "" {
					continue
				}
				t.Errorf("request %d (-1: the inventory) differs offline/live:", r.Request)
				for _, d := range r.Differences {
					t.Errorf("  %s: offline %s, live %s", d.Path, d.Offline, d.Live)
				}
			}
		})
	}
	for d := range table {
		if !used[d] {
			t.Errorf("divergence table lists %s request %d, which no longer differs", d.fixture, d.request)
		}
	}
}

// launch starts a browser for one test and closes it when the test ends. The
// partition must fail, not skip, without Chromium, so a launch failure fails
// the test.
func launch(t testing.TB) *live.Browser {
	t.Helper()
	b, err := live.Launch(context.Background(), live.Options{})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
