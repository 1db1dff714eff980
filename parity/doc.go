// Package parity checks that offline analysis of an HTML file equals the
// analysis of the same bytes loaded in Chromium (docs/reference.md and
// docs/divergences.md): what `domsnap parity` runs, and what the browser
// tests hold every fixture page to.
//
// [Check] serves a file's exact bytes on a loopback port (with the charset
// offline analysis found, and with scripts blocked by the response's
// Content-Security-Policy, so no script runs while scripting stays enabled),
// captures it in a fresh tab, and compares the canonical results and
// observations of both sides byte for byte; [DiffJSON] says where two differ.
// [ReadDivergences] reads the table of known differences, each with its
// cause, that a difference must be listed in to be accepted.
//
// # Security
//
// The page server listens on loopback only and answers one path; a report
// holds canonical results, which never hold a form value.
package parity
