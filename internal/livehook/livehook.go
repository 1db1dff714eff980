package livehook

import (
	"context"
	"encoding/json"

	"github.com/mafredri/cdp"
)

// Hooks are package live's implementations, each taking a *live.Page.
type Hooks struct {
	Capture  func(ctx context.Context, page any, computedStyles []string) (json.RawMessage, error)
	Client   func(page any) *cdp.Client
	Evaluate func(ctx context.Context, page any, expr string) (json.RawMessage, error)
}

// hooks is set once, by package live's init, before any code that can hold
// a page runs; it is read only afterwards, so it needs no lock.
var hooks Hooks

// Install records live's implementations. Only package live calls it, from
// its init; a second call, or one that leaves a hook out, panics.
func Install(h Hooks) {
	if hooks.Capture != nil {
		panic("livehook: installed twice")
	}
	if h.Capture == nil || h.Client == nil || h.Evaluate == nil {
		panic("livehook: every hook is required")
	}
	hooks = h
}

// Capture takes one DOMSnapshot.captureSnapshot of page's main document with
// exactly these computed styles, after a rendered frame as every capture of
// live waits for, and returns the reply's bytes exactly as the protocol sent
// them: unscrubbed.
func Capture(ctx context.Context, page any, computedStyles []string) (json.RawMessage, error) {
	return installed().Capture(ctx, page, computedStyles)
}

// Client is page's protocol client, for a call live makes no method for.
func Client(page any) *cdp.Client { return installed().Client(page) }

// Evaluate runs expr in page's own world and returns its JSON value. It is
// bounded by ctx's deadline, or by live's default one when ctx has none.
func Evaluate(ctx context.Context, page any, expr string) (json.RawMessage, error) {
	return installed().Evaluate(ctx, page, expr)
}

// installed is the hooks, which a caller holding a page always finds set.
func installed() *Hooks {
	if hooks.Capture == nil {
		panic("livehook: package live is not linked")
	}
	return &hooks
}
