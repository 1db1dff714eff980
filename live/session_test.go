package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
)

// fakeTab is a Driver and Snapshotter whose every step can fail, cancel the
// caller's context or navigate.
type fakeTab struct {
	nav     uint64
	capture json.RawMessage
	// navHook runs on each Navigations call (numbered from 1); captureHook
	// runs inside captureSnapshot. A non-nil error is returned by the call.
	navHook     func(call int) error
	captureHook func() error
	navCalls    int
	// base is subtracted from the call number navHook sees, so a hook
	// counts the calls of the observation under test from 1.
	base     int
	captures int
	styles   []string
}

func (f *fakeTab) Navigations(ctx context.Context) (uint64, error) {
	f.navCalls++
	if f.navHook != nil {
		if err := f.navHook(f.navCalls - f.base); err != nil {
			return f.nav, err
		}
	}
	return f.nav, nil
}

func (f *fakeTab) captureSnapshot(ctx context.Context, styles []string) (json.RawMessage, error) {
	f.captures++
	f.styles = append([]string(nil), styles...)
	if f.captureHook != nil {
		if err := f.captureHook(); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return f.capture, nil
}

// navOnly is an adapter that can follow navigations but take no snapshot.
type navOnly struct{}

func (navOnly) Navigations(context.Context) (uint64, error) { return 0, nil }

func readCapture(t testing.TB, name string) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "captures", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(data)
}

// tableRequest asks for the first table's first two columns.
func tableRequest(expected string) domsnap.Request {
	req, err := domsnap.DecodeRequest([]byte(`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"},{"name":"b","column":1,"type":"string"}]}`))
	if err != nil {
		panic(err)
	}
	req.ExpectedRevision = expected
	return req
}

// zeros makes session parts predictable in tests.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func newFakeSession(t testing.TB) (*Session, *fakeTab) {
	t.Helper()
	f := &fakeTab{capture: readCapture(t, "table-basic")}
	s, err := NewSession(f, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

// first publishes an observation and returns its revision.
func first(t testing.TB, s *Session) string {
	t.Helper()
	snap, err := s.Capture(context.Background(), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return snap.Revision
}

func wantCode(t testing.TB, err error, code errcode.Code) {
	t.Helper()
	if got := errcode.CodeOf(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

func TestSessionRevisions(t *testing.T) {
	s, f := newFakeSession(t)
	ctx := context.Background()
	if len(s.ID()) != 2*sessionBytes {
		t.Fatalf("session part %q", s.ID())
	}
	if _, ok, _ := s.Revision(ctx); ok {
		t.Fatal("a revision before any observation")
	}
	// Nothing published yet: even the revision the first observation will
	// get cannot be presented.
	_, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest("r1." + s.ID() + ".n0.o0")})
	wantCode(t, err, errcode.ForeignRevision)
	_, _, err = s.Extract(ctx, ReadOptions{Query: tableRequest("")})
	wantCode(t, err, errcode.InvalidRequest)

	r1 := first(t, s)
	if want := "r1." + s.ID() + ".n0.o1"; r1 != want {
		t.Fatalf("first revision %q, want %q", r1, want)
	}
	res, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(r1)})
	if err != nil {
		t.Fatal(err)
	}
	r2 := res.Revision
	if want := "r1." + s.ID() + ".n0.o2"; r2 != want {
		t.Fatalf("extraction revision %q, want %q", r2, want)
	}
	if !res.Collection.Found || !strings.HasPrefix(res.Collection.Evidence, "e2.") {
		t.Fatalf("collection %+v", res.Collection)
	}
	if got, want := f.styles, []string{"display", "visibility"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("styles %v", got)
	}

	cases := []struct {
		expected string
		code     errcode.Code
	}{
		{r1, errcode.StaleRevision},
		{"r1." + s.ID() + ".n0.o3", errcode.ForeignRevision},
		{"r1.0123456789abcdef.n0.o2", errcode.ForeignRevision},
		{"r1.file.0123456789abcdef", errcode.ForeignRevision},
		{"not a revision", errcode.ForeignRevision},
		{"r1." + s.ID() + ".n1.o2", errcode.ForeignRevision},
	}
	for _, c := range cases {
		before := f.captures
		_, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(c.expected)})
		wantCode(t, err, c.code)
		if f.captures != before {
			t.Fatalf("%q: a snapshot was taken before the revision was rejected", c.expected)
		}
	}
	// A rejected revision changes nothing: r2 is still current.
	if rev, ok, _ := s.Revision(ctx); rev != r2 || !ok {
		t.Fatalf("revision %q %v after rejections, want %q current", rev, ok, r2)
	}

	f.nav++ // the page navigates
	_, _, err = s.Extract(ctx, ReadOptions{Query: tableRequest(r2)})
	wantCode(t, err, errcode.NavigatedRevision)
	_, _, err = s.Extract(ctx, ReadOptions{Query: tableRequest("r1." + s.ID() + ".n1.o2")})
	wantCode(t, err, errcode.ForeignRevision)
	r3 := first(t, s)
	if want := "r1." + s.ID() + ".n1.o3"; r3 != want {
		t.Fatalf("after navigation %q, want %q", r3, want)
	}
	if _, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(r3)}); err != nil {
		t.Fatal(err)
	}
}

