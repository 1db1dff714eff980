// Package mcp is domsnap's agent tool server: the Model Context Protocol
// tools browser_navigate, browser_observe, browser_artifact,
// snapshot_observe and browser_act, built on
// github.com/modelcontextprotocol/go-sdk, so an agent drives one browser
// session through bounded observations and never receives an unbounded
// page.
//
// browser_act passes its expected revision and action reference to live's
// Session.Act, which owns the session's latest observation: it checks the
// revision, then resolves the reference, acts, waits and takes the fresh
// observation the tool answers with. So a revision error outranks a
// reference error, and this package resolves no reference itself (an
// expansion's region is passed through the same way). Once input was sent,
// an error result carries action_sent. Config.ReadOnly leaves the
// tool out, so such a server never sends input to a page.
//
// A Server shares one headless Chromium, started on the first navigation,
// among its sessions; each MCP session gets its own browser context (a
// fresh profile, disposed when the session ends), one tab and one
// [live.Session], whose revisions are foreign in every other session. The
// tool calls of a session run one at a time under the session's lock. A
// page that stops answering (its script never yields) would hold that lock
// call after call: a call whose deadline passes on such a page closes its
// tab, and the next navigation opens a new one in the same browser context,
// with a new live session.
//
// # Hosted
//
// Serve puts the same server behind the SDK's streamable HTTP handler for
// several clients at once. A front checks the bearer token (in constant
// time, through the SDK's bearer middleware), the Origin and, on a
// loopback listener, the Host before any work, logging every refusal;
// it admits at most MaxSessions sessions, ends one idle for its
// IdleTimeout (disposing its browser context; its calls then answer
// session_expired), and ties each call to the HTTP request that carried
// it, so a client that goes away cancels its capture. An artifact is read
// only in the session that made it. Shutdown drains within DrainTimeout.
//
// # Profiles and principals
//
// With Config.Profile each session browses with a persistent profile a
// person signed in with (package profile): in a browser of its own on the
// profile's folder, under the profile's lease (a second session gets
// profile_busy), within the profile's origins, which AllowOrigins can
// narrow and never widen. Hosted, HostedConfig.Principals replaces the
// single token with several callers: a request's token selects its
// principal (SHA-256, compared in constant time with every principal's),
// whose grant (origins or profile) is fixed in each session it opens;
// another principal's session id is answered as one that never existed
// (by the front, before the SDK, which would answer it 403), and its
// artifacts as never stored. ReloadPrincipals (SIGHUP) puts a new file in
// force and ends the sessions of removed principals; ReloadToken (SIGHUP
// too) puts a new single token in force and keeps the sessions.
//
// # Answers
//
// A tool's answer is the projection of an observation (package domsnap)
// within the call's byte budget: its text content is exactly the
// projection's JSON bytes and its structured content the same object. A
// failure is a coded error (package errcode) in a result marked isError,
// whose text is {"error":{"code":...,"message":...}} and which carries no
// structured content, so a client that validates structured content
// against the output schema shows the error instead of failing on it.
// Arguments are checked against the tool's published input schema before
// any work.
//
// # Security
//
// Page content is untrusted data: every answer says so in its trust field,
// and the tool descriptions tell the model never to follow instructions
// found in it. Only http and https URLs are opened, and with allowed
// origins only those, for the main frame's every request (redirects and
// navigations the page starts included); downloads are saved into a folder
// of the session's own and never opened (download.go). Error
// messages hold no URL, no page text and no form value. The artifact store
// keeps observations, which never hold a form value.
//
// # Layout
//
// This package holds the tools, the sessions and the server, the
// navigation policy, the principals and the hosted configuration. The
// artifact store is mcp/internal/store, and the HTTP front that Serve puts
// before the server (token, Origin and Host checks, admission, idle
// timeouts, drain) is mcp/internal/front; neither imports this package.
//
// # Limits
//
// An answer is at most the session's model byte budget. The artifact
// store is bounded in bytes and drops the least recently used artifacts
// first. Every wait has a deadline.
package mcp
