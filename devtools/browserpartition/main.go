package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/jstemmer/go-junit-report/v2/junit"
	"github.com/jstemmer/go-junit-report/v2/parser/gotest"

	"github.com/domsnap/domsnap/live"
)

// ReportVersion is the version of the JSON report's format.
const ReportVersion = "1"

// Report is the content-free JSON report.
type Report struct {
	ReportVersion string   `json:"report_version"`
	Partition     string   `json:"partition"`
	Status        string   `json:"status"` // "pass" or "fail"
	Reasons       []string `json:"reasons"`
	Source        Source   `json:"source"`
	Versions      Versions `json:"versions"`
	Cases         []Case   `json:"cases"`
	Counts        Counts   `json:"counts"`
	// DurationSeconds is the wall time of the whole partition.
	DurationSeconds float64 `json:"duration_seconds"`
	// BusyLoops is how many busy loops ran beside the tests (-busy).
	BusyLoops int `json:"busy_loops"`
}

// Source identifies the code that was tested.
type Source struct {
	Revision string `json:"revision"`
	Dirty    bool   `json:"dirty"`
}

// Versions are the toolchain, library and browser identities.
type Versions struct {
	Go        string            `json:"go"`
	Libraries map[string]string `json:"libraries"`
	Browser   string            `json:"browser"`
	Protocol  string            `json:"protocol"`
}

// Case is one top-level test. Subtests are counted, never named.
type Case struct {
	Package         string  `json:"package"`
	Test            string  `json:"test"`
	Outcome         string  `json:"outcome"` // pass, fail, skip or unfinished
	DurationSeconds float64 `json:"duration_seconds"`
	Subtests        Counts  `json:"subtests"`
}

// Counts tally outcomes.
type Counts struct {
	Total      int `json:"total"`
	Passed     int `json:"passed"`
	Failed     int `json:"failed"`
	Skipped    int `json:"skipped"`
	Unfinished int `json:"unfinished"`
}

// Failure reasons: stable codes, never text from a test.
const (
	reasonFilter        = "filter_given"
	reasonBrowser       = "browser_missing"
	reasonBrowserStart  = "browser_did_not_start"
	reasonNoPackages    = "no_browser_packages"
	reasonNothingRan    = "nothing_ran"
	reasonPackageEmpty  = "package_ran_nothing"
	reasonSkipped       = "cases_skipped"
	reasonFailed        = "cases_failed"
	reasonUnfinished    = "cases_unfinished"
	reasonGoTest        = "go_test_failed"
	reasonBuild         = "build_failed"
	reasonReportContent = "report_not_content_free"
	reasonBadFlag       = "flag_invalid"
)

type config struct {
	reports string
	chrome  string
	timeout time.Duration
	// busy is how many busy loops run beside the tests.
	busy int
	// goCmd and dir are the go command and the repository's root; tests
	// point them elsewhere.
	goCmd string
	dir   string
}

// modules are the folders, under the repository's root, of the Go modules
// whose browser tests the partition runs: the product, and the dev-only
// programs (a module of their own, so that `go install ./...` from the root
// installs only the command).
var modules = []string{".", "devtools"}

// group is the browser packages of one module.
type group struct {
	module string
	pkgs   []string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv("GOFLAGS"), os.Stdout, os.Stderr))
}

