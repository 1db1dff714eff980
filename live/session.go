package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// Driver is what a Session needs from one browser tab: the number of
// main-frame navigations committed so far. Reading it must consume every
// navigation event already received, so that a count taken right after a
// capture reflects every navigation that committed before the capture's
// reply. Page implements it.
type Driver interface {
	Navigations(ctx context.Context) (uint64, error)
}

// Snapshotter is a Driver that can take DOM snapshots. A Session over a
// Driver that is not a Snapshotter is an adapter without snapshots: it
// answers every observation with unsupported_adapter. Its method is
// unexported, so that no exported method hands out a capture before the
// session scrubs it: Page and this package's test fakes implement it.
type Snapshotter interface {
	Driver
	// captureSnapshot takes one DOMSnapshot.captureSnapshot of the main
	// document with exactly these computed styles and returns the reply's
	// JSON as the protocol sent it.
	captureSnapshot(ctx context.Context, computedStyles []string) (json.RawMessage, error)
}

// SessionOptions configure a Session.
type SessionOptions struct {
	// Rand is the source of the session part; nil means crypto/rand.
	Rand io.Reader
	// Browser is the browser identity recorded with every snapshot
	// ("Chrome/156.0.8078.108").
	Browser string
	// Now is the clock for captured_at; nil means time.Now.
	Now func() time.Time
	// FirstBudget, when positive, is the first budget of every bounded
	// observation (bounded_session.go) instead of the one its kind starts
	// at. It changes what an observation costs, never what it answers: a
	// check that retakes give the whole snapshot's answer sets it small,
	// so that every page larger than it is retaken. 0 is the default.
	FirstBudget int
	// Windows, when set and the driver is a Page, keeps the windows the
	// session's pages open during actions to URLs it allows as pages of
	// the session (docs/reference.md#pages), their main frames guarded by
	// it; nil closes every window a page opens. It is the policy the
	// first page is guarded by.
	Windows func(raw string) bool
}

// sessionBytes is the size of the random session part: 64 bits, rendered as
// 16 lower-case hex digits.
const sessionBytes = 8

// Session owns the revisions of one tab (docs/reference.md#revisions) and makes every
// observation atomic.
type Session struct {
	mu   sync.Mutex
	drv  Driver
	id   string
	opts SessionOptions

	// seq is the sequence of the last published observation, 0 before the
	// first; pubNav the navigation count it was taken at.
	seq, pubNav uint64
	// invalid is set when an observation failed after the previous one was
	// published: that one's revision is stale from then on.
	invalid bool
	// dialogsOutside is the tab's count of dialogs dismissed outside
	// actions when the previous action began, so that an action reports
	// those since.
	dialogsOutside int64
	// last is the latest published observation, whose action and region
	// references Act and an expansion resolve; nil before the first, and
	// when the latest publication computed no page view (Capture,
	// Extract).
	last *domsnap.Observation
	// numbers keeps the numbers of the current document's elements, so
	// that an element keeps its references' number n (numbering.go).
	numbers numberBook
	// base is the latest observation of the current document taken with
	// a page view to give (ViewFull or ViewChanges): the one changes are
	// told against. nil when there is none.
	base *domsnap.Observation
	// keeper, pages and cur are the session's pages when it keeps the
	// windows its pages open (pages.go): nil, nil and 0 otherwise. drv is
	// then the current page, a currentTab.
	keeper *windowKeeper
	pages  []*pageSlot
	cur    int
	// captures counts the snapshots asked of the driver, so tests can
	// assert how many a read took.
	captures uint64
	// onCapture, when set (by tests only), sees each capture's bytes as the
	// browser sent them, before anything reads them: it lets a test show
	// that a value it planted really was sent, and so that its absence
	// from everything a Snapshot hands out is the scrub's doing.
	onCapture func(raw []byte)
}

