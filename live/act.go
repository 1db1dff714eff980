package live

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// ActionKind is what an action does (docs/reference.md#acting).
type ActionKind uint8

// The action kinds.
const (
	ActClick ActionKind = iota + 1
	ActType
	ActSelect
	ActCheck
	ActUncheck
	ActPress
	ActScroll
	ActBack
	ActHover
	ActUpload
)

var actionNames = [...]string{
	ActClick: "click", ActType: "type", ActSelect: "select", ActCheck: "check",
	ActUncheck: "uncheck", ActPress: "press", ActScroll: "scroll", ActBack: "back",
	ActHover: "hover", ActUpload: "upload",
}

func (k ActionKind) String() string {
	if int(k) < len(actionNames) && actionNames[k] != "" {
		return actionNames[k]
	}
	return "invalid"
}

// ParseActionKind reads an action's name ("click", "type", ...).
func ParseActionKind(s string) (ActionKind, bool) {
	for k, n := range actionNames {
		if n != "" && n == s {
			return ActionKind(k), true
		}
	}
	return 0, false
}

// Action is one action: its kind and the one argument that kind takes.
type Action struct {
	Kind ActionKind
	// Text is what a type action leaves in the field: 0 to
	// limits.MaxTypeUnits UTF-16 code units. It never appears in an error,
	// a log or a result.
	Text string
	// Option is the option a select action chooses, exactly as the page
	// view listed it.
	Option string
	// Key is the key a press action presses, one of Keys.
	Key string
	// Dialog answers the JavaScript dialogs the action raises (dismissed
	// by default); DialogText, when DialogTextSet, is what an accepted
	// prompt returns (else its default, as when a person presses OK). It
	// never appears in an error, a log or a result.
	Dialog        DialogAnswer
	DialogText    string
	DialogTextSet bool
	// File is the path of the file an upload action gives the file input,
	// as the browser will read it, at the moment it reads it (when the
	// page submits or reads the file, maybe long after the action): the
	// caller keeps it private and unchanged until the tab closes (the tool
	// server hands over a copy of its own). Neither the path nor the
	// file's name or content appears in an error, a log or a result.
	File string
	// Stage, when set instead of File, makes the upload's file ready and
	// returns its path: it is called once every check of the action has
	// passed, just before the file is given, so that a refused action
	// costs no copy and its refusal is the one the check order names. An
	// error it returns is the action's, with nothing sent.
	Stage func(context.Context) (string, error)
}

// Outcome says what an action led to.
type Outcome string

// The outcomes.
const (
	// OutcomeDone: the input was sent and no main-frame navigation followed.
	OutcomeDone Outcome = "done"
	// OutcomeNavigated: the main frame navigated; the session's older
	// revisions are navigated_revision from now on.
	OutcomeNavigated Outcome = "navigated"
	// OutcomeUnchanged: check or uncheck found the state already as asked
	// and sent nothing.
	OutcomeUnchanged Outcome = "unchanged"
	// OutcomeUncertain: the input was sent, but the deadline passed while
	// a navigation it started had not committed, or while the page was
	// still busy with requests.
	OutcomeUncertain Outcome = "uncertain"
	// OutcomeOpened: the action opened a window to a URL the session
	// allows, which is now its current page (docs/reference.md#pages);
	// the session's older revisions are navigated_revision from now on.
	OutcomeOpened Outcome = "opened"
)

// ActOptions say how long an action waits for the page's reaction.
type ActOptions struct {
	// Until, when UntilSet, is the event awaited after a main-frame
	// navigation the action started, up to Deadline: load, dom_ready, or
	// network_idle (the load event, then NetworkIdleQuiet with no request
	// in flight). When the action does not navigate, load and dom_ready
	// wait as the default does, and network_idle for NetworkIdleQuiet
	// without requests, up to Deadline.
	//
	// Without it the wait is the default: the load event, at most
	// DOMReadyGrace after DOMContentLoaded, when the action navigated;
	// else until no request has been in flight for NetworkIdleQuiet, at
	// most ActSettleCap.
	Until    Until
	UntilSet bool
	// Deadline ends the action, its wait included; zero means ctx's
	// deadline, or limits.LiveTimeout from now. The observation that
	// follows is bounded by ctx alone, so a caller gives ctx some time
	// past Deadline for it.
	Deadline time.Time
	// Settle is a pause after the wait, before the observation that
	// follows (a page that animates a result in, say); it ends at
	// Deadline at the latest.
	Settle time.Duration
	// When, when set, makes the observation that follows retake its
	// snapshot until the condition holds or its deadline passes.
	When *Condition
	// View is how the caller gives the page view of the observation that
	// follows (ReadOptions.View).
	View domsnap.View
}

