// Package profile keeps the persistent browser profiles a person signs in
// with (docs/reference.md#profiles), so an agent can read pages behind a
// sign-in without ever signing in itself.
//
// A profile lives in <state dir>/profiles: the folder NAME is a Chromium
// user-data folder, the owner's alone (0700, its files 0600), and the file
// NAME.json beside it is its binding: the exact origins the profile may be
// used on. The binding is written by the person's login and read by every
// use; nothing in this package reads a cookie, a storage value or a
// password, and nothing it prints or returns holds one.
//
// # Names
//
// A name is 1 to MaxNameBytes characters of [a-z0-9._-] not starting with a
// dot, so it is always one plain path element and never a hidden file.
//
// # Leases
//
// A profile is used by one browser at a time: Lease takes an exclusive
// flock(2) on the lock file inside the folder, without waiting. A second
// holder, in this process or another, gets profile_busy. The kernel drops the
// lock when its last descriptor closes, so a holder that dies, however it
// dies, releases the profile; a browser handed the descriptor keeps the
// lease for as long as it runs.
//
// # Concurrency
//
// A Store is safe for concurrent use. Its methods touch only the files of
// the profile they name.
package profile
