package main

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// busyRunning is how many busy loops spin now, and busyStarted how many
// were ever started; the tests read them to see that the loops started and
// ended with the run.
var busyRunning, busyStarted atomic.Int64

// onBusyLoop, when set, is called by each loop on its own thread before it
// spins; the tests use it to find the loops' threads.
var onBusyLoop func()

// busy starts n busy loops, each spinning on an operating system thread
// of its own, and returns once all of them spin, so that the tests run on
// a machine that is busy from their start. The loops are threads of this
// process: whatever ends it, a kill included, ends them, and they leave
// nothing behind. stop ends them and returns once every one has ended;
// calling it again does nothing.
func busy(n int) (stop func()) {
	if n <= 0 {
		return func() {}
	}
	// The loops hold n processors; the runner's own goroutines, which
	// read go test's output, keep theirs.
	procs := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(procs + n)
	var quit atomic.Bool
	var spinning, ended sync.WaitGroup
	spinning.Add(n)
	ended.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer ended.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			busyStarted.Add(1)
			busyRunning.Add(1)
			defer busyRunning.Add(-1)
			if onBusyLoop != nil {
				onBusyLoop()
			}
			spinning.Done()
			for !quit.Load() {
			}
		}()
	}
	spinning.Wait()
	var once sync.Once
	return func() {
		once.Do(func() {
			quit.Store(true)
			ended.Wait()
			runtime.GOMAXPROCS(procs)
		})
	}
}
