package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/testkit/cascadehostile"
	"github.com/domsnap/domsnap/limits"
)

// manyLine is one line of the many-inputs mode, decoded.
type manyLine struct {
	Input       string          `json:"input"`
	Result      json.RawMessage `json:"result"`
	Observation json.RawMessage `json:"observation"`
	Projection  json.RawMessage `json:"projection"`
	Error       *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// manyLines splits the output into lines and decodes each, checking that
// every line is one JSON object with "input" as its first key.
func manyLines(t *testing.T, out string) []manyLine {
	t.Helper()
	if out == "" {
		return nil
	}
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline: %q", out)
	}
	var lines []manyLine
	for _, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(s, `{"input":"`) {
			t.Fatalf("a line does not start with the input: %.80q", s)
		}
		var l manyLine
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %.80q: %v", s, err)
		}
		lines = append(lines, l)
	}
	return lines
}

// syntheticRun runs the runner over n made-up inputs whose work sleeps a
// random time and echoes its name, and returns the output and the runner.
func syntheticRun(t *testing.T, n, jobs int, seed uint64) (string, *manyRunner) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	delays := make([]time.Duration, n)
	for i := range delays {
		delays[i] = time.Duration(rng.IntN(2000)) * time.Microsecond
	}
	var out, errOut bytes.Buffer
	r := &manyRunner{jobs: jobs, key: "result", stdout: &out, stderr: &errOut,
		work: func(name string) manyBody {
			i, _ := strconv.Atoi(name)
			time.Sleep(delays[i])
			if i%7 == 3 {
				return manyBody{err: fmt.Errorf("input %d fails", i)}
			}
			return manyBody{json: []byte(`{"n":` + name + `}`)}
		}}
	i := 0
	if err := r.run(func() (string, bool, error) {
		if i == n {
			return "", false, nil
		}
		i++
		return strconv.Itoa(i - 1), true, nil
	}); err != nil {
		t.Fatal(err)
	}
	return out.String(), r
}

// TestManyOrderUnderRandomDelays: inputs that finish in a random order are
// still printed in input order, failures in their place, with the same
// bytes for every --jobs, and never more than --jobs inputs held at once.
func TestManyOrderUnderRandomDelays(t *testing.T) {
	const n = 120
	var first string
	for _, jobs := range []int{1, 2, 3, 8, limits.MaxJobs} {
		out, r := syntheticRun(t, n, jobs, uint64(jobs))
		lines := manyLines(t, out)
		if len(lines) != n || r.inputs != n {
			t.Fatalf("jobs %d: %d lines, %d counted, want %d", jobs, len(lines), r.inputs, n)
		}
		failed := 0
		for i, l := range lines {
			if l.Input != strconv.Itoa(i) {
				t.Fatalf("jobs %d: line %d is input %q", jobs, i, l.Input)
			}
			if i%7 == 3 {
				failed++
				if l.Error == nil || l.Error.Code != "unsupported_input" || l.Result != nil {
					t.Errorf("jobs %d: input %d should have failed: %+v", jobs, i, l)
				}
			} else if string(l.Result) != `{"n":`+l.Input+`}` || l.Error != nil {
				t.Errorf("jobs %d: input %d: %s", jobs, i, l.Result)
			}
		}
		if r.failed != failed {
			t.Errorf("jobs %d: %d failed counted, want %d", jobs, r.failed, failed)
		}
		if r.maxHeld > jobs || r.maxHeld < 1 {
			t.Errorf("jobs %d: %d inputs held at once", jobs, r.maxHeld)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("jobs %d: output differs from jobs 1", jobs)
		}
	}
}

