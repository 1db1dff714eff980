//go:build browser

package live

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// busySite serves /busy, a page that fetches /ping again and again as
// long as it is open, and /late, a page whose server answers after a
// second; during says how many pings were answered while /late was
// awaited.
func busySite(t *testing.T) (srv *httptest.Server, during *atomic.Int64) {
	t.Helper()
	const pageDelay = time.Second
	var pings atomic.Int64
	during = new(atomic.Int64)
	mux := http.NewServeMux()
	mux.HandleFunc("/busy", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><p>busy</p><a id="late" href="/late">Late</a>
<script>(async () => { for (;;) await fetch("/ping") })()</script>`))
	})
	mux.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) {
		pings.Add(1)
		w.Write([]byte("pong"))
	})
	mux.HandleFunc("/late", func(w http.ResponseWriter, r *http.Request) {
		n := pings.Load()
		time.Sleep(pageDelay)
		during.Store(pings.Load() - n)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>after</td></tr></table>`))
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, during
}

// enoughPings fails the test when the page before made too few requests
// while the next one was awaited for the test to prove anything.
func enoughPings(t *testing.T, during *atomic.Int64) {
	t.Helper()
	if n := during.Load(); n < 20 {
		t.Fatalf("only %d requests while the next page was awaited", n)
	}
}

// TestGotoNetworkIdleAfterBusyPage: a navigation from a page that keeps
// fetching, to a page whose server takes a second, waits for network_idle
// and gets it: the wait ends met, not at its deadline. The page before's
// requests start and end by the dozen before the wait reads any event:
// read out of order, some end would be taken before its start; and those
// in flight when the new page commits are never reported ended. Either
// way a request would stay counted in flight until the deadline.
func TestGotoNetworkIdleAfterBusyPage(t *testing.T) {
	srv, during := busySite(t)
	b := launch(t)
	p, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Goto(ctx, srv.URL+"/busy", UntilLoad, time.Now().Add(20*time.Second)); err != nil {
		t.Fatal(err)
	}
	nav, err := p.Goto(ctx, srv.URL+"/late", UntilNetworkIdle, time.Now().Add(20*time.Second))
	if err != nil || nav.WaitTimedOut || !nav.LoadComplete || nav.Status != 200 {
		t.Fatalf("%+v %v; want an idle network after the load (%d requests while the page was awaited)", nav, err, during.Load())
	}
	enoughPings(t, during)
}

// TestActNetworkIdleAfterBusyPage: the same for an action's wait: a click
// on a busy page's link, waiting for network_idle, ends with the new page
// loaded and the network quiet, nothing counted in flight.
func TestActNetworkIdleAfterBusyPage(t *testing.T) {
	srv, during := busySite(t)
	a := openActTab(t, actBrowser(t), srv.URL+"/busy")
	ew, err := a.p.watch(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ew.close()
	var clicked bool
	a.eval(`document.getElementById("late").click(), true`, &clicked)
	eff, err := ew.wait(a.ctx, ActOptions{Until: UntilNetworkIdle, UntilSet: true}, time.Now().Add(20*time.Second), false)
	w := ew.(*navWatch)
	if err != nil || !eff.Committed || !eff.Loaded || eff.Status != 200 || !w.quiet || len(w.inflight) != 0 {
		t.Fatalf("%+v %v, quiet %v, %d in flight; want the new page loaded and the network quiet",
			eff, err, w.quiet, len(w.inflight))
	}
	if a.location() != "/late" {
		t.Fatalf("the click led to %s", a.location())
	}
	enoughPings(t, during)
}
