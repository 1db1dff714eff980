package limits

// Budget counts nodes a scan visits against a fixed limit. The zero value has
// no budget at all; make one with NewBudget.
//
// The protocol every scan follows: call Spend before visiting a node; when it
// returns false the node is not visited and the scan stops. Whether anything
// was left unvisited is the scan's knowledge, not the budget's, so the scan
// reports exhaustion through MarkExhausted.
type Budget struct {
	limit     int
	visited   int
	exhausted bool
}

// NewBudget returns a budget of limit nodes.
func NewBudget(limit int) Budget { return Budget{limit: limit} }

// Spend takes one node from the budget. It reports false, and takes nothing,
// when the budget is already spent.
func (b *Budget) Spend() bool {
	if b.visited >= b.limit {
		return false
	}
	b.visited++
	return true
}

// Left is the number of nodes that may still be visited.
func (b *Budget) Left() int { return b.limit - b.visited }

// Spent reports whether no node may be visited any more.
func (b *Budget) Spent() bool { return b.visited >= b.limit }

// MarkExhausted records that the scan stopped for lack of budget while nodes
// remained unvisited.
func (b *Budget) MarkExhausted() { b.exhausted = true }

// Limit is the budget's size.
func (b *Budget) Limit() int { return b.limit }

// Visited is the number of nodes spent so far.
func (b *Budget) Visited() int { return b.visited }

// Exhausted reports whether MarkExhausted was called.
func (b *Budget) Exhausted() bool { return b.exhausted }

// Scan is what one bounded scan reports (docs/reference.md#coverage): the
// one form a budget's outcome takes, from the scans of package collect to
// the coverage of a result.
type Scan struct {
	// Limit is the scan's budget in nodes.
	Limit int
	// Visited counts the nodes the scan visited, each costing 1.
	Visited int
	// Exhausted is true exactly when the scan stopped because its budget was
	// spent while nodes remained unvisited. A scan that stopped because it
	// found what it looked for is never exhausted, even at exactly its limit.
	Exhausted bool
}

// Report is the budget's outcome as a Scan.
func (b *Budget) Report() Scan {
	return Scan{Limit: b.limit, Visited: b.visited, Exhausted: b.exhausted}
}
