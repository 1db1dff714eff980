package tablewalk

import (
	"strings"

	"golang.org/x/net/html"
)

// FirstTable returns the cell texts of the first limit rows of the first
// table in doc, walking without recursion.
func FirstTable(doc *html.Node, limit int) [][]string {
	var table *html.Node
	for n := doc; n != nil && table == nil; n = next(n, doc, true) {
		if n.Type == html.ElementNode && n.Data == "table" {
			table = n
		}
	}
	if table == nil {
		return nil
	}
	var rows [][]string
	for n := table.FirstChild; n != nil && len(rows) < limit; n = next(n, table, n.Data != "table") {
		if n.Type != html.ElementNode || n.Data != "tr" {
			continue
		}
		var row []string
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
				var b strings.Builder
				for t := c.FirstChild; t != nil; t = next(t, c, true) {
					if t.Type == html.TextNode {
						b.WriteString(t.Data)
					}
				}
				row = append(row, strings.TrimSpace(b.String()))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

func next(n, root *html.Node, enter bool) *html.Node {
	if enter && n.FirstChild != nil {
		return n.FirstChild
	}
	for n != nil && n != root {
		if n.NextSibling != nil {
			return n.NextSibling
		}
		n = n.Parent
	}
	return nil
}
