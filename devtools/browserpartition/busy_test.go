package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestRunEndsBusyLoops: the loops -busy asks for run while the partition
// does and have all ended when it returns, here on the path where
// Chromium is missing; the report says how many ran. A count below zero
// is refused and starts none.
func TestRunEndsBusyLoops(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	before := busyStarted.Load()
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-busy", "2", "-chrome", "/nonexistent/chromium", "-reports", dir}, "", &out, &errs); code == 0 {
		t.Fatalf("exit 0 without Chromium; stderr: %s", errs.String())
	}
	if n := busyStarted.Load() - before; n != 2 {
		t.Fatalf("%d busy loops started, want 2", n)
	}
	if n := busyRunning.Load(); n != 0 {
		t.Fatalf("%d busy loops still spin after the run returned", n)
	}
	if p := runtime.GOMAXPROCS(0); p != procs {
		t.Fatalf("GOMAXPROCS %d after the run, %d before", p, procs)
	}
	if r := readReport(t, dir); r.BusyLoops != 2 || !contains(r.Reasons, reasonBrowser) {
		t.Fatalf("report %+v", r)
	}
	if !strings.Contains(out.String(), "2 busy loops beside") {
		t.Fatalf("the summary does not say the run was loaded: %s", out.String())
	}

	dir = t.TempDir()
	before = busyStarted.Load()
	if code := run(context.Background(), []string{"-busy", "-1", "-reports", dir}, "", &out, &errs); code == 0 {
		t.Fatal("exit 0 with -busy -1")
	}
	if r := readReport(t, dir); !contains(r.Reasons, reasonBadFlag) {
		t.Fatalf("-busy -1: reasons %v", r.Reasons)
	}
	if n := busyStarted.Load() - before; n != 0 {
		t.Fatalf("-busy -1 started %d loops", n)
	}
}
