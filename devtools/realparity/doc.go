// Command realparity checks offline-equals-live on a folder of saved real
// pages, for a person to run by hand: it is not part of CI, and the pages it
// reads are never committed.
//
//	make devtools && bin/dev/realparity [-chrome PATH] [-limit N] [-timeout 30s] [-detail] DIR
//
// For every .html and .htm file under DIR, in sorted order, it does two
// things with one headless Chromium for the whole run:
//
//   - the comparison `domsnap parity` makes (parity.Check with
//     parity.DefaultRequests, run as parity.CheckCapture on the page's one
//     capture): every default request and the inventory (the observation
//     without a request, page view included: view_scan, controls, regions
//     and text), analyzed offline and live, canonical results compared byte
//     for byte;
//   - a node-by-node comparison of the offline tree (snapshot.ParseHTML of
//     the bytes) and the live tree (a capture of the same bytes, decoded by
//     snapshot.DecodeCapture): kind, name, attributes and text of every node,
//     and exclusion, display and visibility, as the capture parity test of
//     package snapshot compares its fixtures (internal/testkit/treediff).
//
// It prints one line per page and a summary line:
//
//	PAGE: agree, trees equal (N nodes)
//	PAGE: differs in N requests (request 3 at /rows/0/c1, inventory at /...), trees differ at K of N nodes, first: ...
//	PAGE: error CODE
//	pages P, agree on results A, differ on results D, trees equal E, trees differ T, errors X
//
// Each page has its own deadline (-timeout); a page that fails or times out
// is counted as an error and the run goes on (with a fresh browser, in case
// the old one is what failed). The output names pages, request numbers, JSON
// pointers and node paths (element names and positions), never page text
// or form values; -detail adds the differing nodes' descriptions and values,
// cut to 64 bytes each. The exit status is 0 when the run completed, whatever
// it found, and 2 on bad usage or when no browser starts.
//
// With -bounded it checks instead that a live observation's bounded
// capture gives the whole snapshot's answers, as the browser test
// TestBoundedCaptureMatchesWholeSnapshot of package live does on the
// fixtures:
//
//	bin/dev/realparity -bounded [-budget 64] [-chrome PATH] [-limit N] [-timeout 30s] DIR
//
// Each page is loaded once in a tab. Two whole snapshots are taken in a
// row (rawcapture.Page, the capture as the protocol sent it); then, each through a fresh live.Session on
// that tab, the observation and each of parity.DefaultRequests are read the
// bounded way (ReadOptions.Once), twice over: with each kind's own first
// budget, and with -budget as every read's first (SessionOptions.
// FirstBudget), which forces retakes on every page larger than it; then a
// last whole snapshot is taken. Each bounded answer is compared byte for
// byte with what the first whole snapshot answers under the bounded
// answer's revision. A read that differs is counted as a page that moved by
// itself (animation, timers), which says nothing of the bounded path, when
// the two whole snapshots in a row disagree on it or the bounded answer is
// the last whole snapshot's; otherwise it is a difference. Lines and
// summary:
//
//	PAGE: agree (N nodes; default budget: C captures; budget 64: C captures)
//	PAGE: differs (N nodes; default budget: C captures, differs in 1 (request 3 at /rows/0); budget 64: ...)
//	PAGE: moving (N nodes; default budget: C captures, page moved in 1 (observation at /text); ...)
//	pages P, agree A, differ D, page moved M, errors X, captures at default budget C, captures at budget 64 C
//
// Captures are live.Session.Captures summed over a page's reads.
package main
