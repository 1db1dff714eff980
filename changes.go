package domsnap

import (
	"bytes"
	"strconv"

	"github.com/domsnap/domsnap/errcode"
)

// View says how an answer gives an observation's page view
// (docs/reference.md#answers-that-cost-what-changed).
type View int

const (
	// ViewFull gives the page view whole: controls, regions and text.
	ViewFull View = iota
	// ViewChanges gives what changed since an earlier observation of the
	// same document, and the page view whole when there is none or when
	// that is smaller.
	ViewChanges
	// ViewNone gives no page view: the answer keeps the revision, the
	// inventory, the coverage and the extraction.
	ViewNone
)

// ParseView reads "full", "changes" or "none".
func ParseView(s string) (View, bool) {
	switch s {
	case "full":
		return ViewFull, true
	case "changes":
		return ViewChanges, true
	case "none":
		return ViewNone, true
	}
	return ViewFull, false
}

func (v View) String() string {
	switch v {
	case ViewFull:
		return "full"
	case ViewChanges:
		return "changes"
	case ViewNone:
		return "none"
	}
	return "invalid"
}

// Changes is a page view told as what changed since an earlier observation
// of the same document, Since: the records added or changed, whole and with
// the new observation's references; the numbers of the records gone; and
// the text when it changed. A record it does not mention is unchanged, and
// its reference is the earlier one with the new sequence. Applying it to
// Since's page view gives the new one's records and text, in an order that
// may differ.
type Changes struct {
	// Since is the revision of the observation the changes are told
	// against.
	Since string
	// Controls and Regions are the records added or changed, in the new
	// observation's order.
	Controls []Control
	Regions  []Region
	// ControlsRemoved and RegionsRemoved are the numbers n of Since's
	// records that the new page view does not list, in Since's order.
	ControlsRemoved []int
	RegionsRemoved  []int
	// TextChanged says the text differs from Since's; Text is then the new
	// text, whole.
	TextChanged bool
	Text        string
}

// ChangesSince tells o's page view as changes against prev, an earlier
// observation of the same document: the same live session and navigation,
// an earlier sequence. Records are matched by their number n, which a live
// session keeps for an element while it stays in the document; two
// records of one number are the same when they write the same JSON but
// for their references. Anything else as prev (nil, a file's observation,
// another session's or document's, a later one) is invalid_request: only
// numbers kept within one document make changes true.
func (o *Observation) ChangesSince(prev *Observation) (*Changes, error) {
	if o == nil || prev == nil {
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "changes need two observations")
	}
	cur, err1 := ParseRevision(o.Revision)
	was, err2 := ParseRevision(prev.Revision)
	if err1 != nil || err2 != nil || cur.IsFile() || was.IsFile() || cur.Session != was.Session ||
		cur.Navigation != was.Navigation || was.Sequence >= cur.Sequence {
		return nil, errcode.New(errcode.InvalidRequest, pkgName, "", "changes are told against an earlier observation of the same live document only")
	}
	c := &Changes{Since: prev.Revision, Controls: []Control{}, Regions: []Region{}, ControlsRemoved: []int{}, RegionsRemoved: []int{}}
	c.Controls, c.ControlsRemoved = diffRecords(prev.Controls, prev.controlNumbers, o.Controls, o.controlNumbers,
		func(b []byte, r *Control) []byte { return r.appendJSON(b, false) })
	c.Regions, c.RegionsRemoved = diffRecords(prev.Regions, prev.regionNumbers, o.Regions, o.regionNumbers,
		func(b []byte, r *Region) []byte { return r.appendJSON(b, false) })
	if o.Text != prev.Text {
		c.TextChanged, c.Text = true, o.Text
	}
	return c, nil
}

// diffRecords compares two lists of records by number: the new records
// that the old list lacks or holds otherwise (as write, without
// references, tells), and the old numbers the new list lacks.
func diffRecords[T any](old []T, oldNums []int, cur []T, curNums []int, write func([]byte, *T) []byte) (changed []T, removed []int) {
	changed, removed = []T{}, []int{}
	byNumber := make(map[int]int, len(oldNums))
	for i, n := range oldNums {
		byNumber[n] = i
	}
	var a, b []byte
	for i, n := range curNums {
		j, ok := byNumber[n]
		if ok {
			a, b = write(a[:0], &old[j]), write(b[:0], &cur[i])
			if bytes.Equal(a, b) {
				continue
			}
		}
		changed = append(changed, cur[i])
	}
	kept := make(map[int]bool, len(curNums))
	for _, n := range curNums {
		kept[n] = true
	}
	for _, n := range oldNums {
		if !kept[n] {
			removed = append(removed, n)
		}
	}
	return changed, removed
}

// appendJSON writes the changes object, keys in the order of
// docs/reference.md#answers-that-cost-what-changed, text only when it
// changed.
func (c *Changes) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"since":`...), c.Since)
	b = appendControls(append(b, `,"controls":`...), c.Controls, true)
	b = appendNumbers(append(b, `,"controls_removed":`...), c.ControlsRemoved)
	b = appendRegions(append(b, `,"regions":`...), c.Regions, true)
	b = appendNumbers(append(b, `,"regions_removed":`...), c.RegionsRemoved)
	if c.TextChanged {
		b = appendString(append(b, `,"text":`...), c.Text)
	}
	return append(b, '}')
}

// appendNumbers writes ns as a JSON array.
func appendNumbers(b []byte, ns []int) []byte {
	return appendArray(b, ns, func(b []byte, n *int) []byte { return strconv.AppendInt(b, int64(*n), 10) })
}
