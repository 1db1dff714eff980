// Package collect finds the requested collection in a tree and enumerates its
// rows (docs/reference.md#finding-the-collection, #rows, #the-observation and #corner-cases): the collection scan, the visible index,
// the row scan with its output order, header rows and unsupported spans, form
// controls, and the coverage counts a result reports.
//
// Collections, rows and cells are returned as [domtree.Node] cursors; turning a
// cell into text is package cells' business, and naming an inventory entry is
// the public package's.
//
// # Where the contract is silent
//
// These choices are made here and tested:
//
//   - The document node is the first node the collection scan visits, so it
//     costs 1 like any other node.
//   - colspan and rowspan are read on td and th cells only, wherever they
//     stand; on other elements they mean nothing to a browser either.
//   - In a native table only rowspan puts later rows under a span, since the
//     layout follows it; aria-rowspan of 2 or more marks its own row but
//     covers nothing. In an ARIA table aria-rowspan covers the later rows of
//     its rowgroup (or of the table), as rowspan does.
//   - "-0" is 0 under the HTML rules for non-negative integers, so
//     rowspan="-0" spans to the end of its row group like rowspan="0".
//   - An invisible row, item or control is not entered (its visible
//     descendants do not become cells or rows of this collection); invisible
//     sections, rowgroups and role-less wrappers are entered, as walks enter
//     invisible elements.
//   - A nested collection is not entered. An invisible element is not a
//     collection (docs/reference.md#visibility), so an invisible nested form is entered
//     like any other invisible wrapper and its visible controls are rows, as
//     cell summaries enter invisible nested tables and lists. In tables and
//     lists the question never arises: a collection element is never
//     role-less, so those scans do not enter it whatever its visibility.
//   - An ARIA table's rows are ordered by their own aria-rowindex (rows
//     without a whole index of 1 or more first), then tree order; the key
//     being each row's own, a row scan cut by its budget gives its rows in
//     the order of the whole scan. A native table keeps its drawn order.
//   - A table's aria-rowcount and aria-colcount are read with the HTML rules
//     for parsing integers; 1 or more is a count (held at
//     limits.MaxSafeInteger, still more than any document holds), -1 says
//     "more, not how many", and anything else is no count. The rows they
//     are compared with are the seen rows, header rows included, as
//     aria-rowcount counts every row; the columns are the cells of the
//     widest seen row, a spanning cell counting once, since spans are never
//     guessed. Lists and forms declare nothing.
//
// # Limits
//
// Every walk is bounded by a [limits.Budget] and costs 1 per visited node of any
// kind: the collection scan [limits.CollectionScanNodes] from the document node
// (the document itself is the first node visited), each row scan
// [limits.RowScanNodes] from the first child of the collection element (the
// element itself is not counted). An excluded element costs 1 and is never
// entered. Work is therefore bounded by the budgets, not by the page: [Find]
// stops on its collection, and [ScanRows] never looks outside the collection.
// An inventory runs one collection scan and at most [limits.MaxInventoryPerKind]
// row scans per kind.
//
// Exhausted is true exactly when a scan stopped because its budget was spent
// while nodes remained; reaching the limit on the last node, or on the node
// that was sought, is not exhaustion. A row is seen only when the row element
// and everything the scan visits inside it fit in the budget, so a row is
// never reported with cells missing.
//
// Walks step with domtree.Node.Next and never recurse, so a deep tree costs
// no stack. The only auxiliary state that grows with depth is the stack of
// ARIA rowgroups around the walk, and every frame of it was paid for by the
// budget.
//
// # Security
//
// The scans read only structure: element names, roles, span attributes,
// exclusion and visibility. They never read text, and the tree holds no
// control values to begin with (docs/reference.md#the-tree). What they return are cursors
// into the tree, so nothing here can leak content the caller did not ask a
// cell summary for. No tree, however built, makes a scan panic: a zero
// domtree.Node answers every question with a zero result.
//
// # Concurrency
//
// Every function is a pure function of an immutable tree: no globals, no
// clocks, no map iteration. Any number of goroutines may scan one tree.
package collect
