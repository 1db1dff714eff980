package live

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"
)

// guardReplyTimeout bounds each answer the guard sends for a paused request.
const guardReplyTimeout = 5 * time.Second

// Guard limits where the tab's main frame may go: every document request
// of the main frame (the first one of a navigation, each redirect hop, and
// navigations the page starts itself) is paused by the Fetch domain and
// let through only when allow accepts its URL; a refused one is aborted, so
// the frame stays on the document it showed. Subresources and documents of
// subframes are never paused. Refused counts the aborted requests.
//
// Guard is called once, before the tab's first navigation. The requests are
// answered on a goroutine that ends when the tab closes.
func (p *Page) Guard(ctx context.Context, allow func(url string) bool) error {
	tree, err := p.client.Page.GetFrameTree(ctx)
	if err != nil {
		return callError(ctx, "Page.getFrameTree", err)
	}
	main := string(tree.FrameTree.Frame.ID)
	paused, err := p.client.Fetch.RequestPaused(p.life)
	if err != nil {
		return callError(ctx, "Fetch.requestPaused", err)
	}
	doc := network.ResourceTypeDocument
	args := fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{{ResourceType: &doc}})
	if err := p.client.Fetch.Enable(ctx, args); err != nil {
		paused.Close()
		return callError(ctx, "Fetch.enable", err)
	}
	go func() {
		defer paused.Close()
		for {
			ev, err := paused.Recv()
			if err != nil {
				return // the tab closed
			}
			rctx, cancel := context.WithTimeout(p.life, guardReplyTimeout)
			if string(ev.FrameID) == main && !allow(ev.Request.URL) {
				p.refused.Add(1)
				_ = p.client.Fetch.FailRequest(rctx, fetch.NewFailRequestArgs(ev.RequestID, network.ErrorReasonAborted))
			} else {
				_ = p.client.Fetch.ContinueRequest(rctx, fetch.NewContinueRequestArgs(ev.RequestID))
			}
			cancel()
		}
	}()
	return nil
}

// Refused reports how many main-frame document requests Guard aborted.
func (p *Page) Refused() uint64 { return p.refused.Load() }
