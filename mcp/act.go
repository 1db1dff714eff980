package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf16"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/live"
)

// actArgs are browser_act's arguments (docs/reference.md#acting-on-a-page).
type actArgs struct {
	ExpectedRevision string    `json:"expected_revision"`
	Action           string    `json:"action"`
	Ref              string    `json:"ref"`
	Text             string    `json:"text"`
	Option           string    `json:"option"`
	Key              string    `json:"key"`
	Dialog           string    `json:"dialog"`
	DialogText       *string   `json:"dialog_text"`
	Path             string    `json:"path"`
	Page             *int      `json:"page"`
	Wait             *waitArgs `json:"wait"`
	View             string    `json:"view"`
	ModelBytes       int       `json:"model_bytes"`
}

// actReport is the answer's action member.
type actReport struct {
	Action       string `json:"action"`
	Ref          string `json:"ref,omitempty"`
	Outcome      string `json:"outcome"`
	PopupsClosed int    `json:"popups_closed,omitempty"`
	// Dialogs are the dialogs the action raised; their messages are page
	// content.
	Dialogs        []dialogReport `json:"dialogs,omitempty"`
	DialogsOmitted int            `json:"dialogs_omitted,omitempty"`
	// DialogsDismissed counts the dialogs the page opened outside actions
	// since the previous action, each dismissed.
	DialogsDismissed int `json:"dialogs_dismissed,omitempty"`
	// Downloads are the downloads the action began.
	Downloads []downloadReport `json:"downloads,omitempty"`
}

// dialogReport is one dialog an action raised, never how a prompt was
// answered.
type dialogReport struct {
	Type             string `json:"type"`
	Message          string `json:"message"`
	MessageTruncated bool   `json:"message_truncated,omitempty"`
}

// act is browser_act: the schema has run, and the live session does the
// rest (live.Session.Act): the revision, the reference, the element, the
// action, its wait, and one fresh observation. Once input was sent, every
// error carries action_sent.
func act(ctx context.Context, s *Server, ss *session, raw []byte) (*sdk.CallToolResult, error) {
	var a actArgs
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	budget, err := s.budget(a.ModelBytes)
	if err != nil {
		return nil, err
	}
	if a.Action == "switch_page" || a.Action == "close_page" {
		return pageAct(ctx, s, ss, &a, budget)
	}
	action, err := a.action()
	if err != nil {
		return nil, err
	}
	t, err := beginAct(ctx, ss, &a)
	if err != nil {
		return nil, err
	}
	defer t.end()
	cctx, l, deadline := t.ctx, t.l, t.opts.Deadline
	var staged string
	if action.Kind == live.ActUpload {
		// The file is copied only once the action's checks have passed,
		// so a refused upload neither costs a copy nor counts toward
		// MaxUploads, and its refusal is the one the check order names.
		action.Stage = func(ctx context.Context) (string, error) {
			var err error
			staged, err = ss.stage(ctx, a.Path)
			return staged, err
		}
	}
	if plan := a.Wait.plan(); a.Wait != nil && a.Wait.Until != "" {
		t.opts.Until, t.opts.UntilSet = plan.until, true
	}
	res, err := l.Act(cctx, a.ExpectedRevision, a.Ref, action, t.opts)
	if err != nil {
		if staged != "" && !live.ActionSent(err) {
			// The page changed the input before the file reached it.
			ss.unstage(staged)
		}
		return nil, ss.fail(overdue(ctx, cctx, err))
	}
	var downloads []downloadReport
	ss.mu.Lock()
	dls := ss.downloads
	ss.mu.Unlock()
	if dls != nil {
		downloads = dls.report(cctx, res.HandedOff, earliest(deadline, time.Now().Add(downloadSettle)))
	}
	rep := actReport{Action: a.Action, Ref: a.Ref, Outcome: string(res.Outcome), PopupsClosed: res.PopupsClosed,
		DialogsOmitted: res.DialogsOmitted, DialogsDismissed: res.DialogsOutside, Downloads: downloads}
	for _, d := range res.Dialogs {
		rep.Dialogs = append(rep.Dialogs, dialogReport{Type: d.Type, Message: d.Message, MessageTruncated: d.MessageTruncated})
	}
	report, _ := json.Marshal(rep)
	suffix := `,"action":` + string(report)
	if res.Outcome == live.OutcomeNavigated {
		suffix += `,"http_status":` + strconv.Itoa(res.HTTPStatus)
		if !res.LoadComplete {
			suffix += `,"load_complete":false`
		}
	}
	suffix += pagesMember(cctx, l)
	out, err := s.save(ss, res.Observation, t.opts.View, budget, suffix)
	if err != nil && res.Outcome != live.OutcomeUnchanged {
		// The page may have changed under the last observation.
		return nil, &live.SentError{Err: err}
	}
	return out, err
}

