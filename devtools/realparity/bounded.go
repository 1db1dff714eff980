package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/devtools/internal/rawcapture"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/pageserve"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/parity"
	"github.com/domsnap/domsnap/snapshot"
)

// The -bounded mode: a live observation's bounded capture (live.Session
// with Once) against the whole snapshot of the same tab, as the browser
// test TestBoundedCaptureMatchesWholeSnapshot of package live compares the
// fixture pages.

// read is one bounded read: the observation (req nil) or one extraction.
type read struct {
	// name is "observation" or "request N".
	name string
	req  *domsnap.Request
}

// boundedReads are the reads compared on every page: the observation
// without a request (inventory and page view), then each default request.
func boundedReads() []read {
	reads := []read{{name: "observation"}}
	for i, req := range parity.DefaultRequests() {
		req.ExpectedRevision = ""
		reads = append(reads, read{name: "request " + strconv.Itoa(i), req: &req})
	}
	return reads
}

// outcome is one read compared with the whole snapshots.
type outcome int

const (
	// same: the bounded answer is the first whole snapshot's.
	same outcome = iota
	// differs: it is no answer a whole snapshot gave, and the page held
	// still between two whole snapshots taken in a row.
	differs
	// moving: it is not the first whole snapshot's answer, but the page
	// changed by itself (animation, timers): two whole snapshots taken in a
	// row disagree, or the bounded answer is the one the whole snapshot
	// gave after the bounded reads.
	moving
)

// compareRead classifies a bounded answer against the answers of the
// whole snapshots, all computed under the bounded answer's revision: whole
// and again taken in a row before the bounded reads, after once they are
// done. It returns the first JSON pointer at which bounded and whole differ
// ("" when they agree).
func compareRead(bounded, whole, again, after []byte) (outcome, string) {
	if string(bounded) == string(whole) {
		return same, ""
	}
	ptr := "/"
	if d := parity.DiffJSON(whole, bounded); len(d) > 0 && d[0].Path != "" {
		ptr = d[0].Path
	}
	if len(ptr) > maxValue {
		ptr = ptr[:maxValue] + "..."
	}
	if string(whole) != string(again) || string(bounded) == string(after) {
		return moving, ptr
	}
	return differs, ptr
}

// budgetRun is the reads of one page at one first budget.
type budgetRun struct {
	// budget is the sessions' first budget; 0 for the default (each kind
	// of observation's own).
	budget int
	// captures is how many captures the bounded reads took, summed over
	// the reads (live.Session.Captures).
	captures uint64
	// differ and moving name the reads of each outcome with the first
	// differing pointer: "request 3 at /rows/0".
	differ, moving []string
}

// boundedResult is what one page gave in the -bounded mode.
type boundedResult struct {
	// err is the error code when the page could not be checked.
	err string
	// nodes is the number of nodes of the first whole snapshot's tree.
	nodes int
	runs  []budgetRun
}

// class is the page's verdict: "differs" when any read differs while the
// page held still, else "moving" when any read differs on a page that
// changed by itself, else "agree".
func (r boundedResult) class() string {
	if r.err != "" {
		return "error"
	}
	moved := false
	for _, run := range r.runs {
		if len(run.differ) > 0 {
			return "differs"
		}
		moved = moved || len(run.moving) > 0
	}
	if moved {
		return "moving"
	}
	return "agree"
}

func budgetName(b int) string {
	if b == 0 {
		return "default budget"
	}
	return "budget " + strconv.Itoa(b)
}

// line is the page's output line: names of reads and JSON pointers, never
// page text.
func (r boundedResult) line() string {
	if r.err != "" {
		return "error " + r.err
	}
	var b strings.Builder
	b.WriteString(r.class())
	fmt.Fprintf(&b, " (%d nodes", r.nodes)
	for _, run := range r.runs {
		fmt.Fprintf(&b, "; %s: %d captures", budgetName(run.budget), run.captures)
		if len(run.differ) > 0 {
			fmt.Fprintf(&b, ", differs in %d (%s)", len(run.differ), strings.Join(run.differ, ", "))
		}
		if len(run.moving) > 0 {
			fmt.Fprintf(&b, ", page moved in %d (%s)", len(run.moving), strings.Join(run.moving, ", "))
		}
	}
	b.WriteString(")")
	return b.String()
}

// boundedSummary counts the pages of a -bounded run.
type boundedSummary struct {
	pages, agree, differ, moving, errors int
	// captures sums the captures of each budget, in the order of runs.
	budgets  []int
	captures []uint64
}

func (s *boundedSummary) add(r boundedResult) {
	s.pages++
	switch r.class() {
	case "error":
		s.errors++
		return
	case "differs":
		s.differ++
	case "moving":
		s.moving++
	default:
		s.agree++
	}
	for i, run := range r.runs {
		if i == len(s.budgets) {
			s.budgets = append(s.budgets, run.budget)
			s.captures = append(s.captures, 0)
		}
		s.captures[i] += run.captures
	}
}

