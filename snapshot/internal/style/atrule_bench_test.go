package style

import (
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// BenchmarkSheets reads the same 2,000 rules as they are, each wrapped in a
// matching @media block, in a @supports block, in a @layer block, and using
// var(); the ratios to "plain" are what the at-rules and substitution cost.
func BenchmarkSheets(b *testing.B) {
	const rules = 2000
	wrap := map[string]func(i int) string{
		"plain": func(i int) string { return ".c" + strconv.Itoa(i) + "{display:none}" },
		"media": func(i int) string {
			return "@media screen and (min-width: 900px){.c" + strconv.Itoa(i) + "{display:none}}"
		},
		"supports": func(i int) string { return "@supports (display: grid){.c" + strconv.Itoa(i) + "{display:none}}" },
		"layer": func(i int) string {
			return "@layer l" + strconv.Itoa(i%10) + "{.c" + strconv.Itoa(i) + "{display:none}}"
		},
		"var": func(i int) string { return ".c" + strconv.Itoa(i) + "{--d:none;display:var(--d)}" },
	}
	var body strings.Builder
	for i := 0; i < rules; i++ {
		body.WriteString("<i class=c" + strconv.Itoa(i) + ">x</i>")
	}
	for _, name := range []string{"plain", "media", "supports", "layer", "var"} {
		var css strings.Builder
		for i := 0; i < rules; i++ {
			css.WriteString(wrap[name](i))
		}
		page := "<style>" + css.String() + "</style><body>" + body.String()
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				doc, err := html.Parse(strings.NewReader(page))
				if err != nil {
					b.Fatal(err)
				}
				computeAll(doc)
			}
		})
	}
}