// ActResult is what an action led to.
type ActResult struct {
	Outcome Outcome
	// HTTPStatus is the new main document's HTTP status when the action
	// navigated, 0 otherwise.
	HTTPStatus int
	// LoadComplete is false when the action navigated and the wait ended
	// before the new document's load event.
	LoadComplete bool
	// PopupsClosed counts the windows and tabs the page opened during the
	// action; each was closed at once, before it sent any request.
	PopupsClosed int
	// HandedOff counts the main-frame navigations of the action whose
	// response became a download (a successful response that ended
	// without a document). The browser tells of the download itself on
	// its own, sometimes only after the action's wait ended; a caller
	// following downloads waits for this many (Downloads.Settle).
	HandedOff int
	// Dialogs are the JavaScript dialogs the action raised, in the order
	// they opened, each answered as Action.Dialog said; DialogsOmitted
	// counts those past limits.MaxActionDialogs, each dismissed.
	Dialogs        []Dialog
	DialogsOmitted int
	// DialogsOutside counts the dialogs the page raised outside any action
	// (while it loaded, on a timer) since the session's previous action;
	// each was dismissed.
	DialogsOutside int
	// Pending: the outcome is uncertain because a main-frame navigation
	// the action started had not committed by the deadline, or because
	// one the page asked for had not begun by the settle cap (a busy
	// renderer starts a form's submission late), and may begin at any
	// moment after. While a navigation is pending, the tab answers no
	// call that reaches its document, so no observation can be taken
	// until it commits or is stopped (Page.stopLoading). Session.Act stops
	// it before it observes; one not yet begun is dropped with it.
	Pending bool
	// Observation is the observation taken after the action, which the
	// session published as its latest: its revision and references are
	// the ones the next action names. Nil when the action failed.
	Observation *domsnap.Observation
}

const (
	// ActSettleCap bounds the default wait of an action that did not
	// navigate.
	ActSettleCap = 2 * time.Second
	// DOMReadyGrace is how long the default wait gives the load event of
	// a document an action navigated to, after its DOMContentLoaded.
	DOMReadyGrace = 5 * time.Second
)

// SentError is the error of an action whose input was sent before it
// failed: the page may have changed, so the session's last observation is
// no longer current. Its Err carries the code.
type SentError struct{ Err error }

func (e *SentError) Error() string { return e.Err.Error() }
func (e *SentError) Unwrap() error { return e.Err }

// ActionSent reports whether err is the error of an action whose input was
// sent (action_sent: true).
func ActionSent(err error) bool {
	var e *SentError
	return errors.As(err, &e)
}

// The reasons a not_actionable error names.
const (
	ReasonDetached     = "detached"
	ReasonHidden       = "hidden"
	ReasonDisabled     = "disabled"
	ReasonWrongRole    = "wrong_role"
	ReasonObscured     = "obscured"
	ReasonNoSuchOption = "no_such_option"
	// ReasonNoHistory: back with no earlier entry in the tab's history.
	ReasonNoHistory = "no_history"
)

// notActionable is the refusal of an action for one reason. The message
// starts with the reason and quotes nothing from the page or the action.
func notActionable(reason, why string) error {
	return errcode.New(errcode.NotActionable, pkg, "", reason+": "+why)
}

// Reason is the reason a not_actionable error names, "" for any other
// error.
func Reason(err error) string {
	var e *errcode.Error
	if !errors.As(err, &e) || e.Code != errcode.NotActionable {
		return ""
	}
	r, _, _ := strings.Cut(e.Msg, ":")
	return r
}

