package domsnap

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/limits"
)

// SchemaVersion is the version of the result format written in every result.
const SchemaVersion = "1.4.0"

// Trust labels every result: its content comes from a page, not from us.
const Trust = "external-untrusted"

// DigestPrefix starts every digest; 64 lower-case hex digits follow.
const DigestPrefix = "sha256:"

// Result is one extraction result (docs/reference.md#the-result). Extract fills every
// field; Canonical writes them in the contract's byte-exact form.
type Result struct {
	SchemaVersion string
	Trust         string
	Revision      string
	Collection    CollectionInfo
	// Rows are the returned rows in output order; Position counts from 0.
	Rows     []Row
	Coverage Coverage
	// Digest is DigestPrefix and the SHA-256 of the canonical result with the
	// revision, every evidence reference and the digest itself removed.
	Digest string
}

// CollectionInfo says which collection was asked for and whether it was found.
type CollectionInfo struct {
	Found bool
	Kind  Kind
	Index int
	// Source and Evidence are written only when Found.
	Source   Source
	Evidence string
	// Reason is written only when not Found: absent or scan_limit.
	Reason Reason
}

// Row is one returned row.
type Row struct {
	Position  int
	Evidence  string
	Header    bool
	Structure Structure
	// Valid is schema validity (docs/reference.md#types): no required cell missing, no
	// cell invalid or truncated, supported structure. It is not truth.
	Valid bool
	// Cells follow the request's field order; empty for an unsupported_span row.
	Cells []Cell
}

// Cell is one typed cell.
type Cell struct {
	Name   string
	Status Status
	// Value is nil unless Status is OK, and then a string, int64, float64 or
	// bool as the field's Type is String, Integer, Number or Boolean. The
	// accessors StringValue, IntegerValue, NumberValue and BooleanValue read
	// it with its type.
	Value any
	// Text is written for invalid and truncated cells: the bounded text, or
	// the retained prefix, as evidence.
	Text string
	// Truncation is written for truncated cells: why the summary stopped.
	Truncation Truncation
}

// Coverage reports how much of the page the result speaks for.
type Coverage struct {
	CollectionScan     Scan
	RowScan            Scan
	RowLimit           int
	RowsReturned       int
	RowsOmittedByLimit int
	RowsOmittedByBytes int
	// RowsComplete is false when the row scan stopped with nodes left, when
	// the collection was not found for lack of budget, or when the table
	// declares more rows or columns than its row scan saw.
	RowsComplete bool
	// RowsDeclared and ColumnsDeclared are the table's aria-rowcount and
	// aria-colcount: a count, -1 for "more than the document holds, not how
	// many", 0 (not written) when it declares none.
	RowsDeclared, ColumnsDeclared int
	TruncatedCells                int
}

// Scan is one scan's budget report (docs/reference.md#coverage). Exhausted
// is true exactly when the scan stopped because its budget was spent while
// nodes remained unvisited. It is the one report type every bounded scan
// gives, from the budget counter up to the result.
type Scan = limits.Scan

// Canonical returns the result's canonical JSON (docs/reference.md#the-result), without a
// trailing newline: keys in the contract's order, no insignificant
// whitespace, strings escaped as encoding/json escapes them with HTML
// escaping off, numbers as encoding/json writes int64 and float64.
func (r *Result) Canonical() []byte {
	return r.appendJSON(nil, len(r.Rows), r.Digest, true)
}

// MarshalJSON returns Canonical, so a Result embeds byte-exactly in other JSON.
func (r *Result) MarshalJSON() ([]byte, error) { return r.Canonical(), nil }

// appendJSON writes the result with only its first k rows. With refs false it
// writes the digest's input: no revision, no evidence, no digest. Coverage is
// written as stored; seal sets the counters that depend on k.
func (r *Result) appendJSON(b []byte, k int, digest string, refs bool) []byte {
	b = append(b, `{"schema_version":`...)
	b = appendString(b, r.SchemaVersion)
	b = append(b, `,"trust":`...)
	b = appendString(b, r.Trust)
	if refs {
		b = append(b, `,"revision":`...)
		b = appendString(b, r.Revision)
	}
	b = r.Collection.appendJSON(append(b, `,"collection":`...), refs)
	b = append(b, `,"rows":[`...)
	for i := range r.Rows[:k] {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Rows[i].appendJSON(b, refs)
	}
	b = r.Coverage.appendJSON(append(b, `],"coverage":`...))
	if refs {
		b = append(b, `,"digest":`...)
		b = appendString(b, digest)
	}
	return append(b, '}')
}

func (c *CollectionInfo) appendJSON(b []byte, refs bool) []byte {
	b = append(b, `{"found":`...)
	b = strconv.AppendBool(b, c.Found)
	b = append(b, `,"kind":`...)
	b = appendString(b, c.Kind.String())
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(c.Index), 10)
	if c.Found {
		b = append(b, `,"source":`...)
		b = appendString(b, c.Source.String())
		if refs {
			b = append(b, `,"evidence":`...)
			b = appendString(b, c.Evidence)
		}
	} else {
		b = append(b, `,"reason":`...)
		b = appendString(b, c.Reason.String())
	}
	return append(b, '}')
}