// run is the whole partition; it returns the exit status.
func run(ctx context.Context, args []string, goflags string, stdout, stderr io.Writer) int {
	start := time.Now()
	fs := flag.NewFlagSet("browserpartition", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := config{goCmd: "go", dir: "."}
	fs.StringVar(&cfg.reports, "reports", "reports", "folder the JUnit and JSON reports are written to")
	fs.StringVar(&cfg.chrome, "chrome", "", "Chromium binary (default: $"+live.EnvChrome+", then the usual paths)")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Minute, "go test timeout")
	fs.IntVar(&cfg.busy, "busy", 0, "how many busy loops, each keeping one core busy, run beside the tests from start to end, so that a case that depends on how busy the machine is fails here")
	rep := &Report{ReportVersion: ReportVersion, Partition: "browser", Reasons: []string{}, Cases: []Case{},
		Versions: Versions{Go: runtime.Version(), Libraries: map[string]string{}}}
	finish := func(outputs []string) int {
		rep.DurationSeconds = seconds(time.Since(start))
		if len(rep.Reasons) == 0 {
			rep.Status = "pass"
		} else {
			rep.Status = "fail"
		}
		if err := writeReport(cfg.reports, rep, outputs); err != nil {
			fmt.Fprintln(stderr, "browserpartition:", err)
			return 1
		}
		fmt.Fprintf(stdout, "browser partition: %s: %d cases, %d passed, %d failed, %d skipped (%d subtests); %d busy loops beside; reasons %v; report in %s\n",
			rep.Status, rep.Counts.Total, rep.Counts.Passed, rep.Counts.Failed, rep.Counts.Skipped, subtestTotal(rep), rep.BusyLoops, rep.Reasons, cfg.reports)
		if rep.Status != "pass" {
			return 1
		}
		return 0
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "browserpartition: the browser partition runs every browser test and takes no test selection")
		rep.Reasons = append(rep.Reasons, reasonFilter)
		return finish(nil)
	}
	if hasFilter(goflags) {
		fmt.Fprintln(stderr, "browserpartition: GOFLAGS selects tests; the browser partition refuses any filter")
		rep.Reasons = append(rep.Reasons, reasonFilter)
		return finish(nil)
	}
	if cfg.busy < 0 {
		fmt.Fprintln(stderr, "browserpartition: -busy is a count of busy loops, 0 or more")
		rep.Reasons = append(rep.Reasons, reasonBadFlag)
		return finish(nil)
	}
	// The loops end when run returns, on every path; whatever ends the
	// process ends them too, as they are its threads.
	stopBusy := busy(cfg.busy)
	defer stopBusy()
	rep.BusyLoops = cfg.busy
	if cfg.busy > 0 {
		fmt.Fprintf(stderr, "browserpartition: %d busy loops run beside the tests\n", cfg.busy)
	}
	rep.Source = sourceState(ctx, cfg.dir)
	rep.Versions.Libraries = libraries(ctx, cfg)

	path, err := live.FindChrome(cfg.chrome)
	if err != nil {
		fmt.Fprintln(stderr, "browserpartition:", err)
		rep.Reasons = append(rep.Reasons, reasonBrowser)
		return finish(nil)
	}
	b, err := live.Launch(ctx, live.Options{Path: path})
	if err != nil {
		fmt.Fprintln(stderr, "browserpartition:", err)
		rep.Reasons = append(rep.Reasons, reasonBrowserStart)
		return finish(nil)
	}
	rep.Versions.Browser, rep.Versions.Protocol = b.Version(), b.ProtocolVersion()
	b.Close()

	groups, err := browserPackages(ctx, cfg)
	pkgs := allPackages(groups)
	if err != nil || len(pkgs) == 0 {
		if err != nil {
			fmt.Fprintln(stderr, "browserpartition:", err)
		}
		rep.Reasons = append(rep.Reasons, reasonNoPackages)
		return finish(nil)
	}
	out, testErr := goTests(ctx, cfg, path, groups, stderr)
	events, err := parseEvents(out)
	if err != nil {
		fmt.Fprintln(stderr, "browserpartition: reading go test -json:", err)
	}
	summarize(rep, events, pkgs)
	printFailures(stderr, rep, events)
	if testErr != nil && !contains(rep.Reasons, reasonFailed) {
		rep.Reasons = append(rep.Reasons, reasonGoTest)
	}
	if err := writeJUnit(cfg.reports, out); err != nil {
		fmt.Fprintln(stderr, "browserpartition: JUnit:", err)
		rep.Reasons = append(rep.Reasons, reasonGoTest)
	}
	return finish(outputLines(events))
}

