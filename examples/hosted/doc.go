// Package hosted holds the recipe of docs/agents.md, "Many hosts behind one
// proxy": start.sh starts several `domsnap mcp --http` hosts on free
// loopback ports and HAProxy in front of them, which keeps each MCP session
// on the host that answered its initialize. Its test (build tag browser,
// in the browser partition) runs the script with two hosts and shows that
// a host that stops takes only its own sessions.
package hosted
