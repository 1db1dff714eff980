package domsnap

import (
	"strconv"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// Projection is an observation fitted into a byte budget for a model to read
// (docs/reference.md#the-observation and #the-page-view). Project computes
// it once; Canonical returns the bytes computed then, so showing it again
// shows exactly the same bytes.
type Projection struct {
	SchemaVersion string
	Trust         string
	Revision      string
	// Artifact is the full observation's Artifact, by which it is retrieved.
	Artifact string
	// Inventory holds the leading entries of the observation's inventory
	// that fit.
	Inventory []InventoryEntry
	// ViewScan is the observation's, always shown.
	ViewScan ViewScan
	// Controls and Regions hold the leading records of the observation's
	// that fit; ControlsOmitted and RegionsOmitted are the observation's own
	// counts of records its view scan saw past its bounds.
	Controls        []Control
	ControlsOmitted int
	Regions         []Region
	RegionsOmitted  int
	// TextShown is false when the page's text was left out whole; Text and
	// TextTruncated are then not written.
	TextShown     bool
	Text          string
	TextTruncated bool
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
	// View is how the projection gives the page view: ViewFull writes
	// Controls, Regions and the text; ViewChanges writes Changes in their
	// place; ViewNone writes none of them, nor their counts.
	View View
	// Changes is the page view told as changes, when View is ViewChanges.
	Changes *Changes

	canonical []byte
}

// Omitted counts what a projection dropped: the text (1 when it was left
// out), trailing regions, trailing inventory entries, trailing controls,
// and trailing rows of the extraction (all of them when the extraction was
// omitted). The shown records and these counts add up to what the full
// observation holds.
type Omitted struct {
	Text      int
	Regions   int
	Inventory int
	Controls  int
	Rows      int
}

// The parts a projection drops, in the order it drops them.
const (
	partText = iota
	partRegions
	partInventory
	partControls
	partRows
	partExtraction
	nParts
)

// Project fits o into budget bytes of canonical JSON
// (docs/reference.md#the-observation and #the-page-view).
//
// It keeps the revision, the artifact reference, the view scan's coverage
// and the extraction's coverage always. When everything does not fit it
// drops, in this order, until it does: the text (whole), trailing regions,
// trailing inventory entries, trailing controls, trailing extraction rows,
// and then the extraction as a whole ("extraction_omitted":true); an
// ordinary observation so keeps its controls longest, and requested rows
// outrank controls, regions and text. Once the extraction is omitted, what
// it freed is filled again in the reverse order (controls, inventory
// entries, regions, the text), each part only once the one before is
// whole. No record, string or reference is ever
// clipped.
//
// The budget counts every byte of the JSON Canonical returns (escaping and
// the artifact included, a printed trailing newline not). A budget too small
// for the projection with no records, no text and the extraction omitted is
// an invalid_request error; limits.MinModelBytes is always enough, and
// limits.ModelBytes is the default a caller should use.
//
// When o has no extraction, the projection has neither "extraction" nor
// "extraction_omitted", and its omitted rows count is 0.
func Project(o *Observation, budget int) (*Projection, error) {
	return ProjectView(o, budget, ViewFull, nil)
}

// ProjectView is Project with the page view given as v says
// (docs/reference.md#answers-that-cost-what-changed). With ViewChanges and
// changes (o's page view against an earlier observation,
// [Observation.ChangesSince]), the changes take the place of the controls,
// regions and text, whole: they are never cut, so the projection gives the
// full view instead when they are nil, when they would be larger than the
// full view's records and text, or when they do not fit the budget beside
// the revision, the artifact reference and the view scan. Over budget, a
// projection with changes drops trailing inventory entries, then trailing
// extraction rows, then the extraction. With ViewNone no page view is
// written: no controls, regions or text and not their counts; omitted
// counts only what the budget left out, so its text, regions and controls
// are then 0.
func ProjectView(o *Observation, budget int, v View, changes *Changes) (*Projection, error) {
	if v == ViewChanges {
		if changes == nil || changesLarger(o, changes) {
			v = ViewFull
		} else if p, err := project(o, budget, ViewChanges, changes); err == nil {
			return p, nil
		} else if errcode.CodeOf(err) != errcode.InvalidRequest {
			return nil, err
		} else {
			v = ViewFull
		}
	}
	return project(o, budget, v, nil)
}

// changesLarger reports whether the changes object is larger than the full
// view's controls, regions and text it stands for.
func changesLarger(o *Observation, c *Changes) bool {
	full := appendControls(nil, o.Controls, true)
	full = appendRegions(full, o.Regions, true)
	full = appendString(full, o.Text)
	return len(c.appendJSON(nil)) >= len(full)
}

func project(o *Observation, budget int, v View, changes *Changes) (*Projection, error) {
	if o == nil {
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "no observation to project")
	}
	if budget < 1 {
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "the model byte budget must be positive, got "+strconv.Itoa(budget))
	}
	p := &Projection{
		SchemaVersion:   o.SchemaVersion,
		Trust:           o.Trust,
		Revision:        o.Revision,
		Artifact:        o.Artifact(),
		ViewScan:        o.ViewScan,
		ControlsOmitted: o.ControlsOmitted,
		RegionsOmitted:  o.RegionsOmitted,
		Budget:          budget,
		View:            v,
		Changes:         changes,
	}
	f := &fitter{p: p, o: o}
	var full [nParts]int
	full[partInventory] = len(o.Inventory)
	if v == ViewFull {
		full[partText] = 1
		full[partRegions] = len(o.Regions)
		full[partControls] = len(o.Controls)
	}
	if o.Extraction != nil {
		full[partRows] = len(o.Extraction.Rows)
		full[partExtraction] = 1
	}
	k, ok := f.fit(full, budget)
	if !ok {
		zero := [nParts]int{}
		what := "the revision, the artifact reference, the view scan and an omitted extraction"
		if o.Extraction == nil {
			what = "the revision, the artifact reference and the view scan"
		}
		if v == ViewChanges {
			what += " beside the changes"
		}
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "a model byte budget of "+strconv.Itoa(budget)+
			" bytes cannot hold even "+what+" ("+strconv.Itoa(f.size(zero))+" bytes)")
	}
	f.set(k)
	p.canonical = p.appendJSON(nil)
	return p, nil
}

