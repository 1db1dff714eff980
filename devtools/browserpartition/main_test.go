package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stream renders test2json events as go test -json prints them.
func stream(t *testing.T, events ...event) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, e := range events {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

const (
	pkgLive   = "github.com/domsnap/domsnap/live"
	canary    = "CANARY-7731-form-value"
	pageText  = "Widget deluxe costs 4.50"
	failText  = "parity: offline and live results differ"
	secretURL = "http://127.0.0.1:41234/page.html?token=hunter2"
)

// hostile is a run whose output and subtest names carry everything the
// report must never contain.
func hostile(t *testing.T) []byte {
	return stream(t,
		event{Action: "start", Package: pkgLive},
		event{Action: "run", Package: pkgLive, Test: "TestParity"},
		event{Action: "run", Package: pkgLive, Test: "TestParity/" + secretURL},
		event{Action: "output", Package: pkgLive, Test: "TestParity/" + secretURL, Output: "    parity_test.go:10: " + failText + "\n"},
		event{Action: "output", Package: pkgLive, Test: "TestParity/" + secretURL, Output: "    offline cell " + pageText + " live cell " + canary + "\n"},
		event{Action: "output", Package: pkgLive, Test: "TestParity/" + secretURL, Output: "    navigated to " + secretURL + "\n"},
		event{Action: "fail", Package: pkgLive, Test: "TestParity/" + secretURL, Elapsed: 0.5},
		event{Action: "run", Package: pkgLive, Test: "TestParity/table-basic.html"},
		event{Action: "pass", Package: pkgLive, Test: "TestParity/table-basic.html", Elapsed: 0.25},
		event{Action: "fail", Package: pkgLive, Test: "TestParity", Elapsed: 0.75},
		event{Action: "run", Package: pkgLive, Test: "TestLaunchAndClose"},
		event{Action: "pass", Package: pkgLive, Test: "TestLaunchAndClose", Elapsed: 1.5},
		event{Action: "fail", Package: pkgLive, Elapsed: 2.5},
	)
}

// TestReportIsContentFree builds and writes a report from a hostile run,
// reads it back, and fails if it holds a URL, page text, a form value or
// failure text.
func TestReportIsContentFree(t *testing.T) {
	events, err := parseEvents(hostile(t))
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{ReportVersion: ReportVersion, Partition: "browser", Reasons: []string{}, Cases: []Case{}}
	summarize(rep, events, []string{pkgLive})
	dir := t.TempDir()
	if err := writeReport(dir, rep, outputLines(events)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "browser-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{canary, pageText, failText, secretURL, "127.0.0.1", "hunter2", "table-basic", "://", "parity_test.go"} {
		if bytes.Contains(data, []byte(bad)) {
			t.Errorf("report contains %q:\n%s", bad, data)
		}
	}
	var got Report
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := []Case{
		{Package: pkgLive, Test: "TestLaunchAndClose", Outcome: "pass", DurationSeconds: 1.5},
		{Package: pkgLive, Test: "TestParity", Outcome: "fail", DurationSeconds: 0.75, Subtests: Counts{Total: 2, Passed: 1, Failed: 1}},
	}
	if diff := cmp.Diff(want, got.Cases); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	if got.Status != "" || !contains(got.Reasons, reasonFailed) {
		// Status is set by run's finish; summarize alone records reasons.
		t.Errorf("status %q reasons %v", got.Status, got.Reasons)
	}
}

// TestContentCheckCatches makes sure the guard itself can fail: a report that
// carries a URL or a line of output is refused.
func TestContentCheckCatches(t *testing.T) {
	outputs := []string{"offline cell " + pageText}
	for _, data := range []string{
		`{"cases":[{"test":"` + secretURL + `"}]}`,
		`{"note":"offline cell ` + pageText + `"}`,
		`{"host":"localhost"}`,
	} {
		if err := checkContentFree([]byte(data), outputs); err == nil {
			t.Errorf("accepted %s", data)
		}
	}
	if err := checkContentFree([]byte(`{"cases":[{"package":"github.com/domsnap/domsnap/live","test":"TestParity"}]}`), outputs); err != nil {
		t.Errorf("refused a clean report: %v", err)
	}
}

func readReport(t *testing.T, dir string) Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "browser-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFailsWithoutChromium points the partition at a missing binary: it must
// fail, say why in the report, and run nothing.
func TestFailsWithoutChromium(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"-chrome", "/nonexistent/chromium", "-reports", dir}, "", &out, &errs)
	if code == 0 {
		t.Fatalf("exit 0 without Chromium; stderr: %s", errs.String())
	}
	r := readReport(t, dir)
	if r.Status != "fail" || !contains(r.Reasons, reasonBrowser) || r.Counts.Total != 0 {
		t.Fatalf("report %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "browser-junit.xml")); !os.IsNotExist(err) {
		t.Fatal("a JUnit file was written although nothing ran")
	}
}

func TestRefusesFilters(t *testing.T) {
	for _, c := range []struct {
		args    []string
		goflags string
	}{
		{[]string{"-run", "TestParity"}, ""},
		{[]string{"-skip=TestParity"}, ""},
		{[]string{"./live"}, ""},
		{nil, "-run=TestParity"},
		{nil, "-count=1 -test.skip=Parity"},
	} {
		dir := t.TempDir()
		var out, errs bytes.Buffer
		args := append([]string{"-reports", dir}, c.args...)
		if code := run(context.Background(), args, c.goflags, &out, &errs); code == 0 {
			t.Errorf("%v GOFLAGS=%q: exit 0", c.args, c.goflags)
			continue
		}
		if r := readReport(t, dir); !contains(r.Reasons, reasonFilter) {
			t.Errorf("%v GOFLAGS=%q: reasons %v", c.args, c.goflags, r.Reasons)
		}
	}
	if hasFilter("-count=1 -v") {
		t.Error("-count and -v are not filters")
	}
}

