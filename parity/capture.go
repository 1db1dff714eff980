package parity

import (
	"context"
	"encoding/json"

	"github.com/domsnap/domsnap/internal/livehook"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// captureHTML serves data on a loopback port with the given charset (the one
// offline analysis used), loads it in a fresh tab of b, and returns the
// DOMSnapshot.captureSnapshot reply exactly as the protocol sent it: parity
// compares with offline analysis what live analysis reads, and live's API
// hands out no capture before its scrub (package livehook reaches it). The
// reply is only decoded, never kept or shown. The tab and the server are
// closed before it returns.
func captureHTML(ctx context.Context, b *live.Browser, data []byte, charset string) (json.RawMessage, error) {
	srv, err := pageserve.Serve(data, charset)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		return nil, err
	}
	return livehook.Capture(ctx, p, snapshot.DefaultComputedStyles())
}
