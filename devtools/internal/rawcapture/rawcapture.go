package rawcapture

import (
	"context"
	"encoding/json"

	"github.com/domsnap/domsnap/internal/livehook"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// AnyPort is the loopback address that lets the system choose the port.
const AnyPort = "127.0.0.1:0"

// Tab serves data on the loopback address addr with the given charset (empty
// means the one snapshot.ParseHTML finds), loads it in a fresh tab of b, and
// calls f with the tab. The tab and the server are closed before it returns.
func Tab(ctx context.Context, b *live.Browser, addr string, data []byte, charset string, f func(*live.Page) error) error {
	if charset == "" {
		_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
		if err != nil {
			return err
		}
		charset = info.Charset
	}
	srv, err := pageserve.ServeOn(addr, data, charset)
	if err != nil {
		return err
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		return err
	}
	defer p.Close()
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		return err
	}
	return f(p)
}

// HTML is the unscrubbed capture, with snapshot.DefaultComputedStyles, of
// data loaded as Tab loads it.
func HTML(ctx context.Context, b *live.Browser, addr string, data []byte, charset string) (json.RawMessage, error) {
	var raw json.RawMessage
	err := Tab(ctx, b, addr, data, charset, func(p *live.Page) error {
		var err error
		raw, err = Page(ctx, p)
		return err
	})
	return raw, err
}

// Page is the unscrubbed capture of the tab p as it is now, with
// snapshot.DefaultComputedStyles, as a live session takes it.
func Page(ctx context.Context, p *live.Page) (json.RawMessage, error) {
	return livehook.Capture(ctx, p, snapshot.DefaultComputedStyles())
}
