package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkManyInputsVsProcesses compares the many-inputs mode with one
// process per page, over the fixture pages repeated (or, with
// DOMSNAP_BENCH_PAGES=DIR, every .html file in DIR), and reports pages per
// second and the ratios:
//
//	per_process_pages/s      one process per page, one after another
//	per_process_par_pages/s  one process per page, as many at once as CPUs
//	many_pages/s             one process, --inputs and --jobs CPUs
//	x_vs_per_process         many ÷ per_process
//	x_vs_per_process_par     many ÷ per_process_par
//
// Every line of the many-inputs run is checked against the page's own run,
// so the speed is never bought with a different answer.
func BenchmarkManyInputsVsProcesses(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "domsnap")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	pages := benchPages(b)
	list := filepath.Join(dir, "list.txt")
	if err := os.WriteFile(list, []byte(strings.Join(pages, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	args := []string{"extract", "--kind", "table", "--field", "a:0:string", "--field", "b:1:string"}
	jobs := min(runtime.NumCPU(), 64)
	runOne := func(page string) []byte {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, bin, append(append([]string{}, args...), page)...)
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != exitFailure {
			b.Fatalf("%s: %v", page, err)
		}
		return out.Bytes()
	}
	for b.Loop() {
		single := make([][]byte, len(pages))
		start := time.Now()
		for i, p := range pages {
			single[i] = runOne(p)
		}
		seq := time.Since(start)

		start = time.Now()
		var wg sync.WaitGroup
		next := make(chan string)
		for range jobs {
			wg.Go(func() {
				for p := range next {
					runOne(p)
				}
			})
		}
		for _, p := range pages {
			next <- p
		}
		close(next)
		wg.Wait()
		par := time.Since(start)

		start = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd := exec.CommandContext(ctx, bin, append(append([]string{}, args...), "--jobs", strconv.Itoa(jobs), "--inputs", list)...)
		out, err := cmd.Output()
		cancel()
		if err != nil && cmd.ProcessState.ExitCode() != exitFailure {
			b.Fatalf("many: %v", err)
		}
		many := time.Since(start)

		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != len(pages) {
			b.Fatalf("many: %d lines for %d pages", len(lines), len(pages))
		}
		for i, l := range lines {
			var v struct {
				Input  string
				Result json.RawMessage
			}
			if err := json.Unmarshal([]byte(l), &v); err != nil || v.Input != pages[i] {
				b.Fatalf("line %d: %v %.80q", i, err, l)
			}
			if len(single[i]) > 0 && string(v.Result)+"\n" != string(single[i]) {
				b.Fatalf("%s: the many-inputs result differs from its own run", pages[i])
			}
		}
		n := float64(len(pages))
		b.ReportMetric(n/seq.Seconds(), "per_process_pages/s")
		b.ReportMetric(n/par.Seconds(), "per_process_par_pages/s")
		b.ReportMetric(n/many.Seconds(), "many_pages/s")
		b.ReportMetric(seq.Seconds()/many.Seconds(), "x_vs_per_process")
		b.ReportMetric(par.Seconds()/many.Seconds(), "x_vs_per_process_par")
	}
	b.ReportMetric(float64(len(pages)), "pages")
}

// benchPages lists the pages: every .html file under $DOMSNAP_BENCH_PAGES,
// else the fixture pages four times over.
func benchPages(b *testing.B) []string {
	var pages []string
	if dir := os.Getenv("DOMSNAP_BENCH_PAGES"); dir != "" {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
				pages = append(pages, p)
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		sort.Strings(pages)
	} else {
		fixtures, err := filepath.Glob("../../testdata/html/*.html")
		if err != nil {
			b.Fatal(err)
		}
		for range 4 {
			pages = append(pages, fixtures...)
		}
	}
	if len(pages) == 0 {
		b.Fatal("no pages")
	}
	return pages
}
