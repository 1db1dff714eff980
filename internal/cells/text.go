package cells

import (
	"unicode/utf8"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// textBuf accumulates normalised text under the CellUnits bound as it
// streams in: runs of ASCII whitespace become one pending space, which is
// written only when a later character follows, so leading and trailing
// whitespace never appear and no trimming pass is needed afterwards.
type textBuf struct {
	b     []byte
	units int // UTF-16 code units in b
	// pending is set when whitespace was seen after retained text; the space
	// is written together with the next character, or never.
	pending bool
	// over is set when a non-whitespace character did not fit.
	over bool
	// limit is the bound in UTF-16 units; 0 means limits.CellUnits, so the
	// zero textBuf is a cell summary's.
	limit int
}

// bound is the number of UTF-16 units t may retain.
func (t *textBuf) bound() int {
	if t.limit > 0 {
		return t.limit
	}
	return limits.CellUnits
}

// space records a separator. Before any retained text it is dropped, which
// is the leading trim.
func (t *textBuf) space() {
	if t.units > 0 {
		t.pending = true
	}
}

// empty reports whether nothing has been retained.
func (t *textBuf) empty() bool { return t.units == 0 }

// writeString streams s in. It reports false, and sets over, at the first
// non-whitespace character that does not fit; the rest of s is not read.
func (t *textBuf) writeString(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if domtree.IsASCIISpace(c) {
				t.space()
			} else if !t.put(1, s[i:i+1]) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		enc := s[i : i+size]
		if r == utf8.RuneError && size == 1 {
			// A byte that is not UTF-8 (a lone surrogate's encoding, say) is
			// kept as U+FFFD so the output stays valid UTF-8.
			enc = "\uFFFD"
		}
		units := 1
		if r >= 0x10000 {
			units = 2 // a surrogate pair: kept or dropped whole
		}
		if !t.put(units, enc) {
			return false
		}
		i += size
	}
	return true
}

// put appends one non-whitespace character of the given UTF-16 length,
// preceded by the pending space if there is one.
func (t *textBuf) put(units int, enc string) bool {
	need := units
	if t.pending {
		need++
	}
	if t.units+need > t.bound() {
		// A pending space that would fit alone is dropped too: it would only
		// be trimmed from the end of the retained text.
		t.over = true
		return false
	}
	if t.b == nil {
		// Three UTF-8 bytes per UTF-16 unit is the most text can take
		// (a surrogate pair is four bytes for two units), so a cell's b
		// never grows. A longer bound (a page's text) starts at a cell's
		// size and grows only as far as the text goes.
		t.b = make([]byte, 0, 3*min(t.bound(), limits.CellUnits))
	}
	if t.pending {
		t.b = append(t.b, ' ')
		t.units++
		t.pending = false
	}
	t.b = append(t.b, enc...)
	t.units += units
	return true
}

// hasText reports whether s holds a character other than ASCII whitespace,
// reading only up to the first one.
func hasText(s string) bool {
	for i := 0; i < len(s); i++ {
		if !domtree.IsASCIISpace(s[i]) {
			return true
		}
	}
	return false
}
