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
	Wait             *waitArgs `json:"wait"`
	ModelBytes       int       `json:"model_bytes"`
}

// actReport is the answer's action member.
type actReport struct {
	Action       string `json:"action"`
	Ref          string `json:"ref,omitempty"`
	Outcome      string `json:"outcome"`
	PopupsClosed int    `json:"popups_closed,omitempty"`
}

// act is browser_act: the checks in their order (the schema has run; then
// the revision, the reference, the element), the action, its wait, and one
// fresh observation. Once input was sent, every error carries action_sent.
func act(ctx context.Context, s *Server, ss *session, raw []byte) (*sdk.CallToolResult, error) {
	var a actArgs
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	budget, err := s.budget(a.ModelBytes)
	if err != nil {
		return nil, err
	}
	action, err := a.action()
	if err != nil {
		return nil, err
	}
	plan := a.Wait.plan()
	if err := ss.acquire(ctx); err != nil {
		return nil, err
	}
	defer ss.release()
	page, l := ss.current()
	if l == nil {
		return nil, errcode.New(errcode.ForeignRevision, pkg, "", "no page is open in this session (its browser may have exited): navigate first, then use the new revision")
	}
	deadline := time.Now().Add(plan.timeout)
	cctx, cancel := context.WithDeadline(ctx, deadline.Add(captureGrace))
	defer cancel()
	target, err := ss.target(cctx, l, a.ExpectedRevision, a.Ref)
	if err != nil {
		return nil, ss.fail(overdue(ctx, cctx, err))
	}
	opts := live.ActOptions{Deadline: deadline}
	if a.Wait != nil && a.Wait.Until != "" {
		opts.Until, opts.UntilSet = plan.until, true
	}
	res, err := actLive(cctx, l, a.ExpectedRevision, action, target, opts)
	if err != nil {
		return nil, ss.fail(overdue(ctx, cctx, err))
	}
	// From here on the page may have changed under the last observation:
	// a failure says the action was sent (unless nothing was).
	sent := func(err error) error {
		if res.Outcome == live.OutcomeUnchanged {
			return err
		}
		return &live.SentError{Err: err}
	}
	if res.Pending {
		// The navigation the action started has not committed by the
		// deadline, and until it does the tab answers nothing about its
		// document: stop it, so the observation shows the page where it
		// stayed. The outcome says the request may have gone through.
		if err := page.StopLoading(cctx); err != nil {
			return nil, sent(ss.fail(overdue(ctx, cctx, err)))
		}
	}
	cond, err := plan.after(cctx, deadline)
	if err != nil {
		return nil, sent(overdue(ctx, cctx, err))
	}
	o, err := observeLive(cctx, l, nil, nil, cond)
	if err != nil {
		return nil, sent(ss.fail(overdue(ctx, cctx, err)))
	}
	report, _ := json.Marshal(actReport{Action: a.Action, Ref: a.Ref, Outcome: string(res.Outcome), PopupsClosed: res.PopupsClosed})
	suffix := `,"action":` + string(report)
	if res.Outcome == live.OutcomeNavigated {
		suffix += `,"http_status":` + strconv.Itoa(res.HTTPStatus)
		if !res.LoadComplete {
			suffix += `,"load_complete":false`
		}
	}
	out, err := s.save(ss, o, budget, suffix)
	if err != nil {
		return nil, sent(err)
	}
	return out, nil
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
	n := 0
	for _, r := range a.Text {
		n += utf16.RuneLen(r)
	}
	if n > limits.MaxTypeUnits {
		return live.Action{}, errcode.New(errcode.InvalidRequest, pkg, "/text", "the text is longer than "+strconv.Itoa(limits.MaxTypeUnits)+" UTF-16 code units")
	}
	return live.Action{Kind: kind, Text: a.Text, Option: a.Option, Key: a.Key}, nil
}

// target checks the expected revision (it must name the latest
// observation, not invalidated since) and then finds the element ref names
// in that observation; nil when the action names none. A revision error
// outranks a reference error.
func (ss *session) target(ctx context.Context, l *live.Session, expected, ref string) (*live.Target, error) {
	if err := checkCurrentLive(ctx, l, expected); err != nil {
		return nil, err
	}
	if ref == "" {
		return nil, nil
	}
	from, err := ss.latest(expected)
	if err != nil {
		return nil, err
	}
	at, err := from.ActionTarget(ref)
	if err != nil {
		return nil, err
	}
	return &live.Target{BackendNodeID: at.BackendNodeID, Role: at.Role, Options: at.Options, Secret: at.HumanOnly}, nil
}