// NewSession returns a session over drv with a fresh random session part.
func NewSession(drv Driver, opts SessionOptions) (*Session, error) {
	if drv == nil {
		return nil, errcode.New(errcode.UnsupportedAdapter, pkg, "", "no driver")
	}
	if opts.FirstBudget < 0 {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a session's first budget cannot be negative")
	}
	r := opts.Rand
	if r == nil {
		r = rand.Reader
	}
	var b [sessionBytes]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return nil, errcode.Wrap(errcode.CaptureFailed, pkg, "", "drawing the session part", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Session{drv: drv, id: hex.EncodeToString(b[:]), opts: opts}
	if p, ok := drv.(*Page); ok && opts.Windows != nil {
		s.startPages(p, opts.Windows)
	}
	return s, nil
}

// ID is the session part of the session's revisions.
func (s *Session) ID() string { return s.id }

// Revision is the revision of the last published observation, and whether
// there is one that is still current: false before the first observation,
// after a failed one invalidated it, or after the page navigated.
func (s *Session) Revision(ctx context.Context) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seq == 0 {
		return "", false, nil
	}
	rev, err := domsnap.LiveRevision(s.id, s.pubNav, s.seq)
	if err != nil {
		return "", false, err
	}
	nav, err := s.drv.Navigations(ctx)
	if err != nil {
		return rev, false, err
	}
	return rev, !s.invalid && nav == s.pubNav, nil
}

// Snapshot is one published observation's capture.
type Snapshot struct {
	// Revision is the observation's revision.
	Revision string
	// Tree is the analyzed tree of the main document.
	Tree *domtree.Tree
	// ComputedStyles are the styles the capture requested, in order.
	ComputedStyles []string
	// CapturedAt is when the capture's reply arrived, in UTC.
	CapturedAt time.Time
	// Browser is the browser identity given in SessionOptions.
	Browser string
	// Partial is set when the observation read the page only up to a
	// horizon (a bounded capture, bounded_session.go): Tree is then a
	// partial tree, and Envelope's capture holds only the nodes before the
	// horizon, which a reader of saved snapshots reads as a whole page.
	Partial bool

	// scrubbed holds the capture, scrubbed (snapshot.ScrubEnvelope) as it
	// arrived from the browser: the bytes the protocol sent, form values
	// included, are dropped once the tree is built and never reach a
	// Snapshot.
	scrubbed snapshot.Envelope
}

// Envelope is the saved-snapshot envelope of s (docs/reference.md#saved-snapshots), for
// snapshot.WriteSnapshot. Its capture was scrubbed when it arrived, so it
// holds no form control value whoever it is handed to, and WriteSnapshot
// writes it without scrubbing it again. Its tree is the tree of s.
func (s *Snapshot) Envelope() snapshot.Envelope {
	e := s.scrubbed
	e.Format = snapshot.FormatName
	e.Revision = s.Revision
	e.CapturedAt = s.CapturedAt.Format(time.RFC3339)
	e.Browser = s.Browser
	e.ComputedStyles = append([]string(nil), s.ComputedStyles...)
	return e
}

// ReadOptions says what one observation of the page is taken for and how;
// the zero value takes one snapshot now, for the inventory and page view
// alone. [Session.Observe], [Session.Extract] and [Session.Capture] take
// it, so a new way of reading is a new member, not a new method.
type ReadOptions struct {
	// Query is the extraction the observation carries, nil for none. Its
	// expected revision is checked against the session's latest
	// observation before the snapshot is taken; a live extraction must
	// name one, except in a one-shot read (Once).
	Query domsnap.Query
	// Expand anchors the page view's scan at a region of the session's
	// latest observation (docs/reference.md#expansion); nil scans the
	// whole page. Only Observe takes it.
	Expand *Region
	// When makes the observation retake its snapshot until a collection is
	// in the inventory or the condition's deadline passes; nil takes one
	// snapshot.
	When *Condition
	// Once marks the one-shot read of a fresh session: exactly one snapshot
	// (more only while When asks for them) of a session that has published
	// nothing, so a request needs no expected revision; one that names a
	// revision is checked, and refused as another session's.
	Once bool
	// View says how the caller gives the page view on
	// (docs/reference.md#answers-that-cost-what-changed). With
	// domsnap.ViewChanges the observation's Changes tell its page view
	// against the latest observation of the same document taken with a
	// view to give (full or changes), when there is one. An observation
	// taken with domsnap.ViewNone is never what later changes are told
	// against, since its page view was not given. Only Observe takes it.
	View domsnap.View
}

