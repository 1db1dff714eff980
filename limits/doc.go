// Package limits holds every number of the domsnap contract (docs/reference.md#limits)
// and the two small mechanisms that enforce them: the node [Budget] that every
// scan spends, and [FitRecords], which keeps whole trailing records out of a
// byte budget instead of clipping one.
//
// # Limits
//
// Each limit has exactly one name here. Code elsewhere never spells one of
// these numbers again; tests name the constant and add or subtract one to
// probe just under, at and just over a bound.
//
// # Concurrency
//
// Constants are immutable. A Budget is a plain value owned by one scan; it is
// not safe for concurrent use and does not need to be.
package limits
