// Package live takes snapshots from a real Chromium over the DevTools
// protocol and turns them into extractions and observations with live
// revisions (docs/reference.md#revisions, #saved-snapshots and #command-line).
//
// It has three layers. [Launch] starts a headless Chromium with a throw-away
// profile and connects with github.com/mafredri/cdp over a pair of pipes; a
// [Page] is one tab on a protocol session of its own. A Session owns the
// revision counters of one tab and makes every observation atomic. (Comparing
// offline with live analysis of one file is package parity's job.)
//
// Goto navigates a tab and waits for the load event, DOMContentLoaded or an
// idle network (no request in flight for [NetworkIdleQuiet]), or, when the
// caller named none, for the load event but at most [LoadGrace] after
// DOMContentLoaded; it reports the main document's HTTP status and whether
// the load event had come; a [Condition] makes an observation retake its
// snapshot until a collection is in the inventory or a deadline passes. A
// one-shot read (ReadOptions.Once) takes exactly one snapshot of a
// fresh session: there is no earlier revision to check. A BrowserContext is
// a fresh profile inside a shared browser, and Guard lets a tab's main frame
// go only where a policy allows, redirects and page-initiated navigations
// included: it checks where a navigation is requested and again where it
// commits, since some documents (from a speculation, a blob: URL) come in
// without a request it could stop. Every launch turns preloading off.
//
// A Session does not talk to CDP directly: it depends on the small [Driver]
// interface (count main-frame navigations, take one DOM snapshot), which Page
// implements and tests fake, so the atomic-capture rules are tested at every
// step without a browser. A driver that is also a [BoundedSnapshotter], as
// Page is, serves observations with bounded captures (bounded_session.go).
//
// # Revisions
//
// A live revision is r1.<session>.n<navigation>.o<sequence>. The session part
// is 64 random bits from crypto/rand, the navigation counter is the number of
// main-frame navigations the tab has committed, and the sequence grows by one
// with every published observation. expected_revision is checked against the
// current revision before any snapshot is taken.
//
// An observation is published only after the snapshot was taken, the tree
// built and validated (the capture's wire bytes go through
// [snapshot.DecodeCapture], the decoder that reads saved snapshots) and the
// result computed, and only when no main-frame
// navigation committed meanwhile and the context is still live. Any failure
// publishes nothing and invalidates the previous observation: its revision
// answers stale_revision from then on.
//
// # Numbers and changes
//
// The session numbers its page views' records so that an element keeps
// the number n of its references within one document, and a new element
// takes one above every number the document used
// (docs/reference.md#stable-numbers, numbering.go). It tells the elements
// apart by what the capture gives: a whole capture's backend node ids, or
// the serial numbers the bounded walker keeps on the nodes in its isolated
// world, read for all of a view's records in one protocol call. The book of
// numbers is kept only once the observation is published. With
// ReadOptions.View or ActOptions.View set to domsnap.ViewChanges, the
// observation's Changes tell its page view against the latest observation
// of the same document taken with a view to give
// (docs/reference.md#answers-that-cost-what-changed).
//
// # Security
//
// The browser runs headless with a fresh profile in a temporary directory
// (its XDG config and cache folders, where Chromium keeps its crash
// database, point inside it too), with background networking, sync and
// component updates off. It speaks the DevTools protocol only over two
// pipes inherited from the launching process (--remote-debugging-pipe) and
// listens on no port, so no other local user can reach it and drive its tabs.
// Captures request only the display and visibility
// computed styles; the analysis never reads input values, textarea values or
// option-selected states from a snapshot (package snapshot drops them), and
// no observation or extraction ever sends input to a page: only Act does. A
// bounded capture's walker, the one script the package runs in a page for an
// observation, runs in an isolated world and never reads a control's value,
// a textarea's text or the text of an editing host (walkerSource), so its
// bytes hold none of them. A capture's bytes as the protocol sent
// them do hold control values: the session builds the tree from them and
// scrubs them ([snapshot.ScrubEnvelope]) where they arrive, once, and keeps
// only the scrubbed capture. Nothing a [Snapshot] exports holds the bytes as
// sent, a capture the scrub cannot read fails the observation, and a saved
// snapshot (domsnap capture, the fixture captures) holds no value a person
// typed or a page pre-filled: the secret rule of docs/reference.md#secrets
// wins over the "exactly as the protocol returns it" of
// docs/reference.md#saved-snapshots, and the saved file still analyses to the
// live result byte for byte. Error messages quote at most [limits.QuoteBytes] of anything
// and never page content.
//
// The package exports no way to a capture before its scrub, to a tab's
// protocol client or to a script run in a page: the snapshot methods of
// [Snapshotter] and [BoundedSnapshotter] are unexported, so only Page and
// this package's test fakes implement them. The module's own tests, the
// parity check and the dev-only programs reach those through the internal
// package livehook, which no program outside the module can import.
//
// # Acting
//
// [Session.Act] acts on one element of the tab (docs/reference.md#acting):
// click, type, select, check, uncheck, press, scroll or back, on the element
// an action reference of the session's latest observation names, and then
// takes and publishes the next observation. The session keeps that latest
// observation and resolves the reference itself, under its lock, so the
// element is the one the observation captured (its backend node id, role
// and listed options). Everything that can refuse the action is checked
// before any input is sent: the expected revision, the reference, the
// action itself, then the element,
// read in an isolated world the page's script cannot see or stall (still
// in the document, rendered with a box, not disabled, of a fitting role,
// and for clicks not covered by another element). A refusal is
// not_actionable with one reason ([Reason]) or human_only (typing into a
// password or one-time-code field), and leaves the revision current. The
// checks are made again as the input goes out, since the page's script runs
// meanwhile: a click's point is hit-tested just before the press and again
// before the release, and a field is asked, once focused and selected,
// whether it still has the focus and is still no password field, with a
// guard that checks once more as the text or key arrives.
//
// The input is real: Input.dispatchMouseEvent, Input.insertText and
// Input.dispatchKeyEvent, as a person's mouse and keyboard send it; only a
// select's choice is made in the isolated world, firing input and change.
// The event streams that follow the page's reaction are opened before the
// input, so a navigation it starts is never missed; the wait is bounded by
// the action's deadline, and windows the page opens are closed before they
// send any request (popup.go). Once input was sent the session's last
// observation is no longer current, and an error carries [ActionSent]. The
// typed text is never put in an error, a result or a log. An action's wait
// and Goto's follow a navigation with the same watcher: it reads the events
// in the order the browser sent them, and knows a document by its loader, so
// a request's end is never taken before its start, nor the load event of
// the page before for the new page's.
//
// Act depends on a small interface of the tab (resolve, prepare, watch,
// send), which Page implements and tests fake, so the rule that a refused
// action sends nothing is tested at every step without a browser.
//
// # The reference screen
//
// Every tab pins one screen before it loads anything, the screen offline
// analysis assumes too: a 1280×800 CSS-pixel viewport on a 1280×800 screen,
// device pixel ratio 1, not mobile, the screen media type, a light colour
// scheme, no reduced motion or transparency, no contrast preference, no
// forced colours and an sRGB gamut ([ScreenFeatures] lists what the protocol
// can set; the other media features already have the reference value in
// headless Chromium, and the browser tests read each one back).
//
// # Limits
//
// The analysis of a capture is bounded by the scan budgets of package limits.
// A whole capture (Session.Capture's, and an observation's that is not read
// the bounded way) is as large as the page; an observation that computes something reads the page only up to a
// node horizon, retaken further when a scan reads past it
// (bounded_session.go), so its capture is as large as what its scans read. Launch waits at most
// Options.StartTimeout for the browser's first answer. Every protocol call runs
// under a deadline: the caller's, or [limits.LiveTimeout] when the caller's
// context has none. A deadline that passes (a server that never answers, a
// script that never yields, a page that never produces a frame) ends the
// call with the timeout code, a cancelled context with cancelled. Closing a
// tab or a browser uses short fixed deadlines of its own, so it completes
// after a timeout too. An action ([Session.Act]) and its wait end by
// ActOptions.Deadline: a renderer that never returns from the action's
// input ends the call with timeout, the action sent. JavaScript dialogs, which would stop a page's parser
// and script until answered, are answered as they open: those an action raises as its Action.Dialog
// says (dismissed by default) and reported in its result, the others dismissed and counted, except a
// beforeunload dialog raised while Goto (or the guard) takes the tab elsewhere, which is accepted so
// that a page cannot keep the tab.
//
// # Concurrency
//
// A Browser may be shared by goroutines; each Page is used by one [Session]. A
// Session serialises its observations under one lock, so at most one capture
// of a tab runs at a time and revisions are published in order. The browser
// process is killed, with its helpers, when Close is called or the Launch
// context ends, and its profile directory is removed.
//
// # Process lifetime
//
// On Linux the browser is started with a parent-death signal, so it is
// killed when the launching process ends without Close, crashes or is
// killed; its helper processes (zygotes, renderers, the crash handlers that
// leave its process group) exit once it is gone. The profile folder of such
// a browser cannot be removed by a process that no longer runs: each profile
// records the process that launched it, and the next Launch in the same
// folder removes profiles whose launcher has ended. Elsewhere a program must
// call Close.
//
// Chromium's own temporary files (the folder of its single-instance socket
// above all) go to a folder given to it as TMPDIR that goes with the
// browser: its throw-away profile, or beside a persistent profile a marked
// folder of its own, removed and swept as a profile is. The browser runs
// under umask 077 (a short /bin/sh sets it and execs the browser), so every
// file it writes is its owner's alone from the start.
//
// # Persistent profiles
//
// LaunchProfile runs the browser on a persistent profile folder (package
// profile) instead of a throw-away one, and Close leaves the folder; the
// profile's lease file is handed to the browser, so the lease lasts as long
// as the browser. Login shows a visible window on such a folder for a
// person to sign in, and returns when the window is closed. Both sides use
// Chromium's basic password store, so the cookies the window wrote are the
// cookies the headless browser reads.
package live
