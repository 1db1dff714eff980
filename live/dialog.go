package live

import (
	"context"
	"sync"

	"github.com/mafredri/cdp/protocol/page"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/limits"
)

// DialogAnswer says how an action answers the JavaScript dialogs (alert,
// confirm, prompt, beforeunload) its input raises.
type DialogAnswer uint8

// The answers.
const (
	// DialogDismiss presses Cancel: confirm() returns false, prompt() null,
	// and a beforeunload dialog keeps the page. It is the default.
	DialogDismiss DialogAnswer = iota
	// DialogAccept presses OK: confirm() returns true, prompt() the
	// action's DialogText, and a beforeunload dialog lets the page go.
	DialogAccept
)

// ParseDialogAnswer reads "dismiss" or "accept".
func ParseDialogAnswer(s string) (DialogAnswer, bool) {
	switch s {
	case "dismiss":
		return DialogDismiss, true
	case "accept":
		return DialogAccept, true
	}
	return 0, false
}

// Dialog is one JavaScript dialog an action raised. Its message is page
// content: untrusted, and bounded as a cell summary is.
type Dialog struct {
	// Type is "alert", "confirm", "prompt" or "beforeunload".
	Type string
	// Message is the dialog's text, its runs of ASCII whitespace made one
	// space, at most limits.CellUnits UTF-16 units; MessageTruncated says
	// the bound cut it.
	Message          string
	MessageTruncated bool
}

// newDialog is the report of a dialog the protocol announced.
func newDialog(typ page.DialogType, message string) Dialog {
	d := Dialog{Type: string(typ)}
	d.Message, d.MessageTruncated = domsnap.SummarizeText(message)
	switch typ {
	case page.DialogTypeAlert, page.DialogTypeConfirm, page.DialogTypePrompt, page.DialogTypeBeforeunload:
	default:
		// A type this package does not know is reported as the alert it
		// at least is: a message to acknowledge.
		d.Type = string(page.DialogTypeAlert)
	}
	return d
}

// dialogRun is how the dialogs raised while one action's input is sent and
// waited on are answered, and what they were. The tab's dialog reader
// consults it as each dialog opens; without one, a dialog is dismissed and
// counted as raised outside any action.
type dialogRun struct {
	answer DialogAnswer
	// text is what an accepted prompt returns. It is never reported,
	// logged or kept past the action.
	text    string
	hasText bool

	mu      sync.Mutex
	seen    []Dialog
	omitted int
}

// decide answers one dialog: accepted only when the action asked, and only
// for the first limits.MaxActionDialogs dialogs, so a page that loops on
// confirm() until it is refused gets its refusal. It records the dialog.
func (r *dialogRun) decide(ev *page.JavascriptDialogOpeningReply) (accept bool, promptText string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) >= limits.MaxActionDialogs {
		r.omitted++
		return false, ""
	}
	r.seen = append(r.seen, newDialog(ev.Type, ev.Message))
	if r.answer != DialogAccept {
		return false, ""
	}
	if ev.Type == page.DialogTypePrompt {
		if ev.DefaultPrompt != nil {
			promptText = *ev.DefaultPrompt
		}
		if r.hasText {
			promptText = r.text
		}
	}
	return true, promptText
}

// result is the dialogs recorded and how many more were dismissed
// unrecorded.
func (r *dialogRun) result() ([]Dialog, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Dialog(nil), r.seen...), r.omitted
}

// answerDialogs implements actor: until the returned function is called,
// the tab answers dialogs as a asks and records them; the function ends
// that and returns what was recorded.
func (p *Page) answerDialogs(a Action) func() ([]Dialog, int) {
	r := &dialogRun{answer: a.Dialog, text: a.DialogText, hasText: a.DialogTextSet}
	p.dialogRun.Store(r)
	return func() ([]Dialog, int) {
		p.dialogRun.CompareAndSwap(r, nil)
		return r.result()
	}
}

// dialogsOutside implements actor.
func (p *Page) dialogsOutside() int64 { return p.dismissed.Load() }

// dismissDialogs answers every JavaScript dialog the tab opens (alert,
// confirm, prompt, beforeunload) at once. An open dialog stops the page's
// script and its parser, so a page that calls alert() while loading would
// otherwise never fire its load event. Outside an action a dialog is
// dismissed and counted: confirm() then returns false and prompt() null, as
// when a person presses Cancel. During an action (answerDialogs) it is
// answered as the action asked and recorded. The one exception to both is a
// beforeunload dialog raised while a navigation of the package's own is
// under way (leaving): it is accepted, as a person who confirms "Leave",
// since dismissing it cancels that navigation, and a page with such a
// handler would fail every later one. It returns when the stream ends, that
// is when the tab's life ends.
func (p *Page) dismissDialogs(dialogs page.JavascriptDialogOpeningClient) {
	defer close(p.dialogsDone)
	defer dialogs.Close()
	for {
		ev, err := dialogs.Recv()
		if err != nil {
			return
		}
		leave := ev.Type == page.DialogTypeBeforeunload && p.leaving.Load() > 0
		accept, text := leave, ""
		run := p.dialogRun.Load()
		if !leave && run != nil {
			accept, text = run.decide(ev)
		}
		args := page.NewHandleJavaScriptDialogArgs(accept)
		if accept && ev.Type == page.DialogTypePrompt {
			args.SetPromptText(text)
		}
		ctx, cancel := context.WithTimeout(p.life, dialogCallTimeout)
		err = p.client.Page.HandleJavaScriptDialog(ctx, args)
		cancel()
		if err == nil && !leave && run == nil {
			p.dismissed.Add(1)
		}
		if err == nil && ev.Type == page.DialogTypeBeforeunload && !accept {
			p.stayed.Add(1)
		}
	}
}

// DialogsDismissed reports how many JavaScript dialogs the tab has
// dismissed outside actions since it opened.
func (p *Page) DialogsDismissed() int { return int(p.dismissed.Load()) }
