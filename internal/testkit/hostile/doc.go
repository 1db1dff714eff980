// Package hostile makes the hostile inputs that are too large to commit:
// decompression bombs, pages of millions of elements, pages whose parser
// multiplies a few bytes into many nodes, and captures with too many nodes.
// Each maker is deterministic, so a test built on one always sees the same
// bytes; the small hostile inputs are committed under testdata/hostile
// instead, with names starting "input-".
//
// The gen command writes the large ones to files for measuring the command
// line by hand.
package hostile
