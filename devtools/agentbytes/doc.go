// Command agentbytes measures what an agent receives from browser_navigate
// on saved real pages: it starts `domsnap mcp` (stdio) and drives it with the
// MCP Go SDK's client, as the mcp package's tests do, serves each page on
// loopback, navigates to it, and reads the stored full observation back with
// browser_artifact.
//
//	make build devtools && bin/dev/agentbytes [-domsnap bin/domsnap] [-limit N] [-pages] [-dump DIR] [-playwright CLI.JS [-chromium BIN]] DIR...
//
// It prints the answer bytes of browser_navigate (median and maximum, and
// whether any passed the default model budget, limits.ModelBytes) and the
// share of pages whose full canonical observation fits that budget whole,
// so that nothing of the page view had to be dropped. Pages whose navigation
// failed are counted as errors by code.
//
// With -playwright (Playwright MCP's cli.js, installed outside the project
// as actbench's documentation shows) it also starts Playwright MCP,
// headless on the system Chromium in a profile of its own, has it navigate
// to the same address and take its browser_snapshot, and prints that
// snapshot's median and largest bytes beside domsnap's and their ratios:
// the medians' and the median of the pages' own. -pages prints one line
// per page (its path and the bytes); -dump writes each page's answers into
// a folder, which then holds page text, so keep it outside the repository.
//
// The servers' state folder and temporary folder are made for the run and
// removed on every exit path; the servers end when their standard input
// closes. No page text is printed.
package main
