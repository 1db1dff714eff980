package domsnap

import "github.com/domsnap/domsnap/errcode"

// Error is the one error type of domsnap: a stable Code, an optional
// JSON-pointer Path into the offending input, a message and an optional cause.
// Branch on it with errors.Is against the sentinels below, or errors.As into
// *Error, never on message text.
type Error = errcode.Error

// Code is an error's stable code (docs/reference.md#errors).
type Code = errcode.Code

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

// CodeOf returns the code of the first *Error in err's chain, or "" when err
// carries none.
func CodeOf(err error) Code { return errcode.CodeOf(err) }

// pkgName prefixes the messages of errors raised in this package.
const pkgName = "domsnap"

func invalidRequest(path, msg string) *Error {
	return errcode.New(errcode.InvalidRequest, pkgName, path, msg)
}
