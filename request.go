package domsnap

import (
	"strconv"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
)

// Request is one extract request (docs/reference.md#the-request).
type Request struct {
	// ExpectedRevision is the revision the caller last observed. Offline it is
	// optional ("" means absent); when given it must equal the snapshot's.
	ExpectedRevision string
	// Kind is the collection kind: Table, List or Form.
	Kind Kind
	// Index is the zero-based visible index of the collection among those of
	// its kind, 0 to limits.MaxCollectionIndex.
	Index int
	// Fields are the typed columns to read, 1 to limits.MaxFields, names unique.
	Fields []Field
	// RowLimit is how many seen rows are returned, 1 to limits.MaxRowLimit.
	// DecodeRequest always sets it; in a request built in Go, 0 means
	// limits.DefaultRowLimit.
	RowLimit int
}

// Field is one typed column of a request.
type Field struct {
	// Name matches ^[a-z][a-z0-9_]{0,63}$ and is unique within the request.
	Name string
	// Column is 0 to limits.MaxColumn; a list allows only 0 and a form 0 to
	// limits.MaxFormColumn (label, role, disabled, checked, required).
	Column int
	// Type is the declared type the cell text is converted to: String,
	// Integer, Number or Boolean.
	Type Type
	// Required makes a row invalid when this cell is missing.
	Required bool
}

// rowLimit is the effective row limit.
func (r Request) rowLimit() int {
	if r.RowLimit == 0 {
		return limits.DefaultRowLimit
	}
	return r.RowLimit
}

// Validate checks a request built in Go against the rules DecodeRequest
// applies to JSON, reporting the first offending value with the JSON-pointer
// path it would have in the request's JSON form. A RowLimit of 0 is accepted
// and means the default. It gives only the verdict; [Request.Check] applies
// the same rules and keeps the checked request, so that nothing checks it
// again.
func (r Request) Validate() error {
	ruleRuns.Add(1)
	if !validKind(r.Kind) {
		return invalidRequest("/kind", kindMsg)
	}
	if err := checkIndex("/index", r.Index); err != nil {
		return err
	}
	if len(r.Fields) < limits.MinFields {
		return invalidRequest("/fields", fieldCountMsg())
	}
	for i, f := range r.Fields {
		base := "/fields/" + strconv.Itoa(i)
		if i >= limits.MaxFields {
			return invalidRequest(base, fieldCountMsg())
		}
		if err := checkName(base+"/name", f.Name); err != nil {
			return err
		}
		for _, g := range r.Fields[:i] {
			if g.Name == f.Name {
				return invalidRequest(base+"/name", "duplicate field name "+errcode.Quote(f.Name))
			}
		}
		if err := checkColumn(base+"/column", f.Column); err != nil {
			return err
		}
		if err := checkColumnForKind(base+"/column", f.Column, r.Kind); err != nil {
			return err
		}
		if !validType(f.Type) {
			return invalidRequest(base+"/type", typeMsg)
		}
	}
	if r.RowLimit != 0 {
		if err := checkRowLimit("/row_limit", r.RowLimit); err != nil {
			return err
		}
	}
	return nil
}

const (
	typeMsg = "type must be string, integer, number or boolean"
	kindMsg = "kind must be table, list or form"
)

func fieldCountMsg() string {
	return "a request holds " + strconv.Itoa(limits.MinFields) + " to " + strconv.Itoa(limits.MaxFields) + " fields"
}

// validKind and validType accept exactly the members of the closed sets, so a
// value converted from an arbitrary integer is refused, not printed.
func validKind(k aria.Kind) bool { return k == aria.Table || k == aria.List || k == aria.Form }

func validType(t typed.Type) bool {
	return t == typed.String || t == typed.Integer || t == typed.Number || t == typed.Boolean
}

func checkIndex(path string, v int) error {
	if v < 0 || v > limits.MaxCollectionIndex {
		return invalidRequest(path, "index must be 0 to "+strconv.Itoa(limits.MaxCollectionIndex)+", got "+strconv.Itoa(v))
	}
	return nil
}

func checkColumn(path string, v int) error {
	if v < 0 || v > limits.MaxColumn {
		return invalidRequest(path, "column must be 0 to "+strconv.Itoa(limits.MaxColumn)+", got "+strconv.Itoa(v))
	}
	return nil
}

func checkColumnForKind(path string, v int, k aria.Kind) error {
	switch {
	case k == aria.List && v > limits.MaxListColumn:
		return invalidRequest(path, "a list item has only column 0, got "+strconv.Itoa(v))
	case k == aria.Form && v > limits.MaxFormColumn:
		return invalidRequest(path, "a form has columns 0 to "+strconv.Itoa(limits.MaxFormColumn)+
			" (label, role, disabled, checked, required), got "+strconv.Itoa(v))
	}
	return nil
}

func checkRowLimit(path string, v int) error {
	if v < limits.MinRowLimit || v > limits.MaxRowLimit {
		return invalidRequest(path, "row_limit must be "+strconv.Itoa(limits.MinRowLimit)+" to "+
			strconv.Itoa(limits.MaxRowLimit)+", got "+strconv.Itoa(v))
	}
	return nil
}

// checkName applies ^[a-z][a-z0-9_]{0,63}$.
func checkName(path, s string) error {
	ok := len(s) >= 1 && len(s) <= limits.MaxNameLength && s[0] >= 'a' && s[0] <= 'z'
	for i := 1; ok && i < len(s); i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	if !ok {
		return invalidRequest(path, "name must match ^[a-z][a-z0-9_]{0,63}$, got "+errcode.Quote(s))
	}
	return nil
}

// MarshalJSON writes the request in its JSON form with keys in the order of
// docs/reference.md#the-request; DecodeRequest reads it back to an equal Request. An absent
// expected revision and a false required flag are left out, and the row
// limit is always written, resolved to its default when 0.
func (r Request) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	if r.ExpectedRevision != "" {
		b = append(b, `"expected_revision":`...)
		b = appendString(b, r.ExpectedRevision)
		b = append(b, ',')
	}
	b = append(b, `"kind":`...)
	b = appendString(b, r.Kind.String())
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(r.Index), 10)
	b = append(b, `,"fields":[`...)
	for i, f := range r.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendString(b, f.Name)
		b = append(b, `,"column":`...)
		b = strconv.AppendInt(b, int64(f.Column), 10)
		b = append(b, `,"type":`...)
		b = appendString(b, f.Type.String())
		if f.Required {
			b = append(b, `,"required":true`...)
		}
		b = append(b, '}')
	}
	b = append(b, `],"row_limit":`...)
	b = strconv.AppendInt(b, int64(r.rowLimit()), 10)
	return append(b, '}'), nil
}

// UnmarshalJSON decodes a request with DecodeRequest's strict rules, so a
// request embedded in a larger JSON document is held to the same contract.
// Error paths are relative to the request itself.
func (r *Request) UnmarshalJSON(data []byte) error {
	v, err := DecodeRequest(data)
	if err != nil {
		return err
	}
	*r = v
	return nil
}