// check refuses an action that is malformed in itself, before anything
// about the page is read: an unknown kind, a missing or forbidden target,
// an argument the kind does not take, typed text over its bound, a key not
// in the list. A target the observation marked secret makes a type action
// human_only here already.
func (a Action) check(t *domsnap.ActionTarget) error {
	bad := func(path, msg string) error { return errcode.New(errcode.InvalidRequest, pkg, path, msg) }
	if a.Kind.String() == "invalid" {
		return bad("/action", "unknown action")
	}
	switch a.Kind {
	case ActClick, ActType, ActSelect, ActCheck, ActUncheck, ActHover, ActUpload:
		if t == nil {
			return bad("/ref", a.Kind.String()+" needs an element")
		}
	case ActBack:
		if t != nil {
			return bad("/ref", "back takes no element")
		}
	}
	if a.Text != "" && a.Kind != ActType {
		return bad("/text", "only type takes text")
	}
	if a.Option != "" && a.Kind != ActSelect {
		return bad("/option", "only select takes an option")
	}
	if a.Key != "" && a.Kind != ActPress {
		return bad("/key", "only press takes a key")
	}
	if (a.File != "" || a.Stage != nil) != (a.Kind == ActUpload) || (a.File != "" && a.Stage != nil) {
		return bad("/path", "upload, and only upload, takes a file")
	}
	if a.Dialog != DialogDismiss && a.Dialog != DialogAccept {
		return bad("/dialog", "unknown dialog answer")
	}
	if a.DialogTextSet {
		if a.Dialog != DialogAccept {
			return bad("/dialog_text", "only an accepted prompt takes dialog text")
		}
		if !utf8.ValidString(a.DialogText) {
			return bad("/dialog_text", "the dialog text is not valid UTF-8")
		}
		if units(a.DialogText) > limits.MaxTypeUnits {
			return bad("/dialog_text", "the dialog text is longer than MaxTypeUnits UTF-16 code units")
		}
	}
	switch a.Kind {
	case ActType:
		if !utf8.ValidString(a.Text) {
			return bad("/text", "the text is not valid UTF-8")
		}
		if units(a.Text) > limits.MaxTypeUnits {
			return bad("/text", "the text is longer than MaxTypeUnits UTF-16 code units")
		}
		if t.HumanOnly {
			return humanOnly()
		}
	case ActPress:
		if _, ok := keyByName(a.Key); !ok {
			return bad("/key", "unknown key")
		}
	}
	return nil
}

// units counts the UTF-16 code units of s, stopping once the bound is
// passed.
func units(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
		if n > limits.MaxTypeUnits {
			break
		}
	}
	return n
}

func humanOnly() error {
	return errcode.New(errcode.HumanOnly, pkg, "", "typing into a password or one-time-code field is left to a person; nothing was sent")
}

// elementFacts is what the checks read from the live element, in an
// isolated world, before anything is sent. It holds no value of the
// element.
type elementFacts struct {
	Connected    bool   `json:"connected"`
	Tag          string `json:"tag"`
	Type         string `json:"type"`
	Autocomplete string `json:"autocomplete"`
	Rendered     bool   `json:"rendered"`
	Box          bool   `json:"box"`
	Disabled     bool   `json:"disabled"`
	ReadOnly     bool   `json:"readonly"`
	// Text: the element holds typed text (a text-like input, a textarea,
	// an editing host).
	Text bool `json:"text"`
	// Checked is "true", "false" or "mixed" (the page view's rule).
	Checked string `json:"checked"`
}

// secret reports whether typing into the element is human_only: a password
// input, or an autocomplete that names a current or new password or a
// one-time code.
func (f elementFacts) secret() bool {
	if f.Tag == "input" && f.Type == "password" {
		return true
	}
	for _, tok := range strings.Fields(strings.ToLower(f.Autocomplete)) {
		switch tok {
		case "current-password", "new-password", "one-time-code":
			return true
		}
	}
	return false
}

var (
	textRoles  = map[string]bool{"textbox": true, "searchbox": true, "spinbutton": true, "combobox": true}
	checkRoles = map[string]bool{"checkbox": true, "radio": true, "switch": true, "menuitemcheckbox": true, "menuitemradio": true}
)

