package live

import (
	"context"
	"strconv"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// identifier tells which element of the page each of a capture's nodes
// is, the same way in every capture of one document: an id per node (0
// when it cannot tell) within a space, 0 for the browser's backend node
// ids, another value for ids that only mean something within that space
// (the walker's serial numbers, which its world keeps).
type identifier func(ctx context.Context, nodes []domtree.Node) (space int64, ids []int64, err error)

// backendIdentity is the identifier of a tree that holds the browser's
// backend node ids: a whole capture's, which has them all at no cost.
func backendIdentity(_ context.Context, nodes []domtree.Node) (int64, []int64, error) {
	ids := make([]int64, len(nodes))
	for i, n := range nodes {
		ids[i] = n.BackendNodeID()
	}
	return 0, ids, nil
}

// numberBook keeps the numbers the session gave the elements of its
// current document (docs/reference.md#stable-numbers): an element keeps its
// number while it stays in the document, and an element not numbered yet
// takes one above every number given in the document so far, so a number
// is never given to two elements of one document. Controls and regions
// are numbered apart, as their references are.
type numberBook struct {
	// started says the book belongs to the document at navigation nav.
	started bool
	nav     uint64
	// space is the identifier space the ids of the maps belong to: ids of
	// another space are new elements to them.
	space             int64
	controls, regions numberMap
}

// numberMap is one kind of record's numbers in a document.
type numberMap struct {
	byID map[int64]int
	// top is the highest number given in the document, kept when the map
	// is emptied, so no number is given twice.
	top int
}

// maxBookEntries bounds how many elements one kind's map remembers: a
// long-lived page that renders new elements without end would otherwise
// grow it for ever. Past it, the map keeps only the latest observation's
// elements; an element that comes back after being left out then takes a
// new number, never a number given before.
const maxBookEntries = 16 * limits.MaxControls

// numberPlan is the numbering of one observation, proposed while it is
// computed and kept in the book only once the observation is published.
type numberPlan struct {
	nav                    uint64
	space                  int64
	controlIDs, regionIDs  []int64
	controlNums, regionNum []int
}

// plan numbers the records of an observation of the document at
// navigation nav whose elements have ids (controls', then regions', in
// output order) in space, without changing the book.
func (b *numberBook) plan(nav uint64, space int64, controlIDs, regionIDs []int64) (*numberPlan, error) {
	same := b.started && b.nav == nav
	var cm, rm numberMap
	if same {
		cm, rm = numberMap{top: b.controls.top}, numberMap{top: b.regions.top}
		if b.space == space {
			cm.byID, rm.byID = b.controls.byID, b.regions.byID
		}
	}
	p := &numberPlan{nav: nav, space: space, controlIDs: controlIDs, regionIDs: regionIDs}
	var err error
	if p.controlNums, err = cm.number(controlIDs); err != nil {
		return nil, err
	}
	if p.regionNum, err = rm.number(regionIDs); err != nil {
		return nil, err
	}
	return p, nil
}

// number gives each id its number: the one the map holds, else the next
// above top. An unknown id (0), or one met twice, is a new element each
// time.
func (m numberMap) number(ids []int64) ([]int, error) {
	out := make([]int, len(ids))
	used := make(map[int]bool, len(ids))
	top := m.top
	for i, id := range ids {
		if n, ok := m.byID[id]; ok && id != 0 && !used[n] {
			out[i], used[n] = n, true
			continue
		}
		if top >= limits.MaxRecordNumber {
			return nil, errcode.TooLarge(pkg, "the document listed more than "+strconv.Itoa(limits.MaxRecordNumber)+" elements of one kind")
		}
		top++
		out[i], used[top] = top, true
	}
	return out, nil
}

// commit keeps a published observation's numbering: the book starts over
// for a new document, forgets the ids of another space, and remembers
// every numbered element.
func (b *numberBook) commit(p *numberPlan) {
	if !b.started || b.nav != p.nav {
		*b = numberBook{started: true, nav: p.nav, space: p.space}
	}
	if b.space != p.space {
		b.space = p.space
		b.controls.byID, b.regions.byID = nil, nil
	}
	b.controls.keep(p.controlIDs, p.controlNums)
	b.regions.keep(p.regionIDs, p.regionNum)
}

func (m *numberMap) keep(ids []int64, nums []int) {
	if m.byID == nil || len(m.byID)+len(ids) > maxBookEntries {
		m.byID = make(map[int64]int, len(ids))
	}
	for i, id := range ids {
		if id != 0 {
			m.byID[id] = nums[i]
		}
		m.top = max(m.top, nums[i])
	}
}

// publishView keeps what a published observation means for the ones after
// it: its numbering in the book, and, for the page view it gives, the
// changes since the base and whether it becomes the base. A new document
// has no base until an observation of it gives its view.
func (s *Session) publishView(r *reading, view domsnap.View) {
	if r.plan != nil {
		s.numbers.commit(r.plan)
	}
	if s.base != nil {
		if b, err := domsnap.ParseRevision(s.base.Revision); err != nil || b.Navigation != r.nav {
			s.base = nil
		}
	}
	o := r.obs
	if o == nil {
		return
	}
	if view == domsnap.ViewChanges && s.base != nil {
		if c, err := o.ChangesSince(s.base); err == nil {
			o.Changes = c
		}
	}
	if view != domsnap.ViewNone {
		s.base = o
	}
}