// earliest is the earlier of two times.
func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// action is the checked action of the arguments. The input schema has
// already tied ref, text, option and key to the actions that take them;
// what it cannot say is the text's length in UTF-16 units, which is how
// MaxTypeUnits counts.
func (a *actArgs) action() (live.Action, error) {
	kind, ok := live.ParseActionKind(a.Action)
	if !ok {
		return live.Action{}, errcode.New(errcode.InvalidRequest, pkg, "/action", "unknown action")
	}
	if err := typeUnits("/text", a.Text); err != nil {
		return live.Action{}, err
	}
	act := live.Action{Kind: kind, Text: a.Text, Option: a.Option, Key: a.Key}
	if a.Dialog != "" {
		if act.Dialog, ok = live.ParseDialogAnswer(a.Dialog); !ok {
			return live.Action{}, errcode.New(errcode.InvalidRequest, pkg, "/dialog", "unknown dialog answer")
		}
	}
	if a.DialogText != nil {
		if err := typeUnits("/dialog_text", *a.DialogText); err != nil {
			return live.Action{}, err
		}
		act.DialogText, act.DialogTextSet = *a.DialogText, true
	}
	return act, nil
}

// typeUnits refuses text, typed or a prompt's, longer than MaxTypeUnits
// UTF-16 units. The message never quotes the text.
func typeUnits(path, text string) error {
	n := 0
	for _, r := range text {
		n += utf16.RuneLen(r)
	}
	if n > limits.MaxTypeUnits {
		return errcode.New(errcode.InvalidRequest, pkg, path, "the text is longer than "+strconv.Itoa(limits.MaxTypeUnits)+" UTF-16 code units")
	}
	return nil
}

// pageAct is browser_act's switch_page and close_page: the live session
// changes its current page (a navigation: older revisions are
// navigated_revision) and observes the page that is current then.
func pageAct(ctx context.Context, s *Server, ss *session, a *actArgs, budget int) (*sdk.CallToolResult, error) {
	t, err := beginAct(ctx, ss, a)
	if err != nil {
		return nil, err
	}
	defer t.end()
	var res live.ActResult
	if a.Action == "switch_page" {
		res, err = t.l.SwitchPage(t.ctx, a.ExpectedRevision, *a.Page, t.opts)
	} else {
		res, err = t.l.ClosePage(t.ctx, a.ExpectedRevision, t.opts)
	}
	if err != nil {
		return nil, ss.fail(overdue(ctx, t.ctx, err))
	}
	report, _ := json.Marshal(actReport{Action: a.Action, Outcome: string(res.Outcome)})
	suffix := `,"action":` + string(report) + pagesMember(t.ctx, t.l)
	return s.save(ss, res.Observation, t.opts.View, budget, suffix)
}

// actTurn is what every browser_act call holds while it runs: the
// session's turn (acquired), its live session, and the options of the
// call's wait, whose deadline ctx outlives by the capture's grace.
type actTurn struct {
	l    *live.Session
	ctx  context.Context
	opts live.ActOptions
	end  func()
}

// beginAct takes the session's turn for a browser_act call and plans its
// wait; the caller ends the turn (end) once the answer is made. A session
// whose browser has gone has no page to act on.
func beginAct(ctx context.Context, ss *session, a *actArgs) (actTurn, error) {
	plan := a.Wait.plan()
	if err := ss.acquire(ctx); err != nil {
		return actTurn{}, err
	}
	_, l := ss.current()
	if l == nil {
		ss.release()
		return actTurn{}, errcode.New(errcode.ForeignRevision, pkg, "", "no page is open in this session (its browser may have exited): navigate first, then use the new revision")
	}
	deadline := time.Now().Add(plan.timeout)
	cctx, cancel := context.WithDeadline(ctx, deadline.Add(captureGrace))
	return actTurn{
		l:    l,
		ctx:  cctx,
		opts: live.ActOptions{Deadline: deadline, Settle: plan.settle, When: plan.condition(deadline), View: viewOf(a.View, actView)},
		end:  func() { cancel(); ss.release() },
	}, nil
}

// pageReport is one page of an answer's pages member.
type pageReport struct {
	Index   int    `json:"index"`
	Origin  string `json:"origin,omitempty"`
	Current bool   `json:"current,omitempty"`
}

// pagesMember is the answer's pages member (with its leading comma) when
// the session has more than one page open, "" otherwise.
func pagesMember(ctx context.Context, l *live.Session) string {
	pages := l.Pages(ctx)
	if len(pages) < 2 {
		return ""
	}
	out := make([]pageReport, len(pages))
	for i, p := range pages {
		out[i] = pageReport{Index: p.Index, Origin: p.Origin, Current: p.Current}
	}
	b, _ := json.Marshal(out)
	return `,"pages":` + string(b)
}
