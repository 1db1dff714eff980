package live

import (
	"context"
	"encoding/json"

	"github.com/mafredri/cdp"
)

// The methods below exist only while this package's tests build: they give
// its tests, internal and external, the raw reaches of a tab that the
// exported API keeps back (other packages use package livehook).

// CaptureSnapshot is captureSnapshot: the capture as the protocol sent it.
func (p *Page) CaptureSnapshot(ctx context.Context, computedStyles []string) (json.RawMessage, error) {
	return p.captureSnapshot(ctx, computedStyles)
}

// CaptureBounded is one bounded capture as the walker gave it, walked to
// its budget even past shadow content and frames.
func (p *Page) CaptureBounded(ctx context.Context, budget int, again bool) (*BoundedCapture, error) {
	return p.walkBounded(ctx, budget, again, false)
}

// Client is the tab's protocol client.
func (p *Page) Client() *cdp.Client { return p.client }

// Evaluate is evaluate: a script run in the page's own world.
func (p *Page) Evaluate(ctx context.Context, expr string) (json.RawMessage, error) {
	return p.evaluate(ctx, expr)
}
