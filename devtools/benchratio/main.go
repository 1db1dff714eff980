package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/html"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/devtools/benchratio/tablewalk"
	"github.com/domsnap/domsnap/internal/testkit/heapcost"
	"github.com/domsnap/domsnap/snapshot"
)

func main() {
	runs := flag.Int("runs", 5, "interleaved runs per measure; the median is kept")
	quick := flag.Bool("quick", false, "leave out the 1M-node page")
	pandas := flag.Bool("pandas", false, "also time pandas.read_html on the 100k-node page (python3 with pandas and lxml; run from the module root)")
	measure := flag.Bool("measure", false, "run the command given as arguments and print its CPU time and peak RSS (used by benchratio itself)")
	cpuprofile := flag.String("cpuprofile", "", "instead of measuring, write a CPU profile of ParseHTML of the table page, -runs times over, to this file")
	profileNodes := flag.Int("profile-nodes", 100_000, "the size of the page -cpuprofile parses")
	flag.Parse()
	if *cpuprofile != "" {
		if err := profile(*cpuprofile, *runs, *profileNodes); err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(1)
		}
		return
	}
	if *measure {
		if err := measureChild(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*runs, *quick, *pandas); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
}

// row is one line of the printed table.
type row struct {
	measure string
	ratio   float64
	detail  string
}

func run(runs int, quick, pandas bool) (err error) {
	if runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	// One processor, here and in the measured processes: with more, the
	// collector's idle workers take whatever core is idle, adding CPU time
	// that depends on the rest of the machine rather than on the work.
	runtime.GOMAXPROCS(1)
	dir, err := os.MkdirTemp("", "benchratio-")
	if err != nil {
		return err
	}
	defer func() {
		if rerr := os.RemoveAll(dir); err == nil {
			err = rerr
		}
	}()
	ours, base := filepath.Join(dir, "domsnap"), filepath.Join(dir, "baseline")
	// The command is the main module's, the baseline this module's (run from
	// the repository's root, the baseline's module is the devtools folder).
	for _, b := range [][3]string{{ours, ".", "./cmd/domsnap"}, {base, "devtools", "./benchratio/baseline"}} {
		// Built as make build builds the command: without cgo, a static
		// binary, which the baseline is anyway (it links no network code).
		build := exec.Command("go", "build", "-C", b[1], "-o", b[0], b[2])
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s (run from the repository root): %v\n%s", b[2], err, out)
		}
	}
	var rows []row
	for _, n := range []int{1_000, 10_000, 100_000} {
		page := tablePage(n)
		o, b, err := inProcess(runs, func() error {
			_, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
			return err
		}, func() error {
			_, err := html.Parse(bytes.NewReader(page))
			return err
		})
		if err != nil {
			return err
		}
		rows = append(rows, pairedRow(fmt.Sprintf("in-process ParseHTML ÷ html.Parse, %s nodes", size(n)), o, b))
	}
	req, err := domsnap.DecodeRequest([]byte(`{"kind":"table","index":0,"fields":[{"name":"product","column":0,"type":"string","required":true},{"name":"price","column":1,"type":"number"}],"row_limit":50}`))
	if err != nil {
		return err
	}
	page := tablePage(100_000)
	o, b, err := inProcess(runs, func() error {
		in, err := snapshot.Load(page, snapshot.LoadOptions{})
		if err != nil {
			return err
		}
		res, err := domsnap.Extract(in.Tree, in.Revision, req)
		if err == nil && len(res.Rows) != 50 {
			err = fmt.Errorf("extract found %d rows, want 50", len(res.Rows))
		}
		return err
	}, func() error {
		doc, err := html.Parse(bytes.NewReader(page))
		if err == nil && len(tablewalk.FirstTable(doc, 50)) != 50 {
			err = errors.New("the baseline walk found no 50 rows")
		}
		return err
	})
	if err != nil {
		return err
	}
	rows = append(rows, pairedRow("in-process Load+Extract ÷ html.Parse+walk, 100k nodes", o, b))
	if pandas {
		p, err := readHTML(dir, page, runs)
		if err != nil {
			return err
		}
		rows = append(rows, timeRow("in-process Load+Extract ÷ pandas.read_html (lxml) call, 100k nodes", median(o), p))
	}

	pages := []struct {
		name  string
		page  []byte
		times bool
	}{
		{"100k nodes", page, true},
		{"table after a long filler, 100k nodes", fillerPage(100_000), true},
	}
	if !quick {
		pages = append(pages, struct {
			name  string
			page  []byte
			times bool
		}{"1M nodes", tablePage(1_000_000), false})
	}
	for _, p := range pages {
		file := filepath.Join(dir, "page.html")
		if err := os.WriteFile(file, p.page, 0o600); err != nil {
			return err
		}
		oc := []string{ours, "extract", "--kind", "table", "--index", "0", "--field", "product:0:string:required", "--field", "price:1:number", file}
		bc := []string{base, file}
		var ot, bt []time.Duration
		var orss, brss int64
		for range runs {
			for _, side := range []struct {
				argv []string
				t    *[]time.Duration
				rss  *int64
			}{{oc, &ot, &orss}, {bc, &bt, &brss}} {
				d, rss, err := process(side.argv)
				if err != nil {
					return err
				}
				*side.t = append(*side.t, d)
				*side.rss = max(*side.rss, rss)
			}
		}
		if p.times {
			rows = append(rows, pairedRow("`domsnap extract` ÷ (html.Parse + walk), whole process, "+p.name, ot, bt))
		}
		rows = append(rows, row{"peak RSS ÷ html.Parse baseline, " + p.name, float64(orss) / float64(brss),
			fmt.Sprintf("%d KiB / %d KiB", orss, brss)})
	}

	tree, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
	if err != nil {
		return err
	}
	nodes := tree.Len()
	ob := heapcost.Retained(func() any { t, _, _ := snapshot.ParseHTML(page, snapshot.HTMLOptions{}); return t })
	hb := heapcost.Retained(func() any { d, _ := html.Parse(bytes.NewReader(page)); return d })
	rows = append(rows, row{"retained tree bytes per node ÷ *html.Node, 100k nodes", float64(ob) / float64(hb),
		fmt.Sprintf("%.1f B / %.1f B per node", float64(ob)/float64(nodes), float64(hb)/float64(nodes))})

	fmt.Printf("| measure | ratio | ours / baseline |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Printf("| %s | %.2f | %s |\n", r.measure, r.ratio, r.detail)
	}
	return nil
}

