package domsnap

import (
	"strconv"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// Projection is an observation fitted into a byte budget for a model to read
// (docs/reference.md#the-observation). Project computes it once; Canonical returns the bytes
// computed then, so showing it again shows exactly the same bytes.
type Projection struct {
	SchemaVersion string
	Trust         string
	Revision      string
	// Artifact is the full observation's Artifact, by which it is retrieved.
	Artifact string
	// Inventory holds the leading entries of the observation's inventory
	// that fit.
	Inventory []InventoryEntry
	// Extraction is the observation's extraction with only its leading rows
	// that fit; its collection, coverage and digest are the extraction's own,
	// unchanged. It is nil when ExtractionOmitted or when the observation has
	// no extraction.
	Extraction *Result
	// ExtractionOmitted is true when the observation has an extraction and
	// not even its envelope without rows fitted.
	ExtractionOmitted bool
	// Omitted counts what the projection left out.
	Omitted Omitted
	// Budget is the byte budget the projection was fitted into.
	Budget int

	canonical []byte
}

// Omitted counts the records a projection dropped: trailing inventory
// entries, and trailing rows of the extraction (all of them when the
// extraction was omitted). The shown records and these counts add up to
// what the full observation holds.
type Omitted struct {
	Inventory int
	Rows      int
}

// Project fits o into budget bytes of canonical JSON (docs/reference.md#the-observation).
//
// It keeps the revision and the artifact reference always, and prefers the
// requested extraction's rows over inventory entries: it drops whole
// trailing inventory entries first, then whole trailing rows, counting each.
// If even the extraction without rows does not fit, the extraction is
// omitted whole ("extraction_omitted":true) and the inventory is fitted
// again into what that frees. No record, string or reference is ever
// clipped; the extraction's coverage is written unchanged whenever the
// extraction is shown.
//
// The budget counts every byte of the JSON Canonical returns (escaping and
// the artifact included, a printed trailing newline not). A budget too small
// for the projection with no inventory and the extraction omitted is an
// invalid_request error; limits.MinModelBytes is always enough, and
// limits.ModelBytes is the default a caller should use.
//
// When o has no extraction, the projection has neither "extraction" nor
// "extraction_omitted", and its omitted rows count is 0.
func Project(o *Observation, budget int) (*Projection, error) {
	if o == nil {
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "no observation to project")
	}
	if budget < 1 {
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "the model byte budget must be positive, got "+strconv.Itoa(budget))
	}
	p := &Projection{
		SchemaVersion: o.SchemaVersion,
		Trust:         o.Trust,
		Revision:      o.Revision,
		Artifact:      o.Artifact(),
		Budget:        budget,
	}
	nInv := len(o.Inventory)
	nRows := 0
	if o.Extraction != nil {
		nRows = len(o.Extraction.Rows)
	}
	f := &fitter{p: p, o: o}

	// Everything; else fewer inventory entries with every row; else no
	// inventory and fewer rows; else no extraction and what inventory fits.
	kInv, kRows, mode := nInv, nRows, shown
	if o.Extraction == nil {
		mode = absent
	}
	if f.size(nInv, nRows, mode) > budget {
		if k, ok := limits.FitRecords(nInv, budget, func(k int) int { return f.size(k, nRows, mode) }); ok {
			kInv = k
		} else if k, ok := limits.FitRecords(nRows, budget, func(k int) int { return f.size(0, k, mode) }); ok && mode == shown {
			kInv, kRows = 0, k
		} else {
			if mode == shown {
				mode = omitted
			}
			kRows = 0
			k, ok := limits.FitRecords(nInv, budget, func(k int) int { return f.size(k, 0, mode) })
			if !ok {
				what := "the revision, the artifact reference and an omitted extraction"
				if mode == absent {
					what = "the revision and the artifact reference"
				}
				return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "a model byte budget of "+strconv.Itoa(budget)+
					" bytes cannot hold even "+what+" ("+strconv.Itoa(f.size(0, 0, mode))+" bytes)")
			}
			kInv = k
		}
	}
	f.set(kInv, kRows, mode)
	p.canonical = p.appendJSON(nil)
	return p, nil
}

// extractionMode says how a projection writes the extraction.
type extractionMode uint8

const (
	shown   extractionMode = iota // "extraction": the result with its leading rows
	omitted                       // "extraction_omitted": true
	absent                        // neither: the observation has no extraction
)

// fitter builds candidate projections of one observation to measure them.
// buf is reused from one measurement to the next.
type fitter struct {
	p   *Projection
	o   *Observation
	buf []byte
}

// set makes f.p the projection with the first kInv entries and kRows rows.
func (f *fitter) set(kInv, kRows int, mode extractionMode) {
	p, o := f.p, f.o
	p.Inventory = o.Inventory[:kInv:kInv]
	p.Extraction = nil
	p.ExtractionOmitted = mode == omitted
	p.Omitted = Omitted{Inventory: len(o.Inventory) - kInv}
	if o.Extraction != nil {
		p.Omitted.Rows = len(o.Extraction.Rows) - kRows
	}
	if mode == shown {
		e := *o.Extraction
		e.Rows = o.Extraction.Rows[:kRows:kRows]
		p.Extraction = &e
	}
}

// size is the length of the canonical projection with the first kInv
// entries and kRows rows.
func (f *fitter) size(kInv, kRows int, mode extractionMode) int {
	f.set(kInv, kRows, mode)
	f.buf = f.p.appendJSON(f.buf[:0])
	return len(f.buf)
}

// Canonical returns the projection's canonical JSON, without a trailing
// newline: keys in the order of docs/reference.md#the-observation, the extraction written as a
// result's Canonical writes it but with only the rows shown. It is the byte
// string Project measured, at most Budget bytes long.
func (p *Projection) Canonical() []byte {
	if p.canonical == nil {
		// A Projection built by hand rather than by Project.
		return p.appendJSON(nil)
	}
	return append([]byte(nil), p.canonical...)
}

// MarshalJSON returns Canonical.
func (p *Projection) MarshalJSON() ([]byte, error) { return p.Canonical(), nil }

func (p *Projection) appendJSON(b []byte) []byte {
	b = append(b, `{"schema_version":`...)
	b = appendString(b, p.SchemaVersion)
	b = append(b, `,"trust":`...)
	b = appendString(b, p.Trust)
	b = append(b, `,"revision":`...)
	b = appendString(b, p.Revision)
	b = append(b, `,"artifact":`...)
	b = appendString(b, p.Artifact)
	b = appendInventory(append(b, `,"inventory":`...), p.Inventory)
	switch {
	case p.Extraction != nil:
		b = append(b, `,"extraction":`...)
		b = p.Extraction.appendJSON(b, len(p.Extraction.Rows), p.Extraction.Digest, true)
	case p.ExtractionOmitted:
		b = append(b, `,"extraction_omitted":true`...)
	}
	b = append(b, `,"omitted":{"inventory":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Inventory), 10)
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Rows), 10)
	return append(b, "}}"...)
}
