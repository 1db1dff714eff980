package legacyenc

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

// The expected characters are Chromium 156's TextDecoder output for the
// same bytes.
func TestDecodeExactSequences(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want []rune
	}{
		// gb18030's index maps these to private-use characters or, since
		// GB18030-2022, to vertical forms; x/text has no character.
		{"gbk", "\xa2\x91", []rune{0xE576}},
		{"gbk", "\xa1\x40", []rune{0xE4C6}},
		{"gbk", "\xaa\xa1", []rune{0xE000}},
		{"gbk", "\xfe\xfe", []rune{0xE4C5}},
		{"gbk", "\xa6\xd9", []rune{0xFE10}},
		{"gb18030", "\xa2\x91", []rune{0xE576}},
		// Codes both map alike.
		{"gbk", "\xa3\xa0", []rune{0x3000}},
		{"gbk", "\xc4\xe3\xba\xc3", []rune{0x4F60, 0x597D}},
		{"gbk", "\x80", []rune{0x20AC}},
		// A byte that cannot trail: one error; an ASCII one is read again.
		{"gbk", "\x81\xffab", []rune{0xFFFD, 'a', 'b'}},
		{"gbk", "\x81\x7fa", []rune{0xFFFD, 0x7F, 'a'}},
		{"gbk", "\xff", []rune{0xFFFD}},
		{"gbk", "\x81", []rune{0xFFFD}},
		// Four-byte codes, for gbk as for gb18030.
		{"gbk", "\x81\x30\x81\x30", []rune{0x80}},
		{"gb18030", "\x90\x30\x81\x30", []rune{0x10000}},
		{"gb18030", "\xe3\x32\x9a\x35", []rune{0x10FFFF}},
		{"gb18030", "\xe3\x32\x9a\x36", []rune{0xFFFD}},
		{"gbk", "\x84\x31\xa5\x30", []rune{0xFFFD}}, // pointer 39420: no character
		{"gbk", "\x81\x30\x61", []rune{0xFFFD, '0', 'a'}},
		{"gbk", "\x81\x30\x81", []rune{0xFFFD, '0', 0xFFFD}},
		// Shift_JIS: the user-defined area, first and last.
		{"shift_jis", "\xf0\x40", []rune{0xE000}},
		{"shift_jis", "\xf9\xfc", []rune{0xE757}},
		// A lead byte that makes no character leaves an ASCII byte to be
		// read again, and swallows any other.
		{"shift_jis", "\x82\x7aab", []rune{0xFFFD, 'z', 'a', 'b'}},
		{"shift_jis", "\x81\x20", []rune{0xFFFD, ' '}},
		{"shift_jis", "\x81\xffa", []rune{0xFFFD, 'a'}},
		{"shift_jis", "\xa0A", []rune{0xFFFD, 'A'}},
		{"shift_jis", "\xfdA", []rune{0xFFFD, 'A'}},
		{"shift_jis", "\x82\xa0\xb1\x80", []rune{0x3042, 0xFF71, 0x80}},
		{"shift_jis", "\x81", []rune{0xFFFD}},
		// Single-byte encodings: the bytes 0x80 to 0x9F that x/text leaves
		// unassigned are the C1 controls of the same number; unassigned
		// bytes above them stay U+FFFD.
		{"windows-1252", "\x80\x81\x8d\x8e\x8f\x90\x9d\x9e\x9f\xaa\xffa", []rune{0x20AC, 0x81, 0x8D, 0x17D, 0x8F, 0x90, 0x9D, 0x17E, 0x178, 0xAA, 0xFF, 'a'}},
		{"iso-8859-2", "\x80\x81\x9f\xaa\xff", []rune{0x80, 0x81, 0x9F, 0x15E, 0x2D9}},
		{"windows-874", "\x80\x81\x9f\xaa\xff", []rune{0x20AC, 0x81, 0x9F, 0xE0A, 0xFFFD}},
		{"windows-1253", "\x81\x8d\xaa\xff", []rune{0x81, 0x8D, 0xFFFD, 0xFFFD}},
		{"ibm866", "\x80\xff", []rune{0x410, 0xA0}},
	} {
		out, ok := Decode(c.name, []byte(c.in))
		if !ok {
			t.Fatalf("%s not handled", c.name)
		}
		if got := []rune(string(out)); string(got) != string(c.want) {
			t.Errorf("%s % x: got %U, want %U", c.name, c.in, got, c.want)
		}
	}
}

func TestDecodeOthersLeftToXText(t *testing.T) {
	for _, name := range []string{"utf-8", "big5", "euc-jp", "euc-kr", "utf-16le", "no-such-encoding"} {
		if _, ok := Decode(name, []byte("a")); ok {
			t.Errorf("%s handled", name)
		}
	}
}

// TestDecodeAgreesWithXTextElsewhere: on every two-byte code outside the
// generated table, the decoders give x/text's character, so only what the
// table and the Standard's error rules name differs.
func TestDecodeAgreesWithXTextElsewhere(t *testing.T) {
	for _, name := range []string{"gbk", "shift_jis"} {
		enc, err := htmlindex.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		differ := 0
		for a := 0x81; a <= 0xFE; a++ {
			for b := 0x40; b <= 0xFE; b++ {
				code := []byte{byte(a), byte(b)}
				ours, _ := Decode(name, code)
				theirs, _ := enc.NewDecoder().Bytes(code)
				r, _ := utf8.DecodeRune(theirs)
				if string(ours) != string(theirs) && r != utf8.RuneError {
					t.Errorf("%s % x: %q, x/text %q", name, code, ours, theirs)
				}
				if string(ours) != string(theirs) {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Errorf("%s: no code differs from x/text", name)
		}
	}
}

// TestSingleByteDiffersOnlyInC1: for every single-byte encoding of the
// Standard, the decoder gives x/text's character for every byte except
// those x/text leaves unassigned between 0x80 and 0x9F, and at least one
// encoding has such a byte (else the table would be pointless).
func TestSingleByteDiffersOnlyInC1(t *testing.T) {
	c1 := 0
	for _, name := range []string{"ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
		"iso-8859-7", "iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15",
		"iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250", "windows-1251",
		"windows-1252", "windows-1253", "windows-1254", "windows-1255", "windows-1256", "windows-1257",
		"windows-1258", "x-mac-cyrillic"} {
		enc, err := htmlindex.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for b := 0; b < 0x100; b++ {
			ours, ok := Decode(name, []byte{byte(b)})
			if !ok {
				t.Fatalf("%s not handled", name)
			}
			theirs, _ := enc.NewDecoder().Bytes([]byte{byte(b)})
			if string(ours) == string(theirs) {
				continue
			}
			if r, _ := utf8.DecodeRune(theirs); r != utf8.RuneError || b < 0x80 || b > 0x9F || string(ours) != string(rune(b)) {
				t.Errorf("%s %02X: %q, x/text %q", name, b, ours, theirs)
			}
			c1++
		}
	}
	if c1 == 0 {
		t.Error("no byte differs from x/text")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("gbk", []byte("\xa2\x91\x81\xff"))
	f.Add("shift_jis", []byte("\x82\x7a\xf0\x40"))
	f.Add("windows-1252", []byte("\x80\x81\xff"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		out, ok := Decode(name, data)
		if !ok {
			return
		}
		if !utf8.Valid(out) || len(out) > 3*len(data) {
			t.Fatalf("%d bytes from %d, valid %t", len(out), len(data), utf8.Valid(out))
		}
	})
}
