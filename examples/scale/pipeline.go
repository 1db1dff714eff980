package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn2x0[string, func(int, string)](&shardFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&mapFn{})
	register.DoFn3x0[string, func(string), func(string)](&splitFn{})
	register.Emitter1[string]()
	register.Emitter2[int, string]()
	register.Iter1[string]()
}

// config is one run of the recipe.
type config struct {
	// Lists is a glob of input lists: text files, one input a line, each
	// a local path or an object URI (gs://, s3://, memfs://...).
	Lists string
	// Output is the folder (or object prefix) that receives results.jsonl
	// and errors.jsonl.
	Output string
	// Shards is how many groups the inputs are split into: one domsnap
	// process, and one retry unit, per shard.
	Shards int
	// Domsnap is the binary on the workers; Args the extract flags (the
	// request); Jobs its --jobs.
	Domsnap string
	Args    []string
	Jobs    int
	// ShardTimeout bounds one domsnap process.
	ShardTimeout time.Duration
}

// build adds the recipe to a pipeline: read the lists, key each input by
// its shard, run domsnap once per shard (the map step), and split the JSON
// lines into results and errors.
func build(s beam.Scope, c config) {
	paths := textio.Read(s, c.Lists)
	keyed := beam.ParDo(s, &shardFn{Shards: c.Shards}, paths)
	shards := beam.GroupByKey(s, keyed)
	lines := beam.ParDo(s, &mapFn{Domsnap: c.Domsnap, Args: c.Args, Jobs: c.Jobs, TimeoutMs: c.ShardTimeout.Milliseconds()}, shards)
	ok, failed := beam.ParDo2(s, &splitFn{}, lines)
	textio.Write(s, strings.TrimSuffix(c.Output, "/")+"/results.jsonl", ok)
	textio.Write(s, strings.TrimSuffix(c.Output, "/")+"/errors.jsonl", failed)
}

// shardFn keys each input by a hash of its path, so the same input always
// lands in the same shard and a retried shard redoes the same work.
type shardFn struct{ Shards int }

func (f *shardFn) ProcessElement(path string, emit func(int, string)) {
	path = strings.TrimSuffix(path, "\r")
	if path == "" {
		return
	}
	h := fnv.New32a()
	h.Write([]byte(path))
	emit(int(h.Sum32()%uint32(max(f.Shards, 1))), path)
}

// stageTries is how often an object is read before it becomes an error
// line; stageBackoff the wait after the first failure, doubled each time.
const (
	stageTries   = 3
	stageBackoff = 50 * time.Millisecond
)

// maxLine bounds one JSON line read back from domsnap: an extraction is at
// most 64 KiB, an observation a few times that.
const maxLine = 4 << 20

// mapFn is the map step: one domsnap process reads the shard's inputs with
// --inputs - and writes one JSON line per input, in the order given.
// Inputs that are object URIs are first copied to a temporary folder on
// the worker, and their lines name the URI again, not the copy.
type mapFn struct {
	Domsnap   string
	Args      []string
	Jobs      int
	TimeoutMs int64
}

func (f *mapFn) ProcessElement(ctx context.Context, shard int, iter func(*string) bool, emit func(string)) error {
	var paths []string
	var p string
	for iter(&p) {
		paths = append(paths, p)
	}
	// The grouping gives no order; sorted, a shard's output is the same on
	// every attempt.
	slices.Sort(paths)
	paths = slices.Compact(paths)

	dir, err := os.MkdirTemp("", "domsnap-shard-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	local := make([]string, 0, len(paths))
	names := make([]string, 0, len(paths))
	for i, p := range paths {
		if !strings.Contains(p, "://") {
			local, names = append(local, p), append(names, p)
			continue
		}
		copyPath := filepath.Join(dir, strconv.Itoa(i))
		if err := stage(ctx, p, copyPath); err != nil {
			// An object that cannot be read after stageTries is one bad
			// input, like a missing file: it gets its own error line and
			// the shard goes on.
			emit(errorLine(p, "unsupported_input", "cannot read the object: "+short(err.Error())))
			continue
		}
		local, names = append(local, copyPath), append(names, p)
	}
	if len(local) == 0 {
		return nil
	}

	runCtx, cancel := context.WithTimeout(ctx, time.Duration(f.TimeoutMs)*time.Millisecond)
	defer cancel()
	args := append(append([]string{"extract"}, f.Args...), "--jobs", strconv.Itoa(f.Jobs), "--inputs", "-")
	cmd := exec.CommandContext(runCtx, f.Domsnap, args...)
	setDeathSignal(cmd)
	cmd.Stdin = strings.NewReader(strings.Join(local, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, left: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	i := 0
	var protoErr error
	for sc.Scan() {
		line := sc.Text()
		head := `{"input":` + jsonString(local[min(i, len(local)-1)])
		if i >= len(local) || !strings.HasPrefix(line, head) {
			protoErr = fmt.Errorf("shard %d: line %d does not name input %d", shard, i, i)
			break
		}
		emit(`{"input":` + jsonString(names[i]) + line[len(head):])
		i++
	}
	if protoErr == nil {
		protoErr = sc.Err()
	}
	if protoErr != nil {
		cmd.Process.Kill()
	}
	err = cmd.Wait()
	// Exit 0: every input succeeded; 1: some have error lines. Anything
	// else (a crash, a kill, the timeout, a usage error) fails the bundle,
	// its lines are discarded, and the runner retries the shard.
	if protoErr != nil {
		return protoErr
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return fmt.Errorf("shard %d: domsnap: %v: %s", shard, err, stderr.String())
	}
	if i != len(local) {
		return fmt.Errorf("shard %d: %d lines for %d inputs", shard, i, len(local))
	}
	return nil
}

// stage copies an object to a local file, trying stageTries times.
func stage(ctx context.Context, uri, to string) error {
	var err error
	wait := stageBackoff
	for try := 0; try < stageTries; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		if err = copyObject(ctx, uri, to); err == nil {
			return nil
		}
	}
	return err
}

func copyObject(ctx context.Context, uri, to string) error {
	fs, err := filesystem.New(ctx, uri)
	if err != nil {
		return err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, uri)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(to)
	if err != nil {
		return err
	}
	// domsnap refuses an input over 256 MiB; a copy need not be larger.
	_, err = io.Copy(w, io.LimitReader(r, 256<<20+1))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// splitFn sends each line to results or errors by whether it has an
// "error" key.
type splitFn struct{}

func (f *splitFn) ProcessElement(line string, ok, failed func(string)) {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal([]byte(line), &v) == nil && v.Error == nil {
		ok(line)
		return
	}
	failed(line)
}

// errorLine is a line in domsnap's own error shape, for an input the
// recipe could not hand to domsnap.
func errorLine(input, code, msg string) string {
	return `{"input":` + jsonString(input) + `,"error":{"code":` + jsonString(code) + `,"message":` + jsonString(msg) + `}}`
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// short cuts a message to 200 bytes: storage errors can be long.
func short(s string) string {
	if len(s) <= 200 {
		return s
	}
	return s[:200] + "..."
}

// limitedBuffer keeps the first bytes written to it and drops the rest.
type limitedBuffer struct {
	buf  *bytes.Buffer
	left int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	n := min(len(p), l.left)
	l.buf.Write(p[:n])
	l.left -= n
	return len(p), nil
}
