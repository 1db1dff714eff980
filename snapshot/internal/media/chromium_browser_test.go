//go:build browser

package media_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/emulation"

	"github.com/domsnap/domsnap/internal/livehook"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot/internal/media"
)

// TestRecordedAnswersAreChromiums asks Chromium, pinned to the reference
// screen by this test itself, every query of testdata/chromium156.txt
// through matchMedia, and requires both the recorded answer and Match to
// agree with it: the record cannot drift from the browser it claims to
// come from.
func TestRecordedAnswersAreChromiums(t *testing.T) {
	data, err := os.ReadFile("testdata/chromium156.txt")
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	var want []bool
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w, q, _ := strings.Cut(line, "\t")
		queries = append(queries, q)
		want = append(want, w == "T")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := live.Launch(ctx, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv, err := pageserve.ServeOn("127.0.0.1:0", []byte("<!DOCTYPE html><p>x"), "utf-8")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	m := emulation.NewSetDeviceMetricsOverrideArgs(1280, 800, 1, false).SetScreenWidth(1280).SetScreenHeight(800)
	if err := livehook.Client(p).Emulation.SetDeviceMetricsOverride(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := livehook.Client(p).Emulation.SetEmulatedMedia(ctx, emulation.NewSetEmulatedMediaArgs().SetFeatures([]emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: "light"}, {Name: "prefers-reduced-motion", Value: "no-preference"},
		{Name: "prefers-reduced-transparency", Value: "no-preference"}, {Name: "prefers-contrast", Value: "no-preference"},
		{Name: "forced-colors", Value: "none"}, {Name: "color-gamut", Value: "srgb"},
	})); err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		t.Fatal(err)
	}
	// The protocol connection takes small messages: ask in batches.
	const batch = 30
	for start := 0; start < len(queries); start += batch {
		end := min(start+batch, len(queries))
		list, _ := json.Marshal(queries[start:end])
		raw, err := livehook.Evaluate(ctx, p, "JSON.stringify("+string(list)+".map(q => matchMedia(q).matches))")
		if err != nil {
			t.Fatal(err)
		}
		var text string
		var got []bool
		if err := json.Unmarshal(raw, &text); err != nil || json.Unmarshal([]byte(text), &got) != nil || len(got) != end-start {
			t.Fatalf("unreadable answer %s", raw)
		}
		for i, g := range got {
			q := queries[start+i]
			if g != want[start+i] {
				t.Errorf("%q: Chromium now says %v, the record %v", q, g, want[start+i])
			}
			if m := media.Match(q, media.Reference()); m != g {
				t.Errorf("%q: Match says %v, Chromium %v", q, m, g)
			}
		}
	}
}