// Region names a region of the session's latest observation by the
// references that observation published.
type Region struct {
	// Revision is the latest observation's revision, checked as a
	// request's expected revision is.
	Revision string
	// Ref is a region reference that observation published.
	Ref string
}

func (o ReadOptions) spec() observeSpec {
	return observeSpec{req: o.Query, once: o.Once, cond: o.When, view: o.View}
}

// Capture takes and publishes an observation for its snapshot alone (to
// save it, say): no extraction, so opts.Query and opts.Expand must be nil.
func (s *Session) Capture(ctx context.Context, opts ReadOptions) (*Snapshot, error) {
	if opts.Query != nil || opts.Expand != nil {
		return nil, errcode.New(errcode.InvalidRequest, pkg, "", "a capture takes no request and no expansion")
	}
	snap, _, err := s.observeWith(ctx, opts.spec(), nil)
	return snap, err
}

// Extract takes a fresh observation and runs opts.Query, which is
// required, on it; no inventory or page view is computed. The result
// carries the new observation's revision and evidence references, and the
// snapshot is the published one it was computed from.
func (s *Session) Extract(ctx context.Context, opts ReadOptions) (*domsnap.Result, *Snapshot, error) {
	if opts.Expand != nil {
		return nil, nil, errcode.New(errcode.InvalidRequest, pkg, "", "an extraction alone has no page view to expand")
	}
	return s.extractWith(ctx, opts.spec())
}

// extractWith takes one observation by spec and computes spec.req's
// extraction on it. A nil request is refused before anything is read.
func (s *Session) extractWith(ctx context.Context, spec observeSpec) (*domsnap.Result, *Snapshot, error) {
	q, err := domsnap.Check(spec.req)
	if err == nil && q == nil {
		// Checking a nil *Checked is the root's own "no request" error.
		_, err = q.Check()
	}
	if err != nil {
		return nil, nil, err
	}
	spec.req = q
	spec.budget = ExtractBudget
	var res *domsnap.Result
	snap, _, err := s.observeWith(ctx, spec, func(t *domtree.Tree, rev string, q *domsnap.Checked, _ *domsnap.Observation, _ domsnap.Numbering) (*domsnap.Observation, error) {
		var err error
		res, err = domsnap.Extract(t, rev, q)
		return nil, err
	})
	if err != nil {
		return nil, nil, err
	}
	return res, snap, nil
}

// Observe takes a fresh observation (docs/reference.md#the-observation):
// the inventory and page view, with opts.Query's extraction when it is not
// nil, and returns it with the published snapshot it was computed from.
func (s *Session) Observe(ctx context.Context, opts ReadOptions) (*domsnap.Observation, *Snapshot, error) {
	if opts.Expand != nil {
		return s.observeExpanded(ctx, opts)
	}
	return s.observeCompute(ctx, opts.spec(), nil)
}

// observeSpec says how one observation is taken beyond its defaults.
type observeSpec struct {
	req domsnap.Query
	// once marks a one-shot read: the session has published nothing, and a
	// request without expected_revision is allowed.
	once bool
	// cond, when set, is the condition the snapshot is retaken for.
	cond *Condition
	// expected, when set, is a revision the caller insists is the latest
	// (an expansion's), checked as a request's expected revision is.
	expected string
	// region, when set, is a region reference of the observation expected
	// names, checked before anything is captured (an expansion's anchor).
	region string
	// budget is the first budget of a bounded capture; 0 means
	// DefaultBudget (bounded_session.go).
	budget int
	// view is how the page view will be given (ReadOptions.View).
	view domsnap.View
}

