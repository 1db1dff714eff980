package legacyenc

import (
	"sort"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// Decode decodes data in the encoding with the Encoding Standard's
// canonical name, when this package handles that encoding; ok is false for
// the others, which x/text decodes as the Standard says.
func Decode(name string, data []byte) (out []byte, ok bool) {
	switch name {
	case "gbk", "gb18030":
		return decodeGB18030(data), true
	case "shift_jis":
		return decodeShiftJIS(data), true
	}
	if t := singleByteTable(name); t != nil {
		return decodeSingleByte(t, data), true
	}
	return nil, false
}

// lookup decodes one complete code of enc with x/text; ok is false when
// x/text maps it to nothing (U+FFFD) or to more than one character.
type lookup struct {
	dec *encoding.Decoder
	buf [8]byte
}

func newLookup(enc encoding.Encoding) *lookup { return &lookup{dec: enc.NewDecoder()} }

func (l *lookup) rune(code []byte) (rune, bool) {
	l.dec.Reset()
	n, _, err := l.dec.Transform(l.buf[:], code, true)
	if err != nil || n == 0 {
		return 0, false
	}
	r, size := utf8.DecodeRune(l.buf[:n])
	if size != n || r == utf8.RuneError {
		return 0, false
	}
	return r, true
}

func isASCII(b byte) bool { return b < 0x80 }

// decodeGB18030 is the Standard's gb18030 decoder.
func decodeGB18030(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/2)
	lk := newLookup(simplifiedchinese.GB18030)
	for i := 0; i < len(data); {
		b := data[i]
		switch {
		case isASCII(b):
			out = append(out, b)
			i++
			continue
		case b == 0x80:
			out = utf8.AppendRune(out, 0x20AC)
			i++
			continue
		case b == 0xFF:
			out = utf8.AppendRune(out, utf8.RuneError)
			i++
			continue
		}
		if i+1 >= len(data) {
			out = utf8.AppendRune(out, utf8.RuneError)
			break
		}
		b2 := data[i+1]
		if b2 >= 0x30 && b2 <= 0x39 {
			// A four-byte code: lead, digit, byte 0x81 to 0xFE, digit. A
			// third or fourth byte out of range leaves everything after the
			// lead to be read again.
			if i+2 >= len(data) || data[i+2] < 0x81 || data[i+2] > 0xFE || i+3 >= len(data) || data[i+3] < 0x30 || data[i+3] > 0x39 {
				out = utf8.AppendRune(out, utf8.RuneError)
				i++
				continue
			}
			if r, ok := lk.rune(data[i : i+4]); ok && fourBytePointerValid(data[i:i+4]) {
				out = utf8.AppendRune(out, r)
			} else {
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			i += 4
			continue
		}
		if (b2 >= 0x40 && b2 <= 0x7E) || (b2 >= 0x80 && b2 <= 0xFE) {
			offset := byte(0x40)
			if b2 >= 0x7F {
				offset = 0x41
			}
			pointer := int(b-0x81)*190 + int(b2-offset)
			if r, ok := gbkTableRune(pointer); ok {
				out = utf8.AppendRune(out, r)
				i += 2
				continue
			}
			if r, ok := lk.rune(data[i : i+2]); ok {
				out = utf8.AppendRune(out, r)
				i += 2
				continue
			}
		}
		// No character: an ASCII byte is read again as itself.
		out = utf8.AppendRune(out, utf8.RuneError)
		if isASCII(b2) {
			i++
		} else {
			i += 2
		}
	}
	return out
}

// fourBytePointerValid reports whether a four-byte code's pointer is one
// the Standard maps: up to 39419 through the ranges, or 189000 to 1237575.
func fourBytePointerValid(c []byte) bool {
	p := ((int(c[0]-0x81)*10+int(c[1]-0x30))*126+int(c[2]-0x81))*10 + int(c[3]-0x30)
	return p <= 39419 || p >= 189000 && p <= 1237575
}

// gbkTableRune looks a two-byte pointer up in the runs of gbk_table.go.
func gbkTableRune(pointer int) (rune, bool) {
	i := sort.Search(len(gbkRuns), func(i int) bool {
		return int(gbkRuns[i].pointer)+int(gbkRuns[i].n) > pointer
	})
	if i == len(gbkRuns) || int(gbkRuns[i].pointer) > pointer {
		return 0, false
	}
	return rune(gbkRuns[i].r) + rune(pointer-int(gbkRuns[i].pointer)), true
}

// decodeShiftJIS is the Standard's Shift_JIS decoder.
func decodeShiftJIS(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/2)
	lk := newLookup(japanese.ShiftJIS)
	for i := 0; i < len(data); {
		b := data[i]
		switch {
		case b <= 0x80:
			out = utf8.AppendRune(out, rune(b))
			i++
			continue
		case b >= 0xA1 && b <= 0xDF:
			out = utf8.AppendRune(out, 0xFF61-0xA1+rune(b))
			i++
			continue
		case !(b >= 0x81 && b <= 0x9F || b >= 0xE0 && b <= 0xFC):
			out = utf8.AppendRune(out, utf8.RuneError)
			i++
			continue
		}
		if i+1 >= len(data) {
			out = utf8.AppendRune(out, utf8.RuneError)
			break
		}
		b2 := data[i+1]
		if b2 >= 0x40 && b2 <= 0x7E || b2 >= 0x80 && b2 <= 0xFC {
			offset, leadOffset := 0x40, 0x81
			if b2 >= 0x7F {
				offset = 0x41
			}
			if b >= 0xA0 {
				leadOffset = 0xC1
			}
			pointer := (int(b)-leadOffset)*188 + int(b2) - offset
			if pointer >= 8836 && pointer <= 10715 {
				// The user-defined area.
				out = utf8.AppendRune(out, 0xE000-8836+rune(pointer))
				i += 2
				continue
			}
			if r, ok := lk.rune(data[i : i+2]); ok {
				out = utf8.AppendRune(out, r)
				i += 2
				continue
			}
		}
		out = utf8.AppendRune(out, utf8.RuneError)
		if isASCII(b2) {
			i++
		} else {
			i += 2
		}
	}
	return out
}
