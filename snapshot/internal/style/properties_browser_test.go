//go:build browser

package style_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/livehook"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot/internal/style"
)

// TestKnownPropertiesAreChromiums: Chromium accepts every name of the
// generated property table (CSS.supports(name, "inherit")), so @supports
// offline never calls a property known that the browser does not know.
func TestKnownPropertiesAreChromiums(t *testing.T) {
	names := style.KnownProperties()
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
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		t.Fatal(err)
	}
	// The protocol connection takes small messages: ask in batches.
	const batch = 60
	asked := 0
	for start := 0; start < len(names); start += batch {
		end := min(start+batch, len(names))
		list, _ := json.Marshal(names[start:end])
		raw, err := livehook.Evaluate(ctx, p, "JSON.stringify("+string(list)+".filter(n => !CSS.supports(n, 'inherit')))")
		if err != nil {
			t.Fatal(err)
		}
		var text string
		var rejected []string
		if err := json.Unmarshal(raw, &text); err != nil || json.Unmarshal([]byte(text), &rejected) != nil {
			t.Fatalf("unreadable answer %s", raw)
		}
		for _, n := range rejected {
			t.Errorf("Chromium does not know %q", n)
		}
		asked += end - start
	}
	if asked < 500 {
		t.Fatalf("only %d names asked", asked)
	}
}