func (r *Row) appendJSON(b []byte, refs bool) []byte {
	b = append(b, `{"position":`...)
	b = strconv.AppendInt(b, int64(r.Position), 10)
	if refs {
		b = append(b, `,"evidence":`...)
		b = appendString(b, r.Evidence)
	}
	b = append(b, `,"header":`...)
	b = strconv.AppendBool(b, r.Header)
	b = append(b, `,"structure":`...)
	b = appendString(b, r.Structure.String())
	b = append(b, `,"valid":`...)
	b = strconv.AppendBool(b, r.Valid)
	b = append(b, `,"cells":[`...)
	for i := range r.Cells {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Cells[i].appendJSON(b)
	}
	return append(b, "]}"...)
}

func (c *Cell) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendString(b, c.Name)
	b = append(b, `,"status":`...)
	b = appendString(b, c.Status.String())
	b = append(b, `,"value":`...)
	b = appendValue(b, c.Value)
	if c.Status == Invalid || c.Status == Truncated {
		b = append(b, `,"text":`...)
		b = appendString(b, c.Text)
	}
	if c.Status == Truncated && c.Truncation != cells.None {
		b = append(b, `,"truncation":`...)
		b = appendString(b, c.Truncation.String())
	}
	return append(b, '}')
}

func (c *Coverage) appendJSON(b []byte) []byte {
	b = appendScan(append(b, `{"collection_scan":`...), c.CollectionScan)
	b = appendScan(append(b, `,"row_scan":`...), c.RowScan)
	b = append(b, `,"row_limit":`...)
	b = strconv.AppendInt(b, int64(c.RowLimit), 10)
	b = append(b, `,"rows_returned":`...)
	b = strconv.AppendInt(b, int64(c.RowsReturned), 10)
	b = append(b, `,"rows_omitted_by_limit":`...)
	b = strconv.AppendInt(b, int64(c.RowsOmittedByLimit), 10)
	b = append(b, `,"rows_omitted_by_bytes":`...)
	b = strconv.AppendInt(b, int64(c.RowsOmittedByBytes), 10)
	b = append(b, `,"rows_complete":`...)
	b = strconv.AppendBool(b, c.RowsComplete)
	b = appendDeclared(b, c.RowsDeclared, c.ColumnsDeclared)
	b = append(b, `,"truncated_cells":`...)
	b = strconv.AppendInt(b, int64(c.TruncatedCells), 10)
	return append(b, '}')
}

func appendScan(b []byte, s Scan) []byte {
	b = append(b, `{"limit":`...)
	b = strconv.AppendInt(b, int64(s.Limit), 10)
	b = append(b, `,"visited":`...)
	b = strconv.AppendInt(b, int64(s.Visited), 10)
	b = append(b, `,"exhausted":`...)
	b = strconv.AppendBool(b, s.Exhausted)
	return append(b, '}')
}

// seal numbers the evidence references under sequence, applies the byte cap
// and computes the digest. r.Rows must hold every row that passed the row
// limit, and r.Coverage everything but the counters seal sets.
//
// The byte cap keeps the largest number k of leading rows whose complete
// canonical result, coverage and digest included, is at most
// limits.ExtractionBytes; the other rows are dropped whole and counted in
// rows_omitted_by_bytes. The digest is then taken over the k kept rows, so it
// describes exactly the result printed.
func (r *Result) seal(sequence uint64) {
	n := 1
	if r.Collection.Found {
		r.Collection.Evidence = EvidenceRef(sequence, n)
		n++
	}
	for i := range r.Rows {
		r.Rows[i].Position = i
		r.Rows[i].Evidence = EvidenceRef(sequence, n+i)
	}
	all := len(r.Rows)
	placeholder := DigestPrefix + strings.Repeat("0", sha256.Size*2)
	size := func(k int) int {
		r.setCounts(k, all)
		return len(r.appendJSON(nil, k, placeholder, true))
	}
	k, fits := limits.FitRecords(all, limits.ExtractionBytes, size)
	if !fits {
		// A result without rows is a few hundred bytes, far under the cap;
		// keep no rows rather than fail should that ever change.
		k = 0
	}
	r.setCounts(k, all)
	r.Rows = r.Rows[:k:k]
	sum := sha256.Sum256(r.appendJSON(nil, k, "", false))
	r.Digest = DigestPrefix + hex.EncodeToString(sum[:])
}

// setCounts sets the coverage counters for k of all rows kept.
func (r *Result) setCounts(k, all int) {
	r.Coverage.RowsReturned = k
	r.Coverage.RowsOmittedByBytes = all - k
	t := 0
	for i := range r.Rows[:k] {
		for _, c := range r.Rows[i].Cells {
			if c.Status == Truncated {
				t++
			}
		}
	}
	r.Coverage.TruncatedCells = t
}

// appendValue writes a typed value as encoding/json writes it.
func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case string:
		return appendString(b, v)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case float64:
		return appendFloat(b, v)
	case bool:
		return strconv.AppendBool(b, v)
	}
	return append(b, "null"...)
}

// appendFloat writes f exactly as encoding/json writes a float64: the
// shortest form that round-trips, in 'f' notation unless the magnitude is
// below 1e-6 or at least 1e21, with a two-digit negative exponent shortened
// (1e-07, not 1e-07 with a padded zero). Non-finite values never come from
// the converter; they are written as null rather than as invalid JSON.
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string exactly as encoding/json does with
// HTML escaping off: '"' and '\\' escaped, control characters as \b \f \n \r
// \t or \u00XX, U+2028 and U+2029 escaped, invalid UTF-8 replaced by \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
