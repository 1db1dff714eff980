package domsnap

import (
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// Numbering gives the records of a page view their numbers n, the part of
// an action reference a<sequence>.<n> or a region reference g<sequence>.<n>
// after the dot (docs/reference.md#stable-numbers). It is handed the
// elements of the listed controls and of the listed regions, in output
// order, and returns one number for each: from 1 to limits.MaxRecordNumber,
// no number twice in one list. A live session numbers so that an element
// keeps its number in every observation of one document; without a
// Numbering, records are numbered from 1 in output order, as a single
// observation of a file is.
type Numbering func(controls, regions []domtree.Node) (controlNumbers, regionNumbers []int, err error)

// ObserveNumbered is Observe, or ObserveExpanded when ex is not nil, with
// the page view's records numbered by num (nil: from 1 in output order).
// A Numbering that breaks its rules fails the observation with
// invalid_request.
func ObserveNumbered(t *domtree.Tree, revision string, req Query, ex *Expansion, num Numbering) (*Observation, error) {
	q, err := Check(req)
	if err != nil {
		return nil, err
	}
	return analyze(t, revision, q, true, ex, num)
}

// numberRecords asks num for the numbers of the records whose elements are
// given, and checks them; with no Numbering they are 1, 2, ... in order.
func numberRecords(num Numbering, controls, regions []domtree.Node) (cn, rn []int, err error) {
	if num == nil {
		return inOrder(len(controls)), inOrder(len(regions)), nil
	}
	cn, rn, err = num(controls, regions)
	if err != nil {
		return nil, nil, err
	}
	if err := checkNumbers(cn, len(controls), "control"); err != nil {
		return nil, nil, err
	}
	if err := checkNumbers(rn, len(regions), "region"); err != nil {
		return nil, nil, err
	}
	return cn, rn, nil
}

// inOrder is 1 to n.
func inOrder(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// checkNumbers refuses numbers that are not one per record, each from 1 to
// limits.MaxRecordNumber and none twice.
func checkNumbers(ns []int, want int, what string) error {
	bad := func(why string) error {
		return errcode.New(errcode.InvalidRequest, pkgName, "", "the numbering of the "+what+" records "+why)
	}
	if len(ns) != want {
		return bad("gave " + strconv.Itoa(len(ns)) + " numbers for " + strconv.Itoa(want) + " records")
	}
	seen := make(map[int]bool, len(ns))
	for _, n := range ns {
		if n < 1 || n > limits.MaxRecordNumber {
			return bad("gave a number outside 1 to " + strconv.Itoa(limits.MaxRecordNumber))
		}
		if seen[n] {
			return bad("gave one number twice")
		}
		seen[n] = true
	}
	return nil
}

// indexOf is the position of number n in ns, the numbers of one list of
// records, -1 when no record has it. A page view lists a few hundred
// records at most, so a look along the list costs nothing worth a map.
func indexOf(ns []int, n int) int {
	for i, m := range ns {
		if m == n {
			return i
		}
	}
	return -1
}
