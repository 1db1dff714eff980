// Command chromedp saves a page as a bare DOMSnapshot capture that domsnap
// reads, with the function docs/saving-captures.md shows for chromedp:
//
//	go run . URL OUT
//
// It is a module of its own, so domsnap itself does not depend on chromedp.
// The browser is the system Chromium: $DOMSNAP_CHROME, else
// /usr/bin/chromium.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/chromedp"
)

// saveCapture writes the page of ctx (a chromedp context that has run once,
// so its tab exists) as a bare capture: the command's result as Chromium
// returned it.
func saveCapture(ctx context.Context, path string) error {
	capture, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (domsnapshot.CaptureSnapshotResult, error) {
		return cdp.Call(ctx, t, domsnapshot.CaptureSnapshot, domsnapshot.CaptureSnapshotParams{
			ComputedStyles: []string{"display", "visibility"},
		})
	})
	if err != nil {
		return err
	}
	data, err := json.Marshal(&capture)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . URL OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(1)
	}
}

func run(url, out string) error {
	chrome := os.Getenv("DOMSNAP_CHROME")
	if chrome == "" {
		chrome = "/usr/bin/chromium"
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome))
	if os.Getuid() == 0 {
		// Chromium's sandbox needs an unprivileged user; CI runs as root.
		opts = append(opts, chromedp.NoSandbox)
	}
	// Every step together gets one minute; the allocator removes the
	// browser's profile when it is done.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	// Closing the browser gracefully lets it remove its own temporary
	// files; cancelling the context alone kills it and leaves them.
	defer chromedp.Cancel(bctx)
	if _, err := chromedp.Run(bctx, chromedp.Navigate(url)); err != nil {
		return err
	}
	return saveCapture(bctx, out)
}
