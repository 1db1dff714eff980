package live

import (
	"context"
	"errors"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// Fixed deadlines of the calls that release things. They do not depend on
// the caller's context, which may be over by then: a tab or a browser is
// closed even after a timeout or a cancellation, and never waits longer
// than these for an answer.
const (
	// closeCallTimeout bounds one protocol call made while closing.
	closeCallTimeout = 2 * time.Second
	// dialogCallTimeout bounds the call that dismisses one dialog.
	dialogCallTimeout = 5 * time.Second
)

// withDeadline returns ctx when it already has a deadline, and otherwise
// ctx bounded by limits.LiveTimeout, so that no protocol call waits without
// end because a caller passed context.Background().
func withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, limits.LiveTimeout)
}

// doneCode is the code of an operation stopped by its context: timeout when
// the deadline passed, cancelled otherwise.
func doneCode(err error) errcode.Code {
	if errors.Is(err, context.DeadlineExceeded) {
		return errcode.Timeout
	}
	return errcode.Cancelled
}

// cancelled codes err, the error of a context that is done.
func cancelled(err error) error {
	if doneCode(err) == errcode.Timeout {
		return errcode.Wrap(errcode.Timeout, pkg, "", "deadline passed", err)
	}
	return errcode.Wrap(errcode.Cancelled, pkg, "", "context done", err)
}

// callError turns a failed protocol call into a coded error: timeout or
// cancelled when the context ended, capture_failed otherwise.
func callError(ctx context.Context, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		if doneCode(cerr) == errcode.Timeout {
			return errcode.Wrap(errcode.Timeout, pkg, "", what+": deadline passed", err)
		}
		return errcode.Wrap(errcode.Cancelled, pkg, "", what+": context done", err)
	}
	return errcode.Wrap(errcode.CaptureFailed, pkg, "", what, err)
}
