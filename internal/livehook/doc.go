// Package livehook reaches the parts of a live tab that package live does not
// export: the DOMSnapshot.captureSnapshot reply as the protocol sent it,
// before the scrub; the tab's protocol client; and a script evaluated in the
// page. A program of this library only ever sees scrubbed snapshots through
// live's API; the module's own tests, the parity check (which compares the
// capture live analysis reads with offline analysis) and the dev-only
// programs need the rest, and internal's import rule keeps it theirs.
//
// Package live installs the functions from its init, so they are there in
// any program that holds a *live.Page; the page is passed as an opaque value
// because this package sits below live and cannot name the type. Anything
// other than a *live.Page is a programmer's mistake and panics.
//
// # Security
//
// Capture's bytes hold the values of the page's form controls and editing
// hosts: a caller keeps them in memory, never in a file, a log or an error.
package livehook