// judge applies the element checks in their order: still in the
// document, typing allowed at all, rendered with a box, not disabled, of a
// role the action fits. It sends nothing.
func judge(a Action, t *domsnap.ActionTarget, f elementFacts) error {
	if !f.Connected {
		return notActionable(ReasonDetached, "the element is no longer in the document")
	}
	if a.Kind == ActType && f.secret() {
		return humanOnly()
	}
	if !f.Rendered || !f.Box {
		return notActionable(ReasonHidden, "the element is not rendered, has no box or is invisible")
	}
	if f.Disabled || (a.Kind == ActType && f.ReadOnly) {
		return notActionable(ReasonDisabled, "the element is disabled")
	}
	fits := true
	switch a.Kind {
	case ActType:
		fits = textRoles[t.Role] && f.Text
	case ActSelect:
		fits = (t.Role == "combobox" || t.Role == "listbox") && f.Tag == "select"
	case ActUpload:
		fits = f.Tag == "input" && f.Type == "file"
	case ActCheck, ActUncheck:
		fits = checkRoles[t.Role]
		// A person cannot uncheck a radio button by clicking it.
		if a.Kind == ActUncheck && (t.Role == "radio" || t.Role == "menuitemradio") && f.Checked != "false" {
			fits = false
		}
	}
	if !fits {
		return notActionable(ReasonWrongRole, a.Kind.String()+" does not fit a "+errcode.Quote(t.Role))
	}
	return nil
}

// point is a position in CSS pixels of the main frame's viewport.
type point struct{ X, Y float64 }

// prepared is what an action learnt, without sending input, just before
// sending it.
type prepared struct {
	// At is where the mouse acts (click, check, uncheck, hover, scroll).
	At point
	// Hits: the point at the element's centre hits it or a descendant.
	Hits bool
	// NoBox: the element had no box left to aim at once scrolled.
	NoBox bool
	// Option is the index among the select's options of the one chosen,
	// -1 when none matched; OptionDisabled when it cannot be chosen.
	Option         int
	OptionDisabled bool
	// DeltaY is how far a scroll turns the wheel: one viewport height.
	DeltaY float64
	// Entry is the history entry back returns to; HasEntry false when
	// there is none.
	Entry    int
	HasEntry bool
}

// elemRef names the element an action resolved, for the calls of the
// same action; "" is no element.
type elemRef string

// actor is what acting needs from a tab. Page implements it; tests fake it
// to check that a refused action sends nothing and that an error after the
// input carries action_sent.
type actor interface {
	Driver
	// resolve finds the node by its backend id and reads its facts; a node
	// that cannot be found is detached. Nothing is sent.
	// A node in a frame document (inFrame) is resolved in that frame,
	// whose id the capture gave.
	resolve(ctx context.Context, backendID int64, frame string, inFrame bool) (elemRef, elementFacts, error)
	// prepare readies a without sending input: for click, check,
	// uncheck and hover it scrolls el into view and aims at its centre; for select it
	// finds the option; for scroll it finds where and how far; for back,
	// the history entry.
	prepare(ctx context.Context, a Action, el elemRef) (prepared, error)
	// watch starts following the page's reaction, before input is sent.
	watch(ctx context.Context) (effectWatch, error)
	// send sends a's input.
	send(ctx context.Context, a Action, el elemRef, p prepared) error
	// popupsClosed counts the windows the tab's pages opened and that were
	// closed, since the tab opened.
	popupsClosed() int64
	// answerDialogs makes the tab answer the dialogs that open from now on
	// as a asks, and record them, until the function it returns is
	// called, which returns them and how many more were dismissed.
	answerDialogs(a Action) func() ([]Dialog, int)
	// dialogsOutside counts the dialogs the tab dismissed outside actions
	// since it opened.
	dialogsOutside() int64
	// releaseAct drops what the action's calls kept in the page.
	releaseAct(ctx context.Context)
	// stopLoading stops a main-frame navigation that has not committed.
	stopLoading(ctx context.Context) error
}

// effects is what followed an action's input.
type effects struct {
	// Started: a main-frame navigation began; Committed: one committed.
	Started, Committed bool
	Status             int
	Loaded             bool
	// Refused: the navigation policy aborted a main-frame navigation.
	Refused bool
	// Busy: the settle cap passed with requests still in flight.
	Busy bool
	// HandedOff counts the main-frame navigations that became downloads.
	HandedOff int
	// Asked: the settle cap passed while a navigation the page asked for,
	// to an http or https address, had not begun (a busy browser starts
	// a form's submission late).
	Asked bool
}

// effectWatch follows one action's effects.
type effectWatch interface {
	// wait returns when the wait the options ask for is over, or at
	// deadline; reaching the deadline is not an error.
	// history says the input was a step through the tab's history.
	wait(ctx context.Context, o ActOptions, deadline time.Time, history bool) (effects, error)
	close()
}