// hasFilter reports whether GOFLAGS carries a test selection.
func hasFilter(goflags string) bool {
	for _, f := range strings.Fields(goflags) {
		name := strings.TrimLeft(f, "-")
		name, _, _ = strings.Cut(name, "=")
		switch strings.TrimPrefix(name, "test.") {
		case "run", "skip", "list", "bench", "short", "shuffle", "failfast":
			return true
		}
	}
	return false
}

func sourceState(ctx context.Context, dir string) Source {
	var s Source
	if out, err := command(ctx, dir, "git", "rev-parse", "HEAD"); err == nil {
		s.Revision = strings.TrimSpace(string(out))
	}
	if out, err := command(ctx, dir, "git", "status", "--porcelain", "--untracked-files=no"); err == nil {
		s.Dirty = len(bytes.TrimSpace(out)) > 0
	}
	return s
}

// libraries are the module's direct requirements and their versions.
func libraries(ctx context.Context, cfg config) map[string]string {
	libs := map[string]string{}
	out, err := command(ctx, cfg.dir, cfg.goCmd, "list", "-m", "-f", "{{if not .Indirect}}{{if not .Main}}{{.Path}} {{.Version}}{{end}}{{end}}", "all")
	if err != nil {
		return libs
	}
	for _, line := range strings.Split(string(out), "\n") {
		if p, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			libs[p] = v
		}
	}
	return libs
}

// browserPackages lists, module by module, the packages whose tests include
// files that only the browser build tag selects.
func browserPackages(ctx context.Context, cfg config) ([]group, error) {
	var groups []group
	for _, m := range modules {
		pkgs, err := moduleBrowserPackages(ctx, cfg, filepath.Join(cfg.dir, m))
		if err != nil {
			return nil, err
		}
		if len(pkgs) > 0 {
			groups = append(groups, group{module: m, pkgs: pkgs})
		}
	}
	return groups, nil
}

// allPackages is every package of groups, in order.
func allPackages(groups []group) []string {
	var all []string
	for _, g := range groups {
		all = append(all, g.pkgs...)
	}
	return all
}

func moduleBrowserPackages(ctx context.Context, cfg config, dir string) ([]string, error) {
	const format = "{{.ImportPath}} {{join .TestGoFiles \",\"}} {{join .XTestGoFiles \",\"}}"
	plain, err := command(ctx, dir, cfg.goCmd, "list", "-f", format, "./...")
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w", dir, err)
	}
	tagged, err := command(ctx, dir, cfg.goCmd, "list", "-tags", "browser", "-f", format, "./...")
	if err != nil {
		return nil, fmt.Errorf("go list -tags browser in %s: %w", dir, err)
	}
	before := map[string]string{}
	for _, l := range strings.Split(string(plain), "\n") {
		if p, files, ok := strings.Cut(l, " "); ok {
			before[p] = files
		}
	}
	var pkgs []string
	for _, l := range strings.Split(string(tagged), "\n") {
		if p, files, ok := strings.Cut(l, " "); ok && files != before[p] {
			pkgs = append(pkgs, p)
		}
	}
	sort.Strings(pkgs)
	return pkgs, nil
}

