package parity

import (
	"context"
	"encoding/json"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/live"

	"github.com/domsnap/domsnap/snapshot"
)

// CaptureHTML serves data on a loopback port with the given charset (the one
// offline analysis used; empty means ask snapshot.ParseHTML), loads it in a
// fresh tab of b, and returns the DOMSnapshot.captureSnapshot reply exactly
// as the protocol sent it. The tab and the server are closed before it
// returns.
func CaptureHTML(ctx context.Context, b *live.Browser, data []byte, charset string) (json.RawMessage, error) {
	return captureHTMLAt(ctx, b, "127.0.0.1:0", data, charset)
}

func captureHTMLAt(ctx context.Context, b *live.Browser, addr string, data []byte, charset string) (json.RawMessage, error) {
	if charset == "" {
		_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
		if err != nil {
			return nil, err
		}
		charset = info.Charset
	}
	srv, err := pageserve.ServeOn(addr, data, charset)
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
	return p.CaptureSnapshot(ctx, snapshot.DefaultComputedStyles())
}

// CaptureHTMLOn is CaptureHTML with the server bound to addr, for captures
// that should record the same address on every run.
func CaptureHTMLOn(ctx context.Context, b *live.Browser, addr string, data []byte, charset string) (json.RawMessage, error) {
	return captureHTMLAt(ctx, b, addr, data, charset)
}
