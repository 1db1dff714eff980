package collect

import (
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/limits"
)

// Reason says why a collection was not found.
type Reason uint8

const (
	// ReasonNone is the reason of a found collection.
	ReasonNone Reason = iota
	// Absent: the whole document was scanned and the collection is not in it.
	Absent
	// ScanLimit: the collection scan's budget ran out first; what lies beyond
	// is unknown, not absent.
	ScanLimit
)

var reasonNames = [...]string{"", "absent", "scan_limit"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "invalid"
}

// MarshalText writes the reason as the result's reason string.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

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

// Structure says whether a row's columns can be trusted.
type Structure uint8

const (
	// StructureOK: column k is the row's k-th cell.
	StructureOK Structure = iota
	// UnsupportedSpan: a cell of the row spans several columns or rows, or the
	// row lies under a row span from an earlier row. Columns are not guessed.
	UnsupportedSpan
)

var structureNames = [...]string{"ok", "unsupported_span"}

func (s Structure) String() string {
	if int(s) < len(structureNames) {
		return structureNames[s]
	}
	return "invalid"
}

// MarshalText writes the structure as the result's structure string.
func (s Structure) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

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
	// Complete is false when the row scan stopped with nodes left unvisited:
	// rows beyond are unknown.
	Complete bool
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
	// RowElements holds the element of every seen row in output order, so
	// RowElements[k] is the row at position k. A page view names with it the
	// row a control lies in.
	RowElements []domtree.Node
}
