//go:build browser

package mcp_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/internal/testkit/leftover"
)

// running reports whether a thread of pid is running or waiting for a
// CPU (state R), and false when pid is gone or a zombie.
func running(pid int) (run, alive bool) {
	st, err := procState(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil || st == "Z" || st == "X" {
		return false, false
	}
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
	for _, task := range tasks {
		if st, err := procState(task); err == nil && st == "R" {
			return true, true
		}
	}
	return false, true
}

// procState reads the state letter of a /proc stat file.
func procState(file string) (string, error) {
	stat, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	// The state follows the name, which is in parentheses and may hold
	// spaces.
	i := bytes.LastIndexByte(stat, ')')
	f := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(f) == 0 {
		return "", os.ErrInvalid
	}
	return f[0], nil
}

// renderers lists the renderer processes of the browser pid.
func renderers(t *testing.T, pid int) []int {
	t.Helper()
	fam, err := leftover.Family(pid)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, p := range fam {
		cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline"))
		if bytes.Contains(cmd, []byte("--type=renderer")) {
			out = append(out, p)
		}
	}
	return out
}

// spinning finds the renderer of the browser pid that runs without pause,
// the one in a page's endless loop. Its main thread is always running or
// waiting for a CPU, however busy the machine, while an idle renderer's
// threads mostly sleep: of 30 looks a tenth of a second apart, the spinning
// one is seen running in at least 27. On a machine so busy that an idle
// renderer too is seen that often, waiting for a CPU for the little it
// does, the one that used the most CPU time meanwhile is the one in the
// loop, when it used at least twice as much as any other.
func spinning(t *testing.T, pid int) int {
	t.Helper()
	seen := map[int]int{}
	ticks0 := map[int]int64{}
	for _, r := range renderers(t, pid) {
		ticks0[r] = cpuTicks(r)
	}
	for i := 0; i < 30; i++ {
		for _, r := range renderers(t, pid) {
			if run, _ := running(r); run {
				seen[r]++
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	used := map[int]int64{}
	var candidates []int
	for r, n := range seen {
		if n >= 27 {
			candidates = append(candidates, r)
			used[r] = cpuTicks(r) - ticks0[r]
		}
	}
	t.Logf("renderers seen running, of 30 looks: %v; clock ticks of those seen in 27 or more: %v", seen, used)
	switch len(candidates) {
	case 0:
		t.Fatal("no renderer spins")
	case 1:
		return candidates[0]
	}
	best := candidates[0]
	for _, r := range candidates {
		if used[r] > used[best] {
			best = r
		}
	}
	for _, r := range candidates {
		if r != best && 2*used[r] > used[best] {
			t.Fatalf("cannot tell which renderer spins: %v", used)
		}
	}
	return best
}

// cpuTicks is the CPU time pid has used, in clock ticks, 0 when it is gone.
func cpuTicks(pid int) int64 {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	// After the name: state first, utime and stime 12th and 13th.
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

// TestEndlessLoopReplacesTab: a page whose script loops forever makes the
// call on it fail with timeout, and the session then closes that tab and
// its renderer, so the next browser_navigate of the same session answers
// well within its deadline, in a new tab whose revisions are new: the old
// ones are foreign, as after a crash.
func TestEndlessLoopReplacesTab(t *testing.T) {
	web := site(t)
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!DOCTYPE html><html><body>` + tableRows(2) + `<script>setTimeout(() => { while (true) {} })</script></body></html>`))
	}))
	t.Cleanup(loop.Close)
	s := start(t, filepath.Join(t.TempDir(), "state"))
	first := parse(t, ok(t, s.call(t, "browser_navigate", map[string]any{"url": web.URL + "/table"})))
	browser := s.browserPID(t)

	type result struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate",
			Arguments: map[string]any{"url": loop.URL + "/", "wait": map[string]any{"timeout_ms": 2000}}})
		done <- result{res, err}
	}()
	t0 := time.Now()
	time.Sleep(500 * time.Millisecond)
	stuck := spinning(t, browser)
	r := <-done
	t.Logf("the call on the looping page answered after %v", time.Since(t0))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if code := failed(t, r.res); code != "timeout" {
		t.Fatalf("the call on the looping page: %s", code)
	}
	if code := failed(t, s.call(t, "browser_observe", map[string]any{"extract": extractReq(first.Revision, 5)})); code != "foreign_revision" {
		t.Fatalf("a revision of the closed tab: %s", code)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	t0 = time.Now()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": web.URL + "/table"}})
	took := time.Since(t0)
	if err != nil {
		t.Fatalf("the navigation after the loop: %v after %v", err, took)
	}
	again := parse(t, ok(t, res))
	// The call's deadline is 30s; a tab that works answers in a few.
	if took > 10*time.Second {
		t.Fatalf("the navigation after the loop took %v", took)
	}
	if strings.Split(again.Revision, ".")[1] == strings.Split(first.Revision, ".")[1] {
		t.Fatalf("the new tab kept the old session part: %s %s", first.Revision, again.Revision)
	}
	if s.browserPID(t) != browser {
		t.Fatal("the browser was replaced, not the tab")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, alive := running(stuck); !alive {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the looping renderer %d is still alive", stuck)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the navigation after the loop took %v", took)
}
