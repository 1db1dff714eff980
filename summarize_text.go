package domsnap

import (
	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/limits"
)

// SummarizeText bounds text a page hands over outside its document (a
// dialog's message, say) as a cell summary is bounded
// (docs/reference.md#cell-text): runs of ASCII whitespace become one
// space, none at either end, at most limits.CellUnits UTF-16 units, never
// half a surrogate pair, valid UTF-8. truncated says the bound cut it. The
// text stays untrusted page content.
func SummarizeText(s string) (text string, truncated bool) {
	t := cells.NewText(limits.CellUnits)
	t.WriteString(s)
	return t.String(), t.Full()
}