func (s boundedSummary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "pages %d, agree %d, differ %d, page moved %d, errors %d", s.pages, s.agree, s.differ, s.moving, s.errors)
	for i, budget := range s.budgets {
		fmt.Fprintf(&b, ", captures at %s %d", budgetName(budget), s.captures[i])
	}
	return b.String()
}

// checkBounded loads one file in a fresh tab of b and compares, for each
// first budget, every bounded read with the whole snapshots taken before
// (two in a row) and after the reads.
func checkBounded(ctx context.Context, b *live.Browser, path string, timeout time.Duration, budgets []int) boundedResult {
	data, err := os.ReadFile(path)
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	srv, err := pageserve.Serve(data, info.Charset)
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	defer srv.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	defer p.Close()
	if err := p.Navigate(ctx, srv.URL()); err != nil {
		return boundedResult{err: codeOf(err)}
	}
	// Two whole snapshots in a row: where they disagree, the page changes
	// by itself.
	whole, err := wholeTree(ctx, p)
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	again, err := wholeTree(ctx, p)
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	type answer struct {
		got []byte
		rev string
	}
	reads := boundedReads()
	got := make([][]answer, len(budgets))
	res := boundedResult{nodes: whole.Len()}
	for bi, budget := range budgets {
		run := budgetRun{budget: budget}
		for _, rd := range reads {
			s, err := live.NewSession(p, live.SessionOptions{FirstBudget: budget})
			if err != nil {
				return boundedResult{err: codeOf(err)}
			}
			var a answer
			if rd.req == nil {
				o, _, err := s.Observe(ctx, live.ReadOptions{Once: true})
				a.got, a.rev = answerOf(o, err)
			} else {
				r, _, err := s.Extract(ctx, live.ReadOptions{Query: *rd.req, Once: true})
				a.got, a.rev = answerOf(r, err)
			}
			if err := ctx.Err(); err != nil {
				return boundedResult{err: codeOf(err)}
			}
			run.captures += s.Captures()
			got[bi] = append(got[bi], a)
		}
		res.runs = append(res.runs, run)
	}
	// A last whole snapshot, after every bounded read: a bounded answer
	// that is this one's comes from a page that changed meanwhile.
	after, err := wholeTree(ctx, p)
	if err != nil {
		return boundedResult{err: codeOf(err)}
	}
	for bi := range budgets {
		for i, rd := range reads {
			a := got[bi][i]
			if a.rev == "" {
				// The bounded read failed: the whole snapshot's answer is
				// compared under any valid revision, since an error has none.
				a.rev = failedRevision
			}
			o, ptr := compareRead(a.got, wholeAnswer(whole, a.rev, rd.req), wholeAnswer(again, a.rev, rd.req), wholeAnswer(after, a.rev, rd.req))
			switch o {
			case differs:
				res.runs[bi].differ = append(res.runs[bi].differ, rd.name+" at "+ptr)
			case moving:
				res.runs[bi].moving = append(res.runs[bi].moving, rd.name+" at "+ptr)
			}
		}
	}
	return res
}

// failedRevision is the revision the whole snapshot answers under when the
// bounded read it is compared with failed.
const failedRevision = "r1.0000000000000000.n1.o1"

// wholeTree is the tab's whole snapshot, decoded as a session decodes one.
func wholeTree(ctx context.Context, p *live.Page) (*domtree.Tree, error) {
	raw, err := rawcapture.Page(ctx, p)
	if err != nil {
		return nil, err
	}
	return snapshot.DecodeCapture(raw, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
}

// answerOf is a bounded read's canonical bytes and revision, or
// "error: <code>".
func answerOf(a interface{ Canonical() []byte }, err error) ([]byte, string) {
	if err != nil {
		return []byte("error: " + string(errcode.CodeOf(err))), ""
	}
	switch v := a.(type) {
	case *domsnap.Observation:
		return v.Canonical(), v.Revision
	case *domsnap.Result:
		return v.Canonical(), v.Revision
	}
	return a.Canonical(), ""
}

// wholeAnswer is what the whole tree answers under rev: the observation
// when req is nil, else the extraction, or "error: <code>".
func wholeAnswer(t *domtree.Tree, rev string, req *domsnap.Request) []byte {
	if req == nil {
		o, err := domsnap.Observe(t, rev, nil)
		if err != nil {
			return []byte("error: " + string(errcode.CodeOf(err)))
		}
		return o.Canonical()
	}
	r, err := domsnap.Extract(t, rev, *req)
	if err != nil {
		return []byte("error: " + string(errcode.CodeOf(err)))
	}
	return r.Canonical()
}
