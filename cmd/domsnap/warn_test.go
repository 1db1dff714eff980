package main

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/testkit/cascadehostile"
)

// TestSheetsDroppedWarning: extract and inventory of an HTML page whose
// style sheets exceed the offline matching budget print the warning on
// stderr, once, and still answer with exit 0; a page within the budget
// prints nothing.
func TestSheetsDroppedWarning(t *testing.T) {
	over := writeTemp(t, "over.html", string(cascadehostile.LongCompound(100_000, 200)))
	under := writeTemp(t, "under.html", string(cascadehostile.LongCompound(100, 20)))
	for _, c := range []struct {
		page string
		warn bool
	}{{over, true}, {under, false}} {
		for _, args := range [][]string{
			{"inventory", c.page},
			{"extract", "--kind", "table", "--index", "0", "--field", "n:0:integer", c.page},
		} {
			r := runCmd(t, "", args...)
			if r.code != exitOK {
				t.Fatalf("%v: exit %d, stderr %q", args, r.code, r.stderr)
			}
			want := ""
			if c.warn {
				want = sheetsDroppedWarning + "\n"
			}
			if r.stderr != want {
				t.Errorf("%v: stderr %q, want %q", args, r.stderr, want)
			}
			if !strings.Contains(r.stdout, "table") {
				t.Errorf("%v: no table in the output: %q", args, r.stdout[:min(len(r.stdout), 200)])
			}
		}
	}
}
