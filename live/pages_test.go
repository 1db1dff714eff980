package live

import (
	"bytes"
	"strconv"
)

// flatPage is a generated page of about n nodes: a five-row table near the
// start, then flat filler paragraphs of two nodes each (element and text),
// the shape the performance notes of DESIGN.md ask for.
func flatPage(n int, cell string) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>flat</title></head><body>\n")
	b.WriteString("<table><tr><th>name</th><th>qty</th></tr>")
	for i := 0; i < 5; i++ {
		b.WriteString("<tr><td>" + cell + "</td><td>" + strconv.Itoa(i) + "</td></tr>")
	}
	b.WriteString("</table>\n")
	// The head, table and body account for about 60 nodes.
	for i := 60; i < n; i += 2 {
		b.WriteString("<p>filler " + strconv.Itoa(i) + "</p>")
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}
