// Package fuzz holds native Go fuzz targets over domsnap's public API only,
// with committed seed corpora under testdata/fuzz. Plain "go test" runs every
// seed as a unit test; "make fuzz" explores from them.
//
// The targets check what must hold for any input at all: no panic, errors
// only with their documented codes, and an extraction result that is valid
// JSON within limits.ExtractionBytes and identical when repeated.
package fuzz
