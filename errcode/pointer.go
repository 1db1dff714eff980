package errcode

import "github.com/domsnap/domsnap/internal/jsonlex"

// Pointer is a JSON pointer (RFC 6901) into an input: "" is the whole
// input, "/fields/0/name" the name of a request's first field. In a token,
// '~' is written "~0" and '/' "~1".
type Pointer string

// Tokens returns the pointer's reference tokens, unescaped: nil for the
// whole input.
func (p Pointer) Tokens() []string { return jsonlex.SplitPointer(string(p)) }

// String returns the pointer as written.
func (p Pointer) String() string { return string(p) }
