//go:build browser

package live

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/domsnap/domsnap/snapshot"
)

// TestCaptureAfterRenderedFrame shows that a capture never runs before the
// page's first frame: the page marks its root element from its first
// animation-frame callback, and every capture must see the mark. Taken right
// after the load event, a capture usually comes before that frame, and with
// it before Chromium's on-screen decision for content-visibility: auto (the
// parity fixture css-content-visibility differed under CPU load for that).
func TestCaptureAfterRenderedFrame(t *testing.T) {
	const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>frame</title>
<script>requestAnimationFrame(() => document.documentElement.setAttribute("data-first-frame", "seen"))</script>
</head><body><p>one frame</p></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	defer srv.Close()
	b := launch(t)
	for i := 0; i < 5; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		p, err := b.NewPage(ctx)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if err := p.Navigate(ctx, srv.URL); err != nil {
			t.Fatal(err)
		}
		raw, err := p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
		p.Close()
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(raw, []byte(`"data-first-frame"`)) {
			t.Fatalf("capture %d was taken before the page's first frame", i)
		}
	}
}