// profile writes a CPU profile of ParseHTML of a table page of about nodes
// nodes, parsed runs times.
func profile(file string, runs, nodes int) (err error) {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	page := tablePage(nodes)
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	for range runs {
		if _, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// readHTML returns the median time of pandas.read_html on page, from
// read_html.py beside this file.
func readHTML(dir string, page []byte, runs int) (time.Duration, error) {
	file := filepath.Join(dir, "pandas.html")
	if err := os.WriteFile(file, page, 0o600); err != nil {
		return 0, err
	}
	out, err := exec.Command("python3", "devtools/benchratio/read_html.py", file, fmt.Sprint(runs)).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		return 0, fmt.Errorf("python3 read_html.py (pandas and lxml installed?): %v: %s", err, stderr)
	}
	var ns int64
	if _, err := fmt.Sscan(string(out), &ns); err != nil {
		return 0, fmt.Errorf("reading read_html.py's answer %q: %v", out, err)
	}
	return time.Duration(ns), nil
}

func timeRow(measure string, ours, base time.Duration) row {
	return row{measure, float64(ours) / float64(base), fmt.Sprintf("%v / %v", ours.Round(time.Microsecond), base.Round(time.Microsecond))}
}

// pairedRow is the row of a measure taken in interleaved pairs: ours[i]
// and base[i] ran one after the other. Its ratio is the median of the
// pairs' ratios, which a machine whose speed drifts (a shared host, a
// neighbour's load) disturbs less than the ratio of two medians, since
// both halves of a pair see nearly the same machine. The detail gives the
// medians and the lowest and highest pair ratio: a wide range says the
// run is too noisy to compare commits by.
func pairedRow(measure string, ours, base []time.Duration) row {
	ratios := make([]float64, len(ours))
	for i := range ours {
		ratios[i] = float64(ours[i]) / float64(max(1, base[i]))
	}
	slices.Sort(ratios)
	mo, mb := median(ours), median(base)
	return row{measure, ratios[len(ratios)/2], fmt.Sprintf("%v / %v; pairs %.2f–%.2f",
		mo.Round(time.Microsecond), mb.Round(time.Microsecond), ratios[0], ratios[len(ratios)-1])}
}

// inProcess runs ours and base alternately, each after a collection so
// that neither pays for the other's garbage, and returns the CPU time this
// process spent on each run of each (the collector's included), in pairs:
// ours[i] ran just before base[i].
//
// A small page is run several times a sample, enough for the baseline to
// take about 20ms, so that each sample is far above the clock's grain.
func inProcess(runs int, ours, base func() error) ([]time.Duration, []time.Duration, error) {
	t0 := cpuTime()
	if err := base(); err != nil {
		return nil, nil, err
	}
	reps := int(min(1000, 20*time.Millisecond/max(time.Microsecond, cpuTime()-t0)))
	reps = max(1, reps)
	var ot, bt []time.Duration
	for range runs {
		for _, side := range []struct {
			f func() error
			t *[]time.Duration
		}{{ours, &ot}, {base, &bt}} {
			runtime.GC()
			t0 := cpuTime()
			for range reps {
				if err := side.f(); err != nil {
					return nil, nil, err
				}
			}
			*side.t = append(*side.t, (cpuTime()-t0)/time.Duration(reps))
		}
	}
	return ot, bt, nil
}

// process runs argv, its output discarded, and returns the CPU time it
// spent and its peak resident set in KiB. It runs it from a fresh copy of this program
// (-measure): Linux counts the memory of the process that starts a program
// into the program's peak, and this one holds the pages and trees of the
// in-process measures.
func process(argv []string) (time.Duration, int64, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(self, append([]string{"-measure"}, argv...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%s: %v: %s", filepath.Base(argv[0]), err, stderr.String())
	}
	var ns, rss int64
	if _, err := fmt.Sscan(stdout.String(), &ns, &rss); err != nil {
		return 0, 0, fmt.Errorf("reading the measure of %s: %v", filepath.Base(argv[0]), err)
	}
	return time.Duration(ns), rss, nil
}

// measureChild runs argv with its output discarded and prints the CPU
// time it spent in nanoseconds and its peak resident set in KiB.
func measureChild(argv []string) error {
	if len(argv) == 0 {
		return errors.New("-measure needs a command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, stderr.String())
	}
	d := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return errors.New("no resource usage on this system")
	}
	fmt.Println(d.Nanoseconds(), u.Maxrss)
	return nil
}

// cpuTime is the user and system CPU time this process has spent.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		panic("getrusage: " + err.Error()) // cannot fail with these arguments
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func size(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// head starts every page: a short style sheet of the kinds of rules real
// pages carry, so the cascade has work to do.
const head = `<!DOCTYPE html><html><head><meta charset=utf-8><title>bench</title><style>
body{margin:0} .hidden{display:none} table.data td.num{text-align:right} li:nth-child(2n){visibility:visible}
nav li{display:inline-block} .card>p{display:block} a:hover{display:none} @media (max-width:600px){nav{display:none}}
</style></head><body>`

// tablePage is a page of about nodes nodes, nearly all of them the rows of
// one table (five nodes a row).
func tablePage(nodes int) []byte {
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(`<table class=data><tr><th>Product</th><th>Price</th></tr>`)
	for i := range max(50, nodes/5) {
		fmt.Fprintf(&b, `<tr><td>Item %d</td><td class=num>%d.5</td></tr>`, i, i)
	}
	b.WriteString(`</table></body></html>`)
	return []byte(b.String())
}

// fillerPage is a page of about nodes nodes whose table of 60 rows comes
// after paragraphs filling all but 300 of them: far past the collection
// scan's bound.
func fillerPage(nodes int) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := range max(0, nodes-300) / 2 {
		fmt.Fprintf(&b, `<p>paragraph %d</p>`, i)
	}
	b.WriteString(`<table class=data><tr><th>Product</th><th>Price</th></tr>`)
	for i := range 60 {
		fmt.Fprintf(&b, `<tr><td>Item %d</td><td class=num>%d.5</td></tr>`, i, i)
	}
	b.WriteString(`</table></body></html>`)
	return []byte(b.String())
}
