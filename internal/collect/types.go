package collect

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/vocab"
)

// Reason says why a collection was not found; it is the contract's word
// (package vocab).
type Reason = vocab.Reason

// The reasons.
const (
	ReasonNone = vocab.ReasonNone
	Absent     = vocab.Absent
	ScanLimit  = vocab.ScanLimit
)

// Collection is the outcome of Find.
type Collection struct {
	Found bool
	// Kind and Index are the ones requested.
	Kind  aria.Kind
	Index int
	// Element and Source are set only when Found.
	Element domtree.Node
	Source  aria.Source
	// Reason is set only when not Found.
	Reason Reason
	// Scan is the collection scan's coverage.
	Scan limits.Scan
}

// Structure says whether a row's columns can be trusted; it is the
// contract's word (package vocab).
type Structure = vocab.Structure

// The structures.
const (
	StructureOK     = vocab.StructureOK
	UnsupportedSpan = vocab.UnsupportedSpan
)

// Row is one seen row, item or form control.
//
// For a table row, Element is the row element and Cells its visible cells in
// order (column k is Cells[k]); Cells is nil when Structure is
// UnsupportedSpan, since such a row reports no cells. For a list, Element is
// the item and Cells holds the item alone: its one column is its own text.
// For a form, Element is the control and Cells is nil: form columns are
// computed from the control.
type Row struct {
	Element   domtree.Node
	Header    bool
	Structure Structure
	Cells     []domtree.Node
}

// Rows is the outcome of ScanRows.
type Rows struct {
	// Rows holds every seen row, in output order.
	Rows []Row
	// Complete is false when the row scan stopped with nodes left unvisited
	// (rows beyond are unknown), or when a table declares more rows or
	// columns than the scan saw (DeclaredRows, DeclaredColumns).
	Complete bool
	// DeclaredRows and DeclaredColumns are a table's aria-rowcount and
	// aria-colcount when they say it has more rows (columns) than the scan
	// saw: the count, or Unknown (-1) for "more, not how many"; 0 when the
	// table declares none or no more than was seen. A table virtualised by
	// a script (a data grid drawing 22 of its 1,000 rows) says so only
	// here.
	DeclaredRows, DeclaredColumns int
	// Columns is the number of cells of the seen row that has the most,
	// what DeclaredColumns is compared with; 0 for lists and forms.
	Columns int
	// Scan is the row scan's coverage.
	Scan limits.Scan
}

// Entry is one inventory entry (docs/reference.md#the-observation) without its name, which the
// caller computes from Element.
type Entry struct {
	Kind    aria.Kind
	Index   int
	Source  aria.Source
	Element domtree.Node
	// Rows is the number of rows the collection's own row scan saw.
	Rows int
	// RowsComplete is that row scan's Complete.
	RowsComplete bool
	// DeclaredRows and DeclaredColumns are that row scan's.
	DeclaredRows, DeclaredColumns int
	// RowElements holds the element of every seen row in output order, so
	// RowElements[k] is the row at position k. A page view names with it the
	// row a control lies in.
	RowElements []domtree.Node
}
