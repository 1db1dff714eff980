// Command actbench drives two MCP browser servers, domsnap's and
// Playwright MCP, with one scripted client (the Go SDK's) through the same
// four tasks on the same pages served on loopback
// (internal/testkit/taskpages), and prints, per server and task, the bytes
// of the answers' text and the wall time:
//
//   - paginate: open the item list and read its 45 rows over 3 pages,
//     following Next;
//   - search: open the search page, type a query, press Enter;
//   - filter: open the filter form, choose a color, check "In stock only",
//     click Apply;
//   - details: open the item list and follow the Details link of its 4th
//     row;
//   - catalog: open the catalog and read its 45 rows over 3 pages, which
//     its Next button draws into the same document;
//   - admin-pages: open the back office's changelist and read its rows over
//     3 pages, following Next;
//   - admin-add: fill the back office's add form (type, select, type,
//     select, check, type) and Save;
//   - admin-delete: tick two rows of the changelist, choose the delete
//     action, Go, and confirm with "Yes, I'm sure".
//
// domsnap acts with browser_act and reads each answer's page view (its
// text holds the rows); Playwright MCP makes one call per action plus one
// browser_snapshot after it, as an agent that reads the page after every
// step does. domsnap also runs paginate-typed, which reads the 45 rows as
// typed JSON rows (four columns) with browser_observe's extract on every
// page, something Playwright MCP has no counterpart for. A task's bytes are the text content of every answer it got;
// its time runs from its first call to its last answer. Before the tasks,
// each server opens a page once, so neither's browser launch is counted.
//
// Playwright MCP is not a dependency of the project: install it into a
// temporary folder and point -playwright at its cli.js, for example
//
//	npm install --prefix /tmp/pw @playwright/mcp@0.0.83
//	go build -o /tmp/domsnap ./cmd/domsnap
//	cd devtools && go run ./actbench -domsnap /tmp/domsnap \
//	    -playwright /tmp/pw/node_modules/@playwright/mcp/cli.js
//
// Without -playwright only domsnap runs. -view full|changes|none names the
// view domsnap's browser_observe and browser_act calls ask for (default:
// none named, the server's default); the agent keeps the page view it was
// given and applies each answer's changes to it, as an agent would, to find
// the controls it acts on. The back office keeps what a task deleted for
// the rest of the run, so that task's bytes move a little between runs.
//
// Playwright runs the system Chromium (-chromium, default /usr/bin/chromium)
// headless in an isolated profile. -runs N repeats every task (default 3);
// the bytes of a task are the same on every run, and the time shown is the
// median with the range.
package main
