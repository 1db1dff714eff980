package domtree

import "sync"

// lazyIDs turns the keys a source stored as backend node ids into real ids
// when they are first read, and finds the node of an id by asking the
// source. A source that can find a node's id only at a cost per node (a
// live bounded capture asks the browser for each) stores a key per node and
// pays only for the nodes whose ids are read.
type lazyIDs struct {
	mu      sync.Mutex
	resolve func(key int64) int64
	find    func(id int64) (key int64, beyond bool)
	done    map[int32]int64
}

// ResolveBackendIDs makes the backend node ids added so far keys: reading
// node i's id calls resolve with the key once, and every later read gives
// what it returned. A key of 0 is no id, as always, and resolve is not
// called for it. find, which may be nil, is the way back for
// Tree.NodeByBackendID: the key of the node whose id is id, or 0 when the
// tree does not hold it, with beyond set when the node lies in the
// document past the tree's horizon. Both may be called from any goroutine
// that reads the tree, one call at a time. It is a no-op on a built tree.
func (b *Builder) ResolveBackendIDs(resolve func(key int64) int64, find func(id int64) (key int64, beyond bool)) {
	if b.done || resolve == nil {
		return
	}
	b.t.lazy = &lazyIDs{resolve: resolve, find: find, done: map[int32]int64{}}
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

// BackendIDsOnDemand reports whether t's backend node ids are read from its
// source as they are needed (Builder.ResolveBackendIDs), at a cost per
// node: a reader that may never need an id keeps the node instead.
func (t *Tree) BackendIDsOnDemand() bool { return t != nil && t.lazy != nil }

// NodeByBackendID returns the node whose backend node id is id. A tree
// whose ids are read as they are needed (ResolveBackendIDs) asks its
// source, which costs what reading one id costs, instead of reading the id
// of every node; any other tree looks at its own ids. On a partial tree, a
// node the source says lies past the horizon, or one not found in a tree
// whose ids need no source, sets the horizon mark: the document may hold it
// further on.
func (t *Tree) NodeByBackendID(id int64) (Node, bool) {
	if t == nil || t.backend == nil || id == 0 {
		return Node{}, false
	}
	if l := t.lazy; l != nil {
		if l.find == nil {
			if t.Partial() {
				t.reach()
			}
			return Node{}, false
		}
		l.mu.Lock()
		key, beyond := l.find(id)
		l.mu.Unlock()
		if key != 0 {
			for i, k := range t.backend[:t.Horizon()] {
				if k == key {
					l.mu.Lock()
					l.done[int32(i)] = id
					l.mu.Unlock()
					return Node{t, int32(i)}, true
				}
			}
		}
		if beyond && t.Partial() {
			t.reach()
		}
		return Node{}, false
	}
	for i, b := range t.backend[:t.Horizon()] {
		if b == id {
			return Node{t, int32(i)}, true
		}
	}
	if t.Partial() {
		t.reach()
	}
	return Node{}, false
}

// BackendKey is what the source stored for n's backend node id, read
// without asking the source: the id itself, or on a tree whose ids are read
// on demand (BackendIDsOnDemand) the source's own key for the node, which
// that source can turn into the node again in one call for many nodes. 0
// when the source stored none.
func (n Node) BackendKey() int64 {
	if n.t == nil || n.t.backend == nil {
		return 0
	}
	return n.t.backend[n.i]
}
