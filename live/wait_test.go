package live

import (
	"context"
	"testing"
	"time"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/aria"
)

// TestOneShotTakesOneSnapshot is the rule of one-shot reads: a fresh session
// answers an extraction, an observation with an extraction, and an
// inventory with exactly one snapshot each, with no expected revision.
func TestOneShotTakesOneSnapshot(t *testing.T) {
	for _, c := range []struct {
		name string
		read func(*Session) (string, error)
	}{
		{"extract", func(s *Session) (string, error) {
			res, _, err := s.Extract(context.Background(), ReadOptions{Query: tableRequest(""), Once: true})
			if err != nil {
				return "", err
			}
			return res.Revision, nil
		}},
		{"observation with extraction", func(s *Session) (string, error) {
			req := tableRequest("")
			o, _, err := s.Observe(context.Background(), ReadOptions{Query: &req, Once: true})
			if err != nil {
				return "", err
			}
			if o.Extraction == nil || !o.Extraction.Collection.Found {
				t.Errorf("no extraction in the observation")
			}
			return o.Revision, nil
		}},
		{"inventory", func(s *Session) (string, error) {
			o, _, err := s.Observe(context.Background(), ReadOptions{Once: true})
			if err != nil {
				return "", err
			}
			return o.Revision, nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeTab{capture: readCapture(t, "table-basic")}
			s, err := NewSession(f, SessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rev, err := c.read(s)
			if err != nil {
				t.Fatal(err)
			}
			if f.captures != 1 || s.Captures() != 1 {
				t.Fatalf("driver saw %d captures, session counted %d; want 1", f.captures, s.Captures())
			}
			want, _ := domsnap.LiveRevision(s.ID(), 0, 1)
			if rev != want {
				t.Fatalf("revision %s, want %s", rev, want)
			}
		})
	}
}

// TestOneShotRules: a one-shot read of a session that already published is
// a misuse, and a request naming a revision is checked, so another
// session's revision is refused before any snapshot.
func TestOneShotRules(t *testing.T) {
	f := &fakeTab{capture: readCapture(t, "table-basic")}
	s, _ := NewSession(f, SessionOptions{})
	other, _ := domsnap.LiveRevision("0123456789abcdef", 0, 1)
	_, _, err := s.Extract(context.Background(), ReadOptions{Query: tableRequest(other), Once: true})
	if errcode.CodeOf(err) != errcode.ForeignRevision || f.captures != 0 {
		t.Fatalf("foreign revision: %v after %d captures", err, f.captures)
	}
	if _, err := s.Capture(context.Background(), ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Observe(context.Background(), ReadOptions{Once: true})
	if errcode.CodeOf(err) != errcode.InvalidRequest || f.captures != 1 {
		t.Fatalf("second one-shot read: %v after %d captures", err, f.captures)
	}
	// An ordinary extraction still requires its expected revision.
	_, _, err = s.Extract(context.Background(), ReadOptions{Query: tableRequest("")})
	if errcode.CodeOf(err) != errcode.InvalidRequest {
		t.Fatalf("extraction without revision: %v", err)
	}
}

// clock is a fake clock that advances by step on every reading.
type clock struct {
	t    time.Time
	step time.Duration
}

func (c *clock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

// TestConditionRetakes: a condition on a collection that is present is met
// by the first snapshot; one on a collection that never appears retakes the
// snapshot until its deadline and then publishes the last one, with the
// collection honestly absent. The number of snapshots follows the clock
// exactly.
func TestConditionRetakes(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name     string
		kind     aria.Kind
		index    int
		deadline time.Duration
		want     uint64
	}{
		{"present", aria.Table, 0, time.Second, 1},
		// The clock advances 1ms per reading and two readings happen per
		// snapshot (captured_at and the retry check); the poll is 1ms.
		{"absent, deadline just allows one retry", aria.Table, 5, 4 * time.Millisecond, 2},
		{"absent, deadline allows none", aria.Table, 5, 2 * time.Millisecond, 1},
		{"absent list", aria.List, 0, 6 * time.Millisecond, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeTab{capture: readCapture(t, "table-basic")}
			clk := &clock{t: start, step: time.Millisecond}
			s, _ := NewSession(f, SessionOptions{Now: clk.now})
			cond := &Condition{Kind: c.kind, Index: c.index, Deadline: start.Add(c.deadline), Poll: time.Millisecond}
			o, _, err := s.Observe(context.Background(), ReadOptions{When: cond})
			if err != nil {
				t.Fatal(err)
			}
			if f.captures != int(c.want) || s.Captures() != c.want {
				t.Fatalf("%d snapshots, want %d", f.captures, c.want)
			}
			want, _ := domsnap.LiveRevision(s.ID(), 0, 1)
			if o.Revision != want {
				t.Fatalf("revision %s, want %s: retakes must not publish", o.Revision, want)
			}
		})
	}
}

// TestConditionCancelled: a cancellation during the pause publishes
// nothing.
func TestConditionCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeTab{capture: readCapture(t, "table-basic")}
	f.captureHook = func() error { cancel(); return nil }
	s, _ := NewSession(f, SessionOptions{})
	cond := &Condition{Kind: aria.List, Deadline: time.Now().Add(time.Hour), Poll: time.Hour}
	_, _, err := s.Observe(ctx, ReadOptions{When: cond})
	if errcode.CodeOf(err) != errcode.Cancelled {
		t.Fatalf("got %v, want cancelled", err)
	}
	if _, ok, _ := s.Revision(context.Background()); ok {
		t.Fatal("a cancelled observation published a revision")
	}
}

func TestParseUntil(t *testing.T) {
	for _, s := range []string{"load", "dom_ready", "network_idle"} {
		u, ok := ParseUntil(s)
		if !ok || u.String() != s {
			t.Fatalf("%s: %v %v", s, u, ok)
		}
	}
	for _, s := range []string{"", "Load", "idle", "networkidle"} {
		if _, ok := ParseUntil(s); ok {
			t.Fatalf("%q accepted", s)
		}
	}
}

func TestSettleBounds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// A zero wait returns at once even on a cancelled context; a positive
	// one reports the cancellation.
	if err := Settle(ctx, 0, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := Settle(ctx, time.Millisecond, time.Time{}); errcode.CodeOf(err) != errcode.Cancelled {
		t.Fatalf("got %v", err)
	}
	// A deadline already passed makes the wait zero.
	if err := Settle(ctx, time.Hour, time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
}
