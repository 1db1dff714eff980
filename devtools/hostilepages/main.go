// Command hostilepages writes the hostile inputs of package hostile that are too
// large to commit into a folder, for measuring the command line by hand:
//
//	make devtools && bin/dev/hostilepages -o /tmp/hostile
//
// It writes bomb.json.gz (1 GiB of spaces after a '{', about 1 MB),
// italics.html.gz (3,000,000 empty <i> elements, about 30 KB), reopened.html
// (a page the parser multiplies into millions of nodes), and
// capture-nodes.json (a capture one node over the tree bound).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/domsnap/domsnap/internal/testkit/hostile"
	"github.com/domsnap/domsnap/limits"
)

func main() {
	out := flag.String("o", "", "folder to write into")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: hostilepages -o FOLDER")
		os.Exit(2)
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, fill func(*bytes.Buffer) error) error {
		var b bytes.Buffer
		if err := fill(&b); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644)
	}
	if err := write("bomb.json.gz", func(b *bytes.Buffer) error {
		// A JSON-looking bomb: sniffing does not refuse it early, so only
		// the bound stops it.
		_, err := b.Write(hostile.GzipBomb("{", 1<<30, ' '))
		return err
	}); err != nil {
		return err
	}
	if err := write("italics.html.gz", func(b *bytes.Buffer) error {
		return hostile.Repeat(b, "", "<i></i>", "", 3_000_000, true)
	}); err != nil {
		return err
	}
	if err := write("reopened.html", func(b *bytes.Buffer) error {
		_, err := b.Write(hostile.Reopened(400, 6_000))
		return err
	}); err != nil {
		return err
	}
	return write("capture-nodes.json", func(b *bytes.Buffer) error {
		return hostile.Capture(b, limits.MaxTreeNodes+1)
	})
}
