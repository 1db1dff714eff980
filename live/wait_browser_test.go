//go:build browser

package live

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/testkit/silent"
)

// TestGotoNeverCommits: a navigation that never commits is cancelled when
// the caller cancels it, and timeout when the caller's deadline or its own
// deadline passes;
// either way the tab navigates normally afterwards.
func TestGotoNeverCommits(t *testing.T) {
	b := launch(t)
	hung := silent.Start(t).URL()
	srv := serve(t, []byte("<table><tr><td>x</td></tr></table>"))
	p, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(time.Second, cancel)
	_, err = p.Goto(ctx, hung, UntilLoad, time.Now().Add(time.Minute))
	stop.Stop()
	cancel()
	if errcode.CodeOf(err) != errcode.Cancelled {
		t.Fatalf("cancelled: %v", err)
	}
	// The caller's own deadline passing is a timeout, as the command
	// line's --timeout is (in a tab of its own: the first tab may still be
	// loading the hung page).
	p2, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	_, err = p2.Goto(ctx, hung, UntilLoad, time.Now().Add(time.Minute))
	cancel()
	if errcode.CodeOf(err) != errcode.Timeout {
		t.Fatalf("caller's deadline: %v", err)
	}
	nav, err := p.Goto(context.Background(), srv.URL(), UntilLoad, time.Now().Add(20*time.Second))
	if err != nil || nav.Status != 200 || nav.WaitTimedOut {
		t.Fatalf("after the cancelled navigation: %+v %v", nav, err)
	}
	_, err = p.Goto(context.Background(), hung, UntilLoad, time.Now().Add(time.Second))
	if errcode.CodeOf(err) != errcode.Timeout {
		t.Fatalf("deadline: %v", err)
	}
	nav, err = p.Goto(context.Background(), srv.URL(), UntilNetworkIdle, time.Now().Add(20*time.Second))
	if err != nil || nav.Status != 200 || nav.WaitTimedOut {
		t.Fatalf("after the timed-out navigation: %+v %v", nav, err)
	}
}

// stalledPage serves a page with a table whose image is on a server that
// accepts the connection and never answers, so its load event never comes
// while its document is parsed at once; and a plain page beside it.
func stalledPage(t *testing.T) (stalled, plain string) {
	t.Helper()
	hung := silent.Start(t).URL()
	mux := http.NewServeMux()
	mux.HandleFunc("/stalled", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>a</td><td>b</td></tr></table><img src="` + hung + `stalled.png">`))
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>a</td><td>b</td></tr></table>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/stalled", srv.URL + "/plain"
}

// TestGotoLoadGrace: without a named wait, a page whose load event never
// comes is handed over LoadGrace after dom_ready, well before a deadline
// that an explicit load wait runs into, and says its load is not complete;
// a page that loads says it is. The bounds are loose on purpose: the
// stalled image would hold the wait for the whole minute of the deadline.
func TestGotoLoadGrace(t *testing.T) {
	b := launch(t)
	stalled, plain := stalledPage(t)
	p, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	t0 := time.Now()
	nav, err := p.Goto(context.Background(), stalled, UntilLoadOrGrace, time.Now().Add(time.Minute))
	if took := time.Since(t0); err != nil || nav.Status != 200 || nav.LoadComplete || nav.WaitTimedOut || took > 30*time.Second {
		t.Fatalf("default wait on a stalled page: %+v %v after %v", nav, err, took)
	}
	nav, err = p.Goto(context.Background(), plain, UntilLoadOrGrace, time.Now().Add(time.Minute))
	if err != nil || nav.Status != 200 || !nav.LoadComplete || nav.WaitTimedOut {
		t.Fatalf("default wait on a page that loads: %+v %v", nav, err)
	}
	// An explicit load wait holds to its deadline, and then says the load
	// did not complete.
	const timeout = 8 * time.Second
	t0 = time.Now()
	nav, err = p.Goto(context.Background(), stalled, UntilLoad, time.Now().Add(timeout))
	if took := time.Since(t0); err != nil || nav.LoadComplete || !nav.WaitTimedOut || took < timeout {
		t.Fatalf("explicit load on a stalled page: %+v %v after %v", nav, err, took)
	}
}

// TestGotoWaitsForItsOwnLoad: a navigation that starts while the page
// before it is still loading waits for its own document's load event, not
// for the one the page before fires meanwhile. The page before's image
// takes 700 ms; the next page's server answers after 2 s, so that page
// before's load event comes while the next navigation waits for its
// response. (Taking that event for the new page's handed over a tab still
// on the old document, and the observation after it saw the new document
// commit under it: navigated_during_capture.)
func TestGotoWaitsForItsOwnLoad(t *testing.T) {
	const imageDelay, pageDelay = 700 * time.Millisecond, 2 * time.Second
	mux := http.NewServeMux()
	mux.HandleFunc("/loading", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><p>before</p><img src="/image.gif">`))
	})
	mux.HandleFunc("/image.gif", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(imageDelay)
		w.Header().Set("Content-Type", "image/gif")
		w.Write([]byte("GIF89a"))
	})
	mux.HandleFunc("/moves-on", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><script>location.replace("/late")</script><img src="/image.gif">`))
	})
	mux.HandleFunc("/late", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(pageDelay)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><table><tr><td>after</td></tr></table>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := launch(t)
	p, err := b.NewPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	nav, err := p.Goto(ctx, srv.URL+"/loading", UntilDOMReady, time.Now().Add(20*time.Second))
	if err != nil || nav.LoadComplete {
		t.Fatalf("the first page: %+v %v (its load must still be pending)", nav, err)
	}
	n := commits(t, p)
	t0 := time.Now()
	nav, err = p.Goto(ctx, srv.URL+"/late", UntilLoad, time.Now().Add(20*time.Second))
	took := time.Since(t0)
	if err != nil || nav.Status != 200 || !nav.LoadComplete || nav.WaitTimedOut || took < pageDelay {
		t.Fatalf("the late page: %+v %v after %v; want its own load, after at least %v", nav, err, took, pageDelay)
	}
	settled(t, p, n+1)
	// A page that moves itself on before its load event (a client
	// redirect) never fires its own: the wait ends at the load of the page
	// it moved to, not at the deadline.
	n = commits(t, p)
	t0 = time.Now()
	nav, err = p.Goto(ctx, srv.URL+"/moves-on", UntilLoad, time.Now().Add(20*time.Second))
	took = time.Since(t0)
	if err != nil || !nav.LoadComplete || nav.WaitTimedOut || took < pageDelay || took > 15*time.Second {
		t.Fatalf("the page that moves on: %+v %v after %v; want the load of the page it moved to", nav, err, took)
	}
	settled(t, p, n+2) // the page that moves on, and the page it moved to
}

// commits is the number of documents the main frame has committed.
func commits(t *testing.T, p *Page) uint64 {
	t.Helper()
	n, err := p.Navigations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// settled fails unless, when the wait ended, the main frame had committed
// want documents in all: a wait that ended before its page committed
// leaves that commit to come, so the count falls short. The count is of
// the commits already told, read at once (a script evaluated now would
// wait for a navigation in flight to commit, and so hide one).
func settled(t *testing.T, p *Page, want uint64) {
	t.Helper()
	if n := commits(t, p); n != want {
		t.Fatalf("when the wait ended the main frame had committed %d documents, want %d", n, want)
	}
}
