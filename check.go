package domsnap

import (
	"slices"

	"github.com/domsnap/domsnap/errcode"
)

// Query is what [Extract] and [Observe] read: a [Request] (or *Request),
// checked when they run, or the [*Checked] that [Request.Check] made
// earlier, which is not checked again. A caller that must refuse a bad
// request before it reads anything, as the command line and a live session
// must (docs/reference.md#the-request), checks it once and hands the
// *Checked on.
type Query interface {
	Check() (*Checked, error)
}

// Checked is a request that passed every rule of the contract, with its
// expected revision parsed. Only [Request.Check] makes one, so holding one
// proves the rules were applied (a Checked{} written as a literal is
// refused as no request); it keeps its own copy of the fields, so changing
// the Request afterwards changes nothing here.
type Checked struct {
	// made is set by Request.Check alone.
	made bool
	req  Request
	// expected is the parsed expected revision when hasExpected; a
	// malformed one is kept as expectedErr and reported where the revision
	// is compared, after the snapshot's own revision was read.
	expected    Revision
	hasExpected bool
	expectedErr error
}

// Check applies every rule of the contract to r (see [Request.Validate])
// and returns the checked request. A request read from JSON is better
// decoded with [DecodeChecked], whose reader applies the same rules as it
// reads and so needs no second pass.
func (r Request) Check() (*Checked, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return newChecked(r), nil
}

// newChecked wraps r, which the caller has already held to every rule:
// Validate passed, or the decoder read it.
func newChecked(r Request) *Checked {
	c := &Checked{made: true, req: r}
	c.req.Fields = slices.Clone(r.Fields)
	c.req.RowLimit = r.rowLimit()
	if r.ExpectedRevision != "" {
		c.hasExpected = true
		c.expected, c.expectedErr = ParseRevision(r.ExpectedRevision)
	}
	return c
}

// Check returns c itself: it was checked when it was made. A nil c, or one
// that Request.Check did not make, is no request: an invalid_request error.
func (c *Checked) Check() (*Checked, error) {
	if c == nil || !c.made {
		return nil, errNoRequest()
	}
	return c, nil
}

func errNoRequest() error { return invalidRequest("", "no request") }

// Check checks q once, whatever form it takes. A nil q, or a nil *Request or
// *Checked inside it, is no request at all: Check returns nil and no error,
// which [Observe] reads as an observation without an extraction.
func Check(q Query) (*Checked, error) {
	switch v := q.(type) {
	case nil:
		return nil, nil
	case *Request:
		if v == nil {
			return nil, nil
		}
	case *Checked:
		if v == nil {
			return nil, nil
		}
	}
	return q.Check()
}

// Request returns a copy of the checked request, its row limit resolved.
func (c *Checked) Request() Request {
	r := c.req
	r.Fields = slices.Clone(c.req.Fields)
	return r
}

// ExpectedRevision is the request's expected revision, and whether it has
// one. A malformed one is reported by CheckRevision, not here.
func (c *Checked) ExpectedRevision() (Revision, bool) {
	return c.expected, c.hasExpected && c.expectedErr == nil
}

// HasExpectedRevision reports whether the request names an expected
// revision at all, well-formed or not.
func (c *Checked) HasExpectedRevision() bool { return c.hasExpected }

// WithoutExpectedRevision is c with no expected revision: what a live
// session analyses once it has checked the expected revision against the
// previous observation, since the result belongs to the new one.
func (c *Checked) WithoutExpectedRevision() *Checked {
	d := *c
	d.expected, d.hasExpected, d.expectedErr = Revision{}, false, nil
	d.req.ExpectedRevision = ""
	return &d
}

// CheckRevision checks the request's expected revision, when it has one,
// against current, as [CheckRevision] does (docs/reference.md#revisions).
// A current revision that is not well formed is malformed_snapshot.
func (c *Checked) CheckRevision(current Revision) error {
	if !current.valid() {
		return malformedRevision(current.String())
	}
	if !c.hasExpected {
		return nil
	}
	if c.expectedErr != nil {
		return c.expectedErr
	}
	return compareRevisions(c.expected, current)
}

// malformedRevision is the error of a snapshot whose own revision is not a
// revision: the snapshot's fault, not the caller's.
func malformedRevision(s string) error {
	return errcode.New(errcode.MalformedSnapshot, pkgName, "", "the snapshot's revision is malformed: "+errcode.Quote(s))
}
