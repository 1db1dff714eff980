// Command capturefixtures loads every testdata/html page in headless
// Chromium, exactly as `domsnap parity` serves it, and writes each page's
// DOMSnapshot.captureSnapshot reply, scrubbed of control values by
// snapshot.ScrubCapture, to testdata/captures/<name>.json. The
// captures let the snapshot decoder and the parity rules be tested without a
// browser. Run it with `make captures` after changing a fixture page.
//
// The page server binds a fixed loopback port so that the document URL each
// capture records is the same from run to run, and each page gets a fresh
// browser so that backend node ids are too; only the frame id, a random
// token, changes on every capture.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"

	"github.com/domsnap/domsnap/devtools/internal/rawcapture"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

func main() {
	htmlDir := flag.String("html", "testdata/html", "folder of fixture pages")
	outDir := flag.String("out", "testdata/captures", "folder the captures are written to")
	chrome := flag.String("chrome", "", "Chromium binary (default: $"+live.EnvChrome+", then the usual paths)")
	addr := flag.String("addr", "127.0.0.1:47613", "loopback address the pages are served on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *htmlDir, *outDir, *chrome, *addr); err != nil {
		fmt.Fprintln(os.Stderr, "capturefixtures:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, htmlDir, outDir, chrome, addr string) error {
	pages, err := filepath.Glob(filepath.Join(htmlDir, "*.html"))
	if err != nil {
		return err
	}
	if len(pages) == 0 {
		return fmt.Errorf("no pages in %s", htmlDir)
	}
	sort.Strings(pages)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	version := ""
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			return err
		}
		// A fresh browser for each page numbers the backend node ids the
		// same way on every run, so a re-capture changes only what the page
		// changed (and the random frame id).
		b, err := live.Launch(ctx, live.Options{Path: chrome})
		if err != nil {
			return err
		}
		version = b.Version()
		raw, err := rawcapture.HTML(ctx, b, addr, data, "")
		b.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", page, err)
		}
		// Saved captures hold no control value (docs/reference.md#form-columns): the
		// scrub keeps the tree and drops the values.
		scrubbed, err := snapshot.ScrubCapture(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", page, err)
		}
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		out := filepath.Join(outDir, name+".json")
		if err := os.WriteFile(out, append(scrubbed, '\n'), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("captured %d pages with %s into %s\n", len(pages), version, outDir)
	return nil
}
