//go:build browser

package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/domsnap/domsnap/internal/pageserve"

	"github.com/mafredri/cdp/protocol/domsnapshot"
	"github.com/mafredri/cdp/protocol/page"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/snapshot"
)

// saveAndLoad writes env as a saved snapshot, gzipped or not, and loads it
// back, as a user of `domsnap capture` and `domsnap extract` would. It
// returns the file's bytes and what Load made of them.
func saveAndLoad(t *testing.T, env snapshot.Envelope, gz bool) ([]byte, *snapshot.Input) {
	t.Helper()
	var buf bytes.Buffer
	if err := snapshot.WriteSnapshot(&buf, env, gz); err != nil {
		t.Fatal(err)
	}
	in, err := snapshot.Load(buf.Bytes(), snapshot.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), in
}

// openSession opens a tab on url and a session over it.
func openSession(t *testing.T, b *Browser, url string) (*Session, *Page) {
	t.Helper()
	ctx := context.Background()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if err := p.Navigate(ctx, url); err != nil {
		t.Fatal(err)
	}
	s, err := NewSession(p, SessionOptions{Browser: b.Version()})
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

func serve(t *testing.T, page []byte) *pageserve.Server {
	t.Helper()
	srv, err := pageserve.Serve(page, "utf-8")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func firstCell(res *domsnap.Result) string {
	for _, r := range res.Rows {
		if !r.Header && len(r.Cells) > 0 {
			s, _ := r.Cells[0].Value.(string)
			return s
		}
	}
	return ""
}

// navigatingTab navigates the real tab to another page inside the capture
// step, so the capture's reply follows a committed main-frame navigation.
type navigatingTab struct {
	*Page
	to string
}

func (n navigatingTab) captureSnapshot(ctx context.Context, styles []string) (json.RawMessage, error) {
	if err := n.Page.Navigate(ctx, n.to); err != nil {
		return nil, err
	}
	return n.Page.captureSnapshot(ctx, styles)
}

// captureBounded navigates too: a session observes through it when its
// driver offers it.
func (n navigatingTab) captureBounded(ctx context.Context, horizon int, again bool) (*BoundedCapture, error) {
	if err := n.Page.Navigate(ctx, n.to); err != nil {
		return nil, err
	}
	return n.Page.captureBounded(ctx, horizon, again)
}

func TestNavigationDuringCapture(t *testing.T) {
	b := launch(t)
	a := serve(t, flatPage(100, "A"))
	other := serve(t, flatPage(100, "B"))
	s, p := openSession(t, b, a.URL())
	ctx := context.Background()
	prev := first(t, s)

	s.drv = navigatingTab{Page: p, to: other.URL()}
	res, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(prev)})
	wantCode(t, err, errcode.NavigatedDuringCapture)
	if res != nil {
		t.Fatal("a result was published")
	}
	s.drv = p
	_, _, err = s.Extract(ctx, ReadOptions{Query: tableRequest(prev)})
	wantCode(t, err, errcode.NavigatedRevision)
	next := first(t, s)
	r, _ := domsnap.ParseRevision(next)
	p0, _ := domsnap.ParseRevision(prev)
	if r.Navigation != p0.Navigation+1 || r.Sequence != p0.Sequence+1 {
		t.Fatalf("after the race: %s, previous %s", next, prev)
	}
	res, _, err = s.Extract(ctx, ReadOptions{Query: tableRequest(next)})
	if err != nil {
		t.Fatal(err)
	}
	if got := firstCell(res); got != "B" {
		t.Fatalf("the new document's table says %q, want B", got)
	}
}

// TestNavigationRace lets a slow navigation race real captures: extractions
// run back to back while the tab navigates from page A to page B. Whatever
// the interleaving, every published result must hold the content of the
// document its revision names.
func TestNavigationRace(t *testing.T) {
	b := launch(t)
	a := serve(t, flatPage(2000, "A"))
	pageB := flatPage(2000, "B")
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/b.html" {
			http.NotFound(w, r)
			return
		}
		// Long enough for several captures of page A before B commits, even
		// under the race detector.
		time.Sleep(1500 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "script-src 'none'")
		w.Write(pageB)
	}))
	defer slow.Close()
	s, p := openSession(t, b, a.URL())
	ctx := context.Background()
	rev := first(t, s)
	navA, _ := domsnap.ParseRevision(rev)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// Page.navigate answers once the response commits; the load event is
		// not awaited, so captures keep running meanwhile.
		if _, err := p.Client().Page.Navigate(ctx, page.NewNavigateArgs(slow.URL+"/b.html")); err != nil {
			t.Error(err)
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	sawA, sawB, failures := 0, 0, 0
	for time.Now().Before(deadline) && sawB == 0 {
		res, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(rev)})
		switch errcode.CodeOf(err) {
		case "":
			r, _ := domsnap.ParseRevision(res.Revision)
			want := "A"
			if r.Navigation > navA.Navigation {
				want = "B"
			}
			got := firstCell(res)
			// While B is loading the new document may still be empty: a
			// result under B's navigation may find no table yet, never A's.
			if got != want && !(want == "B" && got == "") {
				t.Fatalf("revision %s holds %q, want %q", res.Revision, got, want)
			}
			if got == "A" {
				sawA++
			}
			if got == "B" {
				sawB++
			}
			rev = res.Revision
		case errcode.NavigatedDuringCapture, errcode.NavigatedRevision, errcode.StaleRevision, errcode.CaptureFailed:
			failures++
			t.Logf("refused or failed: %s", errcode.CodeOf(err))
			snap, err := s.Capture(ctx, ReadOptions{})
			if err != nil {
				failures++
				continue
			}
			rev = snap.Revision
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	wg.Wait()
	// Chromium may hold a capture sent while the navigation is pending until
	// the new document commits; the session then refuses it as
	// navigated_during_capture. Either way the test must have seen the
	// document change: a result from A or a refusal, then one from B.
	if sawB == 0 || sawA+failures == 0 {
		t.Fatalf("the race never showed the change of document: A %d, B %d, failures %d", sawA, sawB, failures)
	}
	t.Logf("results from A %d, from B %d, refused or failed %d", sawA, sawB, failures)
}