// computeFunc computes what an observation is taken for, on the new tree
// and revision, with the request checked once by observeWith and stripped
// of its expected revision: that was checked against the previous
// observation, and the result belongs to the new one. req is nil when the
// observation has no request. from is the latest published observation
// (nil when none has a page view), which an expansion anchors at. num
// numbers a page view's records so that the document's elements keep
// their numbers. It returns the observation it computed, nil when it
// computed none (an extraction alone), which becomes the session's latest
// once published.
type computeFunc func(t *domtree.Tree, rev string, req *domsnap.Checked, from *domsnap.Observation, num domsnap.Numbering) (*domsnap.Observation, error)

// observeWith is the one atomic observation, in three steps under the
// session lock: admit (the request, the expected revision and the region
// are checked before anything is read), read (snapshots are taken, and
// retaken while a condition waits or a scan read past a bounded capture's
// horizon, until one holds what the computation needs), and publish (the
// new revision, and the observation as the latest, whose references an
// action or expansion may name). Every failure after admission publishes
// nothing and invalidates the previous observation.
func (s *Session) observeWith(ctx context.Context, spec observeSpec, compute computeFunc) (snap *Snapshot, nav uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prunePages(ctx)

	req, snapper, err := s.admitRequest(spec)
	if err != nil {
		return nil, 0, err
	}
	// From here on a failure invalidates the previous observation, except
	// a refusal of the caller's revision or reference, which changes
	// nothing.
	refused := false
	defer func() {
		if err != nil && !refused {
			s.invalid = true
			if cerr := ctx.Err(); cerr != nil {
				if code := doneCode(cerr); errcode.CodeOf(err) != code {
					err = errcode.Wrap(code, pkg, "", "context done during the observation", err)
				}
			}
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, 0, cancelled(err)
	}
	n0, err := snapper.Navigations(ctx)
	if err != nil {
		return nil, 0, asCaptureError(ctx, "reading navigations", err)
	}
	if err := s.admitRevision(req, spec, n0); err != nil {
		refused = true
		return nil, 0, err
	}
	r := &reading{s: s, snapper: snapper, spec: spec, req: req, compute: compute, nav: n0, from: s.last}
	r.bs, r.bounded = snapper.(BoundedSnapshotter)
	r.bounded = r.bounded && compute != nil
	r.budget = s.startBudget(spec.budget)
	defer r.endBounded()
	if err := r.read(ctx); err != nil {
		return nil, 0, err
	}
	// Scrubbed here, once, before anything is handed out: the Snapshot
	// keeps only the scrubbed capture. A capture the scrub cannot read
	// cannot be shown to be free of values, and fails the observation.
	scrubbed, err := snapshot.ScrubEnvelope(snapshot.Envelope{Capture: r.raw})
	if err != nil {
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, cancelled(err)
	}
	s.seq++
	s.pubNav = r.nav
	s.invalid = false
	s.last = r.obs
	s.publishView(r, spec.view)
	return &Snapshot{Revision: r.rev, Tree: r.tree, scrubbed: scrubbed, ComputedStyles: r.styles, CapturedAt: r.at, Browser: s.opts.Browser, Partial: r.tree.Partial()}, r.nav, nil
}

// admitRequest checks what an observation is asked for before the page is
// looked at: the request itself, that a live extraction names the
// revision it builds on, and that the driver can take snapshots.
func (s *Session) admitRequest(spec observeSpec) (*domsnap.Checked, Snapshotter, error) {
	if spec.once && s.seq != 0 {
		return nil, nil, errcode.New(errcode.InvalidRequest, pkg, "", "a one-shot read needs a session that has published nothing")
	}
	req, err := domsnap.Check(spec.req)
	if err != nil {
		return nil, nil, err
	}
	if req != nil && !req.HasExpectedRevision() && !spec.once {
		return nil, nil, errcode.New(errcode.InvalidRequest, pkg, "/expected_revision", "a live extraction requires expected_revision")
	}
	snapper, ok := s.drv.(Snapshotter)
	if !ok {
		return nil, nil, errcode.New(errcode.UnsupportedAdapter, pkg, "", "this adapter cannot take DOM snapshots")
	}
	return req, snapper, nil
}

// admitRevision checks the revisions the caller names against the current
// document, at navigation nav: the request's expected revision, and an
// expansion's, whose region must be one the latest observation published.
// A revision error outranks a reference error.
func (s *Session) admitRevision(req *domsnap.Checked, spec observeSpec, nav uint64) error {
	if req != nil && req.HasExpectedRevision() {
		if err := s.checkRevision(req, nav); err != nil {
			return err
		}
	}
	if spec.expected == "" {
		return nil
	}
	from, err := s.latest(spec.expected, nav)
	if err != nil {
		return err
	}
	if spec.region != "" {
		return from.CheckRegion(spec.region)
	}
	return nil
}

// reading is one observation's snapshots in progress: the capture in hand,
// its tree, and what was computed on it.
type reading struct {
	s       *Session
	snapper Snapshotter
	spec    observeSpec
	req     *domsnap.Checked
	compute computeFunc
	// from is the latest observation when the reading began.
	from *domsnap.Observation

	// bounded: the reading takes bounded captures of bs, starting at
	// budget; regrow says the next one continues a larger read of the same
	// page rather than a new look at it.
	bs      BoundedSnapshotter
	bounded bool
	budget  int
	regrow  bool
	// closeBounded ends the bounded capture in hand, if any, once its
	// tree's backend ids are no longer read.
	closeBounded func() error

	// identify tells the elements of the capture in hand apart
	// (numbering.go); plan is the numbering of the observation computed on
	// it, kept in the session's book once published.
	identify identifier
	plan     *numberPlan

	// nav is the navigation count the capture in hand was taken at.
	nav    uint64
	styles []string
	raw    json.RawMessage
	tree   *domtree.Tree
	at     time.Time
	rev    string
	obs    *domsnap.Observation
}

// read takes snapshots until one answers: its condition holds (or cannot
// any more before its deadline) and every scan of the computation stayed
// within what the capture read. A scan that read past a bounded capture's
// horizon asks again at once of a capture that reaches further; a condition
// not met yet asks again after its pause.
func (r *reading) read(ctx context.Context) error {
	r.styles = snapshot.DefaultComputedStyles()
	for {
		if err := r.take(ctx); err != nil {
			return err
		}
		if r.spec.cond != nil && r.tree.Partial() {
			// The condition is a scan too.
			r.spec.cond.Met(r.tree)
			if r.tree.HorizonReached() {
				if err := r.grow(); err != nil {
					return err
				}
				continue
			}
		}
		again, err := r.spec.cond.retry(ctx, r.tree, r.s.opts.Now)
		if err != nil {
			return err
		}
		if again {
			// A new look at the page, after a pause: the document may have
			// navigated meanwhile, and the next snapshot belongs to
			// whatever document is current then.
			r.regrow = false
			if r.nav, err = r.snapper.Navigations(ctx); err != nil {
				return asCaptureError(ctx, "reading navigations", err)
			}
			continue
		}
		if err := r.computeOn(ctx); err != nil {
			return err
		}
		if r.tree.HorizonReached() {
			if err := r.grow(); err != nil {
				return err
			}
			continue
		}
		return nil
	}
}

// take takes one capture and builds its tree. The main frame must not have
// navigated since the reading's navigation count was read.
func (r *reading) take(ctx context.Context) error {
	r.s.captures++
	r.identify = backendIdentity
	var err error
	if r.bounded {
		r.endBounded()
		r.raw, r.tree, r.closeBounded, r.identify, err = captureBoundedTree(ctx, r.bs, r.budget, r.regrow)
		if errors.Is(err, errWholePage) {
			// Content-visibility content only the whole snapshot reads as
			// the page holds it: this observation takes that, now and on
			// any retake.
			r.bounded = false
			r.identify = backendIdentity
			r.s.captures++
			r.raw, err = r.snapper.captureSnapshot(ctx, r.styles)
		}
	} else {
		r.raw, err = r.snapper.captureSnapshot(ctx, r.styles)
	}
	if err != nil {
		return leftDuringCapture(ctx, r.snapper, r.nav, err)
	}
	r.at = r.s.opts.Now().UTC()
	if err := ctx.Err(); err != nil {
		return cancelled(err)
	}
	n1, err := r.snapper.Navigations(ctx)
	if err != nil {
		return asCaptureError(ctx, "reading navigations", err)
	}
	if n1 != r.nav {
		return errcode.New(errcode.NavigatedDuringCapture, pkg, "", "the main frame navigated while the snapshot was taken")
	}
	if r.s.onCapture != nil {
		r.s.onCapture(r.raw)
	}
	if !r.bounded {
		// The wire bytes go through the same streaming decoder that reads
		// saved snapshots: decoding a large capture that way is many times
		// faster than encoding/json into the protocol types, and a saved
		// capture then gives the live tree by construction.
		if r.tree, err = snapshot.DecodeCapture(r.raw, snapshot.CaptureOptions{ComputedStyles: r.styles}); err != nil {
			return err
		}
	}
	return nil
}

// computeOn runs the computation, if any, on the capture in hand, under the
// revision it will be published with, numbering its page view's records
// by the session's book.
func (r *reading) computeOn(ctx context.Context) error {
	rev, err := domsnap.LiveRevision(r.s.id, r.nav, r.s.seq+1)
	if err != nil {
		return err
	}
	r.rev = rev
	if r.compute == nil {
		return nil
	}
	req := r.req
	if req != nil {
		req = req.WithoutExpectedRevision()
	}
	r.plan = nil
	num := func(controls, regions []domtree.Node) ([]int, []int, error) {
		space, ids, err := r.identify(ctx, append(append([]domtree.Node{}, controls...), regions...))
		if err != nil {
			return nil, nil, err
		}
		if len(ids) != len(controls)+len(regions) {
			return nil, nil, errcode.New(errcode.CaptureFailed, pkg, "", "the page's elements could not be told apart")
		}
		p, err := r.s.numbers.plan(r.nav, space, ids[:len(controls)], ids[len(controls):])
		if err != nil {
			return nil, nil, err
		}
		r.plan = p
		return p.controlNums, p.regionNum, nil
	}
	if r.obs, err = r.compute(r.tree, rev, req, r.from, num); err != nil {
		return err
	}
	// The computation has read every id it needed.
	return r.endBounded()
}

// grow makes the next capture reach further than the one in hand, whose
// tree a scan read past.
func (r *reading) grow() error {
	b, err := growBudget(r.budget, r.tree)
	if err != nil {
		return err
	}
	r.budget, r.regrow = b, true
	return nil
}

// endBounded ends the bounded capture in hand, if any.
func (r *reading) endBounded() error {
	if r.closeBounded == nil {
		return nil
	}
	err := r.closeBounded()
	r.closeBounded = nil
	return err
}

// observeCompute takes an observation with the inventory and page view,
// computed by compute (nil: the whole page's, domsnap.Observe).
func (s *Session) observeCompute(ctx context.Context, spec observeSpec, compute computeFunc) (*domsnap.Observation, *Snapshot, error) {
	if compute == nil {
		compute = func(t *domtree.Tree, rev string, q *domsnap.Checked, _ *domsnap.Observation, num domsnap.Numbering) (*domsnap.Observation, error) {
			return domsnap.ObserveNumbered(t, rev, q, nil, num)
		}
	}
	var obs *domsnap.Observation
	snap, _, err := s.observeWith(ctx, spec, func(t *domtree.Tree, rev string, q *domsnap.Checked, from *domsnap.Observation, num domsnap.Numbering) (*domsnap.Observation, error) {
		var err error
		obs, err = compute(t, rev, q, from, num)
		return obs, err
	})
	if err != nil {
		return nil, nil, err
	}
	return obs, snap, nil
}

// Captures reports how many snapshots the session has asked its driver for,
// failed ones included.
func (s *Session) Captures() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.captures
}