// goTests runs each module's browser tests, one go test after the other, and
// returns their JSON streams joined (each line names its package, so the
// joined stream reads as one run). The first failure is returned after every
// module has run.
func goTests(ctx context.Context, cfg config, chrome string, groups []group, stderr io.Writer) ([]byte, error) {
	var all []byte
	var firstErr error
	for _, g := range groups {
		out, err := goTest(ctx, cfg, filepath.Join(cfg.dir, g.module), chrome, g.pkgs, stderr)
		all = append(all, out...)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return all, firstErr
}

// goTest runs the browser tests and returns go test's JSON stream. Progress
// for people goes to stderr: one line per top-level test.
func goTest(ctx context.Context, cfg config, dir, chrome string, pkgs []string, stderr io.Writer) ([]byte, error) {
	args := append([]string{"test", "-tags", "browser", "-json", "-count=1", "-timeout", cfg.timeout.String()}, pkgs...)
	cmd := exec.CommandContext(ctx, cfg.goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), live.EnvChrome+"="+chrome, "GOFLAGS=")
	var out bytes.Buffer
	pr, pw := io.Pipe()
	cmd.Stdout = io.MultiWriter(&out, pw)
	cmd.Stderr = stderr
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Test != "" && !strings.Contains(e.Test, "/") {
				switch e.Action {
				case "pass", "fail", "skip":
					fmt.Fprintf(stderr, "--- %s %s %s (%.2fs)\n", strings.ToUpper(e.Action), e.Package, e.Test, e.Elapsed)
				}
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	err := cmd.Run()
	pw.Close()
	<-done
	return out.Bytes(), err
}

// event is one line of go test -json (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

func parseEvents(data []byte) ([]event, error) {
	var events []event
	var firstErr error
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		events = append(events, e)
	}
	return events, firstErr
}

// summarize turns events into cases, counts and failure reasons.
func summarize(rep *Report, events []event, pkgs []string) {
	type key struct{ pkg, test string }
	index := map[key]int{}
	ranIn := map[string]int{}
	buildFailed := false
	for _, e := range events {
		if e.Action == "build-fail" {
			buildFailed = true
		}
		if e.Test == "" {
			continue
		}
		top, _, isSub := strings.Cut(e.Test, "/")
		k := key{e.Package, top}
		i, ok := index[k]
		if !ok {
			i = len(rep.Cases)
			index[k] = i
			rep.Cases = append(rep.Cases, Case{Package: e.Package, Test: top, Outcome: "unfinished"})
			ranIn[e.Package]++
		}
		c := &rep.Cases[i]
		switch e.Action {
		case "pass", "fail", "skip":
			if isSub {
				c.Subtests.Total++
				tally(&c.Subtests, e.Action)
			} else {
				c.Outcome = e.Action
				c.DurationSeconds = e.Elapsed
			}
		}
	}
	sort.SliceStable(rep.Cases, func(i, j int) bool {
		if rep.Cases[i].Package != rep.Cases[j].Package {
			return rep.Cases[i].Package < rep.Cases[j].Package
		}
		return rep.Cases[i].Test < rep.Cases[j].Test
	})
	subSkipped, subFailed := 0, 0
	for _, c := range rep.Cases {
		rep.Counts.Total++
		switch c.Outcome {
		case "pass":
			rep.Counts.Passed++
		case "fail":
			rep.Counts.Failed++
		case "skip":
			rep.Counts.Skipped++
		default:
			rep.Counts.Unfinished++
		}
		subSkipped += c.Subtests.Skipped
		subFailed += c.Subtests.Failed
	}
	add := func(r string) {
		if !contains(rep.Reasons, r) {
			rep.Reasons = append(rep.Reasons, r)
		}
	}
	if buildFailed {
		add(reasonBuild)
	}
	if rep.Counts.Total == 0 {
		add(reasonNothingRan)
	}
	for _, p := range pkgs {
		if ranIn[p] == 0 {
			add(reasonPackageEmpty)
		}
	}
	if rep.Counts.Skipped > 0 || subSkipped > 0 {
		add(reasonSkipped)
	}
	if rep.Counts.Failed > 0 || subFailed > 0 {
		add(reasonFailed)
	}
	if rep.Counts.Unfinished > 0 {
		add(reasonUnfinished)
	}
}

func tally(c *Counts, action string) {
	switch action {
	case "pass":
		c.Passed++
	case "fail":
		c.Failed++
	case "skip":
		c.Skipped++
	}
}

func subtestTotal(rep *Report) int {
	n := 0
	for _, c := range rep.Cases {
		n += c.Subtests.Total
	}
	return n
}

// failureLines is how many of a failed test's last output lines the
// terminal gets: enough for a failure's message and the lines before it,
// few enough that a log cut to its end still shows every failed test.
const failureLines = 30