func TestSessionPartIsRandom(t *testing.T) {
	a, _ := NewSession(&fakeTab{}, SessionOptions{})
	b, _ := NewSession(&fakeTab{}, SessionOptions{})
	if a.ID() == b.ID() {
		t.Fatal("two sessions share a session part")
	}
	z, _ := NewSession(&fakeTab{}, SessionOptions{Rand: zeros{}})
	if z.ID() != "0000000000000000" {
		t.Fatalf("session part from zeros: %q", z.ID())
	}
	_, err := NewSession(&fakeTab{}, SessionOptions{Rand: bytes.NewReader(nil)})
	wantCode(t, err, errcode.CaptureFailed)
}

// TestAtomicObservation fails or cancels each step of an observation in
// turn. Every time, nothing is published, the previous observation is
// invalidated, and the next observation takes the next sequence number.
func TestAtomicObservation(t *testing.T) {
	boom := errors.New("boom")
	type setup func(f *fakeTab, cancel context.CancelFunc)
	cases := []struct {
		name  string
		setup setup
		code  errcode.Code
	}{
		{"cancelled before start", func(f *fakeTab, cancel context.CancelFunc) { cancel() }, errcode.Cancelled},
		{"navigations fail before capture", func(f *fakeTab, cancel context.CancelFunc) {
			f.navHook = func(call int) error { return boom }
		}, errcode.CaptureFailed},
		{"capture fails", func(f *fakeTab, cancel context.CancelFunc) {
			f.captureHook = func() error { return boom }
		}, errcode.CaptureFailed},
		{"capture cancelled", func(f *fakeTab, cancel context.CancelFunc) {
			f.captureHook = func() error { cancel(); return nil }
		}, errcode.Cancelled},
		{"adapter reports unsupported mid-way", func(f *fakeTab, cancel context.CancelFunc) {
			f.captureHook = func() error { return errcode.New(errcode.UnsupportedAdapter, "fake", "", "no snapshots") }
		}, errcode.UnsupportedAdapter},
		{"navigation during capture", func(f *fakeTab, cancel context.CancelFunc) {
			f.captureHook = func() error { f.nav++; return nil }
		}, errcode.NavigatedDuringCapture},
		{"navigations fail after capture", func(f *fakeTab, cancel context.CancelFunc) {
			f.navHook = func(call int) error {
				if call == 2 {
					return boom
				}
				return nil
			}
		}, errcode.CaptureFailed},
		{"cancelled after capture", func(f *fakeTab, cancel context.CancelFunc) {
			f.navHook = func(call int) error {
				if call == 2 {
					cancel()
				}
				return nil
			}
		}, errcode.Cancelled},
		{"capture is not JSON", func(f *fakeTab, cancel context.CancelFunc) {
			f.capture = json.RawMessage(`{"documents":[`)
		}, errcode.MalformedSnapshot},
		{"capture is not a tree", func(f *fakeTab, cancel context.CancelFunc) {
			f.capture = json.RawMessage(`{"documents":[{"nodes":{"parentIndex":[-1,5],"nodeType":[9,1],"nodeName":[0,0],"nodeValue":[-1,-1],"backendNodeId":[1,2]},"layout":{"nodeIndex":[],"styles":[]}}],"strings":["x"]}`)
		}, errcode.MalformedSnapshot},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, f := newFakeSession(t)
			prev := first(t, s)
			good := f.capture
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			f.base = f.navCalls
			c.setup(f, cancel)
			res, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(prev)})
			wantCode(t, err, c.code)
			if res != nil {
				t.Fatal("a result came with the error")
			}
			rev, ok, _ := s.Revision(context.Background())
			if rev != prev || ok {
				t.Fatalf("after failure: revision %q current=%v, want %q invalidated", rev, ok, prev)
			}
			f.navHook, f.captureHook, f.capture = nil, nil, good
			_, _, err = s.Extract(context.Background(), ReadOptions{Query: tableRequest(prev)})
			if c.code == errcode.NavigatedDuringCapture {
				wantCode(t, err, errcode.NavigatedRevision)
			} else {
				wantCode(t, err, errcode.StaleRevision)
			}
			next := first(t, s)
			want := "r1." + s.ID() + ".n" + itoa(f.nav) + ".o2"
			if next != want {
				t.Fatalf("next revision %q, want %q (a failed observation takes no number)", next, want)
			}
			if _, _, err := s.Extract(context.Background(), ReadOptions{Query: tableRequest(next)}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestUnsupportedAdapter(t *testing.T) {
	s, err := NewSession(navOnly{}, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, exp := range []string{"", "r1." + s.ID() + ".n0.o1", "garbage"} {
		req := tableRequest(exp)
		if exp == "" {
			// Even a request that would otherwise need a revision gets the
			// adapter's answer once it is valid.
			req.ExpectedRevision = "r1." + s.ID() + ".n0.o0"
		}
		res, _, err := s.Extract(context.Background(), ReadOptions{Query: req})
		wantCode(t, err, errcode.UnsupportedAdapter)
		if res != nil {
			t.Fatal("unsupported adapter returned a result")
		}
	}
	_, err = s.Capture(context.Background(), ReadOptions{})
	wantCode(t, err, errcode.UnsupportedAdapter)
	if !errors.Is(err, domsnap.ErrUnsupportedAdapter) {
		t.Fatal("errors.Is does not match the sentinel")
	}
}

// TestSessionModel drives a session with random operations and checks it
// against a model of docs/reference.md#revisions: sequences grow by one per published
// observation, and a revision is accepted exactly when it is the last
// published one, for the current document, with no failure since.
func TestSessionModel(t *testing.T) {
	capture := readCapture(t, "table-basic")
	rapid.Check(t, func(rt *rapid.T) {
		f := &fakeTab{capture: capture}
		s, err := NewSession(f, SessionOptions{})
		if err != nil {
			rt.Fatal(err)
		}
		var (
			seq, pubNav uint64
			invalid     bool
			seen        []string // every revision ever published
		)
		ctx := context.Background()
		steps := rapid.IntRange(1, 30).Draw(rt, "steps")
		for range steps {
			switch op := rapid.IntRange(0, 3).Draw(rt, "op"); op {
			case 0: // navigate
				f.nav++
			case 1: // a capture that fails
				f.captureHook = func() error { return errors.New("boom") }
				_, err := s.Capture(ctx, ReadOptions{})
				f.captureHook = nil
				if errcode.CodeOf(err) != errcode.CaptureFailed {
					rt.Fatalf("failing capture: %v", err)
				}
				invalid = seq > 0
			case 2: // a plain capture
				snap, err := s.Capture(ctx, ReadOptions{})
				if err != nil {
					rt.Fatal(err)
				}
				seq, pubNav, invalid = seq+1, f.nav, false
				want := "r1." + s.ID() + ".n" + itoa(f.nav) + ".o" + itoa(seq)
				if snap.Revision != want {
					rt.Fatalf("revision %q, want %q", snap.Revision, want)
				}
				seen = append(seen, snap.Revision)
			case 3: // an extraction naming some published revision
				if len(seen) == 0 {
					continue
				}
				i := rapid.IntRange(0, len(seen)-1).Draw(rt, "which")
				exp := seen[i]
				res, _, err := s.Extract(ctx, ReadOptions{Query: tableRequest(exp)})
				last := i == len(seen)-1
				switch {
				case last && !invalid && pubNav == f.nav:
					if err != nil {
						rt.Fatalf("current revision %q refused: %v", exp, err)
					}
					seq++
					seen = append(seen, res.Revision)
				case err == nil:
					rt.Fatalf("revision %q accepted (last=%v invalid=%v nav %d/%d)", exp, last, invalid, pubNav, f.nav)
				default:
					r, _ := domsnap.ParseRevision(exp)
					want := errcode.StaleRevision
					if r.Navigation < f.nav {
						want = errcode.NavigatedRevision
					}
					if got := errcode.CodeOf(err); got != want {
						rt.Fatalf("revision %q: %q, want %q", exp, got, want)
					}
				}
			}
		}
	})
}
