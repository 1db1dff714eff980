package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// threadTicks is the CPU time the thread tid of this process has used,
// in clock ticks, and false once the thread is gone.
func threadTicks(tid int) (int64, bool) {
	b, err := os.ReadFile(filepath.Join("/proc/self/task", strconv.Itoa(tid), "stat"))
	if err != nil {
		return 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	// After the name: the state first, utime and stime 12th and 13th.
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s, true
}

// TestBusyLoopsSpinAndEnd: each loop spins on a thread of its own, which
// uses CPU time, and once stop returns no loop runs.
func TestBusyLoopsSpinAndEnd(t *testing.T) {
	var mu sync.Mutex
	var tids []int
	onBusyLoop = func() {
		mu.Lock()
		tids = append(tids, syscall.Gettid())
		mu.Unlock()
	}
	defer func() { onBusyLoop = nil }()
	stop := busy(2)
	defer stop()
	if n := busyRunning.Load(); n != 2 {
		t.Fatalf("%d loops spin, want 2", n)
	}
	mu.Lock()
	got := append([]int(nil), tids...)
	mu.Unlock()
	if len(got) != 2 || got[0] == got[1] || got[0] == syscall.Gettid() || got[1] == syscall.Gettid() {
		t.Fatalf("loop threads %v, want two of their own", got)
	}
	// A loop that spins is given some CPU time however busy the machine;
	// the deadline is for one that does not.
	deadline := time.Now().Add(30 * time.Second)
	for _, tid := range got {
		for {
			ticks, ok := threadTicks(tid)
			if !ok {
				t.Fatalf("loop thread %d is gone while the loop runs", tid)
			}
			if ticks > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("loop thread %d used no CPU time", tid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	stop()
	if n := busyRunning.Load(); n != 0 {
		t.Fatalf("%d loops spin after stop returned", n)
	}
}
