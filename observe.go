package domsnap

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/internal/collect"
)

// Observation is one observation of a document (docs/reference.md#the-observation): which
// collections the page shows, its page view, and the extraction a request
// asked for.
// Observe fills every field; Canonical writes them in the contract's
// byte-exact form.
type Observation struct {
	SchemaVersion string
	Trust         string
	Revision      string
	// Inventory lists, in tree order, the first MaxInventoryPerKind visible
	// collections of each kind that the inventory's own collection scan saw.
	Inventory []InventoryEntry
	// ViewScan, Controls, ControlsOmitted, Regions, RegionsOmitted, Text
	// and TextTruncated are the page view (docs/reference.md#the-page-view),
	// all gathered by one view scan: the controls with their action
	// references, the landmarks and headings with their region references,
	// and the page's visible text.
	ViewScan        ViewScan
	Controls        []Control
	ControlsOmitted int
	Regions         []Region
	RegionsOmitted  int
	Text            string
	TextTruncated   bool
	// Extraction is the request's result (docs/reference.md#the-result),
	// nil when Observe was given none.
	Extraction *Result
	// Changes is the page view told as changes against an earlier
	// observation of the same document, set by a live session asked for
	// them (docs/reference.md#answers-that-cost-what-changed) when it has
	// such an observation; nil otherwise. It is how an answer may give the
	// view ([ProjectView]), never part of the observation itself: Canonical,
	// Artifact and Digest leave it out.
	Changes *Changes

	// targets and anchors are what the page view's references stand for,
	// index for index with Controls and Regions: never written, kept so
	// that ActionTarget and an expansion can find the elements again.
	targets []ActionTarget
	// targetIDs are the targets' elements as the browser knows them.
	targetIDs []elementID
	anchors   []regionAnchor
	// controlNumbers and regionNumbers are the numbers n of the records'
	// references, index for index with Controls and Regions.
	controlNumbers, regionNumbers []int
}

// InventoryEntry is one collection of an observation's inventory.
type InventoryEntry struct {
	Kind Kind
	// Index is the collection's visible index among those of its kind: the
	// value a request names to extract it.
	Index  int
	Source Source
	// Name is the collection's bounded name, written only when not empty.
	Name string
	// Rows counts the rows the collection's own row scan saw.
	Rows int
	// RowsComplete is false when that row scan stopped with nodes left, or
	// when the table declares more rows or columns than it saw.
	RowsComplete bool
	// RowsDeclared and ColumnsDeclared are what a table declares with
	// aria-rowcount and aria-colcount: a count, -1 for "more than the
	// document holds, not how many", 0 (not written) when it declares none.
	RowsDeclared, ColumnsDeclared int
}

// Observe observes tree, whose current revision is revision
// (docs/reference.md#the-observation). It always lists the inventory; when
// req is not nil it also runs the extraction exactly as [Extract] does,
// through the same analysis.
//
// Checks come in Extract's order: an invalid request (invalid_request) is
// refused before anything is read, then a malformed current revision
// (malformed_snapshot), a rejected expected revision (foreign_revision,
// navigated_revision, stale_revision) and a missing tree
// (malformed_snapshot). No inventory is computed for a request that is
// refused.
func Observe(t *domtree.Tree, revision string, req Query) (*Observation, error) {
	q, err := Check(req)
	if err != nil {
		return nil, err
	}
	return analyze(t, revision, q, true, nil, nil)
}

// Inventory is the inventory an observation of t lists
// (docs/reference.md#the-observation): in tree order, the visible
// collections of each kind its own collection scan saw, within the scan's
// budget. A wait for a collection (live's Condition) reads it to know
// whether the collection has appeared.
func Inventory(t *domtree.Tree) []InventoryEntry {
	if t == nil {
		return nil
	}
	return inventory(collect.Inventory(t))
}

