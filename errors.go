package domsnap

import "github.com/domsnap/domsnap/errcode"

// Error is the one error type of domsnap: a stable Code, an optional
// JSON-pointer Path into the offending input, a message and an optional cause.
// Branch on it with errors.Is against the sentinels below, or errors.As into
// *Error, never on message text.
type Error = errcode.Error

// Code is an error's stable code (docs/reference.md#errors). Scripts and
// callers branch on it; the message beside it is for people.
type Code = errcode.Code

// The codes of the extraction (docs/reference.md#errors).
const (
	InvalidRequest         Code = errcode.InvalidRequest
	ForeignRevision        Code = errcode.ForeignRevision
	NavigatedRevision      Code = errcode.NavigatedRevision
	StaleRevision          Code = errcode.StaleRevision
	UnsupportedAdapter     Code = errcode.UnsupportedAdapter
	MalformedSnapshot      Code = errcode.MalformedSnapshot
	UnsupportedInput       Code = errcode.UnsupportedInput
	CaptureFailed          Code = errcode.CaptureFailed
	NavigatedDuringCapture Code = errcode.NavigatedDuringCapture
	Cancelled              Code = errcode.Cancelled
	Timeout                Code = errcode.Timeout
)

// The codes of live reads and the tool server (docs/reference.md#errors and
// docs/reference.md#faults).
const (
	NavigationRefused Code = errcode.NavigationRefused
	HTTPError         Code = errcode.HTTPError
	UnknownArtifact   Code = errcode.UnknownArtifact
	SessionExpired    Code = errcode.SessionExpired
	PathRefused       Code = errcode.PathRefused
)

// The codes of profiles (docs/reference.md#profiles).
const (
	UnknownProfile Code = errcode.UnknownProfile
	ProfileBusy    Code = errcode.ProfileBusy
)

// The sentinels match every error of their code: errors.Is(err,
// ErrStaleRevision) holds for any stale_revision error whatever its message or
// path. They carry no message and must not be returned themselves.
var (
	ErrInvalidRequest         = errcode.Sentinel(errcode.InvalidRequest)
	ErrForeignRevision        = errcode.Sentinel(errcode.ForeignRevision)
	ErrNavigatedRevision      = errcode.Sentinel(errcode.NavigatedRevision)
	ErrStaleRevision          = errcode.Sentinel(errcode.StaleRevision)
	ErrUnsupportedAdapter     = errcode.Sentinel(errcode.UnsupportedAdapter)
	ErrMalformedSnapshot      = errcode.Sentinel(errcode.MalformedSnapshot)
	ErrUnsupportedInput       = errcode.Sentinel(errcode.UnsupportedInput)
	ErrCaptureFailed          = errcode.Sentinel(errcode.CaptureFailed)
	ErrNavigatedDuringCapture = errcode.Sentinel(errcode.NavigatedDuringCapture)
	ErrCancelled              = errcode.Sentinel(errcode.Cancelled)
	ErrTimeout                = errcode.Sentinel(errcode.Timeout)
)

// ErrTooLarge is the cause of every refusal of an input for its size: an
// input's bytes (after decompression too), a tree's nodes, a request, a line
// of an input list. Such an error is also ErrUnsupportedInput, and its
// message says too_large; branch with errors.Is(err, ErrTooLarge).
var ErrTooLarge = errcode.ErrTooLarge

// Quote quotes s as every message of domsnap quotes input: in Go syntax,
// cut to at most limits.QuoteBytes bytes on a rune boundary, "..." marking
// the cut.
func Quote(s string) string { return errcode.Quote(s) }

// CodeOf returns the code of the first *Error in err's chain, or "" when err
// carries none.
func CodeOf(err error) Code { return errcode.CodeOf(err) }

// pkgName prefixes the messages of errors raised in this package.
const pkgName = "domsnap"

func invalidRequest(path, msg string) *Error {
	return errcode.New(errcode.InvalidRequest, pkgName, path, msg)
}