// Act performs one action on the element ref names in the session's
// latest observation (empty for press on the focused element, scroll of
// the page, and back), waits for the page's reaction, and takes and
// publishes the next observation, which the result carries
// (docs/reference.md#acting-on-a-page).
//
// The checks come in their order, under the session lock: expected must be
// the latest observation's revision, still current (foreign, navigated or
// stale otherwise); ref must be an action reference it published
// (invalid_reference, unknown_reference); then the action itself
// (invalid_request), then the element as it is now (not_actionable with
// one reason, or human_only). A refused action sends nothing and leaves
// the revision current. Once input is sent, the latest observation is no
// longer current, and an error carries action_sent (ActionSent). A
// cancellation or the deadline, input sent or not, also leaves it no
// longer current. The action is never repeated.
//
// A navigation the action started and that has not committed by the
// deadline is stopped, so that the observation shows the page where it
// stayed; the outcome (uncertain) says the request may have gone through.
func (s *Session) Act(ctx context.Context, expected, ref string, a Action, o ActOptions) (ActResult, error) {
	o.Deadline = actDeadline(ctx, o.Deadline)
	res, err := s.act(ctx, expected, a, o, func(nav uint64) (*domsnap.ActionTarget, error) {
		return s.target(expected, ref, nav)
	})
	if err != nil {
		return res, err
	}
	// From here on the page may have changed under the last observation:
	// a failure says the action was sent, unless nothing was.
	sent := func(err error) error {
		if res.Outcome == OutcomeUnchanged {
			return err
		}
		return &SentError{Err: err}
	}
	if res.Pending {
		// Until the navigation commits the tab answers nothing about its
		// document.
		tab, _ := s.drv.(actor)
		if err := tab.stopLoading(ctx); err != nil {
			return res, sent(err)
		}
	}
	if err := Settle(ctx, o.Settle, o.Deadline); err != nil {
		return res, sent(err)
	}
	obs, _, err := s.Observe(ctx, ReadOptions{When: o.When, View: o.View})
	if err != nil {
		return res, sent(err)
	}
	res.Observation = obs
	return res, nil
}

// actDeadline is an action's deadline: the one asked for, else ctx's, else
// limits.LiveTimeout from now.
func actDeadline(ctx context.Context, d time.Time) time.Time {
	if !d.IsZero() {
		return d
	}
	if cd, ok := ctx.Deadline(); ok {
		return cd
	}
	return time.Now().Add(limits.LiveTimeout)
}