// inventory names every collection of entries.
func inventory(entries []collect.Entry) []InventoryEntry {
	out := make([]InventoryEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, InventoryEntry{
			Kind:            e.Kind,
			Index:           e.Index,
			Source:          e.Source,
			Name:            collectionName(e.Element),
			Rows:            e.Rows,
			RowsComplete:    e.RowsComplete,
			RowsDeclared:    e.DeclaredRows,
			ColumnsDeclared: e.DeclaredColumns,
		})
	}
	return out
}

// Canonical returns the observation's canonical JSON, without a trailing
// newline: keys in the order of docs/reference.md#the-observation, the extraction exactly as
// its own Canonical writes it, strings escaped as in a result.
func (o *Observation) Canonical() []byte {
	return o.appendJSON(nil, true)
}

// MarshalJSON returns Canonical, so an Observation embeds byte-exactly in
// other JSON.
func (o *Observation) MarshalJSON() ([]byte, error) { return o.Canonical(), nil }

// Artifact is the reference by which the complete observation is retrieved:
// DigestPrefix and the lower-case hex SHA-256 of Canonical. It changes with
// every observation, since the revision and the evidence, action and
// region references carry each observation's own sequence.
func (o *Observation) Artifact() string { return sha256Ref(o.Canonical()) }

// Digest is the observation's replay digest: DigestPrefix and the SHA-256
// of the canonical observation with the revision and every evidence, action
// and region reference removed, and the extraction written as its own
// digest's input. Two observations of an unchanged page share it, as their
// extractions share theirs; any change to an inventory entry, a control, a
// region, the text or a printed cell changes it.
func (o *Observation) Digest() string { return sha256Ref(o.appendJSON(nil, false)) }

// sha256Ref is DigestPrefix and the lower-case hex SHA-256 of b.
func sha256Ref(b []byte) string {
	sum := sha256.Sum256(b)
	return DigestPrefix + hex.EncodeToString(sum[:])
}

// appendJSON writes the observation; with refs false it leaves out the
// revision, the page view's action and region references, and the
// extraction's revision, evidence and digest.
func (o *Observation) appendJSON(b []byte, refs bool) []byte {
	b = append(b, `{"schema_version":`...)
	b = appendString(b, o.SchemaVersion)
	b = append(b, `,"trust":`...)
	b = appendString(b, o.Trust)
	if refs {
		b = append(b, `,"revision":`...)
		b = appendString(b, o.Revision)
	}
	b = appendInventory(append(b, `,"inventory":`...), o.Inventory)
	b = o.appendView(b, refs)
	if o.Extraction != nil {
		b = append(b, `,"extraction":`...)
		b = o.Extraction.appendJSON(b, len(o.Extraction.Rows), o.Extraction.Digest, refs)
	}
	return append(b, '}')
}

// appendInventory writes entries as a JSON array.
func appendInventory(b []byte, entries []InventoryEntry) []byte {
	return appendArray(b, entries, func(b []byte, e *InventoryEntry) []byte { return e.appendJSON(b) })
}

// appendArray writes xs as a JSON array, each record by write.
func appendArray[T any](b []byte, xs []T, write func([]byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = write(b, &xs[i])
	}
	return append(b, ']')
}

// appendJSON writes one entry with keys in the order of docs/reference.md#the-observation.
func (e *InventoryEntry) appendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, e.Kind.String())
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(e.Index), 10)
	b = append(b, `,"source":`...)
	b = appendString(b, e.Source.String())
	if e.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, e.Name)
	}
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(e.Rows), 10)
	b = append(b, `,"rows_complete":`...)
	b = strconv.AppendBool(b, e.RowsComplete)
	b = appendDeclared(b, e.RowsDeclared, e.ColumnsDeclared)
	return append(b, '}')
}

// appendDeclared writes the rows_declared and columns_declared members of an
// inventory entry or a coverage, each only when the table declares it.
func appendDeclared(b []byte, rows, columns int) []byte {
	if rows != 0 {
		b = strconv.AppendInt(append(b, `,"rows_declared":`...), int64(rows), 10)
	}
	if columns != 0 {
		b = strconv.AppendInt(append(b, `,"columns_declared":`...), int64(columns), 10)
	}
	return b
}
