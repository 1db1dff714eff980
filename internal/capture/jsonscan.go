package capture

import (
	"unicode/utf8"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/jsonlex"
	"github.com/domsnap/domsnap/limits"
)

// Scanner is the JSON lexer (internal/jsonlex) with what the capture and
// saved-snapshot readers add: a bound on the integer tables, and members
// that refuse
// repeated names and hand out paths. Its failures are lexer errors until
// Coded turns them into malformed_snapshot, where a reader returns.
type Scanner struct {
	jsonlex.Lexer
	// maxItems, when positive, bounds the length of the integer arrays
	// the capture decoder reads: each is a table of at most one entry per
	// node.
	maxItems int
}

// NewScanner scans data from its start.
func NewScanner(data []byte) *Scanner { return &Scanner{Lexer: jsonlex.Lexer{Data: data}} }

// Malformed is a malformed_snapshot error at path, in package snapshot's
// name, which is the package every caller of this one sees.
func Malformed(path, msg string) *errcode.Error {
	return errcode.New(errcode.MalformedSnapshot, pkgName, path, msg)
}

// Coded maps a lexer error to malformed_snapshot, keeping its pointer and
// byte offset; any other error is returned as it is. Every reader of this
// package passes its errors through it before they leave the package.
func Coded(err error) error {
	if e, ok := err.(*jsonlex.Error); ok {
		return errcode.NewAt(errcode.MalformedSnapshot, pkgName, e.Pointer, e.Offset, e.Msg)
	}
	return err
}

// members walks the object at path, one member at a time: it reads the
// member's name and calls f with the decoded name, the member's JSON
// pointer and the name as written, quotes included; f must consume exactly
// the member's value. With unique set, a name met twice in the object is
// refused before f sees the second one, since two tables of one name would
// leave the reader choosing one silently; without it, f refuses the
// repeats it cares about. The cost is one call of f per member, never per
// array element, so it is fine for tables of any length.
func (s *Scanner) Object(path string, unique bool, f func(name, p string, raw []byte) error) error {
	var seen map[string]bool
	if unique {
		seen = map[string]bool{}
	}
	return s.Members(path, func(k jsonlex.Span) error {
		name := s.Decode(k)
		p := jsonlex.AppendKey(path, cutName(name))
		if unique {
			if seen[name] {
				return dup(p)
			}
			seen[name] = true
		}
		return f(name, p, s.Quoted(k))
	})
}

// cutName cuts a member name longer than limits.QuoteBytes (and marks
// it), so that no error's path carries more input than a quote may.
func cutName(s string) string {
	if len(s) <= limits.QuoteBytes {
		return s
	}
	cut := limits.QuoteBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// dup is the error of a member name met twice in one object.
func dup(path string) error { return Malformed(path, "duplicate key") }

// stringValue reads a string leniently (jsonlex.Lexer.Decode).
func (s *Scanner) StringValue(path string) (string, error) {
	sp, err := s.StringSpan(path)
	if err != nil {
		return "", err
	}
	return s.Decode(sp), nil
}

// stringArray reads an array of strings.
func (s *Scanner) StringArray(path string) ([]string, error) {
	out := []string{}
	err := s.Elements(path, func(i int) error {
		v, err := s.StringValue(jsonlex.AppendIndex(path, i))
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
