// Package domtree is the immutable DOM tree every source becomes (docs/reference.md#the-tree): flat arrays in tree order and a small comparable value cursor,
// [Node].
//
// Nodes are stored in pre-order, so a node's index is its position in tree
// order and its subtree is the contiguous index range [n, end). That makes
// "is this before that", "is this inside that" and "skip this subtree" single
// comparisons, and lets every walk run without recursion or a stack.
//
// # Building
//
// A Builder is the only way in. Nodes must be added in pre-order: each new
// node's parent is the node added last or one of its ancestors. The builder
// checks that, the node kinds that may have children, and applies the parts
// of the contract that belong to every source alike:
//
//   - names are lower-cased (ASCII) and attribute order is kept;
//   - the first line of the secret rule: an input's value attribute is kept
//     only on button, submit and reset inputs, and text under a textarea is
//     stored empty (the node stays, so node counts do not change);
//   - exclusion (docs/reference.md#visibility): display none as the source computed it,
//     the elements that are never rendered (head, script, style, template,
//     noscript, title, input type=hidden), the children of a closed details
//     other than its first summary, and aria-hidden="true", each inherited by
//     the whole subtree;
//   - the id index (first element in tree order wins) and the label-for index.
//
// Display and visibility are computed by the source (a browser's computed
// style live, the offline cascade for HTML) and stored as given: visibility
// must already be inherited.
//
// # Limits
//
// A tree holds at most math.MaxInt32 nodes, and names and contents of
// about 4 GiB in all (offsets are 32 bits). Frame documents, shadow roots and
// template contents are not nodes of the light tree at all; their host
// elements carry a flag saying they were present. Shadow trees are nodes of
// the light tree's composed twin (composed.go), a tree of its own that the
// page view walks, each node in its tree scope.
//
// # Concurrency
//
// A built [Tree] is never modified, so any number of goroutines may read it.
// A Builder is used by one goroutine.
package domtree
