package domsnap

import (
	"strconv"
	"strings"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// Revision is a parsed revision (docs/reference.md#revisions). A live revision names a
// session, a navigation and an observation sequence:
// r1.<session>.n<navigation>.o<sequence>. A file revision names the input
// bytes: r1.file.<16 lower-case hex digits>.
type Revision struct {
	// Session is the live session's part, "" for a file revision. It is 1 to
	// MaxSessionChars characters of [0-9a-z] and never "file".
	Session string
	// Navigation and Sequence are the live counters, 0 for a file revision.
	Navigation, Sequence uint64
	// File is the 16 hex digits of a file revision, "" for a live one.
	File string
}

// MaxSessionChars bounds the session part of a live revision, so that a
// revision stays a short token.
const MaxSessionChars = 64

const (
	revisionPrefix = "r1."
	filePart       = "file"
	fileHexDigits  = 16
	// maxCounterDigits is the length of the largest uint64; ParseUint
	// rejects the larger numbers of that length.
	maxCounterDigits = 20
)

// IsFile reports whether r names input bytes rather than a live observation.
func (r Revision) IsFile() bool { return r.File != "" }

// String renders r in its canonical form.
func (r Revision) String() string {
	if r.IsFile() {
		return revisionPrefix + filePart + "." + r.File
	}
	return revisionPrefix + r.Session + ".n" + strconv.FormatUint(r.Navigation, 10) +
		".o" + strconv.FormatUint(r.Sequence, 10)
}

// LiveRevision returns the live revision of a session's observation. It
// fails with invalid_request when session is not a valid session part.
func LiveRevision(session string, navigation, sequence uint64) (string, error) {
	r := Revision{Session: session, Navigation: navigation, Sequence: sequence}
	if !validSession(session) {
		return "", invalidRequest("", "session must be 1 to "+strconv.Itoa(MaxSessionChars)+
			" characters of [0-9a-z], not \"file\"")
	}
	return r.String(), nil
}

// ParseRevision parses a revision in canonical form: counters in decimal
// without leading zeros, hex digits in lower case. Anything else is
// malformed, a foreign_revision error, because no session ever published it.
func ParseRevision(s string) (Revision, error) {
	bad := func() (Revision, error) {
		return Revision{}, errcode.New(errcode.ForeignRevision, pkgName, "", "malformed revision "+errcode.Quote(s))
	}
	rest, ok := strings.CutPrefix(s, revisionPrefix)
	if !ok {
		return bad()
	}
	parts := strings.Split(rest, ".")
	if len(parts) == 2 && parts[0] == filePart {
		if len(parts[1]) != fileHexDigits || !isLowerHex(parts[1]) {
			return bad()
		}
		return Revision{File: parts[1]}, nil
	}
	if len(parts) != 3 || !validSession(parts[0]) {
		return bad()
	}
	nav, ok1 := counter(parts[1], 'n')
	seq, ok2 := counter(parts[2], 'o')
	if !ok1 || !ok2 {
		return bad()
	}
	return Revision{Session: parts[0], Navigation: nav, Sequence: seq}, nil
}

func validSession(s string) bool {
	if s == "" || len(s) > MaxSessionChars || s == filePart {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// counter parses <letter><decimal> with no leading zeros.
func counter(s string, letter byte) (uint64, bool) {
	if len(s) < 2 || s[0] != letter || len(s) > maxCounterDigits+1 {
		return 0, false
	}
	d := s[1:]
	if len(d) > 1 && d[0] == '0' {
		return 0, false
	}
	v, err := strconv.ParseUint(d, 10, 64)
	return v, err == nil
}

// CheckRevision checks a caller's expected revision against the current one
// (docs/reference.md#revisions), before any collection work:
//
//   - malformed, another file's, another session's, or a file revision
//     against a live one: foreign_revision;
//   - same session, older navigation: navigated_revision;
//   - same session and navigation, older sequence: stale_revision;
//   - a navigation or sequence newer than the current one: foreign_revision,
//     since it was never published.
//
// A malformed current revision is the snapshot's fault, malformed_snapshot.
// [Checked.CheckRevision] makes the same comparison with both revisions
// already parsed.
func CheckRevision(expected, current string) error {
	cur, err := ParseRevision(current)
	if err != nil {
		return malformedRevision(current)
	}
	exp, err := ParseRevision(expected)
	if err != nil {
		return err
	}
	return compareRevisions(exp, cur)
}

// compareRevisions applies CheckRevision's table to two parsed revisions.
func compareRevisions(exp, cur Revision) error {
	foreign := func(why string) error {
		return errcode.New(errcode.ForeignRevision, pkgName, "", "revision "+errcode.Quote(exp.String())+" "+why)
	}
	switch {
	case exp.IsFile() || cur.IsFile():
		if exp != cur {
			return foreign("names another document")
		}
		return nil
	case exp.Session != cur.Session:
		return foreign("belongs to another session")
	case exp.Navigation > cur.Navigation:
		return foreign("names a navigation that never happened")
	case exp.Navigation < cur.Navigation:
		return errcode.New(errcode.NavigatedRevision, pkgName, "", "revision "+errcode.Quote(exp.String())+
			" was observed before the page navigated; the current revision is "+errcode.Quote(cur.String()))
	case exp.Sequence > cur.Sequence:
		return foreign("names an observation that was never published")
	case exp.Sequence < cur.Sequence:
		return errcode.New(errcode.StaleRevision, pkgName, "", "revision "+errcode.Quote(exp.String())+
			" is stale; the current revision is "+errcode.Quote(cur.String()))
	}
	return nil
}

// valid reports whether r is a revision ParseRevision would give: a
// Revision built as a literal may not be.
func (r Revision) valid() bool {
	p, err := ParseRevision(r.String())
	return err == nil && p == r
}

// sequenceOf is the observation sequence evidence references are numbered
// under: the live sequence, 0 for a file revision.
func sequenceOf(r Revision) uint64 {
	if r.IsFile() {
		return 0
	}
	return r.Sequence
}

// EvidenceRef returns the evidence reference e<sequence>.<n>.
func EvidenceRef(sequence uint64, n int) string {
	return "e" + strconv.FormatUint(sequence, 10) + "." + strconv.Itoa(n)
}

// ParseEvidenceRef parses an evidence reference. Callers that expect an
// action reference use it to refuse evidence references explicitly: they
// identify evidence only and never authorize an action or anchor an
// expansion.
func ParseEvidenceRef(s string) (sequence uint64, n int, ok bool) {
	rest, found := strings.CutPrefix(s, "e")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rest, ".")
	if !found {
		return 0, 0, false
	}
	seq, ok1 := counter("e"+a, 'e')
	num, ok2 := counter("e"+b, 'e')
	if !ok1 || !ok2 || num == 0 || num > uint64(maxEvidence) {
		return 0, 0, false
	}
	return seq, int(num), true
}

// maxEvidence is more than any result holds: one collection and at most
// MaxRowLimit rows.
const maxEvidence = 1 << 16

// ActionRef returns the action reference a<sequence>.<n> of a page view's
// n-th control.
func ActionRef(sequence uint64, n int) string { return ref('a', sequence, n) }

// RegionRef returns the region reference g<sequence>.<n> of a page view's
// n-th region.
func RegionRef(sequence uint64, n int) string { return ref('g', sequence, n) }

func ref(letter byte, sequence uint64, n int) string {
	return string(letter) + strconv.FormatUint(sequence, 10) + "." + strconv.Itoa(n)
}

// ParseActionRef parses an action reference. Only action references name a
// control to act on: an evidence or region reference, or a malformed one,
// is not one (ok false).
func ParseActionRef(s string) (sequence uint64, n int, ok bool) {
	return parseRef(s, 'a', maxActionRef)
}

// ParseRegionRef parses a region reference. Only region references anchor
// an expansion: an evidence or action reference, or a malformed one, is not
// one (ok false).
func ParseRegionRef(s string) (sequence uint64, n int, ok bool) {
	return parseRef(s, 'g', maxRegionRef)
}

// maxActionRef and maxRegionRef are the highest numbers a page view
// publishes: a live session's numbers grow past the records one view
// lists (docs/reference.md#stable-numbers), up to limits.MaxRecordNumber.
const (
	maxActionRef = limits.MaxRecordNumber
	maxRegionRef = limits.MaxRecordNumber
)

// parseRef parses <letter><sequence>.<n>, both decimal without leading
// zeros, n from 1 to most.
func parseRef(s string, letter byte, most int) (uint64, int, bool) {
	if len(s) < 4 || s[0] != letter {
		return 0, 0, false
	}
	a, b, found := strings.Cut(s[1:], ".")
	if !found {
		return 0, 0, false
	}
	seq, ok1 := counter(string(letter)+a, letter)
	num, ok2 := counter(string(letter)+b, letter)
	if !ok1 || !ok2 || num == 0 || num > uint64(most) {
		return 0, 0, false
	}
	return seq, int(num), true
}

// parseActionRef is ParseActionRef as an error: invalid_reference for
// anything that is not an action reference, naming what it is instead.
func parseActionRef(s string) (uint64, int, error) {
	if seq, n, ok := ParseActionRef(s); ok {
		return seq, n, nil
	}
	return 0, 0, refError(s, "an action reference")
}

// parseRegionRef is ParseRegionRef as an error.
func parseRegionRef(s string) (uint64, int, error) {
	if seq, n, ok := ParseRegionRef(s); ok {
		return seq, n, nil
	}
	return 0, 0, refError(s, "a region reference")
}

// refError is the invalid_reference error for s where want was expected.
func refError(s, want string) error {
	what := "is not a reference"
	if _, _, ok := ParseEvidenceRef(s); ok {
		what = "is an evidence reference"
	} else if _, _, ok := parseRef(s, 'a', maxActionRef); ok {
		what = "is an action reference"
	} else if _, _, ok := parseRef(s, 'g', maxRegionRef); ok {
		what = "is a region reference"
	}
	return errcode.New(errcode.InvalidReference, pkgName, "", errcode.Quote(s)+" "+what+"; "+want+" is expected")
}