// printFailures writes, after all tests ran, the last output lines of each
// failed or unfinished top-level test (its subtests' included) to the
// terminal, so a log read from its end names the failure and shows why,
// without the JUnit file. The terminal is the test's own; the content-free
// report never gets these lines.
func printFailures(w io.Writer, rep *Report, events []event) {
	type key struct{ pkg, test string }
	failed := map[key]bool{}
	var order []key
	for _, c := range rep.Cases {
		if c.Outcome == "fail" || c.Outcome == "unfinished" || c.Subtests.Failed > 0 {
			k := key{c.Package, c.Test}
			failed[k] = true
			order = append(order, k)
		}
	}
	if len(order) == 0 {
		return
	}
	lines := map[key][]string{}
	for _, e := range events {
		if e.Action != "output" || e.Test == "" {
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		k := key{e.Package, top}
		if failed[k] {
			lines[k] = append(lines[k], strings.TrimRight(e.Output, "\n"))
		}
	}
	for _, k := range order {
		out := lines[k]
		cut := ""
		if len(out) > failureLines {
			cut = fmt.Sprintf(", its last %d of %d lines", failureLines, len(out))
			out = out[len(out)-failureLines:]
		}
		fmt.Fprintf(w, "=== output of failed %s %s%s\n", k.pkg, k.test, cut)
		for _, l := range out {
			fmt.Fprintln(w, l)
		}
	}
	names := make([]string, len(order))
	for i, k := range order {
		names[i] = k.pkg + " " + k.test
	}
	fmt.Fprintf(w, "failed: %s\n", strings.Join(names, ", "))
}

// outputLines are the tests' output lines long enough to be recognisable;
// none of them may appear in the report.
func outputLines(events []event) []string {
	var lines []string
	for _, e := range events {
		if e.Action != "output" {
			continue
		}
		s := strings.TrimSpace(e.Output)
		if len(s) < minOutputProbe || strings.HasPrefix(s, "=== ") || strings.HasPrefix(s, "--- ") ||
			strings.HasPrefix(s, "PASS") || strings.HasPrefix(s, "FAIL") || strings.HasPrefix(s, "ok ") {
			continue // the framework's own status lines name tests, which the report does too
		}
		lines = append(lines, s)
	}
	return lines
}

// minOutputProbe is the shortest output line the content check looks for;
// shorter ones ("ok", a bare number) would match by accident.
const minOutputProbe = 12

// checkContentFree fails when the report holds a URL or any of the given
// output lines.
func checkContentFree(data []byte, outputs []string) error {
	s := string(data)
	for _, marker := range []string{"://", "http:", "https:", "file:", "data:", "ws:", "localhost", "127.0.0.1"} {
		if strings.Contains(s, marker) {
			return fmt.Errorf("the report contains %q", marker)
		}
	}
	for _, o := range outputs {
		if strings.Contains(s, o) {
			return errors.New("the report contains a line of test output")
		}
	}
	return nil
}

func writeReport(dir string, rep *Report, outputs []string) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := checkContentFree(data, outputs); err != nil {
		rep.Reasons = append(rep.Reasons, reasonReportContent)
		rep.Status = "fail"
		rep.Cases = []Case{}
		data, _ = json.MarshalIndent(rep, "", "  ")
		if err2 := os.MkdirAll(dir, 0o755); err2 == nil {
			_ = os.WriteFile(filepath.Join(dir, "browser-report.json"), append(data, '\n'), 0o644)
		}
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "browser-report.json"), append(data, '\n'), 0o644)
}

func writeJUnit(dir string, goTestJSON []byte) error {
	report, err := gotest.NewJSONParser().Parse(bytes.NewReader(goTestJSON))
	if err != nil {
		return err
	}
	host, _ := os.Hostname()
	suites := junit.CreateFromReport(report, host)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "browser-junit.xml"))
	if err != nil {
		return err
	}
	if err := suites.WriteXML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func command(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	return cmd.Output()
}

func seconds(d time.Duration) float64 {
	return float64(d.Milliseconds()) / 1000
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
