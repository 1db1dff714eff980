// Package pageserve serves one page's exact bytes from memory on a loopback
// port, so that Chromium loads the very bytes offline analysis read, with
// the charset offline analysis found and with scripts blocked by the
// response's Content-Security-Policy. The parity check (package parity) and
// the browser tests load their fixture pages through it.
//
// # Security
//
// A Server listens on loopback only and answers one path; every other
// request is refused.
package pageserve