// TestManyHeldBound: while the first input is held back, the inputs after
// it are read and analysed until exactly --jobs inputs are held (the one
// held back and the finished ones waiting behind it), and no more: the
// reorder buffer is the slots themselves.
func TestManyHeldBound(t *testing.T) {
	for _, jobs := range []int{1, 2, 3, 5} {
		n := 3*jobs + 1
		release := make(chan struct{})
		var once sync.Once
		var out bytes.Buffer
		r := &manyRunner{jobs: jobs, key: "result", stdout: &out, stderr: &out,
			work: func(name string) manyBody {
				if name == "0" {
					<-release
				}
				return manyBody{json: []byte("true")}
			}}
		r.acquired = func(i int) {
			// The last slot is taken: let the first input finish.
			if i == jobs-1 {
				once.Do(func() { close(release) })
			}
		}
		i := 0
		err := r.run(func() (string, bool, error) {
			if i == n {
				return "", false, nil
			}
			i++
			return strconv.Itoa(i - 1), true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.maxHeld != jobs || r.inputs != n || r.held != 0 {
			t.Errorf("jobs %d: most held %d, inputs %d, still held %d", jobs, r.maxHeld, r.inputs, r.held)
		}
		if got := len(manyLines(t, out.String())); got != n {
			t.Errorf("jobs %d: %d lines", jobs, got)
		}
	}
}

// TestManyStopsOnWriteError: when standard output fails, no more inputs
// are read and the error is returned.
func TestManyStopsOnWriteError(t *testing.T) {
	r := &manyRunner{jobs: 2, key: "result", stdout: failWriter{}, stderr: &bytes.Buffer{},
		work: func(string) manyBody { return manyBody{json: []byte("1")} }}
	asked := 0
	err := r.run(func() (string, bool, error) {
		asked++
		if asked > 1000 {
			return "", false, nil
		}
		return "x", true, nil
	})
	if err == nil || asked > 10 {
		t.Errorf("error %v after %d inputs asked", err, asked)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// manyFixture writes good and bad inputs into a folder and returns their
// paths, in order.
func manyFixture(t *testing.T) (paths []string, want map[string]string, limit int64) {
	t.Helper()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	capture, err := os.ReadFile("../../testdata/captures/list-basic.json")
	if err != nil {
		t.Fatal(err)
	}
	// want maps each path to its error code, "" for a result.
	want = map[string]string{}
	add := func(p, code string) {
		paths = append(paths, p)
		want[p] = code
	}
	add(file("list.html", listPage), "")
	add(filepath.Join(dir, "missing.html"), "unsupported_input")
	add(file("capture.json", string(capture)), "")
	// A capture cut short, and one whose parent index points past the end.
	add(file("cut.json", string(capture[:len(capture)/2])), "malformed_snapshot")
	add(file("bad-parent.json", `{"documents":[{"nodes":{"parentIndex":[-1,7],"nodeType":[9,1],"nodeName":[0,1],"nodeValue":[-1,-1]},"layout":{"nodeIndex":[],"styles":[],"bounds":[],"text":[]},"textBoxes":{"layoutIndex":[],"bounds":[],"start":[],"length":[]}}],"strings":["#document","UL"]}`), "malformed_snapshot")
	limit = int64(len(capture)) + 100
	add(file("big.html", listPage+strings.Repeat(" ", int(limit))), "unsupported_input")
	add(dir, "unsupported_input")
	add(file("binary.bin", "\x00\x01\x02binary"), "unsupported_input")
	add(file("list2.html", "<ol><li>x</li></ol>"), "")
	return paths, want, limit
}

// TestManyMixedInputs: bad inputs (missing, malformed, too large, a
// directory, binary) each get an error line in their place and never stop
// the others; the good ones print what the single-input command prints;
// the exit status is 1; and the bytes are the same for every --jobs.
func TestManyMixedInputs(t *testing.T) {
	paths, want, limit := manyFixture(t)
	var first string
	for _, jobs := range []string{"1", "2", "7"} {
		r := runLimited(t, limit, "", append(append([]string{}, listArgs...), append([]string{"--jobs", jobs}, paths...)...)...)
		if r.code != exitFailure {
			t.Fatalf("jobs %s: exit %d, %s", jobs, r.code, r.stderr)
		}
		lines := manyLines(t, r.stdout)
		if len(lines) != len(paths) {
			t.Fatalf("jobs %s: %d lines for %d inputs:\n%s", jobs, len(lines), len(paths), r.stdout)
		}
		for i, l := range lines {
			if l.Input != paths[i] {
				t.Fatalf("jobs %s: line %d is %q, want %q", jobs, i, l.Input, paths[i])
			}
			code := want[l.Input]
			if code == "" {
				single := runLimited(t, limit, "", append(append([]string{}, listArgs...), l.Input)...)
				if l.Error != nil || single.code != exitOK || string(l.Result)+"\n" != single.stdout {
					t.Errorf("jobs %s: %s differs from its single run:\n%s\n%s", jobs, l.Input, l.Result, single.stdout)
				}
				continue
			}
			if l.Error == nil || l.Error.Code != code || l.Error.Message == "" || l.Result != nil {
				t.Errorf("jobs %s: %s: want %s, got %+v", jobs, filepath.Base(l.Input), code, l.Error)
			}
		}
		if first == "" {
			first = r.stdout
		} else if r.stdout != first {
			t.Errorf("jobs %s: output differs from jobs 1", jobs)
		}
	}
	big := manyLines(t, first)[5]
	if !strings.Contains(big.Error.Message, "too_large") {
		t.Errorf("too large input: %+v", big.Error)
	}
	// A missing file names its cause, not the path again.
	if m := manyLines(t, first)[1].Error.Message; m != "cannot stat the input: no such file or directory" {
		t.Errorf("missing file: %q", m)
	}
}

// TestManyInventoryAndObservation: inventory lines hold the observation
// --format json prints; extract --observation and --model-bytes put theirs
// under "observation" and "projection".
func TestManyInventoryAndObservation(t *testing.T) {
	a := writeTemp(t, "a.html", listPage)
	b := example
	for _, c := range []struct {
		args []string
		key  string
	}{
		{[]string{"inventory", "--format", "json"}, "observation"},
		{append(append([]string{}, listArgs...), "--observation"), "observation"},
		{append(append([]string{}, listArgs...), "--model-bytes", "2048"), "projection"},
		{[]string{"extract", "--model-bytes", "4096"}, "projection"},
	} {
		r := runCmd(t, "", append(append([]string{}, c.args...), a, b)...)
		if r.code != exitOK {
			t.Fatalf("%v: exit %d %s", c.args, r.code, r.stderr)
		}
		lines := manyLines(t, r.stdout)
		if len(lines) != 2 {
			t.Fatalf("%v: %d lines", c.args, len(lines))
		}
		for i, in := range []string{a, b} {
			single := runCmd(t, "", append(append([]string{}, c.args...), in)...)
			body := map[string]json.RawMessage{"result": lines[i].Result, "observation": lines[i].Observation, "projection": lines[i].Projection}
			if single.code != exitOK || string(body[c.key])+"\n" != single.stdout {
				t.Errorf("%v %s: the line's %s differs from the single run", c.args, in, c.key)
			}
			for k, v := range body {
				if k != c.key && v != nil {
					t.Errorf("%v: unexpected key %s", c.args, k)
				}
			}
		}
	}
	// inventory without --format prints JSON lines too: the table is for one input.
	r := runCmd(t, "", "inventory", a, b)
	if r.code != exitOK || len(manyLines(t, r.stdout)) != 2 {
		t.Errorf("inventory: exit %d %s", r.code, r.stderr)
	}
}

// TestManyInputsList: --inputs reads paths from a file or standard input,
// skipping blank lines and dropping a CR before the newline; the lines
// equal those of the same paths given as arguments; an empty list prints
// nothing and exits 0; one path in a list still prints a JSON line.
func TestManyInputsList(t *testing.T) {
	a := writeTemp(t, "a.html", listPage)
	b := writeTemp(t, "b.html", "<ul><li>b</li></ul>")
	args := runCmd(t, "", append(append([]string{}, listArgs...), a, b, a)...)
	if args.code != exitOK {
		t.Fatalf("exit %d %s", args.code, args.stderr)
	}
	list := a + "\r\n\n" + b + "\n" + a
	fromStdin := runCmd(t, list, append(append([]string{}, listArgs...), "--inputs", "-")...)
	fromFile := runCmd(t, "", append(append([]string{}, listArgs...), "--inputs", writeTemp(t, "list.txt", list+"\n"))...)
	for _, r := range []result{fromStdin, fromFile} {
		if r.code != exitOK || r.stdout != args.stdout {
			t.Errorf("exit %d %s:\n%s\nwant\n%s", r.code, r.stderr, r.stdout, args.stdout)
		}
	}
	for _, empty := range []string{"", "\n\n", "\r\n"} {
		r := runCmd(t, empty, "inventory", "--inputs", "-")
		if r.code != exitOK || r.stdout != "" || r.stderr != "" {
			t.Errorf("empty list %q: exit %d %q %q", empty, r.code, r.stdout, r.stderr)
		}
	}
	one := runCmd(t, a+"\n", "inventory", "--inputs", "-")
	if l := manyLines(t, one.stdout); one.code != exitOK || len(l) != 1 || l[0].Observation == nil {
		t.Errorf("one path: exit %d %q", one.code, one.stdout)
	}
	// A list that cannot be opened fails before any line.
	r := runCmd(t, "", "inventory", "--inputs", filepath.Join(t.TempDir(), "none.txt"))
	if r.code != exitFailure || r.stdout != "" || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("missing list: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestManyListLineBound: a list line of MaxListLine bytes is a path (here
// one that does not exist, so an error line); one byte more ends the list
// with too_large after the lines before it, exit 1.
func TestManyListLineBound(t *testing.T) {
	a := writeTemp(t, "a.html", listPage)
	for _, n := range []int{limits.MaxListLine - 1, limits.MaxListLine, limits.MaxListLine + 1, limits.MaxListLine + 2, 3 * limits.MaxListLine} {
		for _, eol := range []string{"\n", "\r\n", ""} {
			long := "/" + strings.Repeat("x", n-1)
			r := runCmd(t, a+"\n"+long+eol, "inventory", "--inputs", "-")
			lines := manyLines(t, r.stdout)
			if r.code != exitFailure || len(lines) == 0 || lines[0].Input != a || lines[0].Error != nil {
				t.Fatalf("%d bytes: exit %d %q", n, r.code, r.stderr)
			}
			if n <= limits.MaxListLine {
				if len(lines) != 2 || lines[1].Input != long || lines[1].Error == nil || r.stderr != "" {
					t.Errorf("%d bytes %q: %d lines, stderr %q", n, eol, len(lines), r.stderr)
				}
				continue
			}
			if len(lines) != 1 || !strings.Contains(r.stderr, "--inputs line 2 is longer than") || !strings.Contains(r.stderr, "too_large") {
				t.Errorf("%d bytes %q: %d lines, stderr %q", n, eol, len(lines), r.stderr)
			}
		}
	}
}

// TestManyJobsBound: --jobs takes 1 to MaxJobs; 0 and one more are usage
// errors.
func TestManyJobsBound(t *testing.T) {
	a := writeTemp(t, "a.html", listPage)
	for _, c := range []struct {
		jobs int
		ok   bool
	}{{0, false}, {1, true}, {limits.MaxJobs, true}, {limits.MaxJobs + 1, false}, {-1, false}} {
		r := runCmd(t, "", "inventory", "--jobs", strconv.Itoa(c.jobs), a, a)
		if c.ok && (r.code != exitOK || len(manyLines(t, r.stdout)) != 2) || !c.ok && (r.code != exitUsage || !strings.Contains(r.stderr, "--jobs must be 1 to")) {
			t.Errorf("--jobs %d: exit %d %q", c.jobs, r.code, r.stderr)
		}
	}
	m := &manyFlags{}
	if j := m.jobCount(); j < 1 || j > limits.MaxJobs {
		t.Errorf("default jobs %d", j)
	}
}

// TestManyUsage: the combinations the mode cannot honour are usage errors
// (exit 2) that print nothing on standard output.
func TestManyUsage(t *testing.T) {
	a := writeTemp(t, "a.html", listPage)
	list := writeTemp(t, "list.txt", a+"\n")
	req := writeTemp(t, "r.json", `{"kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(append([]string{}, listArgs...), "--format", "table", a, a), "--format table prints a single input"},
		{append(append([]string{}, listArgs...), "--format", "csv", "--inputs", list), "--format csv prints a single input"},
		{[]string{"inventory", "--format", "table", a, a}, "--format table prints a single input"},
		{append(append([]string{}, listArgs...), "--inputs", list, a), "--inputs cannot be combined with INPUT"},
		{append(append([]string{}, listArgs...), "--inputs", ""), "--inputs needs a file"},
		{append(append([]string{}, listArgs...), "--live", "https://example.test/", "--inputs", list), "--live reads one page"},
		{[]string{"inventory", "--live", "https://example.test/", "--jobs", "2"}, "--live reads one page"},
		{append(append([]string{}, listArgs...), "-", a, "-"), "standard input can be read only once"},
		{[]string{"extract", "--request", "-", "--inputs", "-"}, "standard input can be read only once"},
		{[]string{"extract", "--request", "-", a, "-"}, "standard input can be read only once"},
		{[]string{"inventory", "--wait-until", "load", a, a}, "--wait-until needs --live"},
		{[]string{"extract", "--request", req, a, "https://example.test/"}, "is a URL, not a file"},
	} {
		r := runCmd(t, "", c.args...)
		if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d %q %q", c.args, r.code, r.stdout, r.stderr)
		}
	}
	// The request is checked before any input is read.
	r := runCmd(t, "", "extract", "--kind", "list", "--field", "a:0:nope", a, a)
	if r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, "invalid_request: ") {
		t.Errorf("bad request: exit %d %q", r.code, r.stderr)
	}
}

// TestManyStdinInput: one "-" among several INPUTs reads standard input;
// in a list, "-" names no file and gets an error line.
func TestManyStdinInput(t *testing.T) {
	a := writeTemp(t, "a.html", "<ul><li>file</li></ul>")
	r := runCmd(t, listPage, append(append([]string{}, listArgs...), a, "-")...)
	lines := manyLines(t, r.stdout)
	if r.code != exitOK || len(lines) != 2 || lines[1].Input != "-" || !strings.Contains(string(lines[1].Result), `"one"`) {
		t.Fatalf("exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, a+"\n-\n", "inventory", "--inputs", "-")
	lines = manyLines(t, r.stdout)
	if r.code != exitFailure || len(lines) != 2 || lines[1].Error == nil || !strings.Contains(lines[1].Error.Message, "names no file") {
		t.Errorf("exit %d %q", r.code, r.stdout)
	}
}

// TestManyRevisionPerInput: a request's expected revision is checked for
// each input: the input it names succeeds, the others fail with
// foreign_revision in their line, and the exit status is 1, not 3.
func TestManyRevisionPerInput(t *testing.T) {
	a := writeTemp(t, "a.html", listPage)
	b := writeTemp(t, "b.html", "<ul><li>b</li></ul>")
	single := runCmd(t, "", "inventory", "--format", "json", a)
	var o struct{ Revision string }
	if err := json.Unmarshal([]byte(single.stdout), &o); err != nil {
		t.Fatal(err)
	}
	req := writeTemp(t, "r.json", `{"kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string"}],"expected_revision":"`+o.Revision+`"}`)
	r := runCmd(t, "", "extract", "--request", req, a, b)
	lines := manyLines(t, r.stdout)
	if r.code != exitFailure || len(lines) != 2 || lines[0].Error != nil || lines[1].Error == nil || lines[1].Error.Code != "foreign_revision" {
		t.Errorf("exit %d %q", r.code, r.stdout)
	}
}

// TestManyNoFormValues: neither an error line nor a result carries what a
// form holds: a malformed capture whose strings hold a secret, and a form
// whose controls hold one.
func TestManyNoFormValues(t *testing.T) {
	const secret = "hunter2-SECRET"
	capture := writeTemp(t, "c.json", `{"documents":[{"nodes":{"parentIndex":[-1,0,9],"nodeType":[9,1,3],"nodeName":[0,1,2],"nodeValue":[-1,-1,3],"inputValue":{"index":[1],"value":[3]}}}],"strings":["#document","INPUT","#text","`+secret+`"]}`)
	form := writeTemp(t, "f.html", `<form><label>Name <input value="`+secret+`"></label><textarea>`+secret+`</textarea><select><option selected>`+secret+`</option></select></form>`)
	r := runCmd(t, "", "extract", "--kind", "form", "--field", "label:0:string", "--field", "role:1:string", capture, form)
	lines := manyLines(t, r.stdout)
	if r.code != exitFailure || len(lines) != 2 || lines[0].Error == nil || lines[0].Error.Code != "malformed_snapshot" || lines[1].Error != nil {
		t.Fatalf("exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, secret) {
		t.Errorf("a form value reached the output: %s %s", r.stdout, r.stderr)
	}
}

// TestManyWarnings: a warning about one input goes to standard error in
// input order, naming that input, and its line still holds the result.
func TestManyWarnings(t *testing.T) {
	over := writeTemp(t, "over.html", string(cascadehostile.LongCompound(100_000, 200)))
	under := writeTemp(t, "under.html", string(cascadehostile.LongCompound(100, 20)))
	r := runCmd(t, "", "inventory", "--jobs", "2", under, over, under, over)
	if r.code != exitOK || len(manyLines(t, r.stdout)) != 4 {
		t.Fatalf("exit %d %q", r.code, r.stderr)
	}
	one := "domsnap: warning: input " + strconv.Quote(over) + ": " + strings.TrimPrefix(sheetsDroppedWarning, "domsnap: warning: ") + "\n"
	if r.stderr != one+one {
		t.Errorf("stderr %q, want twice %q", r.stderr, one)
	}
}

// TestManyLoadFlags: --charset reaches every input (each line equals the
// single run with the same flag), and a bad label is refused once, before
// any input is read.
func TestManyLoadFlags(t *testing.T) {
	page := writeTemp(t, "l.html", "<ul><li>caf\xe9</li><li>na\xefve</li></ul>")
	base := append(append([]string{}, listArgs...), "--charset", "latin1")
	r := runCmd(t, "", append(append([]string{}, base...), page, page)...)
	single := runCmd(t, "", append(append([]string{}, base...), page)...)
	lines := manyLines(t, r.stdout)
	if r.code != exitOK || len(lines) != 2 || string(lines[1].Result)+"\n" != single.stdout || !strings.Contains(single.stdout, "café") {
		t.Errorf("exit %d %q, single %q", r.code, r.stdout, single.stdout)
	}
	for _, args := range [][]string{append(append([]string{}, listArgs...), "--charset", "bogus", page, page), {"inventory", "--charset", "bogus", page, page}} {
		r := runCmd(t, "", args...)
		if r.code != exitUsage || r.stdout != "" || !strings.HasPrefix(r.stderr, "invalid_request: ") {
			t.Errorf("%v: exit %d %q %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestListLineTooLargeIsItsCause: a list line over MaxListLine is refused
// with the cause every refusal for size has, not only the word in its
// message.
func TestListLineTooLargeIsItsCause(t *testing.T) {
	l := newListReader(strings.NewReader("a.html\n" + strings.Repeat("x", limits.MaxListLine+1) + "\n"))
	if _, _, err := l.next(); err != nil {
		t.Fatal(err)
	}
	_, _, err := l.next()
	if !errors.Is(err, domsnap.ErrTooLarge) || !errors.Is(err, domsnap.ErrUnsupportedInput) {
		t.Fatalf("line 2: %v", err)
	}
}
