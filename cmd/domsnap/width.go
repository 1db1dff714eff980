package main

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// displayWidth is the number of terminal columns s takes: East Asian wide
// and fullwidth characters, emoji among them, take two; combining marks and
// other zero-width characters none; everything else one. The table format
// only shows quoted text, where control and format characters are already
// escapes of printable ASCII.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r == utf8.RuneError:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		// Combining marks, variation selectors among them, draw on the
		// character before them.
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
