package domtree

import "sync"

// lazyIDs turns the keys a source stored as backend node ids into real ids
// when they are first read. A source that can find a node's id only at a
// cost per node (a live bounded capture asks the browser for each) stores a
// key per node and pays only for the nodes an analysis reads the id of.
type lazyIDs struct {
	mu      sync.Mutex
	resolve func(key int64) int64
	done    map[int32]int64
}

// ResolveBackendIDs makes the backend node ids added so far keys: reading
// node i's id calls f with the key once, and every later read gives what f
// returned. A key of 0 is no id, as always, and f is not called for it. f
// may be called from any goroutine that reads the tree, one call at a
// time. It is a no-op on a built tree.
func (b *Builder) ResolveBackendIDs(f func(key int64) int64) {
	if b.done || f == nil {
		return
	}
	b.t.lazy = &lazyIDs{resolve: f, done: map[int32]int64{}}
}

func (l *lazyIDs) get(i int32, key int64) int64 {
	if key == 0 {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if id, ok := l.done[i]; ok {
		return id
	}
	id := l.resolve(key)
	l.done[i] = id
	return id
}