// cancellingTab cancels the capture's context shortly after the capture
// starts, while Chromium is still building the snapshot of a large page.
type cancellingTab struct {
	*Page
	after time.Duration
}

func (c cancellingTab) captureSnapshot(ctx context.Context, styles []string) (json.RawMessage, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	timer := time.AfterFunc(c.after, cancel)
	defer timer.Stop()
	return c.Page.captureSnapshot(ctx, styles)
}

func TestCancelledCapture(t *testing.T) {
	b := launch(t)
	srv := serve(t, flatPage(90000, "A"))
	s, p := openSession(t, b, srv.URL())
	prev := first(t, s)

	// Cancel through the caller's context: the capture is abandoned, and the
	// tab stays usable.
	ctx, cancel := context.WithCancel(context.Background())
	s.drv = cancellingTab{Page: p, after: time.Millisecond}
	go func() { time.Sleep(time.Millisecond); cancel() }()
	_, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(prev)})
	wantCode(t, err, errcode.Cancelled)
	if !errors.Is(err, domsnap.ErrCancelled) {
		t.Fatal("errors.Is does not match ErrCancelled")
	}
	s.drv = p
	_, _, err = s.Extract(context.Background(), ReadOptions{Query: tableRequest(prev)})
	wantCode(t, err, errcode.StaleRevision)
	next := first(t, s)
	if r, _ := domsnap.ParseRevision(next); r.Sequence != 2 {
		t.Fatalf("after a cancelled capture the next revision is %s, want sequence 2", next)
	}
	res, _, err := s.Extract(context.Background(), ReadOptions{Query: tableRequest(next)})
	if err != nil {
		t.Fatal(err)
	}
	if firstCell(res) != "A" {
		t.Fatalf("after cancellation the table reads %q", firstCell(res))
	}
}

// TestSavedSnapshotEquality saves the capture of each live extraction as a
// snapshot file, loads it offline, and requires byte-identical results and
// observations, gzip or not.
func TestSavedSnapshotEquality(t *testing.T) {
	b := launch(t)
	pages := []string{"table-basic", "aria-table", "list-basic", "form-labels-native", "live-filled-form", "cells-bounds", "byte-cap", "charset-windows-1252"}
	for _, name := range pages {
		t.Run(name, func(t *testing.T) {
			page := filepath.Join("..", "testdata", "html", name+".html")
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			_, info, err := snapshot.ParseHTML(data, snapshot.HTMLOptions{})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := pageserve.Serve(data, info.Charset)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			s, _ := openSession(t, b, srv.URL())
			var sent []byte
			s.onCapture = func(raw []byte) { sent = append(sent[:0], raw...) }
			ctx := context.Background()
			rev := first(t, s)
			reqs := loadRequests(t, strings.TrimSuffix(page, ".html")+".requests.json")
			if len(reqs) == 0 {
				t.Fatal("no requests")
			}
			for i, req := range reqs {
				req.ExpectedRevision = rev
				res, snap, err := s.Extract(ctx, ReadOptions{Query: req})
				if err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
				rev = res.Revision
				// The protocol types' decoder (FromReply) must build the same
				// tree as the wire decoder the session uses, from what the
				// browser sent.
				var reply domsnapshot.CaptureSnapshotReply
				if err := json.Unmarshal(sent, &reply); err != nil {
					t.Fatal(err)
				}
				typed, err := FromReply(&reply, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
				if err != nil {
					t.Fatal(err)
				}
				viaReply, err := domsnap.Extract(typed, res.Revision, func() domsnap.Request { r := req; r.ExpectedRevision = ""; return r }())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(viaReply.Canonical(), res.Canonical()) {
					t.Fatalf("request %d: FromReply and DecodeCapture disagree:\n%v", i, jsonDiff(res.Canonical(), viaReply.Canonical()))
				}
				for _, gz := range []bool{false, true} {
					_, in := saveAndLoad(t, snap.Envelope(), gz)
					if in.Revision != res.Revision {
						t.Fatalf("saved revision %q, live %q", in.Revision, res.Revision)
					}
					// Offline, the caller names the saved snapshot's revision.
					saved := req
					saved.ExpectedRevision = in.Revision
					off, err := domsnap.Extract(in.Tree, in.Revision, saved)
					if err != nil {
						t.Fatal(err)
					}
					if live, saved := res.Canonical(), off.Canonical(); !bytes.Equal(live, saved) {
						t.Fatalf("request %d gzip=%v: saved snapshot differs:\n%v", i, gz, jsonDiff(live, saved))
					}
				}
			}
			req := reqs[0]
			req.ExpectedRevision = rev
			obs, snap, err := s.Observe(ctx, ReadOptions{Query: &req})
			if err != nil {
				t.Fatal(err)
			}
			_, in := saveAndLoad(t, snap.Envelope(), true)
			req.ExpectedRevision = in.Revision
			off, err := domsnap.Observe(in.Tree, in.Revision, &req)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(obs.Canonical(), off.Canonical()) {
				t.Fatalf("saved observation differs:\n%v", jsonDiff(obs.Canonical(), off.Canonical()))
			}
		})
	}
}
