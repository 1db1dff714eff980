//go:build examples

package capture_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/live"
	"github.com/domsnap/domsnap/snapshot"
)

// rev is the revision every tree is analysed under, so the canonical bytes
// of two captures of the same page compare whole.
const rev = "r1.file.0000000000000000"

// pages are served to every program; neither uses media queries, so the
// programs' default viewports see what domsnap's reference screen sees.
var pages = map[string]string{
	"/products.html": "../products.html",
	"/table.html":    "../../testdata/html/table-basic.html",
}

var requests = map[string]string{
	"/products.html": `{"kind":"table","index":0,"fields":[{"name":"product","column":0,"type":"string","required":true},{"name":"price","column":2,"type":"number"}]}`,
	"/table.html":    `{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"},{"name":"b","column":1,"type":"string"}]}`,
}

// analyse returns the canonical observation, with the page's request, of a
// tree under rev.
func analyse(t *testing.T, path string, load func() (*snapshot.Input, error)) string {
	t.Helper()
	in, err := load()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	req, err := domsnap.DecodeChecked([]byte(requests[path]))
	if err != nil {
		t.Fatal(err)
	}
	o, err := domsnap.Observe(in.Tree, rev, req)
	if err != nil {
		t.Fatal(err)
	}
	if o.Extraction == nil || !o.Extraction.Collection.Found || len(o.Extraction.Rows) < 2 {
		t.Fatalf("%s: the request finds too little: %s", path, o.Canonical())
	}
	return string(o.Canonical())
}

