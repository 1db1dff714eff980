// Package tablewalk is the walk benchratio's baselines make: the first
// table of a parsed document, read row by row, with no styles and no bounds.
package tablewalk
