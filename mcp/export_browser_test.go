//go:build browser

package mcp

import "github.com/domsnap/domsnap/live"

// SessionTab is the tab of srv's one session, nil while it has none (or
// has several), for the external browser tests: what a page does between
// calls, such as a move the guard refuses, shows in no answer, so they wait
// on the tab's own counters (live.Page.Refused) instead of on a clock.
func SessionTab(srv *Server) *live.Page {
	srv.mu.Lock()
	sessions := make([]*session, 0, len(srv.sessions))
	for _, ss := range srv.sessions {
		sessions = append(sessions, ss)
	}
	srv.mu.Unlock()
	if len(sessions) != 1 {
		return nil
	}
	p, _ := sessions[0].current()
	return p
}

// WholeView is wholeView for the external browser tests' calls.
var WholeView = wholeView
