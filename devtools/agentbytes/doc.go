// Command agentbytes measures what an agent receives from browser_navigate
// on saved real pages: it starts `domsnap mcp` (stdio) and drives it with the
// MCP Go SDK's client, as the mcp package's tests do, serves each page on
// loopback, navigates to it, and reads the stored full observation back with
// browser_artifact.
//
//	make build devtools && bin/dev/agentbytes [-domsnap bin/domsnap] [-limit N] DIR...
//
// It prints the answer bytes of browser_navigate (median and maximum, and
// whether any passed the default model budget, limits.ModelBytes) and the
// share of pages whose full canonical observation fits that budget whole,
// so that nothing of the page view had to be dropped. Pages whose navigation
// failed are counted as errors by code. The server's state folder and
// temporary folder are made for the run and removed on every exit path; the
// server ends when its standard input closes. No page text is printed.
package main