// target is the element ref names in the latest observation, which
// expected must name, current at navigation nav; nil when ref is empty.
// Called under the session lock, so the observation cannot change between
// this lookup and the action.
func (s *Session) target(expected, ref string, nav uint64) (*domsnap.ActionTarget, error) {
	if err := s.checkCurrent(expected, nav); err != nil {
		return nil, err
	}
	if ref == "" {
		return nil, nil
	}
	from, err := s.latest(expected, nav)
	if err != nil {
		return nil, err
	}
	t, err := from.ActionTarget(ref)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// act performs one action on the element target finds, as Act describes,
// without the observation after it. target runs under the session lock
// with the current navigation count and checks the expected revision; the
// action is checked with the element it returns.
func (s *Session) act(ctx context.Context, expected string, a Action, o ActOptions, target func(nav uint64) (*domsnap.ActionTarget, error)) (ActResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prunePages(ctx)
	tab, ok := s.drv.(actor)
	if !ok {
		return ActResult{}, errcode.New(errcode.UnsupportedAdapter, pkg, "", "this adapter cannot act on a page")
	}
	o.Deadline = actDeadline(ctx, o.Deadline)
	ctx, cancel := context.WithDeadline(ctx, o.Deadline)
	defer cancel()
	nav, err := tab.Navigations(ctx)
	if err != nil {
		return ActResult{}, asCaptureError(ctx, "reading navigations", err)
	}
	t, err := target(nav)
	if err != nil {
		return ActResult{}, err
	}
	if err := a.check(t); err != nil {
		return ActResult{}, err
	}
	outside := tab.dialogsOutside()
	res, sent, err := perform(ctx, tab, a, t, o)
	if sent && s.pagesOn() {
		// The windows it opened, each until it shows its document, within
		// the action's deadline.
		s.takeOpened(ctx, &res, o.Deadline)
	}
	res.DialogsOutside = int(outside - s.dialogsOutside)
	s.dialogsOutside = outside
	if sent {
		s.invalid = true
		if err != nil {
			err = &SentError{Err: err}
		}
	}
	if err != nil && ctx.Err() != nil {
		// Cancelled or out of time before the input went out: as for an
		// observation, the previous one is no longer current.
		s.invalid = true
	}
	return res, err
}

// checkCurrent is checkRevision for a bare revision: expected must name
// the latest published observation of the current document, not
// invalidated since.
func (s *Session) checkCurrent(expected string, nav uint64) error {
	cur, err := domsnap.LiveRevision(s.id, nav, s.seq)
	if err != nil {
		return err
	}
	if err := domsnap.CheckRevision(expected, cur); err != nil {
		return err
	}
	return s.stillPublished(expected, nav)
}

// perform runs the checks and, when they pass, sends the input and waits.
// sent says whether any input reached the page.
func perform(ctx context.Context, tab actor, a Action, t *domsnap.ActionTarget, o ActOptions) (res ActResult, sent bool, err error) {
	defer tab.releaseAct(ctx)
	var el elemRef
	var f elementFacts
	if t != nil {
		if el, f, err = tab.resolve(ctx, t.BackendNodeID, t.Frame, t.InFrame); err != nil {
			return res, false, err
		}
		if err := judge(a, t, f); err != nil {
			return res, false, err
		}
	}
	switch a.Kind {
	case ActCheck, ActUncheck:
		if (a.Kind == ActCheck) == (f.Checked == "true") && f.Checked != "mixed" {
			return ActResult{Outcome: OutcomeUnchanged}, false, nil
		}
	case ActSelect:
		if t.Options != nil && !contains(t.Options, a.Option) {
			return res, false, notActionable(ReasonNoSuchOption, "the option is not one the observation listed")
		}
	}
	p, err := tab.prepare(ctx, a, el)
	if err != nil {
		return res, false, err
	}
	switch a.Kind {
	case ActClick, ActCheck, ActUncheck, ActHover:
		if p.NoBox {
			return res, false, notActionable(ReasonHidden, "the element has no box once scrolled into view")
		}
		if !p.Hits {
			return res, false, notActionable(ReasonObscured, "another element covers the centre of the element")
		}
	case ActSelect:
		if p.Option < 0 {
			return res, false, notActionable(ReasonNoSuchOption, "the select has no such option")
		}
		if p.OptionDisabled {
			return res, false, notActionable(ReasonDisabled, "the option is disabled")
		}
	case ActBack:
		if !p.HasEntry {
			return res, false, notActionable(ReasonNoHistory, "the tab has no earlier page to go back to")
		}
	}
	if a.Stage != nil {
		if a.File, err = a.Stage(ctx); err != nil {
			return res, false, err
		}
		a.Stage = nil
	}
	w, err := tab.watch(ctx)
	if err != nil {
		return res, false, err
	}
	defer w.close()
	popups := tab.popupsClosed()
	stopDialogs := tab.answerDialogs(a)
	defer func() { res.Dialogs, res.DialogsOmitted = stopDialogs() }()
	if err := tab.send(ctx, a, el, p); err != nil {
		var u *unsent
		if errors.As(err, &u) {
			return res, false, u.err
		}
		return res, true, err
	}
	eff, err := w.wait(ctx, o, o.Deadline, a.Kind == ActBack)
	res.PopupsClosed, res.HandedOff = int(tab.popupsClosed()-popups), eff.HandedOff
	if err != nil {
		return res, true, err
	}
	switch {
	case eff.Refused:
		return res, true, errcode.New(errcode.NavigationRefused, pkg, "", "the action led to a page the navigation policy does not allow; the navigation was stopped")
	case eff.Committed:
		res.Outcome, res.HTTPStatus, res.LoadComplete = OutcomeNavigated, eff.Status, eff.Loaded
	case eff.Started, eff.Busy, eff.Asked:
		res.Outcome, res.Pending = OutcomeUncertain, eff.Started || eff.Asked
	default:
		res.Outcome = OutcomeDone
	}
	return res, true, nil
}

// unsent is send's refusal by a check it made at the last moment, before
// any of the action's input went out (the element may have been focused,
// which is no input): perform reports the refusal as sent nothing.
type unsent struct{ err error }

func (e *unsent) Error() string { return e.err.Error() }
func (e *unsent) Unwrap() error { return e.err }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
