// Package taskpages serves the small web site that the tool server's
// acting tests and the agent benchmark (devtools/actbench) drive: a table
// of 45 items paginated 15 to a page with a Details link in every row, a
// search form and a filter form; a back office over the same items (a
// changelist with row checkboxes and actions, a delete confirmation, an add
// form); and a catalog paged in the page itself by script. The pages but
// the catalog are plain server-rendered HTML, so every reader, whichever
// browser tool it is, sees the same documents.
package taskpages
