package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/domsnap/domsnap/limits"
)

// runLimited runs the command with a small input bound.
func runLimited(t *testing.T, maxInput int64, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, maxInput: maxInput}
	var code int
	switch args[0] {
	case "extract":
		code = c.extract(args[1:])
	case "inventory":
		code = runInventory(c, args[1:])
	default:
		t.Fatalf("runLimited: %s", args[0])
	}
	return result{code, out.String(), errOut.String()}
}

const listPage = "<ul><li>one</li><li>two</li></ul>"

var listArgs = []string{"extract", "--kind", "list", "--field", "a:0:string"}

func tooLarge(r result) bool {
	return r.code == exitFailure && strings.HasPrefix(r.stderr, "unsupported_input: ") && strings.Contains(r.stderr, "too_large")
}

func TestInputBoundUnderAtOver(t *testing.T) {
	limit := int64(len(listPage))
	for _, c := range []struct {
		page string
		ok   bool
	}{{listPage[:len(listPage)-1], true}, {listPage, true}, {listPage + " ", false}} {
		file := writeTemp(t, "p.html", c.page)
		for _, src := range []struct{ stdin, arg string }{{"", file}, {c.page, "-"}} {
			r := runLimited(t, limit, src.stdin, append(listArgs, src.arg)...)
			if c.ok && r.code != exitOK || !c.ok && !tooLarge(r) {
				t.Errorf("%d bytes of a %d bound from %q: exit %d %s", len(c.page), limit, src.arg, r.code, r.stderr)
			}
		}
	}
}

func TestRequestBound(t *testing.T) {
	base := `{"kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`
	page := writeTemp(t, "p.html", listPage)
	for _, n := range []int{limits.MaxRequestBytes - 1, limits.MaxRequestBytes, limits.MaxRequestBytes + 1} {
		req := writeTemp(t, "r.json", base+strings.Repeat(" ", n-len(base)))
		r := runCmd(t, "", "extract", "--request", req, page)
		if n <= limits.MaxRequestBytes && r.code != exitOK || n > limits.MaxRequestBytes && !tooLarge(r) {
			t.Errorf("request of %d bytes: exit %d %s", n, r.code, r.stderr)
		}
		// The same from standard input.
		r = runCmd(t, base+strings.Repeat(" ", n-len(base)), "extract", "--request", "-", page)
		if n <= limits.MaxRequestBytes && r.code != exitOK || n > limits.MaxRequestBytes && !tooLarge(r) {
			t.Errorf("request of %d bytes on stdin: exit %d %s", n, r.code, r.stderr)
		}
	}
}

// TestNotAFile: /dev/zero, a directory and a named pipe with no writer, as
// INPUT and as --request, each end at once with a coded error.
func TestNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	page := writeTemp(t, "p.html", listPage)
	req := writeTemp(t, "r.json", `{"kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"request /dev/zero", []string{"extract", "--request", "/dev/zero", page}, "too_large"},
		{"request directory", []string{"extract", "--request", dir, page}, "directory"},
		{"request fifo", []string{"extract", "--request", fifo, page}, "empty"},
		// Binary from its first bytes: refused without reading 256 MiB.
		{"input /dev/zero", []string{"extract", "--request", req, "/dev/zero"}, "binary data"},
		{"input directory", []string{"extract", "--request", req, dir}, "directory"},
		{"input fifo", []string{"extract", "--request", req, fifo}, "empty"},
		{"inventory directory", []string{"inventory", dir}, "directory"},
		{"inventory fifo", []string{"inventory", fifo}, "empty"},
	} {
		done := make(chan result, 1)
		go func() { done <- runLimited(t, 1<<20, "", c.args...) }()
		select {
		case r := <-done:
			if r.code != exitFailure || !strings.HasPrefix(r.stderr, "unsupported_input: ") || !strings.Contains(r.stderr, c.want) {
				t.Errorf("%s: exit %d %q", c.name, r.code, r.stderr)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: no answer after 20 s", c.name)
		}
	}
}

// TestCharsetLabelChecked: an unknown --charset is invalid_request (exit 2)
// whatever the input: one a byte-order mark decides, a capture, a saved
// snapshot, a file too large, a file that does not exist.
func TestCharsetLabelChecked(t *testing.T) {
	capture, err := os.ReadFile("../../testdata/captures/list-basic.json")
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{
		"bom":     writeTemp(t, "bom.html", "\xef\xbb\xbf"+listPage),
		"capture": writeTemp(t, "c.json", string(capture)),
		"html":    writeTemp(t, "p.html", listPage),
		"large":   writeTemp(t, "big.html", listPage+strings.Repeat(" ", 100)),
		"missing": filepath.Join(t.TempDir(), "nope.html"),
	}
	for name, in := range inputs {
		for _, args := range [][]string{append(listArgs, "--charset", "bogus", in), {"inventory", "--charset", "bogus", in}} {
			r := runLimited(t, 64, "", args...)
			if r.code != exitUsage || !strings.HasPrefix(r.stderr, "invalid_request: ") || strings.Contains(r.stderr, "one") {
				t.Errorf("%s %s: exit %d %q", args[0], name, r.code, r.stderr)
			}
		}
	}
	// A known label in another spelling is accepted.
	if r := runCmd(t, "", append(listArgs, "--charset", " Latin1 ", inputs["bom"])...); r.code != exitOK {
		t.Errorf("--charset ' Latin1 ': exit %d %s", r.code, r.stderr)
	}
}

// TestStdinRegularFile: standard input redirected from a file is bounded
// by the file's size before it is read, and read whole below the bound.
func TestStdinRegularFile(t *testing.T) {
	for _, c := range []struct {
		page string
		ok   bool
	}{{listPage, true}, {listPage + " ", false}} {
		f, err := os.Open(writeTemp(t, "p.html", c.page))
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		cl := &cli{stdin: f, stdout: &out, stderr: &errOut, maxInput: int64(len(listPage))}
		code := cl.extract(append(listArgs[1:], "-"))
		f.Close()
		r := result{code, out.String(), errOut.String()}
		if c.ok && r.code != exitOK || !c.ok && !tooLarge(r) {
			t.Errorf("%d bytes: exit %d %s", len(c.page), r.code, r.stderr)
		}
	}
}