// TestVerdicts checks each way a run that completed can still fail.
func TestVerdicts(t *testing.T) {
	other := "github.com/domsnap/domsnap/cmd/domsnap"
	cases := []struct {
		name   string
		events []event
		pkgs   []string
		want   []string
	}{
		{"all pass", []event{
			{Action: "run", Package: pkgLive, Test: "TestA"},
			{Action: "pass", Package: pkgLive, Test: "TestA"},
		}, []string{pkgLive}, nil},
		{"nothing ran", []event{{Action: "output", Package: pkgLive, Output: "testing: warning: no tests to run\n"}, {Action: "pass", Package: pkgLive}},
			[]string{pkgLive}, []string{reasonNothingRan, reasonPackageEmpty}},
		{"one package ran nothing", []event{
			{Action: "run", Package: pkgLive, Test: "TestA"},
			{Action: "pass", Package: pkgLive, Test: "TestA"},
		}, []string{other, pkgLive}, []string{reasonPackageEmpty}},
		{"a skipped test", []event{
			{Action: "run", Package: pkgLive, Test: "TestA"},
			{Action: "skip", Package: pkgLive, Test: "TestA"},
		}, []string{pkgLive}, []string{reasonSkipped}},
		{"a skipped subtest", []event{
			{Action: "run", Package: pkgLive, Test: "TestA"},
			{Action: "skip", Package: pkgLive, Test: "TestA/page"},
			{Action: "pass", Package: pkgLive, Test: "TestA"},
		}, []string{pkgLive}, []string{reasonSkipped}},
		{"a test that never ended", []event{
			{Action: "run", Package: pkgLive, Test: "TestA"},
			{Action: "fail", Package: pkgLive},
		}, []string{pkgLive}, []string{reasonUnfinished}},
		{"build failure", []event{{Action: "build-fail", Package: pkgLive}}, []string{pkgLive},
			[]string{reasonBuild, reasonNothingRan, reasonPackageEmpty}},
	}
	for _, c := range cases {
		rep := &Report{Reasons: []string{}}
		summarize(rep, c.events, c.pkgs)
		want := c.want
		if want == nil {
			want = []string{}
		}
		if diff := cmp.Diff(want, rep.Reasons); diff != "" {
			t.Errorf("%s: reasons (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestBrowserPackagesFound(t *testing.T) {
	groups, err := browserPackages(context.Background(), config{goCmd: "go", dir: "../.."})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := allPackages(groups)
	if !contains(pkgs, pkgLive) {
		t.Fatalf("browser packages %v lack %s", pkgs, pkgLive)
	}
	// The dev programs' module has browser tests of its own (the real-page
	// check), which the partition must run too.
	if !contains(pkgs, "github.com/domsnap/domsnap/devtools/realparity") {
		t.Fatalf("browser packages %v lack the devtools module's realparity", pkgs)
	}
	for _, p := range pkgs {
		if strings.HasSuffix(p, "/limits") || strings.HasSuffix(p, "/domtree") {
			t.Errorf("%s has no browser tests but was selected", p)
		}
	}
}

// TestFailuresPrinted runs the hostile stream through the terminal printer:
// the failed test's failure text and its name reach the terminal (so a CI log
// read from its end says what failed and why), a passing test's output does
// not, and a long failure is cut to its last lines.
func TestFailuresPrinted(t *testing.T) {
	events, err := parseEvents(hostile(t))
	if err != nil {
		t.Fatal(err)
	}
	events = append(events, event{Action: "output", Package: pkgLive, Test: "TestLaunchAndClose", Output: "launched fine, nothing to see\n"})
	rep := &Report{}
	summarize(rep, events, []string{pkgLive})
	var w bytes.Buffer
	printFailures(&w, rep, events)
	got := w.String()
	for _, want := range []string{failText, "=== output of failed " + pkgLive + " TestParity\n", "failed: " + pkgLive + " TestParity\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "launched fine") || strings.Contains(got, "TestLaunchAndClose") {
		t.Errorf("terminal shows a passing test:\n%s", got)
	}

	var long []event
	for i := 0; i < failureLines+5; i++ {
		long = append(long, event{Action: "output", Package: pkgLive, Test: "TestLong/sub", Output: fmt.Sprintf("line %03d\n", i)})
	}
	long = append(long, event{Action: "fail", Package: pkgLive, Test: "TestLong"})
	rep = &Report{}
	summarize(rep, long, []string{pkgLive})
	w.Reset()
	printFailures(&w, rep, long)
	got = w.String()
	if strings.Contains(got, "line 004\n") || !strings.Contains(got, "line 005\n") || !strings.Contains(got, fmt.Sprintf("line %03d\n", failureLines+4)) {
		t.Errorf("long failure not cut to its last %d lines:\n%s", failureLines, got)
	}

	w.Reset()
	rep = &Report{}
	passing := []event{{Action: "output", Package: pkgLive, Test: "TestA", Output: "fine\n"}, {Action: "pass", Package: pkgLive, Test: "TestA"}}
	summarize(rep, passing, []string{pkgLive})
	printFailures(&w, rep, passing)
	if w.Len() != 0 {
		t.Errorf("a passing run printed %q", w.String())
	}
}
