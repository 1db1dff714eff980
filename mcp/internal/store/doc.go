// Package store is the tool server's durable artifact store: each complete
// canonical observation, with the projection made of it, kept in one file
// named by the observation's SHA-256 digest, so that browser_artifact can
// read it back byte for byte, also after a restart. Package mcp is its only
// user and documents the behaviour; errors name package mcp, the package
// callers called.
//
// # Security
//
// The folder is the owner's alone (0700) and so are the files (0600).
// Files are opened without blocking and checked after the open, so a name
// swapped for a named pipe or a device is refused, never waited on. A file
// whose content is not what its name says is treated as absent. An
// artifact a session of this process made is readable by that session
// alone ([Store.GetFor]).
//
// # Limits
//
// The total size of the files is bounded: the least recently used
// artifacts are removed first, one looked at for each one removed.
//
// # Concurrency
//
// A Store is safe for concurrent use. Its lock guards the index only: no
// file is read, written, synced, renamed or removed under it.
package store

import ()

// pkg names the package in errors: the tool server's.
const pkg = "mcp"
