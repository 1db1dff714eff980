// Package treediff compares an offline tree and a live tree of the same page
// node by node: kind, name, attributes and text of every node, and for
// elements that are not excluded, display and visibility. The capture parity
// test of package snapshot and the real-page check of devtools/realparity
// both use it, so the two measure the same thing.
//
// CompareSaved is the comparison for a live tree decoded from a saved
// capture, which the scrub has emptied of typed text: the offline side is
// read as the scrub would leave it.
package treediff
