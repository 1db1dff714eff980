package domsnap

import (
	"errors"
	"testing"

	"github.com/domsnap/domsnap/errcode"
	"github.com/google/go-cmp/cmp"
)

func TestParseRevision(t *testing.T) {
	good := []struct {
		in   string
		want Revision
	}{
		{"r1.5f3a9c.n2.o7", Revision{Session: "5f3a9c", Navigation: 2, Sequence: 7}},
		{"r1.s.n0.o0", Revision{Session: "s", Navigation: 0, Sequence: 0}},
		{"r1.file.0c1d2e3f4a5b6c7d", Revision{File: "0c1d2e3f4a5b6c7d"}},
		{"r1.abc.n18446744073709551615.o1", Revision{Session: "abc", Navigation: 1<<64 - 1, Sequence: 1}},
	}
	for _, c := range good {
		got, err := ParseRevision(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%q (-want +got)\n%s", c.in, diff)
		}
		if got.String() != c.in {
			t.Errorf("%q renders as %q", c.in, got.String())
		}
	}
	bad := []string{
		"", "r1", "r1.", "r2.s.n1.o1", "R1.s.n1.o1", "r1.s.n1", "r1.s.n1.o1.x", "r1.s.n01.o1", "r1.s.n1.o01",
		"r1.s.n-1.o1", "r1.s.n+1.o1", "r1.s.x1.o1", "r1.s.n1.p1", "r1.s.n.o1", "r1.S.n1.o1", "r1.s-x.n1.o1",
		"r1.file.n1.o1", "r1.file.0c1d2e3f4a5b6c7", "r1.file.0c1d2e3f4a5b6c7d0", "r1.file.0C1D2E3F4A5B6C7D",
		"r1.file.0c1d2e3f4a5b6c7g", "r1.s.n18446744073709551616.o1", "r1..n1.o1",
		"r1." + string(make([]byte, MaxSessionChars+1)) + ".n1.o1",
	}
	for _, s := range bad {
		if _, err := ParseRevision(s); !errors.Is(err, ErrForeignRevision) {
			t.Errorf("%q: got %v, want foreign_revision", s, err)
		}
	}
	long := "r1."
	for range MaxSessionChars {
		long += "a"
	}
	if _, err := ParseRevision(long + ".n1.o1"); err != nil {
		t.Errorf("session of %d characters: %v", MaxSessionChars, err)
	}
	if _, err := ParseRevision(long + "a.n1.o1"); err == nil {
		t.Errorf("session of %d characters accepted", MaxSessionChars+1)
	}
}

func TestCheckRevision(t *testing.T) {
	const cur = "r1.abc.n3.o10"
	cases := []struct {
		name, expected, current string
		want                    errcode.Code
	}{
		{"equal live", cur, cur, ""},
		{"equal file", "r1.file.0123456789abcdef", "r1.file.0123456789abcdef", ""},
		{"malformed", "r1.abc.n3", cur, errcode.ForeignRevision},
		{"garbage", "hello", cur, errcode.ForeignRevision},
		{"other session", "r1.abd.n3.o10", cur, errcode.ForeignRevision},
		{"other file", "r1.file.0123456789abcdee", "r1.file.0123456789abcdef", errcode.ForeignRevision},
		{"file against live", "r1.file.0123456789abcdef", cur, errcode.ForeignRevision},
		{"live against file", cur, "r1.file.0123456789abcdef", errcode.ForeignRevision},
		{"older navigation", "r1.abc.n2.o9", cur, errcode.NavigatedRevision},
		{"older navigation, newer sequence", "r1.abc.n2.o11", cur, errcode.NavigatedRevision},
		{"older sequence", "r1.abc.n3.o9", cur, errcode.StaleRevision},
		{"oldest sequence", "r1.abc.n3.o0", cur, errcode.StaleRevision},
		{"newer sequence", "r1.abc.n3.o11", cur, errcode.ForeignRevision},
		{"newer navigation", "r1.abc.n4.o10", cur, errcode.ForeignRevision},
		{"malformed current", cur, "r1.abc", errcode.MalformedSnapshot},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckRevision(c.expected, c.current)
			if got := errcode.CodeOf(err); got != c.want {
				t.Fatalf("code %q, want %q (%v)", got, c.want, err)
			}
		})
	}
}

func TestLiveRevision(t *testing.T) {
	s, err := LiveRevision("5f3a9c", 2, 7)
	if err != nil || s != "r1.5f3a9c.n2.o7" {
		t.Fatalf("got %q, %v", s, err)
	}
	for _, bad := range []string{"", "file", "A", "a.b"} {
		if _, err := LiveRevision(bad, 1, 1); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("session %q: %v", bad, err)
		}
	}
}

func TestEvidenceRef(t *testing.T) {
	if got := EvidenceRef(0, 1); got != "e0.1" {
		t.Fatalf("got %q", got)
	}
	if got := EvidenceRef(7, 12); got != "e7.12" {
		t.Fatalf("got %q", got)
	}
	seq, n, ok := ParseEvidenceRef("e7.12")
	if !ok || seq != 7 || n != 12 {
		t.Fatalf("parse: %d %d %v", seq, n, ok)
	}
	for _, bad := range []string{"", "e", "e1", "e1.", "e.1", "e01.1", "e1.01", "e1.0", "x1.1", "e1.1.1", "e-1.1", "r1.s.n1.o1"} {
		if _, _, ok := ParseEvidenceRef(bad); ok {
			t.Errorf("%q parsed as an evidence reference", bad)
		}
	}
}
