// Package front is the HTTP front of the hosted tool server. It serves the
// SDK's streamable HTTP handler at /mcp, and /healthz; checks each
// request's bearer token (through the SDK's bearer middleware, against the
// principals in force), its Origin and, on a loopback listener, its Host
// before any work, logging every refusal; admits sessions within the
// server's bound and each principal's; ends a session idle for the idle
// timeout; ties each tool call to the HTTP request that carried it
// ([RequestContext]); and drains at shutdown ([Front.Serve]).
//
// It knows nothing of tools: the server behind it ([Server]) makes and ends
// each session's state, and the principals ([Callers]) say whose a token
// is. Package mcp is its only user and documents the behaviour (its Hosted
// section and HostedConfig); errors name package mcp, the package callers
// called.
//
// # Security
//
// A token is compared by the principals, in constant time, never here. No
// log line holds a token, a URL or page content; a line about a session
// names its principal. Another principal's session is answered as one that
// does not exist.
//
// # Concurrency
//
// One lock guards the front's principals, counts and leases. The server's
// Open is called with it held, so a session is admitted, or not, at one
// moment with respect to a reload of the principals.
//
// # Limits
//
// At most Config.MaxSessions sessions are live or opening at once, and a
// principal's own bound holds within it. The drain ends within
// [DrainTimeout] plus the time to close the sessions, itself bounded.
package front

// pkg names the package in errors: the tool server's.
const pkg = "mcp"
