package heapcost

import "runtime"

// Retained returns the heap bytes still in use once build's result is made
// and everything else is collected: what the result keeps alive. It is 0
// when the heap shrank meanwhile.
func Retained(build func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}
