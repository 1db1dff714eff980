package htmlsource

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot/internal/legacyenc"
)

// PrescanBytes is how far the HTML Standard's encoding prescan looks for a
// <meta> charset.
const PrescanBytes = 1024

var htmlBOMs = []struct {
	bom  []byte
	name string
}{
	{[]byte{0xEF, 0xBB, 0xBF}, "utf-8"},
	{[]byte{0xFE, 0xFF}, "utf-16be"},
	{[]byte{0xFF, 0xFE}, "utf-16le"},
}

// decodeHTML turns the bytes of an HTML file into UTF-8 text and names the
// encoding used, canonically (the WHATWG Encoding Standard's name, lower
// case). The order is the browser's: a byte-order mark wins over everything,
// as it wins over an HTTP charset; then the caller's label (the analogue of
// that HTTP charset); then a <meta> charset in the first 1,024 bytes; then
// UTF-8 when every byte is valid UTF-8; else windows-1252.
func decodeHTML(data []byte, label string) ([]byte, string, error) {
	for _, b := range htmlBOMs {
		if bytes.HasPrefix(data, b.bom) {
			return htmlDecodeWith(data[len(b.bom):], b.name)
		}
	}
	if label != "" {
		enc, err := htmlindex.Get(label)
		if err != nil {
			return nil, "", errcode.Wrap(errcode.InvalidRequest, pkgName, "", "unknown charset label "+errcode.Quote(label), err)
		}
		name, _ := htmlindex.Name(enc)
		return htmlDecodeWith(data, name)
	}
	head := data
	if len(head) > PrescanBytes {
		head = head[:PrescanBytes]
	}
	// DetermineEncoding answers its own fallbacks (encoding.Nop for UTF-8,
	// charmap.Windows1252) when the prescan found nothing; a <meta> found
	// by the prescan comes back as a different value.
	if enc, name, _ := charset.DetermineEncoding(head, ""); enc != nil && enc != encoding.Nop && enc != encoding.Encoding(charmap.Windows1252) && name != "" {
		switch name {
		case "utf-16be", "utf-16le":
			// A meta naming UTF-16 cannot be right, since the prescan read
			// it as ASCII: the Standard says UTF-8.
			name = "utf-8"
		case "x-user-defined":
			name = "windows-1252"
		}
		return htmlDecodeWith(data, name)
	}
	if utf8.Valid(data) {
		return data, "utf-8", nil
	}
	return htmlDecodeWith(data, "windows-1252")
}

// decodeWith decodes data with the named encoding. Malformed sequences become
// U+FFFD, as in a browser.
func htmlDecodeWith(data []byte, name string) ([]byte, string, error) {
	if name == "utf-8" && utf8.Valid(data) {
		return data, name, nil
	}
	if out, ok := legacyenc.Decode(name, data); ok {
		// x/text's decoders for these differ from the Standard's.
		return out, name, nil
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return nil, "", errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "unknown encoding "+errcode.Quote(name), err)
	}
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return nil, "", errcode.Wrap(errcode.UnsupportedInput, pkgName, "", "cannot decode the input as "+name, err)
	}
	return out, name, nil
}

// CheckCharset checks a caller's charset label before any input is read:
// "" (sniff) and every label of the Encoding Standard pass; anything else is
// invalid_request, whatever the input turns out to be (a byte-order mark or
// a capture would never consult the label, but a wrong label is a wrong
// request all the same).
func CheckCharset(label string) error {
	if label == "" {
		return nil
	}
	if _, err := htmlindex.Get(label); err != nil {
		return errcode.Wrap(errcode.InvalidRequest, pkgName, "", "unknown charset label "+errcode.Quote(label), err)
	}
	return nil
}
