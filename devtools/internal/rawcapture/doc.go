// Package rawcapture loads one HTML file's exact bytes in a fresh tab and
// hands the dev programs the tab, or its DOMSnapshot.captureSnapshot reply as
// the protocol sent it: before the scrub every capture package live hands
// out goes through. The fixture captures scrub it before they write it; the
// real-page parity check and the accessibility comparison only decode it.
//
// The page is served as the parity check serves it (package pageserve): from
// memory on loopback, with the charset offline analysis finds, scripts
// blocked by the response's Content-Security-Policy. The tab's raw reaches
// come from package livehook.
//
// # Security
//
// A reply holds the values of the page's form controls: a caller keeps it in
// memory, and scrubs it (snapshot.ScrubCapture) before it writes it anywhere.
package rawcapture
