// Command agentsession runs the page-view session of docs/agents.md against
// a real `domsnap mcp` and prints each call and its answer, so the
// document's answers can be made again rather than written by hand:
//
//	make build devtools && bin/dev/agentsession [-domsnap bin/domsnap]
//
// It serves the small page of that section (page.html beside this file,
// embedded) on a loopback port, navigates to it, expands the region named
// "Stock" and extracts the table the expansion shows, through the MCP Go
// SDK's client as the mcp package's tests drive the server. Revisions and
// digests differ from run to run; everything else is the same. The server's
// state and temporary folders are removed on every exit path.
package main
