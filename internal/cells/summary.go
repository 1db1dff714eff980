package cells

import (
	"github.com/domsnap/domsnap/vocab"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/limits"
)

// Truncation says why a summary was truncated: the first bound that applied.
// It is the contract's word (package vocab).
type Truncation = vocab.Truncation

// The truncations; None means the summary is complete.
const (
	None        = vocab.TruncNone
	TruncText   = vocab.TruncText
	TruncNodes  = vocab.TruncNodes
	TruncLabels = vocab.TruncLabels
)

// Summary is one cell's bounded text. A summary with empty Text that is not
// truncated is missing.
type Summary struct {
	// Text is normalised: ASCII whitespace collapsed to single spaces, none at
	// either end, at most limits.CellUnits UTF-16 code units, valid UTF-8.
	Text string
	// Truncated is true when a bound cut the text; Text is then the retained
	// prefix, possibly empty.
	Truncated bool
	// Why is the first bound that applied; None exactly when !Truncated.
	Why Truncation
}

// Missing reports whether the summary is empty and not truncated.
func (s Summary) Missing() bool { return s.Text == "" && !s.Truncated }

// Summarize is the summary of docs/reference.md#cell-text of cell and its subtree, spending one
// fresh CellNodes budget.
//
// A cell that lies inside an editable control (a table in a contenteditable
// region, an option of a select) is missing: its text is what a person typed
// or a page pre-filled, so the secret rule keeps it out. Finding that out
// walks the cell's ancestors once, outside the node budget, so the spec's
// node accounting is the same for every other cell.
func Summarize(cell domtree.Node) Summary {
	if insideEditable(cell) {
		return Summary{}
	}
	w := newWalker()
	w.walk(cell)
	return w.summary()
}

// insideEditable reports whether an ancestor of n is an editable control.
func insideEditable(n domtree.Node) bool {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if editable(p) {
			return true
		}
	}
	return false
}

// walker is the state one summary or one label cell shares across its walks:
// the node budget, the retained text and the first truncation.
type walker struct {
	budget limits.Budget
	text   textBuf
	why    Truncation
	// ends holds, for every entered element that is not inline-level, the
	// tree index one past its subtree: reaching it means the element closed
	// and its trailing space is due. It never holds more entries than nodes
	// visited.
	ends []int
	// alt makes a visible <img> contribute its alt attribute (a control's
	// content name, a label element's text); a cell summary reads text
	// nodes only.
	alt bool
}

func newWalker() *walker {
	return &walker{budget: limits.NewBudget(limits.CellNodes)}
}

// stop records a truncation; only the first one is kept.
func (w *walker) stop(why Truncation) {
	if w.why == None {
		w.why = why
	}
}

func (w *walker) summary() Summary {
	return Summary{Text: string(w.text.b), Truncated: w.why != None, Why: w.why}
}

// walk appends the text (docs/reference.md#cell-text) of start's subtree to w.text. It reports
// false when a bound cut it (w.why says which); the caller must then stop
// reading further sources.
func (w *walker) walk(start domtree.Node) bool {
	w.ends = w.ends[:0]
	n := start
	for n.Valid() {
		if !w.budget.Spend() {
			// n is a node of the subtree that will not be visited.
			w.stop(TruncNodes)
			return false
		}
		for len(w.ends) > 0 && w.ends[len(w.ends)-1] <= n.Index() {
			w.ends = w.ends[:len(w.ends)-1]
			w.text.space()
		}
		enter := false
		switch n.Kind() {
		case domtree.Text:
			if n.Visible() && !w.text.writeString(n.Data()) {
				w.stop(TruncText)
				return false
			}
		case domtree.Document:
			enter = true // only as a start: nothing else contains it
		case domtree.Element:
			if n.Excluded() {
				break // no text, not even a space
			}
			block := n.Display() != domtree.DisplayInline
			if block || (n.Is("br") && !n.Invisible()) {
				w.text.space()
			}
			if w.alt && n.Is("img") && n.Visible() {
				if v, ok := n.Attr("alt"); ok && !w.text.writeString(v) {
					w.stop(TruncText)
					return false
				}
			}
			if editable(n) || (n != start && nestedCollection(n)) {
				break // visited, not entered; a block's closing space is the one above
			}
			enter = true
			if block {
				w.ends = append(w.ends, n.Index()+n.SubtreeSize())
			}
		}
		n = n.Next(start, enter)
	}
	return true
}
