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
	View             string    `json:"view"`
	ModelBytes       int       `json:"model_bytes"`
}

// actReport is the answer's action member.
type actReport struct {
	Action       string `json:"action"`
	Ref          string `json:"ref,omitempty"`
	Outcome      string `json:"outcome"`
	PopupsClosed int    `json:"popups_closed,omitempty"`
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
	action, err := a.action()
	if err != nil {
		return nil, err
	}
	plan := a.Wait.plan()
	if err := ss.acquire(ctx); err != nil {
		return nil, err
	}
	defer ss.release()
	_, l := ss.current()
	if l == nil {
		return nil, errcode.New(errcode.ForeignRevision, pkg, "", "no page is open in this session (its browser may have exited): navigate first, then use the new revision")
	}
	deadline := time.Now().Add(plan.timeout)
	cctx, cancel := context.WithDeadline(ctx, deadline.Add(captureGrace))
	defer cancel()
	view := viewOf(a.View, actView)
	opts := live.ActOptions{Deadline: deadline, Settle: plan.settle, When: plan.condition(deadline), View: view}
	if a.Wait != nil && a.Wait.Until != "" {
		opts.Until, opts.UntilSet = plan.until, true
	}
	res, err := l.Act(cctx, a.ExpectedRevision, a.Ref, action, opts)
	if err != nil {
		return nil, ss.fail(overdue(ctx, cctx, err))
	}
	report, _ := json.Marshal(actReport{Action: a.Action, Ref: a.Ref, Outcome: string(res.Outcome), PopupsClosed: res.PopupsClosed})
	suffix := `,"action":` + string(report)
	if res.Outcome == live.OutcomeNavigated {
		suffix += `,"http_status":` + strconv.Itoa(res.HTTPStatus)
		if !res.LoadComplete {
			suffix += `,"load_complete":false`
		}
	}
	out, err := s.save(ss, res.Observation, view, budget, suffix)
	if err != nil && res.Outcome != live.OutcomeUnchanged {
		// The page may have changed under the last observation.
		return nil, &live.SentError{Err: err}
	}
	return out, err
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
