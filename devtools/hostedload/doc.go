// Command hostedload measures hosted domsnap servers (`domsnap mcp
// --http`), one host or several behind a proxy (examples/hosted/start.sh),
// through the MCP Go SDK's own client. It serves its own loopback page, a
// table of three rows that name the session and the round.
//
//	hostedload load -url http://127.0.0.1:8931/mcp -token-file TOKEN -sessions 8 -rounds 10
//
// opens the sessions at once, each running a first navigate-and-extract
// round (sessions per second: sessions over the time until all had
// answered it), then runs the rounds, all sessions in parallel (rounds per
// second, and each round's latency: p50, p95, max). Every answer is
// checked.
//
//	hostedload latency -url http://127.0.0.1:8931/mcp -token-file TOKEN -calls 500
//
// opens one session and makes the calls one after the other: a
// browser_artifact call for a digest never stored, which reaches the tool
// and the artifact store but no browser, so that what it measures is the
// transport (run against a host directly and through the proxy, the
// difference is the proxy's per-call cost): p50, p95, p99 and the mean.
//
// It prints one line per figure and exits 1 when any call failed.
package main
