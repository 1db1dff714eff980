package domsnap

import "github.com/domsnap/domsnap/vocab"

// The closed sets of the contract. Each is defined, with its String,
// MarshalText and UnmarshalText methods, in the public leaf package
// [github.com/domsnap/domsnap/vocab], and named here so a program needs only
// this package; the constants below are all its members. A value outside
// them is refused by [Request.Check] and never printed. The analysis behind
// this package uses the very same types, so a value passes between them
// without conversion.

// Kind is the kind of collection a [Request] names and a [Result] reports
// (docs/reference.md#finding-the-collection). The zero value names none and
// is never valid in a request.
type Kind = vocab.Kind

// The collection kinds.
const (
	Table Kind = vocab.Table
	List  Kind = vocab.List
	Form  Kind = vocab.Form
)

// ParseKind reads a kind as a request spells it: "table", "list" or "form",
// lower case, nothing around it.
func ParseKind(s string) (Kind, bool) {
	k, ok := vocab.ParseKind(s)
	return k, ok && validKind(k)
}

// Source says how an element became a collection: [Native] for an HTML
// element, [ARIA] for an explicit role (docs/reference.md#finding-the-collection).
type Source = vocab.Source

// The sources.
const (
	Native Source = vocab.Native
	ARIA   Source = vocab.ARIA
)

// Type is the type a [Field] declares for its cells
// (docs/reference.md#types).
type Type = vocab.Type

// The declared types. A cell that converts holds, in [Cell.Value], a string,
// an int64, a float64 or a bool respectively.
const (
	String  Type = vocab.String
	Integer Type = vocab.Integer
	Number  Type = vocab.Number
	Boolean Type = vocab.Boolean
)

// ParseType reads a type as a request spells it: "string", "integer",
// "number" or "boolean".
func ParseType(s string) (Type, bool) {
	t, ok := vocab.ParseType(s)
	return t, ok && validType(t)
}

// Status says what became of one cell (docs/reference.md#cell-statuses).
type Status = vocab.Status

// The cell statuses. Only an [OK] cell has a value.
const (
	OK        Status = vocab.OK
	Missing   Status = vocab.Missing
	Invalid   Status = vocab.Invalid
	Truncated Status = vocab.Truncated
)

// Truncation names the first bound that cut a [Truncated] cell
// (docs/reference.md#cell-statuses); the zero value is no truncation.
type Truncation = vocab.Truncation

// The truncations.
const (
	TruncText   Truncation = vocab.TruncText
	TruncNodes  Truncation = vocab.TruncNodes
	TruncLabels Truncation = vocab.TruncLabels
)

// Reason says why a collection was not found (docs/reference.md#the-result);
// the zero value is the reason of a found one.
type Reason = vocab.Reason

// The reasons.
const (
	// Absent: the whole document was scanned and the collection is not in it.
	Absent Reason = vocab.Absent
	// ScanLimit: the collection scan's budget ran out first; what lies
	// beyond is unknown, not absent.
	ScanLimit Reason = vocab.ScanLimit
)

// Structure says whether a row's columns can be trusted
// (docs/reference.md#structure-values).
type Structure = vocab.Structure

// The structures.
const (
	// StructureOK: column k is the row's k-th cell.
	StructureOK Structure = vocab.StructureOK
	// UnsupportedSpan: a span touches the row, so its columns are not
	// guessed; it has no cells and is never valid.
	UnsupportedSpan Structure = vocab.UnsupportedSpan
)

// StringValue is the value of an [OK] cell of a [String] field.
func (c *Cell) StringValue() (string, bool) {
	v, ok := c.Value.(string)
	return v, ok && c.Status == OK
}

// IntegerValue is the value of an [OK] cell of an [Integer] field.
func (c *Cell) IntegerValue() (int64, bool) {
	v, ok := c.Value.(int64)
	return v, ok && c.Status == OK
}

// NumberValue is the value of an [OK] cell of a [Number] field.
func (c *Cell) NumberValue() (float64, bool) {
	v, ok := c.Value.(float64)
	return v, ok && c.Status == OK
}

// BooleanValue is the value of an [OK] cell of a [Boolean] field.
func (c *Cell) BooleanValue() (bool, bool) {
	v, ok := c.Value.(bool)
	return v, ok && c.Status == OK
}
