// Package view computes a page's view (docs/reference.md#the-page-view): its
// controls, its regions (landmarks and headings) and its text, gathered in
// one bounded walk of the tree, the view scan, for every source alike.
//
// The view scan walks as the collection scan of package collect does, but
// over the composed tree (domtree.Tree.Composed) where the collection scan
// walks the light tree: pre-order from the document node (or, for an
// expansion, from one element, which is the first node visited), each node
// of any kind costing 1, shadow-tree nodes and slotted ones alike,
// excluded elements costing 1 and never entered, invisible elements
// entered, template contents and frames never reached since they are not
// nodes of the tree. What each visited node adds:
//
//   - a visible element whose role is a control role, or option outside a
//     select or datalist (a custom list box's choice), becomes a control
//     record; a form control (docs/reference.md#rows) keeps an explicit
//     control role and otherwise takes the form role column's role, and
//     takes the label column's name; any other control the text
//     aria-labelledby names, else aria-label, else its content (an image's
//     alt included), else title;
//   - a visible column or row header with a non-empty aria-sort becomes a
//     control record too, with its sort state, named as any other control;
//   - a visible landmark or heading, or a region or form with a name,
//     becomes a region record;
//   - a visible text node adds its text, joined by the cell-text rules (a
//     space around every element that is not inline-level and for every
//     visible <br>), unless it lies inside an input, textarea, select or
//     contenteditable element.
//
// A control inside a row of an inventory collection names the innermost
// table or list row around it, else the form row it is. The caller hands
// the rows in ([RowsOf]); the scan keeps the
// stack of rows around the walk as it goes, so finding a control's row costs
// nothing per control.
//
// # Where the reference is silent
//
//   - A select's options are enumerated by a walk of their own under the
//     select, bounded like a row scan (limits.RowScanNodes nodes, entering
//     only optgroups), not by the view scan: a drop-down select draws its
//     options without boxes, so the tree marks them excluded and the view
//     scan does not enter them. Such options count unless the hidden
//     attribute or aria-hidden="true" hides them or their optgroup; a list
//     box's options count when visible. OptionsOmitted counts the options
//     that walk saw past the first limits.MaxOptions.
//   - An option's text is its text children alone, as a browser renders it.
//   - A form control that is itself a row of a form in the inventory lies in
//     that row, unless a table or list row of the inventory holds it: the
//     table row is how a person names a checkbox of a changelist whose
//     table lies inside the form, and the form row would always win as the
//     innermost, being the control itself.
//   - Region names are bounded like cell summaries and a cut name keeps its
//     prefix, as inventory names do; only control names say they were cut.
//   - A region or form whose name is empty is no region, and is not counted
//     in RegionsOmitted either.
//   - aria-sort makes a header sortable when it holds anything but ASCII
//     whitespace (ARIA reads an empty value as absent); its value is
//     compared whole and ASCII case-insensitively, and one that is not
//     ascending, descending or other reads as none, the default.
//   - aria-level is read as HTML reads a non-negative integer; 0, a value
//     above limits.MaxSafeInteger or one that does not parse gives level 2.
//   - A heading's name is aria-labelledby's text, else aria-label, else its
//     own text.
//
// # Limits
//
// One view scan visits at most [limits.ViewScanNodes] nodes. It lists at most
// [limits.MaxControls] controls and [limits.MaxRegions] regions, and counts
// the rest it saw; at most [limits.MaxOptions] options per select, counting
// the rest its options walk of at most [limits.RowScanNodes] nodes saw; at
// most [limits.ProseUnits] UTF-16 units of text. Names are
// computed only for listed records (and for regions and forms, whose name
// decides whether they count), each on its own [limits.CellNodes] budget as
// a cell summary or label cell is, so the work of one scan is bounded by the
// budgets, whatever the page: 100,000 links cost what 8,192 nodes cost.
// Once the text is full no further text node is read.
//
// The walk steps with domtree.Node.Next and never recurses. The stacks it
// keeps (closing spaces, open inventory rows) only grow by a node the
// budget paid for.
//
// # Security
//
// No value anyone typed or a page pre-filled is ever read: the tree holds
// none (docs/reference.md#the-tree), the text skips everything inside an
// editable control, form controls' names follow the label rules, which
// never read a control's value, and a select's options are listed without
// saying which is selected. A password or one-time-code field is marked
// Secret so that nothing is ever typed into it on an agent's behalf.
//
// # Concurrency
//
// Every function is a pure function of an immutable tree: no globals, no
// clocks, no map iteration. Any number of goroutines may scan one tree.
package view
