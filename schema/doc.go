// Package schema publishes the JSON Schemas (draft 2020-12) of domsnap's
// formats at schema version 1.4.0: the extract request, the extraction
// result, the observation and the model projection. The files live beside
// this package and are embedded in it, so a program can hand them to any
// validator without locating the source tree.
//
// The schemas are strict: every object forbids keys it does not name, every
// integer has its range, every reference and revision its pattern. They
// describe shape, not canonical bytes: key order, the absence of
// insignificant whitespace, and the request rules JSON Schema cannot state
// (unique field names, integers written without fraction or exponent, no
// duplicate keys) are enforced by domsnap.DecodeRequest and by the
// canonical encoders alone. The tests check that both agree on every
// request of the fixtures and on requests that try to smuggle a selector,
// a script or a URL in, and that every result, observation and projection
// the code writes validates.
//
// # Security
//
// A schema that validates a result says nothing about the truth of its
// content: results are labelled external-untrusted because their text comes
// from a page.
package schema
