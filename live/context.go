package live

import (
	"context"
	"sync"
	"time"

	"github.com/mafredri/cdp/protocol/browser"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/domsnap/domsnap/errcode"
)

// BrowserContext is an isolated browser context of a shared Browser: its
// own cookies, storage and cache, like a fresh profile, disposed with
// everything in it by Close. Downloads are refused in it unless
// AllowDownloads lets them in.
type BrowserContext struct {
	b     *Browser
	reply *target.CreateBrowserContextReply
	once  sync.Once
}

// NewContext creates a browser context whose downloads are refused.
func (b *Browser) NewContext(ctx context.Context) (_ *BrowserContext, err error) {
	select {
	case <-b.stopWait:
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "browser is closed")
	case <-b.exited:
		return nil, errcode.New(errcode.CaptureFailed, pkg, "", "browser has exited")
	default:
	}
	r, err := b.client.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	if err != nil {
		return nil, callError(ctx, "Target.createBrowserContext", err)
	}
	c := &BrowserContext{b: b, reply: r}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	deny := browser.NewSetDownloadBehaviorArgs("deny").SetBrowserContextID(browser.ContextID(r.BrowserContextID))
	if err := b.client.Browser.SetDownloadBehavior(ctx, deny); err != nil {
		return nil, callError(ctx, "Browser.setDownloadBehavior", err)
	}
	return c, nil
}

// ID is the protocol's id of the context.
func (c *BrowserContext) ID() string { return string(c.reply.BrowserContextID) }

// NewPage opens a tab (about:blank) in the context.
func (c *BrowserContext) NewPage(ctx context.Context) (*Page, error) {
	t, err := c.b.client.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(c.reply.BrowserContextID))
	if err != nil {
		return nil, callError(ctx, "Target.createTarget", err)
	}
	p, err := openPage(ctx, c.b, t.TargetID)
	if err != nil {
		closeCtx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, _ = c.b.client.Target.CloseTarget(closeCtx, target.NewCloseTargetArgs(t.TargetID))
		cancel()
		return nil, err
	}
	return p, nil
}

// Close disposes of the context and every tab in it. It is safe to call
// more than once, and after the browser has gone.
func (c *BrowserContext) Close() error {
	var err error
	c.once.Do(func() {
		select {
		case <-c.b.exited:
			return
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if e := c.b.client.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(c.reply.BrowserContextID)); e != nil {
			err = errcode.Wrap(errcode.CaptureFailed, pkg, "", "Target.disposeBrowserContext", e)
		}
	})
	return err
}

// Contexts lists the ids of the browser contexts the browser holds
// besides its default one, for tests that check none is left behind.
func (b *Browser) Contexts(ctx context.Context) ([]string, error) {
	r, err := b.client.Target.GetBrowserContexts(ctx)
	if err != nil {
		return nil, callError(ctx, "Target.getBrowserContexts", err)
	}
	out := make([]string, 0, len(r.BrowserContextIDs))
	for _, id := range r.BrowserContextIDs {
		out = append(out, string(id))
	}
	return out, nil
}

// Responsive reports whether the browser process is running and answers
// over the protocol within timeout. A browser killed from outside can
// linger as a process for a moment while its helpers exit; the protocol
// tells at once.
func (b *Browser) Responsive(timeout time.Duration) bool {
	select {
	case <-b.exited:
		return false
	case <-b.stopWait:
		return false
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err := b.client.Browser.GetVersion(ctx)
	return err == nil
}
