package htmlsource

import (
	"strings"
	"testing"
)

// TestHTMLAllSpace holds htmlAllSpace to the strings.Trim test it
// replaces in the walk, on ASCII whitespace, other spaces (vertical tab,
// no-break space, ideographic space), invalid UTF-8 and NUL.
func TestHTMLAllSpace(t *testing.T) {
	for _, s := range []string{
		"", " ", "\t\n\f\r ", "  x ", "\v", "\u00a0", " \u3000 ", "\xff", "\x00", "\r\n\r\n",
		"\t\t\tA", "é", " \x85 ",
	} {
		want := strings.Trim(s, " \t\n\f\r") == ""
		if got := htmlAllSpace(s); got != want {
			t.Errorf("htmlAllSpace(%q) = %v, want %v", s, got, want)
		}
	}
}
