package legacyenc

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// singleByte holds one 128-entry table per single-byte encoding, built on
// first use from x/text's character map.
var singleByte struct {
	sync.Mutex
	tables map[string]*[128]rune
}

// singleByteTable is the table of the single-byte encoding with the
// Standard's canonical name, or nil when name is not one. x/text decodes
// the bytes 0x80 to 0x9F that its maps leave unassigned (0x81, 0x8D, 0x8F,
// 0x90 and 0x9D in windows-1252; all 32 in the ISO-8859 encodings) as
// U+FFFD, where the Standard's indexes, and Chromium, map each of them to
// the C1 control with the same number. Every other byte decodes as x/text
// decodes it, unassigned bytes from 0xA0 up included (U+FFFD on both
// sides).
func singleByteTable(name string) *[128]rune {
	singleByte.Lock()
	defer singleByte.Unlock()
	if t, ok := singleByte.tables[name]; ok {
		return t
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return nil // not kept: the cache holds only the Standard's labels
	}
	if n, _ := htmlindex.Name(enc); n == "iso-8859-8-i" {
		// The same bytes as iso-8859-8, read in logical order; x/text
		// wraps its map in a type of its own.
		enc = charmap.ISO8859_8
	}
	var t *[128]rune
	if cm, ok := enc.(*charmap.Charmap); ok {
		t = new([128]rune)
		for i := range t {
			b := byte(0x80 + i)
			r := cm.DecodeByte(b)
			if r == utf8.RuneError && b <= 0x9F {
				r = rune(b)
			}
			t[i] = r
		}
	}
	if singleByte.tables == nil {
		singleByte.tables = map[string]*[128]rune{}
	}
	singleByte.tables[name] = t
	return t
}

// decodeSingleByte decodes data with table t: ASCII as itself, every other
// byte through the table.
func decodeSingleByte(t *[128]rune, data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/2)
	for _, b := range data {
		if b < 0x80 {
			out = append(out, b)
			continue
		}
		out = utf8.AppendRune(out, t[b-0x80])
	}
	return out
}
