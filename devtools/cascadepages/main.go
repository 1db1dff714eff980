// Command cascadepages saves the hostile cascade pages of package cascadehostile,
// committed and generated alike, into a folder, for timing the command line
// on them by hand:
//
//	make devtools && bin/dev/cascadepages -out /tmp/hostile
//	/usr/bin/time -v domsnap extract --kind table --index 0 ... /tmp/hostile/cascade-long-compound.html
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/domsnap/domsnap/internal/testkit/cascadehostile"
)

func main() {
	out := flag.String("out", "", "folder to write the pages into (created if missing)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "write: -out is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "write:", err)
		os.Exit(1)
	}
	pages := append(cascadehostile.Committed(), cascadehostile.Generated()...)
	for _, p := range pages {
		if err := os.WriteFile(filepath.Join(*out, p.Name), p.HTML, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			os.Exit(1)
		}
	}
}
