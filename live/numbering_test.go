package live

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/limits"
)

// pageItem is one element of a generated page: id is its backend node id,
// which stays while the element stays in the document.
type pageItem struct {
	id      int64
	kind    string // link, button, checkbox, heading, section, para
	label   string
	checked bool
	hidden  bool
}

// itemTab is a Driver whose page is a list of items, captured whole with
// their backend node ids, as a whole DOMSnapshot capture has them.
type itemTab struct {
	nav   uint64
	items []pageItem
}

func (p *itemTab) Navigations(context.Context) (uint64, error) { return p.nav, nil }

func (p *itemTab) captureSnapshot(context.Context, []string) (json.RawMessage, error) {
	nodes := []capNode{{parent: -1, typ: 9, name: "#document", backend: 1}, {parent: 0, typ: 1, name: "HTML", display: "block", backend: 2},
		{parent: 1, typ: 1, name: "BODY", display: "block", backend: 3}}
	for _, it := range p.items {
		display := "block"
		if it.hidden {
			display = ""
		}
		at := len(nodes)
		el := capNode{parent: 2, typ: 1, display: display, backend: it.id}
		text := it.label
		switch it.kind {
		case "link":
			el.name, el.attrs = "A", []string{"href", "#" + it.label}
		case "button":
			el.name = "BUTTON"
		case "checkbox":
			el.name, el.attrs, el.checked, text = "INPUT", []string{"type", "checkbox", "aria-label", it.label}, it.checked, ""
		case "heading":
			el.name = "H2"
		case "section":
			el.name, el.attrs, text = "SECTION", []string{"aria-label", it.label}, "in "+it.label
		default:
			el.name = "P"
		}
		nodes = append(nodes, el)
		if text != "" {
			nodes = append(nodes, capNode{parent: at, typ: 3, name: "#text", value: text})
		}
	}
	return captureTables(nodes, true, nil)
}

// recordsByNumber writes each record of a list, reference left out, by
// the number n of its reference.
func recordsByNumber[T any](t *rapid.T, recs []T, ref func(*T) string, write func(*T) string) map[int]string {
	out := map[int]string{}
	for i := range recs {
		_, n, ok := domsnap.ParseActionRef(ref(&recs[i]))
		if !ok {
			_, n, ok = domsnap.ParseRegionRef(ref(&recs[i]))
		}
		if !ok {
			t.Fatalf("record %d has no reference: %q", i, ref(&recs[i]))
		}
		if _, twice := out[n]; twice {
			t.Fatalf("number %d twice in one view", n)
		}
		out[n] = write(&recs[i])
	}
	return out
}

func controlJSON(c *domsnap.Control) string {
	c2 := *c
	c2.Ref = ""
	b, _ := json.Marshal(c2)
	return string(b)
}

func regionJSON(r *domsnap.Region) string {
	r2 := *r
	r2.Ref = ""
	b, _ := json.Marshal(r2)
	return string(b)
}

func controlRef(c *domsnap.Control) string { return c.Ref }
func regionRef(r *domsnap.Region) string   { return r.Ref }

// applied is base's records with the changes applied to them.
func applied(base map[int]string, changed map[int]string, removed []int) map[int]string {
	out := map[int]string{}
	for n, r := range base {
		out[n] = r
	}
	for _, n := range removed {
		delete(out, n)
	}
	for n, r := range changed {
		out[n] = r
	}
	return out
}

func sameRecords(a, b map[int]string) bool {
	if len(a) != len(b) {
		return false
	}
	for n, r := range a {
		if b[n] != r {
			return false
		}
	}
	return true
}

// elementOf is the element id a generated label names: labels start with
// "x<id> ".
func elementOf(t *rapid.T, name string) int64 {
	f, _, _ := strings.Cut(name, " ")
	id, err := strconv.ParseInt(strings.TrimPrefix(f, "x"), 10, 64)
	if err != nil {
		t.Fatalf("a record named %q is no generated element", name)
	}
	return id
}