// fit chooses how many of each part to show: everything if it fits; else
// the parts dropped in order, each cut to what fits while the later ones
// stay whole; else, with the extraction omitted, the earlier parts filled
// again from the one kept longest, up to the first that does not fit
// whole. An observation without an extraction
// never omits one. ok is false when nothing fits at all.
func (f *fitter) fit(full [nParts]int, budget int) ([nParts]int, bool) {
	k := full
	if f.size(k) <= budget {
		return k, true
	}
	for d := partText; d < partExtraction; d++ {
		if n, ok := limits.FitRecords(full[d], budget, func(n int) int {
			k[d] = n
			return f.size(k)
		}); ok {
			k[d] = n
			return k, true
		}
		k[d] = 0
	}
	if f.o.Extraction == nil {
		return k, false // nothing left to drop
	}
	// Omit the extraction, then fill again what it freed.
	k[partExtraction], k[partRows] = 0, 0
	if f.size(k) > budget {
		return k, false
	}
	for _, d := range [...]int{partControls, partInventory, partRegions, partText} {
		n, _ := limits.FitRecords(full[d], budget, func(n int) int {
			k[d] = n
			return f.size(k)
		})
		k[d] = n
		if n < full[d] {
			break // what comes after was to be dropped before this
		}
	}
	return k, true
}

// fitter builds candidate projections of one observation to measure them.
// buf is reused from one measurement to the next.
type fitter struct {
	p   *Projection
	o   *Observation
	buf []byte
}

// set makes f.p the projection showing k[d] of each part d.
func (f *fitter) set(k [nParts]int) {
	p, o := f.p, f.o
	p.Inventory = o.Inventory[:k[partInventory]:k[partInventory]]
	p.Controls = o.Controls[:k[partControls]:k[partControls]]
	p.Regions = o.Regions[:k[partRegions]:k[partRegions]]
	p.TextShown = k[partText] == 1
	p.Text, p.TextTruncated = "", false
	if p.TextShown || p.View == ViewChanges {
		p.TextTruncated = o.TextTruncated
	}
	if p.TextShown {
		p.Text = o.Text
	}
	p.Extraction = nil
	p.ExtractionOmitted = o.Extraction != nil && k[partExtraction] == 0
	p.Omitted = Omitted{Inventory: len(o.Inventory) - k[partInventory]}
	if p.View == ViewFull {
		p.Omitted.Text = 1 - k[partText]
		p.Omitted.Regions = len(o.Regions) - k[partRegions]
		p.Omitted.Controls = len(o.Controls) - k[partControls]
	}
	if o.Extraction != nil {
		p.Omitted.Rows = len(o.Extraction.Rows)
		if k[partExtraction] == 1 {
			p.Omitted.Rows -= k[partRows]
			e := *o.Extraction
			e.Rows = o.Extraction.Rows[:k[partRows]:k[partRows]]
			p.Extraction = &e
		}
	}
}

// appendOmittedCount writes one count member, key included.
func appendOmittedCount(b []byte, key string, n int) []byte {
	return strconv.AppendInt(append(b, key...), int64(n), 10)
}

// size is the length of the canonical projection showing k.
func (f *fitter) size(k [nParts]int) int {
	f.set(k)
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
	b = p.ViewScan.appendJSON(append(b, `,"view_scan":`...), true)
	switch p.View {
	case ViewFull:
		b = appendControls(append(b, `,"controls":`...), p.Controls, true)
		b = appendOmittedCount(b, `,"controls_omitted":`, p.ControlsOmitted)
		b = appendRegions(append(b, `,"regions":`...), p.Regions, true)
		b = appendOmittedCount(b, `,"regions_omitted":`, p.RegionsOmitted)
		if p.TextShown {
			b = appendText(b, p.Text, p.TextTruncated)
		}
	case ViewChanges:
		b = p.Changes.appendJSON(append(b, `,"changes":`...))
		b = appendOmittedCount(b, `,"controls_omitted":`, p.ControlsOmitted)
		b = appendOmittedCount(b, `,"regions_omitted":`, p.RegionsOmitted)
		b = strconv.AppendBool(append(b, `,"text_truncated":`...), p.TextTruncated)
	}
	switch {
	case p.Extraction != nil:
		b = append(b, `,"extraction":`...)
		b = p.Extraction.appendJSON(b, len(p.Extraction.Rows), p.Extraction.Digest, true)
	case p.ExtractionOmitted:
		b = append(b, `,"extraction_omitted":true`...)
	}
	b = append(b, `,"omitted":{"text":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Text), 10)
	b = append(b, `,"regions":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Regions), 10)
	b = append(b, `,"inventory":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Inventory), 10)
	b = append(b, `,"controls":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Controls), 10)
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(p.Omitted.Rows), 10)
	return append(b, "}}"...)
}
