package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/domsnap/domsnap/devtools/internal/htmlfiles"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("viewcost", flag.ContinueOnError)
	fl.SetOutput(stderr)
	base := fl.String("base", "", "the commit to build the command before the page view from")
	runs := fl.Int("runs", 9, "pairs per row")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *base == "" || *runs < 1 || fl.NArg() > 1 {
		fmt.Fprintln(stderr, "usage: viewcost -base COMMIT [-runs N] [DIR]")
		return 2
	}
	tmp, err := os.MkdirTemp("", "viewcost-")
	if err != nil {
		fmt.Fprintln(stderr, "viewcost:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	if err := measure(tmp, *base, *runs, fl.Args(), stdout); err != nil {
		fmt.Fprintln(stderr, "viewcost:", err)
		return 1
	}
	return 0
}

func measure(tmp, base string, runs int, dirs []string, stdout io.Writer) error {
	before, after := filepath.Join(tmp, "before"), filepath.Join(tmp, "after")
	if err := buildAt(tmp, base, before); err != nil {
		return err
	}
	if err := build(".", after); err != nil {
		return err
	}
	pages := []struct{ name, path string }{}
	for _, p := range []struct {
		name string
		data []byte
	}{
		{"table 1k", tablePage(500)},
		{"table 10k", tablePage(5000)},
		{"table 100k", tablePage(50000)},
		{"controls 100k", controlsPage(100000)},
	} {
		path := filepath.Join(tmp, strings.ReplaceAll(p.name, " ", "-")+".html")
		if err := os.WriteFile(path, p.data, 0o644); err != nil {
			return err
		}
		pages = append(pages, struct{ name, path string }{p.name, path})
	}
	commands := []struct {
		name string
		args []string
	}{
		{"observe", []string{"inventory", "--format", "json"}},
		{"extract", []string{"extract", "--kind", "table", "--index", "0", "--field", "a:0:string"}},
	}
	fmt.Fprintf(stdout, "%-24s %12s %12s %8s  %s\n", "page / command", "before", "after", "ratio", "pairs")
	for _, p := range pages {
		for _, c := range commands {
			if err := row(stdout, p.name+" "+c.name, runs, before, after, [][]string{append(slices.Clone(c.args), p.path)}); err != nil {
				return err
			}
		}
	}
	for _, dir := range dirs {
		files, err := htmlfiles.Find(dir, ".html")
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return errors.New("no .html file under the folder given")
		}
		for _, c := range commands {
			var argvs [][]string
			for _, f := range files {
				argvs = append(argvs, append(slices.Clone(c.args), f))
			}
			if err := row(stdout, fmt.Sprintf("%d pages %s", len(files), c.name), runs, before, after, argvs); err != nil {
				return err
			}
		}
	}
	return nil
}

// row times the commands with both builds in runs interleaved pairs (before
// then after, each over every argv in turn) and prints the medians and the
// median pair ratio.
func row(stdout io.Writer, name string, runs int, before, after string, argvs [][]string) error {
	var bt, at []time.Duration
	var ratios []float64
	for range runs {
		b, err := cpu(before, argvs)
		if err != nil {
			return err
		}
		a, err := cpu(after, argvs)
		if err != nil {
			return err
		}
		bt, at = append(bt, b), append(at, a)
		ratios = append(ratios, float64(a)/float64(max(b, 1)))
	}
	slices.Sort(ratios)
	fmt.Fprintf(stdout, "%-24s %12v %12v %8.2f  %.2f–%.2f\n", name, median(bt).Round(time.Microsecond),
		median(at).Round(time.Microsecond), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
	return nil
}

// cpu runs bin once per argv, output discarded, and sums the CPU time
// (user and system) the children spent. Exit status 1 of an extract that
// found no table is not a failure of the measure; any other is.
func cpu(bin string, argvs [][]string) (time.Duration, error) {
	var sum time.Duration
	for _, argv := range argvs {
		cmd := exec.Command(bin, argv...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			return 0, fmt.Errorf("%s %s: %v: %s", filepath.Base(bin), argv[0], err, stderr.String())
		}
		sum += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return sum, nil
}

// buildAt builds the command as it was at commit, from a copy of that
// commit's tree under tmp.
func buildAt(tmp, commit, out string) error {
	src := filepath.Join(tmp, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		return err
	}
	archive := exec.Command("git", "archive", "--format=tar", commit)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var aerr, uerr bytes.Buffer
	archive.Stderr, untar.Stderr = &aerr, &uerr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		untar.Wait()
		return fmt.Errorf("git archive: %v: %s", err, aerr.String())
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("tar: %v: %s", err, uerr.String())
	}
	return build(src, out)
}

// build builds ./cmd/domsnap of the module at dir without cgo, as make
// build does.
func build(dir, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", abs, "./cmd/domsnap")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building in %s: %v: %s", dir, err, b)
	}
	return nil
}

// tablePage is the benchmarks' page: a 60-row table, then n paragraphs.
func tablePage(n int) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><body><table><tr><th>Product</th><th>Price</th></tr>")
	for i := range 60 {
		fmt.Fprintf(&b, "<tr><td>Item %d</td><td>%d.5</td></tr>", i, i)
	}
	b.WriteString("</table>")
	for i := range n {
		fmt.Fprintf(&b, "<p>paragraph %d</p>", i)
	}
	b.WriteString("</body></html>")
	return []byte(b.String())
}

// controlsPage is about nodes nodes of sections, each a heading, a
// paragraph, a link and a button: every node the view scan visits makes
// it name something.
func controlsPage(nodes int) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><body><table><tr><th>Product</th><th>Price</th></tr><tr><td>a</td><td>1</td></tr></table><main>")
	for i := 0; i*12 < nodes; i++ {
		fmt.Fprintf(&b, "<section><h2>Part %d</h2><p>text %d</p><a href=\"/p%d\">more %d</a><button>buy %d</button></section>", i, i, i, i, i)
	}
	b.WriteString("</main></body></html>")
	return []byte(b.String())
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