func serve(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(file)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// reference is domsnap's own live capture of each page.
func reference(t *testing.T, base string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := live.Launch(ctx, live.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	out := map[string]string{}
	for path := range pages {
		p, err := b.NewPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Navigate(ctx, base+path); err != nil {
			t.Fatal(err)
		}
		s, err := live.NewSession(p, live.SessionOptions{Browser: b.Version()})
		if err != nil {
			t.Fatal(err)
		}
		snap, err := s.Capture(ctx, live.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out[path] = analyse(t, path, func() (*snapshot.Input, error) { return &snapshot.Input{Tree: snap.Tree}, nil })
		p.Close()
	}
	return out
}

// runner runs the example programs with a deadline each, in a temporary
// folder of their own (TMPDIR too, where the browsers put their profiles),
// and proves that none leaves a process or a folder behind.
type runner struct {
	t   *testing.T
	tmp string
}

func newRunner(t *testing.T) *runner {
	tmp := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	return &runner{t: t, tmp: tmp}
}

func (r *runner) run(dir string, limit time.Duration, name string, args ...string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+r.tmp)
	// The program and everything it starts in its process group die with
	// the deadline; browsers that leave the group are found by leftovers.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	r.leftovers(name + " " + strings.Join(args, " "))
	if err != nil {
		r.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// leftovers fails the test for any process whose command line names the
// runner's folder, killing each by its id, and for anything left in TMPDIR.
func (r *runner) leftovers(what string) {
	r.t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(data), r.tmp) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		r.t.Errorf("%s: process %d outlived it: %.120s", what, pid, strings.ReplaceAll(string(data), "\x00", " "))
		syscall.Kill(pid, syscall.SIGKILL)
	}
	entries, err := os.ReadDir(r.tmp)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range entries {
		// npm's cache and logs are the installer's, not the browser's.
		if e.Name() == ".npm" {
			continue
		}
		r.t.Errorf("%s: left in TMPDIR: %s", what, e.Name())
		os.RemoveAll(filepath.Join(r.tmp, e.Name()))
	}
}

// copyDir copies the program's files (not node_modules) to a fresh folder,
// so installing never writes into the checkout.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// snippet returns the first code block after the heading in
// docs/saving-captures.md.
func snippet(t *testing.T, heading string) []string {
	t.Helper()
	f, err := os.Open("../../docs/saving-captures.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	state := 0
	var lines []string
	for sc.Scan() {
		l := sc.Text()
		switch {
		case state == 0 && l == heading:
			state = 1
		case state == 1 && strings.HasPrefix(l, "```"):
			state = 2
		case state == 2 && l == "```":
			return lines
		case state == 2:
			lines = append(lines, l)
		}
	}
	t.Fatalf("no code block under %q", heading)
	return nil
}

// TestSnippetsAreInThePrograms: every line of each documented snippet
// appears, in order, in its program (indentation aside), so the program runs
// what the documentation shows.
func TestSnippetsAreInThePrograms(t *testing.T) {
	for _, c := range []struct{ heading, program string }{
		{"### Puppeteer (Node.js)", "puppeteer/capture.mjs"},
		{"### Playwright (Node.js, Chromium only)", "playwright/capture.mjs"},
		{"### chromedp (Go)", "chromedp/main.go"},
	} {
		data, err := os.ReadFile(c.program)
		if err != nil {
			t.Fatal(err)
		}
		prog := strings.Split(string(data), "\n")
		i := 0
		for _, want := range snippet(t, c.heading) {
			want = strings.TrimSpace(want)
			if want == "" {
				continue
			}
			for i < len(prog) && strings.TrimSpace(prog[i]) != want {
				i++
			}
			if i == len(prog) {
				t.Errorf("%s: the snippet line %q is not in %s (in order)", c.heading, want, c.program)
				break
			}
			i++
		}
	}
}

// TestCapturePrograms installs and runs each program against real Chromium
// and requires that domsnap reads its capture exactly as it reads its own;
// a Puppeteer capture taken with the styles swapped is refused unless the
// order is named, and one taken with no styles is refused.
func TestCapturePrograms(t *testing.T) {
	srv := serve(t)
	want := reference(t, srv.URL)
	r := newRunner(t)

	load := func(file string, opts snapshot.LoadOptions) func() (*snapshot.Input, error) {
		return func() (*snapshot.Input, error) {
			data, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			return snapshot.Load(data, opts)
		}
	}
	check := func(name, file, path string) {
		t.Helper()
		if got := analyse(t, path, load(file, snapshot.LoadOptions{})); got != want[path] {
			t.Errorf("%s %s: domsnap reads the capture differently from its own:\n%s\nwant\n%s", name, path, got, want[path])
		}
	}

	for _, tool := range []string{"puppeteer", "playwright"} {
		dir := copyDir(t, tool)
		r.run(dir, 5*time.Minute, "npm", "ci", "--no-audit", "--no-fund", "--cache", filepath.Join(r.tmp, ".npm"))
		for path := range pages {
			out := t.TempDir()
			r.run(dir, 2*time.Minute, "node", "capture.mjs", srv.URL+path, out)
			check(tool, filepath.Join(out, "page.capture.json"), path)
		}
		if tool != "puppeteer" {
			continue
		}
		path := "/products.html"
		swapped, none := t.TempDir(), t.TempDir()
		r.run(dir, 2*time.Minute, "node", "capture.mjs", srv.URL+path, swapped, "visibility,display")
		r.run(dir, 2*time.Minute, "node", "capture.mjs", srv.URL+path, none, "")
		for _, f := range []string{filepath.Join(swapped, "page.capture.json"), filepath.Join(none, "page.capture.json")} {
			if _, err := load(f, snapshot.LoadOptions{})(); errcode.CodeOf(err) != errcode.MalformedSnapshot || !strings.Contains(err.Error(), `computedStyles ["display","visibility"]`) {
				t.Errorf("%s: %v, want malformed_snapshot naming the styles", f, err)
			}
		}
		named := analyse(t, path, load(filepath.Join(swapped, "page.capture.json"), snapshot.LoadOptions{ComputedStyles: []string{"visibility", "display"}}))
		if named != want[path] {
			t.Errorf("swapped styles, named: %s\nwant\n%s", named, want[path])
		}
	}

	for path := range pages {
		out := filepath.Join(t.TempDir(), "page.capture.json")
		r.run("chromedp", 5*time.Minute, "go", "run", ".", srv.URL+path, out)
		check("chromedp", out, path)
	}
}
