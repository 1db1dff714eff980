//go:build examples

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// The local runner (prism) runs the pipeline and its workers in this
// process, so memfs:// stands in for object storage.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

// flakyFS serves memfs objects under flaky://, failing the first two reads
// of each: the recipe's staging must retry them.
type flakyFS struct{}

var flaky = struct {
	sync.Mutex
	reads map[string]int
}{reads: map[string]int{}}

func init() {
	filesystem.Register("flaky", func(context.Context) filesystem.Interface { return flakyFS{} })
}

func (flakyFS) OpenRead(ctx context.Context, name string) (io.ReadCloser, error) {
	flaky.Lock()
	flaky.reads[name]++
	n := flaky.reads[name]
	flaky.Unlock()
	if n <= 2 {
		return nil, errors.New("flaky: try again")
	}
	return memfs.New(ctx).OpenRead(ctx, "memfs://"+strings.TrimPrefix(name, "flaky://"))
}
func (flakyFS) List(context.Context, string) ([]string, error) { return nil, nil }
func (flakyFS) OpenWrite(context.Context, string) (io.WriteCloser, error) {
	return nil, errors.New("read only")
}
func (flakyFS) Size(context.Context, string) (int64, error) { return 0, errors.New("no size") }
func (flakyFS) Close() error                                { return nil }

var args = []string{"--kind", "table", "--field", "a:0:string", "--field", "b:1:string"}

// TestRecipeSmallRun runs the recipe on the bundled fixtures: HTML pages
// as local paths, gzip captures as objects (one behind a flaky store), and
// bad inputs of every kind. Every input gets exactly the line domsnap
// prints for it alone, under its own name; results and errors are split;
// and no staging folder is left behind.
func TestRecipeSmallRun(t *testing.T) {
	work := t.TempDir()
	t.Setenv("TMPDIR", work)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "domsnap")
	mk := exec.Command("go", "build", "-o", bin, "./cmd/domsnap")
	mk.Dir = root
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("build domsnap: %v\n%s", err, out)
	}

	pages, _ := filepath.Glob(filepath.Join(root, "testdata/html/*.html"))
	captures, _ := filepath.Glob(filepath.Join(root, "testdata/captures/*.json"))
	if len(pages) < 20 || len(captures) < 8 {
		t.Fatalf("%d pages, %d captures", len(pages), len(captures))
	}
	// local maps each input to a local file with the same bytes, for the
	// expected lines; "" for an input that cannot be read at all.
	local := map[string]string{}
	for _, p := range pages {
		local[p] = p
	}
	for i, c := range captures[:8] {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		copyPath := filepath.Join(work, filepath.Base(c)+".gz")
		if err := os.WriteFile(copyPath, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		name := "bucket/captures/" + filepath.Base(c) + ".gz"
		memfs.Write("memfs://"+name, gz.Bytes())
		uri := "memfs://" + name
		if i == 0 {
			uri = "flaky://" + name
		}
		local[uri] = copyPath
	}
	malformed := filepath.Join(work, "malformed.json")
	os.WriteFile(malformed, []byte(`{"documents":[{"nodes":{"parentIndex":[3]}}],"strings":[]}`), 0o644)
	local[malformed] = malformed
	missing := filepath.Join(work, "missing.html")
	local[missing] = missing
	local["memfs://bucket/gone.json.gz"] = ""

	var inputs []string
	for in := range local {
		inputs = append(inputs, in)
	}
	slices.Sort(inputs)
	lists := filepath.Join(work, "lists")
	os.Mkdir(lists, 0o755)
	half := len(inputs) / 2
	os.WriteFile(filepath.Join(lists, "a.txt"), []byte(strings.Join(inputs[:half], "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(lists, "b.txt"), []byte(strings.Join(inputs[half:], "\r\n")), 0o644)

	out := filepath.Join(work, "out")
	os.Mkdir(out, 0o755)
	p, s := beam.NewPipelineWithRoot()
	build(s, config{Lists: filepath.Join(lists, "*.txt"), Output: out, Shards: 4, Domsnap: bin, Args: args, Jobs: 2, ShardTimeout: 5 * time.Minute})
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}

	// What domsnap prints for each input alone, renamed.
	want := map[string]string{}
	for in, file := range local {
		if file == "" {
			want[in] = errorLine(in, "unsupported_input", "")
			continue
		}
		cmd := exec.Command(bin, append(append([]string{"extract"}, args...), "--inputs", "-")...)
		cmd.Stdin = strings.NewReader(file + "\n")
		line, _ := cmd.Output()
		head := `{"input":` + jsonString(file)
		if !bytes.HasPrefix(line, []byte(head)) {
			t.Fatalf("%s: %q", in, line)
		}
		want[in] = `{"input":` + jsonString(in) + strings.TrimSuffix(string(line[len(head):]), "\n")
	}

	results, errs := readLines(t, filepath.Join(out, "results.jsonl")), readLines(t, filepath.Join(out, "errors.jsonl"))
	if len(results)+len(errs) != len(inputs) {
		t.Fatalf("%d results and %d errors for %d inputs", len(results), len(errs), len(inputs))
	}
	seen := map[string]bool{}
	check := func(lines []string, isError bool) {
		for _, l := range lines {
			var in string
			for name := range want {
				if strings.HasPrefix(l, `{"input":`+jsonString(name)+`,`) {
					in = name
				}
			}
			if in == "" || seen[in] {
				t.Errorf("unexpected line %.100q", l)
				continue
			}
			seen[in] = true
			if strings.Contains(l, `,"error":{`) != isError {
				t.Errorf("%s: in the wrong file", in)
			}
			if local[in] == "" {
				if !strings.HasPrefix(l, strings.TrimSuffix(want[in], `"}}`)) || !strings.Contains(l, "cannot read the object") {
					t.Errorf("%s: %q", in, l)
				}
				continue
			}
			if l != want[in] {
				t.Errorf("%s: the pipeline's line differs from domsnap's own:\n%.200s\n%.200s", in, l, want[in])
			}
		}
	}
	check(results, false)
	check(errs, true)
	if len(errs) != 3 {
		t.Errorf("%d error lines, want 3 (malformed, missing, gone): %q", len(errs), errs)
	}
	flaky.Lock()
	reads := flaky.reads["flaky://bucket/captures/"+filepath.Base(captures[0])+".gz"]
	flaky.Unlock()
	if reads != 3 {
		t.Errorf("the flaky object was read %d times, want 3", reads)
	}
	left, _ := filepath.Glob(filepath.Join(work, "domsnap-shard-*"))
	if len(left) > 0 {
		t.Errorf("staging folders left behind: %v", left)
	}
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
