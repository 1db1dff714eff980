package main

import (
	"strings"
	"testing"
)

func TestCompareRead(t *testing.T) {
	a := []byte(`{"rows":[{"c0":"secret one"}],"revision":"r"}`)
	b := []byte(`{"rows":[{"c0":"secret two"}],"revision":"r"}`)
	c := []byte(`{"rows":[{"c0":"secret three"}],"revision":"r"}`)
	for _, c := range []struct {
		name                         string
		bounded, whole, again, after []byte
		want                         outcome
		ptr                          string
	}{
		{"same", a, a, a, a, same, ""},
		{"same though the page moved later", a, a, a, b, same, ""},
		{"differs on a still page", b, a, a, a, differs, "/rows/0/c0"},
		{"differs from every whole snapshot", c, a, a, b, differs, "/rows/0/c0"},
		{"two whole snapshots in a row disagree", b, a, c, a, moving, "/rows/0/c0"},
		{"the later state of a page that changed", b, a, a, b, moving, "/rows/0/c0"},
		{"an error against an answer", []byte("error: too_many_nodes"), a, a, a, differs, "/"},
	} {
		got, ptr := compareRead(c.bounded, c.whole, c.again, c.after)
		if got != c.want || ptr != c.ptr {
			t.Errorf("%s: compareRead = %d %q, want %d %q", c.name, got, ptr, c.want, c.ptr)
		}
	}
	// A pointer is cut to 64 bytes.
	long := strings.Repeat("k", 100)
	x, y := []byte(`{"`+long+`":1}`), []byte(`{"`+long+`":2}`)
	if _, ptr := compareRead(x, y, y, y); len(ptr) != maxValue+3 || !strings.HasSuffix(ptr, "...") {
		t.Errorf("a long pointer is not cut: %q", ptr)
	}
}

func TestBoundedReads(t *testing.T) {
	reads := boundedReads()
	if len(reads) != 10 || reads[0].name != "observation" || reads[0].req != nil {
		t.Fatalf("reads: %d, first %q", len(reads), reads[0].name)
	}
	for i, r := range reads[1:] {
		if r.req == nil || r.req.ExpectedRevision != "" {
			t.Errorf("read %d (%s) has no request or one with an expected revision", i+1, r.name)
		}
		// Each read has its own request, not one shared through a pointer.
		if i > 0 && r.req == reads[i].req {
			t.Errorf("reads %d and %d share a request", i, i+1)
		}
	}
	if reads[1].req.Index == reads[2].req.Index {
		t.Error("the second request is the first one again")
	}
}

func TestBoundedLineAndSummary(t *testing.T) {
	results := []boundedResult{
		{nodes: 10, runs: []budgetRun{{budget: 0, captures: 10}, {budget: 64, captures: 40}}},
		{nodes: 20, runs: []budgetRun{{budget: 0, captures: 11}, {budget: 64, captures: 50, differ: []string{"request 3 at /rows/0"}}}},
		{nodes: 30, runs: []budgetRun{{budget: 0, captures: 12, moving: []string{"observation at /text"}}, {budget: 64, captures: 60}}},
		{nodes: 40, runs: []budgetRun{{budget: 0, captures: 1, moving: []string{"observation at /text"}}, {budget: 64, captures: 2, differ: []string{"request 0 at /"}}}},
		{err: "timeout"},
	}
	want := []string{
		"agree (10 nodes; default budget: 10 captures; budget 64: 40 captures)",
		"differs (20 nodes; default budget: 11 captures; budget 64: 50 captures, differs in 1 (request 3 at /rows/0))",
		"moving (30 nodes; default budget: 12 captures, page moved in 1 (observation at /text); budget 64: 60 captures)",
		// A difference on a still page outweighs a moving one.
		"differs (40 nodes; default budget: 1 captures, page moved in 1 (observation at /text); budget 64: 2 captures, differs in 1 (request 0 at /))",
		"error timeout",
	}
	var s boundedSummary
	for i, r := range results {
		if got := r.line(); got != want[i] {
			t.Errorf("line %d = %q, want %q", i, got, want[i])
		}
		s.add(r)
	}
	sum := "pages 5, agree 1, differ 2, page moved 1, errors 1, captures at default budget 34, captures at budget 64 152"
	if got := s.String(); got != sum {
		t.Errorf("summary = %q, want %q", got, sum)
	}
}

func TestBoundedUsage(t *testing.T) {
	var out, errOut strings.Builder
	for _, args := range [][]string{{"-bounded", "-budget", "0", "x"}, {"-bounded", "-detail", "x"}} {
		if code := run(t.Context(), args, &out, &errOut); code != 2 {
			t.Errorf("run %q = %d, want 2", args, code)
		}
	}
	if out.Len() != 0 {
		t.Errorf("usage errors wrote to stdout: %q", out.String())
	}
}
