// Package realapps stands up, on loopback, real applications that nobody
// on this project wrote, for the browser tests to read and act on as an
// agent would: the admin interface of a small Django shop (Debian's
// python3-django), and pages built with a data grid and a table library
// as their npm packages ship them. What the page view says about them is
// pinned against what a person sees there, not against markup written to
// look like them.
//
// Every application runs as a child of the test, in the test's own
// temporary folder, and ends with it: its process group is killed when the
// test ends, and it ends by itself when the test process dies (its
// standard input closes, and on Linux its parent-death signal).
package realapps
