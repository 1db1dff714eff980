// Package cascadehostile generates the style sheets built to make the
// offline cascade slow: :has() nested inside :has(), :has() over a deep
// tree, one compound of very many simple selectors over many rows, and one
// element whose class list holds as many names as there are class rules.
//
// The small pages are committed under testdata/hostile/ (their names start
// with "cascade-"), and a test checks that they are exactly what this
// package generates; the big ones are generated where they are used, by the
// tests of package snapshot and by the program in write/, which saves them
// for timing the command by hand. Every page is a pure function of its
// parameters.
//
// Every page has an element with id "probe" whose computed style shows
// whether the hostile rules applied.
package cascadehostile