// latest is the latest published observation when expected is its
// revision and still current (the document at navigation nav, nothing
// failed or acted since), refused as a request's expected revision is
// otherwise. An observation taken without a page view (a capture or an
// extraction alone) publishes no references, so its revision names none.
func (s *Session) latest(expected string, nav uint64) (*domsnap.Observation, error) {
	if err := s.checkCurrent(expected, nav); err != nil {
		return nil, err
	}
	if s.last == nil || s.last.Revision != expected {
		return nil, errcode.New(errcode.ForeignRevision, pkg, "", "revision "+errcode.Quote(expected)+" names an observation without a page view")
	}
	return s.last, nil
}

// checkRevision applies docs/reference.md#revisions's table to expected, with the current
// document at navigation nav. domsnap.CheckRevision compares the counters; a
// revision that passes it must also name an observation that was published
// for the current document and not invalidated since.
func (s *Session) checkRevision(req *domsnap.Checked, nav uint64) error {
	if err := req.CheckRevision(domsnap.Revision{Session: s.id, Navigation: nav, Sequence: s.seq}); err != nil {
		return err
	}
	expected, _ := req.ExpectedRevision()
	return s.stillPublished(expected.String(), nav)
}

// stillPublished is the rest of the table for an expected revision whose
// counters equal the current ones: it must name an observation published
// for the current document (at navigation nav), not invalidated since (by
// a failed observation or an action).
func (s *Session) stillPublished(expected string, nav uint64) error {
	switch {
	case s.seq == 0 || s.pubNav != nav:
		// expected equals r1.<id>.n<nav>.o<seq>, but nothing was published
		// for this document under that sequence.
		return errcode.New(errcode.ForeignRevision, pkg, "", "revision "+errcode.Quote(expected)+" names an observation that was never published")
	case s.invalid:
		return errcode.New(errcode.StaleRevision, pkg, "", "revision "+errcode.Quote(expected)+" was invalidated since it was observed")
	}
	return nil
}

func isRevisionError(err error) bool {
	switch errcode.CodeOf(err) {
	case errcode.ForeignRevision, errcode.NavigatedRevision, errcode.StaleRevision:
		return true
	}
	return false
}

// leftDuringCapture codes a failed capture. A capture fails when the main
// frame's document goes away under it (the wait for a rendered frame runs
// in that document's world); when the navigation count moved, or the
// driver refuses the document that came, that is what the call answers.
func leftDuringCapture(ctx context.Context, d Driver, n0 uint64, err error) error {
	if ctx.Err() == nil {
		n1, nerr := d.Navigations(ctx)
		switch {
		case errcode.CodeOf(nerr) == errcode.NavigationRefused:
			return nerr
		case nerr == nil && n1 != n0:
			return errcode.Wrap(errcode.NavigatedDuringCapture, pkg, "", "the main frame navigated while the snapshot was taken", err)
		}
	}
	return asCaptureError(ctx, "capture", err)
}

// asCaptureError keeps a coded error's code and gives an uncoded one
// capture_failed (or timeout or cancelled when the context ended).
func asCaptureError(ctx context.Context, what string, err error) error {
	var e *errcode.Error
	if errors.As(err, &e) {
		return err
	}
	return callError(ctx, what, err)
}
