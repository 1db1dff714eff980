package live

import (
	"context"
	"encoding/json"

	"github.com/mafredri/cdp"

	"github.com/domsnap/domsnap/internal/livehook"
)

// The module's tests, the parity check and the dev-only programs reach a
// tab's unscrubbed capture, its protocol client and page scripts through
// package livehook, which this package's exported API does not offer.
func init() {
	livehook.Install(livehook.Hooks{
		Capture: func(ctx context.Context, page any, computedStyles []string) (json.RawMessage, error) {
			return page.(*Page).captureSnapshot(ctx, computedStyles)
		},
		Client: func(page any) *cdp.Client { return page.(*Page).client },
		Evaluate: func(ctx context.Context, page any, expr string) (json.RawMessage, error) {
			return page.(*Page).evaluate(ctx, expr)
		},
	})
}
