package live

import (
	"context"
	"encoding/json"
)

// CaptureHTML serves data on a loopback port with the given charset (the one
// offline analysis used; empty means sniff it the same way), loads it in a
// fresh tab of b, and returns the DOMSnapshot.captureSnapshot reply exactly
// as the protocol sent it. The tab and the server are closed before it
// returns.
func CaptureHTML(ctx context.Context, b *Browser, data []byte, charset string) (json.RawMessage, error) {
	return captureHTMLAt(ctx, b, "127.0.0.1:0", data, charset)
}

func captureHTMLAt(ctx context.Context, b *Browser, addr string, data []byte, charset string) (json.RawMessage, error) {
	if charset == "" {
		charset = sniffCharset(data)
	}
	srv, err := ServeOn(addr, data, charset)
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
	return p.CaptureSnapshot(ctx, DefaultComputedStyles)
}

// CaptureHTMLOn is CaptureHTML with the server bound to addr, for captures
// that should record the same address on every run.
func CaptureHTMLOn(ctx context.Context, b *Browser, addr string, data []byte, charset string) (json.RawMessage, error) {
	return captureHTMLAt(ctx, b, addr, data, charset)
}
