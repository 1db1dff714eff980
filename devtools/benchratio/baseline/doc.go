// Command baseline is the least work extracting the first table of an
// HTML file needs, for benchratio to compare `domsnap extract` against: it
// parses the file with golang.org/x/net/html, finds the first table in tree
// order, and prints the text of its first 50 rows' cells as JSON. It applies
// no styles and no bounds.
package main
