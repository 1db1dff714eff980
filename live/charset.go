package live

import (
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// sniffCharset names the encoding offline analysis decodes data with (SPEC
// section 2): a byte-order mark, then a meta charset in the first 1,024
// bytes, else UTF-8 when the bytes are valid UTF-8, else windows-1252.
func sniffCharset(data []byte) string {
	_, name, certain := charset.DetermineEncoding(data, "")
	if !certain && utf8.Valid(data) {
		return "utf-8"
	}
	return name
}