// TestChangesProperty: over random pages and random edits of them
// (elements added, removed, renamed, checked, hidden, moved, the page
// navigated), observed with a random view each time, applying an
// observation's changes to the page view they are told against gives its
// records and text exactly; an element keeps its number while it stays in
// its document; a number never names two elements of one document; and an
// element first listed takes a number above every number its document used
// before.
func TestChangesProperty(t *testing.T) {
	kinds := []string{"link", "button", "checkbox", "heading", "section", "para"}
	rapid.Check(t, func(t *rapid.T) {
		tab := &itemTab{nav: 1}
		next := int64(10)
		version := 0
		newItem := func() pageItem {
			next++
			version++
			return pageItem{id: next, kind: rapid.SampledFrom(kinds).Draw(t, "kind"),
				label: "x" + strconv.FormatInt(next, 10) + " v" + strconv.Itoa(version)}
		}
		for i, n := 0, rapid.IntRange(0, 12).Draw(t, "items"); i < n; i++ {
			tab.items = append(tab.items, newItem())
		}
		s, err := NewSession(tab, SessionOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var base *domsnap.Observation
		type docNumbers struct {
			byElement map[string]int   // kind letter and element id -> number
			byNumber  map[string]int64 // kind letter and number -> element id
			top       map[byte]int
		}
		fresh := func() docNumbers {
			return docNumbers{map[string]int{}, map[string]int64{}, map[byte]int{}}
		}
		doc := fresh()
		steps := rapid.IntRange(1, 12).Draw(t, "steps")
		for step := 0; step < steps; step++ {
			view := rapid.SampledFrom([]domsnap.View{domsnap.ViewChanges, domsnap.ViewChanges, domsnap.ViewFull, domsnap.ViewNone}).Draw(t, "view")
			o, _, err := s.Observe(context.Background(), ReadOptions{View: view})
			if err != nil {
				t.Fatal(err)
			}
			// Numbers: kept, never reused, new ones above the rest.
			check := func(letter byte, ref, name string) {
				_, n, ok := domsnap.ParseActionRef(ref)
				if !ok {
					_, n, _ = domsnap.ParseRegionRef(ref)
				}
				el := elementOf(t, name)
				key := string(letter) + strconv.FormatInt(el, 10)
				nk := string(letter) + strconv.Itoa(n)
				if had, ok := doc.byElement[key]; ok {
					if had != n {
						t.Fatalf("element %d was %c%d, now %d", el, letter, had, n)
					}
					return
				}
				if other, ok := doc.byNumber[nk]; ok {
					t.Fatalf("number %c%d named element %d, now %d", letter, n, other, el)
				}
				if n <= doc.top[letter] {
					t.Fatalf("new element %d took %c%d, not above %d", el, letter, n, doc.top[letter])
				}
				doc.byElement[key], doc.byNumber[nk], doc.top[letter] = n, el, n
			}
			for _, c := range o.Controls {
				check('a', c.Ref, c.Name)
			}
			for _, r := range o.Regions {
				check('g', r.Ref, r.Name)
			}
			// Changes, against the latest observation of the document
			// that gave its view.
			switch {
			case view != domsnap.ViewChanges || base == nil:
				if o.Changes != nil {
					t.Fatalf("changes %+v without a view of the document to tell them against", o.Changes)
				}
			case o.Changes == nil:
				t.Fatalf("no changes against %s", base.Revision)
			default:
				c := o.Changes
				if c.Since != base.Revision {
					t.Fatalf("changes since %s, the base is %s", c.Since, base.Revision)
				}
				got := applied(recordsByNumber(t, base.Controls, controlRef, controlJSON), recordsByNumber(t, c.Controls, controlRef, controlJSON), c.ControlsRemoved)
				if want := recordsByNumber(t, o.Controls, controlRef, controlJSON); !sameRecords(got, want) {
					t.Fatalf("controls: applied %v, observed %v", got, want)
				}
				got = applied(recordsByNumber(t, base.Regions, regionRef, regionJSON), recordsByNumber(t, c.Regions, regionRef, regionJSON), c.RegionsRemoved)
				if want := recordsByNumber(t, o.Regions, regionRef, regionJSON); !sameRecords(got, want) {
					t.Fatalf("regions: applied %v, observed %v", got, want)
				}
				text := base.Text
				if c.TextChanged {
					text = c.Text
				}
				if text != o.Text || c.TextChanged == (base.Text == o.Text) {
					t.Fatalf("text: applied %q (changed %v), observed %q", text, c.TextChanged, o.Text)
				}
				rev, _ := domsnap.ParseRevision(o.Revision)
				for _, x := range c.Controls {
					if seq, _, _ := domsnap.ParseActionRef(x.Ref); seq != rev.Sequence {
						t.Fatalf("a changed control's reference %s is not of %s", x.Ref, o.Revision)
					}
				}
			}
			if view != domsnap.ViewNone {
				base = o
			}
			// Every published reference resolves to its element.
			for _, c := range o.Controls {
				at, err := o.ActionTarget(c.Ref)
				if err != nil || at.BackendNodeID != elementOf(t, c.Name) {
					t.Fatalf("%s: target %+v %v", c.Ref, at, err)
				}
			}
			for _, r := range o.Regions {
				if err := o.CheckRegion(r.Ref); err != nil {
					t.Fatalf("%s: %v", r.Ref, err)
				}
			}
			// Edit the page.
			for e, n := 0, rapid.IntRange(0, 4).Draw(t, "edits"); e < n; e++ {
				op := rapid.IntRange(0, 6).Draw(t, "op")
				if len(tab.items) == 0 {
					op = 0
				}
				var k int
				if len(tab.items) > 0 {
					k = rapid.IntRange(0, len(tab.items)-1).Draw(t, "at")
				}
				switch op {
				case 0: // add
					at := rapid.IntRange(0, len(tab.items)).Draw(t, "insert at")
					tab.items = append(tab.items[:at], append([]pageItem{newItem()}, tab.items[at:]...)...)
				case 1: // remove
					tab.items = append(tab.items[:k], tab.items[k+1:]...)
				case 2: // rename, keeping the element
					version++
					tab.items[k].label = "x" + strconv.FormatInt(tab.items[k].id, 10) + " v" + strconv.Itoa(version)
				case 3:
					tab.items[k].checked = !tab.items[k].checked
				case 4:
					tab.items[k].hidden = !tab.items[k].hidden
				case 5: // move to the end
					it := tab.items[k]
					tab.items = append(append(tab.items[:k], tab.items[k+1:]...), it)
				case 6: // navigate: a new document, every element new
					if rapid.IntRange(0, 3).Draw(t, "navigate") == 0 {
						tab.nav++
						for i := range tab.items {
							next++
							tab.items[i].id = next
							tab.items[i].label = "x" + strconv.FormatInt(next, 10) + " v0"
						}
						base, doc = nil, fresh()
					}
				}
			}
		}
	})
}

// TestNumbersStayBelowTheBound: a document whose elements would need a
// number past limits.MaxRecordNumber is refused with a code, and no
// number is ever given twice.
func TestNumbersStayBelowTheBound(t *testing.T) {
	b := &numberBook{started: true, nav: 1}
	b.controls.top = limits.MaxRecordNumber - 1
	p, err := b.plan(1, 0, []int64{5}, nil)
	if err != nil || p.controlNums[0] != limits.MaxRecordNumber {
		t.Fatalf("the last number: %+v %v", p, err)
	}
	b.commit(p)
	if p, err := b.plan(1, 0, []int64{5}, nil); err != nil || p.controlNums[0] != limits.MaxRecordNumber {
		t.Fatalf("the element that has the last number keeps it: %+v %v", p, err)
	}
	if _, err := b.plan(1, 0, []int64{6}, nil); errcode.CodeOf(err) != errcode.UnsupportedInput {
		t.Fatalf("one more element: %v", err)
	}
	// Another document starts again from 1.
	if p, err := b.plan(2, 0, []int64{6}, nil); err != nil || p.controlNums[0] != 1 {
		t.Fatalf("a new document: %+v %v", p, err)
	}
}

// TestNumbersAcrossSpaces: ids of another space are new elements (their
// numbers go above every number used in the document); ids the capture
// could not tell (0) are new each time.
func TestNumbersAcrossSpaces(t *testing.T) {
	b := &numberBook{}
	p, _ := b.plan(1, 7, []int64{1, 2}, []int64{1})
	b.commit(p)
	p, _ = b.plan(1, 7, []int64{2, 1, 0}, []int64{1})
	if want := []int{2, 1, 3}; !equalInts(p.controlNums, want) || p.regionNum[0] != 1 {
		t.Fatalf("same space: %v %v", p.controlNums, p.regionNum)
	}
	b.commit(p)
	p, _ = b.plan(1, 0, []int64{1}, []int64{1})
	if p.controlNums[0] != 4 || p.regionNum[0] != 2 {
		t.Fatalf("another space: %v %v", p.controlNums, p.regionNum)
	}
	b.commit(p)
	p, _ = b.plan(1, 0, []int64{0, 0}, nil)
	if !equalInts(p.controlNums, []int{5, 6}) {
		t.Fatalf("unknown ids: %v", p.controlNums)
	}
}
