package snapshot

import (
	"bytes"
	"testing"

	"github.com/domsnap/domsnap/internal/testkit/cascadehostile"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/snapshot/internal/htmlsource"
)

// BenchmarkStripedTable parses a 2,000-row table striped by
// tr:nth-child(even), and the same table with the stripe's selector turned
// into a plain tag selector ("unstriped"); the ratio of the two is what the
// positional test costs over the parse and the rest of the cascade.
func BenchmarkStripedTable(b *testing.B) {
	striped := cascadehostile.StripedTable(2000)
	plain := bytes.Replace(striped, []byte("tr:nth-child(even)"), []byte("tr"), 1)
	for _, c := range []struct {
		name string
		page []byte
	}{{"striped", striped}, {"unstriped", plain}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, _, err := htmlsource.Parse(c.page, "", limits.MaxTreeNodes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
