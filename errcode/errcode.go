package errcode

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/domsnap/domsnap/limits"
)

// Code is a stable error code. Its string is part of the contract.
type Code string

// The codes of docs/reference.md#errors.
const (
	InvalidRequest         Code = "invalid_request"
	ForeignRevision        Code = "foreign_revision"
	NavigatedRevision      Code = "navigated_revision"
	StaleRevision          Code = "stale_revision"
	UnsupportedAdapter     Code = "unsupported_adapter"
	MalformedSnapshot      Code = "malformed_snapshot"
	UnsupportedInput       Code = "unsupported_input"
	CaptureFailed          Code = "capture_failed"
	NavigatedDuringCapture Code = "navigated_during_capture"
	Cancelled              Code = "cancelled"
	// Timeout says a live operation ran out of the time it was given (its
	// context's deadline passed), as distinct from being cancelled.
	Timeout Code = "timeout"
)

// The codes of the agent tool server and of the command line's live flags.
const (
	// NavigationRefused: a main-frame navigation to a scheme or origin the
	// server does not allow, redirects and page-initiated ones included.
	NavigationRefused Code = "navigation_refused"
	// HTTPError: the main document answered with a status of 400 or more
	// and the caller asked for that to be an error.
	HTTPError Code = "http_error"
	// UnknownArtifact: no artifact is stored under that digest (never
	// written, or evicted).
	UnknownArtifact Code = "unknown_artifact"
	// SessionExpired: the session ended before the call.
	SessionExpired Code = "session_expired"
	// PathRefused: a path outside the served root, through "..", an
	// absolute path or a symbolic link.
	PathRefused Code = "path_refused"
	// InvalidReference: a reference of the wrong kind where another is
	// expected (an evidence or action reference where a region reference
	// anchors an expansion, say), or one that is not a reference at all.
	InvalidReference Code = "invalid_reference"
	// UnknownReference: a well-formed reference of the right kind that the
	// observation it names never published.
	UnknownReference Code = "unknown_reference"
)

// The codes of acting on a page (docs/reference.md#acting).
const (
	// NotActionable: the element an action names cannot take it now; the
	// message names one reason (detached, hidden, disabled, wrong_role,
	// obscured, no_such_option, no_history). Nothing was sent, unless the
	// page changed the element while the input was on its way, which the
	// error then says (action_sent).
	NotActionable Code = "not_actionable"
	// HumanOnly: typing or a key into a password or one-time-code field,
	// which is left to a person. Nothing was sent, with the same exception.
	HumanOnly Code = "human_only"
)

// The codes of profiles (docs/reference.md#profiles).
const (
	// UnknownProfile: no profile has that name (or the caller may not use
	// it).
	UnknownProfile Code = "unknown_profile"
	// ProfileBusy: the profile is leased to another session.
	ProfileBusy Code = "profile_busy"
)

// Error is a coded error. Pkg names the package that raised it and prefixes
// the message; Path is a JSON pointer (RFC 6901) into the offending input,
// when one helps, and Pointer gives it typed. An error about one place in
// the input's bytes (JSON that does not parse, a string that is not UTF-8)
// also carries the byte offset of that place, read with ByteOffset: the
// message never spells the offset or the path itself.
type Error struct {
	Code Code
	Pkg  string
	Path string
	Msg  string
	Err  error
	// offset is the byte offset plus one; 0 means the error has none.
	offset int64
	// reason is a finer cause than the code that callers may branch on
	// (ErrTooLarge), matched by Is; empty for none. It is kept out of Err so
	// that the message, which already says it, is not rendered twice.
	reason reason
}

// reason is the type of the finer causes an *Error may carry.
type reason string

func (r reason) Error() string { return string(r) }

// ErrTooLarge is the cause of every refusal of an input for its size (bytes,
// nodes, a request, a list line): errors.Is(err, ErrTooLarge) holds for all
// of them and for nothing else, whatever the message says. Such errors are
// unsupported_input, and their message says too_large, as
// docs/reference.md#input-bounds promises readers.
var ErrTooLarge error = tooLarge

const tooLarge reason = "too_large"

// TooLarge returns the unsupported_input refusal of an input for its size,
// whose cause is ErrTooLarge; what says which bound was passed ("the request
// holds more than 65536 bytes") and follows "too_large: " in the message.
func TooLarge(pkg, what string) *Error {
	return &Error{Code: UnsupportedInput, Pkg: pkg, Msg: string(tooLarge) + ": " + what, reason: tooLarge}
}

// New returns a coded error.
func New(code Code, pkg, path, msg string) *Error {
	return &Error{Code: code, Pkg: pkg, Path: path, Msg: msg}
}

// NewAt returns a coded error about the input byte at offset (len(input)
// when the input ended too soon).
func NewAt(code Code, pkg, path string, offset int, msg string) *Error {
	return &Error{Code: code, Pkg: pkg, Path: path, Msg: msg, offset: int64(offset) + 1}
}

// ByteOffset returns the offset into the input of the byte the error is
// about, and false when the error is about no single place in the bytes
// (a value out of range, a missing member, a failed capture).
func (e *Error) ByteOffset() (int64, bool) {
	return e.offset - 1, e.offset > 0
}

// Pointer returns Path as a typed JSON pointer.
func (e *Error) Pointer() Pointer { return Pointer(e.Path) }

// Detail is the message with the byte offset, when there is one, as a
// reader is shown it: "invalid JSON: unexpected '}' (byte 12)".
func (e *Error) Detail() string {
	if off, ok := e.ByteOffset(); ok {
		return e.Msg + " (byte " + strconv.FormatInt(off, 10) + ")"
	}
	return e.Msg
}

// Wrap returns a coded error with a cause.
func Wrap(code Code, pkg, path, msg string, err error) *Error {
	return &Error{Code: code, Pkg: pkg, Path: path, Msg: msg, Err: err}
}

// Error renders "pkg: code: /path: message (byte N): cause".
func (e *Error) Error() string {
	s := ""
	if e.Pkg != "" {
		s = e.Pkg + ": "
	}
	s += string(e.Code)
	if e.Path != "" {
		s += ": " + e.Path
	}
	if d := e.Detail(); d != "" {
		s += ": " + d
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches any *Error with the same code, so a sentinel such as
// Sentinel(MalformedSnapshot) matches every malformed-snapshot error, and
// the error's reason (ErrTooLarge), when it has one.
func (e *Error) Is(target error) bool {
	if r, ok := target.(reason); ok {
		return e.reason != "" && e.reason == r
	}
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Path == "" && t.Msg == "" && t.Err == nil && t.Pkg == "" && t.offset == 0
}

// Sentinel returns a bare error of the code, for errors.Is.
func Sentinel(code Code) *Error { return &Error{Code: code} }

// CodeOf returns the code of the first *Error in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Quote renders at most limits.QuoteBytes bytes of s as a Go-quoted string,
// cut on a rune boundary and marked with "..." when cut. Never pass a form
// control's value.
func Quote(s string) string {
	if len(s) <= limits.QuoteBytes {
		return strconv.Quote(s)
	}
	cut := limits.QuoteBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}
