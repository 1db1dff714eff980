package domsnap

import (
	"strconv"

	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/errcode"
	"github.com/domsnap/domsnap/internal/collect"
	"github.com/domsnap/domsnap/internal/view"
)

// ViewScan is the coverage of an observation's view scan
// (docs/reference.md#the-page-view): what lies past it is unknown, never
// absent.
type ViewScan struct {
	// Limit is the scan's budget in nodes, Visited the nodes it visited.
	Limit, Visited int
	// Exhausted is true exactly when the budget ran out with nodes left.
	Exhausted bool
	// Region is the region reference an expansion started at, "" for a scan
	// of the whole document.
	Region string
	// FramesOmitted counts the frame documents the page view did not read
	// (docs/reference.md#the-composed-page): past limits.MaxFrames or
	// limits.MaxFrameDepth, of an origin the session's policy does not
	// allow, rendered in another process, or moving while captured. It is
	// written only when not 0.
	FramesOmitted int
}

// Control is one control of the page view: something a person can click,
// type into or choose from.
type Control struct {
	// Ref is the action reference a<sequence>.<n>: the sequence is the
	// observation's; n counts from 1 in output order, or, numbered by a
	// live session, is the element's own number in its document
	// (docs/reference.md#stable-numbers).
	Ref  string
	Role string
	// Name is the control's bounded name; NameTruncated says a bound cut
	// it. A name never holds a value anyone typed or chose.
	Name          string
	NameTruncated bool
	Disabled      bool
	// Checked is "true", "false" or "mixed" for checkbox, radio, switch,
	// menuitemcheckbox and menuitemradio, "" for the other roles.
	Checked string
	// Expanded is "true" or "false" (aria-expanded), "" when it says neither.
	Expanded string
	// Selected is aria-selected="true" on a tab.
	Selected bool
	// Sort is a sortable column or row header's aria-sort: "ascending",
	// "descending", "other" or "none" (sortable, not sorted now); "" for
	// every other role.
	Sort     string
	Required bool
	// Options holds, for a <select>, the texts of its first MaxOptions
	// options (never which is selected), and OptionsOmitted how many more
	// it has. Options is nil for every other control.
	Options        []string
	OptionsOmitted int
	// Files is true for a file input (role button): an upload action
	// chooses its file.
	Files bool
	// In names the innermost inventory row the control lies in, nil when
	// it lies in none.
	In *ControlIn
}

// ControlIn is the inventory row a control lies in: the collection's kind
// and index, and the row's position in that collection's rows.
type ControlIn struct {
	Kind     Kind
	Index    int
	Position int
}

// Region is one landmark or heading of the page view.
type Region struct {
	// Ref is the region reference g<sequence>.<n>, which anchors an
	// expansion, numbered as a control's is.
	Ref  string
	Role string
	// Name is the region's bounded name, "" when it has none.
	Name string
	// Level is a heading's level, 0 for every other role.
	Level int
}

// ActionTarget is what acting on a control needs, kept privately by the
// observation that published the control's action reference and read with
// [Observation.ActionTarget].
type ActionTarget struct {
	// BackendNodeID is the browser's node the control was captured from; 0
	// for a tree parsed from HTML, which no browser holds.
	BackendNodeID int64
	// Role is the control's role in the page view.
	Role string
	// Options are the control's listed options, nil when it is no select.
	Options []string
	// HumanOnly is true for a field only a person may type into: an
	// <input type=password>, or one whose autocomplete names
	// current-password, new-password or one-time-code.
	HumanOnly bool
	// Checked is the control's checked state as listed ("true", "false",
	// "mixed", or "" for roles without one).
	Checked string
	// Disabled is the control's disabled state as listed.
	Disabled bool
	// Files is true for a file input.
	Files bool
	// InFrame is true for a control inside a frame document, whose frame
	// the capture knew as Frame: the action acts in that document.
	InFrame bool
	Frame   string
}

// regionAnchor is where a published region lies, so that an expansion can
// find its element again: in a tree parsed from the same bytes by its
// index, in a later capture by the browser's node id.
type regionAnchor struct {
	index int
	id    elementID
}

// elementID is how the browser knows an element an observation published:
// its backend node id, read at once where the tree holds it, or the node
// itself where the tree reads ids from the browser one call per node (a
// bounded capture, domtree.Tree.BackendIDsOnDemand), so that an
// observation pays only for the ids an action or expansion uses, not for
// every control and region it lists.
type elementID struct {
	id   int64
	node domtree.Node
}

func idOf(n domtree.Node) elementID {
	if n.Tree().BackendIDsOnDemand() {
		return elementID{node: n}
	}
	return elementID{id: n.BackendNodeID()}
}

// known reports whether the element came from a tree with backend ids.
func (e elementID) known() bool { return e.id != 0 || e.node.Valid() }

// get is the backend node id, 0 when there is none or it cannot be found.
func (e elementID) get() int64 {
	if e.node.Valid() {
		return e.node.BackendNodeID()
	}
	return e.id
}

// pageView computes the page view of the tree (from start, for an
// expansion) and stores it in o with references under sequence, numbered
// by num.
func (o *Observation) pageView(light *domtree.Tree, start domtree.Node, whole bool, entries []collect.Entry, sequence uint64, num Numbering) error {
	rows := view.RowsOf(entries)
	var v view.View
	if whole {
		v = view.Scan(start.Tree(), rows)
	} else {
		v = view.ScanFrom(light, start, rows)
	}
	ce := make([]domtree.Node, len(v.Controls))
	for i, c := range v.Controls {
		ce[i] = c.Element
	}
	re := make([]domtree.Node, len(v.Regions))
	for i, r := range v.Regions {
		re[i] = r.Element
	}
	cn, rn, err := numberRecords(num, ce, re)
	if err != nil {
		return err
	}
	o.controlNumbers, o.regionNumbers = cn, rn
	o.ViewScan = ViewScan{Limit: v.Scan.Limit, Visited: v.Scan.Visited, Exhausted: v.Scan.Exhausted,
		FramesOmitted: light.Composed().FramesOmitted()}
	o.Controls = make([]Control, len(v.Controls))
	o.targets = make([]ActionTarget, len(v.Controls))
	o.targetIDs = make([]elementID, len(v.Controls))
	for i, c := range v.Controls {
		out := Control{
			Ref:           ActionRef(sequence, cn[i]),
			Role:          c.Role,
			Name:          c.Name.Text,
			NameTruncated: c.Name.Truncated,
			Disabled:      c.Disabled,
			Checked:       c.Checked,
			Expanded:      c.Expanded,
			Selected:      c.Selected,
			Sort:          c.Sort,
			Required:      c.Required,
			Files:         c.Files,
		}
		if c.Select {
			out.Options = append([]string{}, c.Options...)
			out.OptionsOmitted = c.OptionsOmitted
		}
		if c.HasIn {
			out.In = &ControlIn{Kind: c.In.Kind, Index: c.In.Index, Position: c.In.Position}
		}
		o.Controls[i] = out
		o.targetIDs[i] = idOf(c.Element)
		frame, inFrame := c.Element.Frame()
		o.targets[i] = ActionTarget{
			Role:      c.Role,
			Options:   out.Options,
			HumanOnly: c.Secret,
			Checked:   c.Checked,
			Disabled:  c.Disabled,
			Files:     c.Files,
			InFrame:   inFrame,
			Frame:     frame,
		}
	}
	o.ControlsOmitted = v.ControlsOmitted
	o.Regions = make([]Region, len(v.Regions))
	o.anchors = make([]regionAnchor, len(v.Regions))
	for i, r := range v.Regions {
		o.Regions[i] = Region{Ref: RegionRef(sequence, rn[i]), Role: r.Role, Name: r.Name, Level: r.Level}
		o.anchors[i] = regionAnchor{index: r.Element.Index(), id: idOf(r.Element)}
	}
	o.RegionsOmitted = v.RegionsOmitted
	o.Text = v.Text
	o.TextTruncated = v.TextTruncated
	return nil
}

// ActionTarget returns what acting on the control with action reference ref
// needs. An evidence or region reference, or a string that is no reference,
// is invalid_reference; an action reference this observation did not
// publish (another observation's, or a number past its controls) is
// unknown_reference. The reference is never quoted in full: at most the
// bytes an error may quote.
func (o *Observation) ActionTarget(ref string) (ActionTarget, error) {
	seq, n, err := parseActionRef(ref)
	if err != nil {
		return ActionTarget{}, err
	}
	i := -1
	if o != nil && seq == o.sequence() {
		i = indexOf(o.controlNumbers, n)
	}
	if i < 0 {
		return ActionTarget{}, errcode.New(errcode.UnknownReference, pkgName, "",
			"action reference "+errcode.Quote(ref)+" was not published by this observation")
	}
	t := o.targets[i]
	t.BackendNodeID = o.targetIDs[i].get()
	if t.Options != nil {
		// The caller's own copy; a select without options keeps an empty,
		// non-nil list.
		t.Options = append([]string{}, t.Options...)
	}
	return t, nil
}

// CheckRegion reports whether ref is a region reference o published, as an
// expansion needs: nil when it is; invalid_reference for an evidence or
// action reference or a malformed one; unknown_reference for a region
// reference o did not publish. A caller that captures a new snapshot for an
// expansion checks this first, so a bad reference costs no capture.
func (o *Observation) CheckRegion(ref string) error {
	_, err := o.regionAnchorOf(ref)
	return err
}

// sequence is the observation sequence the observation's references are
// numbered under, 0 when its revision does not parse.
func (o *Observation) sequence() uint64 {
	r, err := ParseRevision(o.Revision)
	if err != nil {
		return 0
	}
	return sequenceOf(r)
}

// regionAnchorOf finds the region reference ref among the regions o
// published.
func (o *Observation) regionAnchorOf(ref string) (regionAnchor, error) {
	seq, n, err := parseRegionRef(ref)
	if err != nil {
		return regionAnchor{}, err
	}
	i := -1
	if o != nil && seq == o.sequence() {
		i = indexOf(o.regionNumbers, n)
	}
	if i < 0 {
		return regionAnchor{}, errcode.New(errcode.UnknownReference, pkgName, "",
			"region reference "+errcode.Quote(ref)+" was not published by this observation")
	}
	return o.anchors[i], nil
}

// appendView writes the page view's members, each after a comma; with refs
// false it leaves out every reference.
func (o *Observation) appendView(b []byte, refs bool) []byte {
	b = o.ViewScan.appendJSON(append(b, `,"view_scan":`...), refs)
	b = appendControls(append(b, `,"controls":`...), o.Controls, refs)
	b = append(b, `,"controls_omitted":`...)
	b = strconv.AppendInt(b, int64(o.ControlsOmitted), 10)
	b = appendRegions(append(b, `,"regions":`...), o.Regions, refs)
	b = append(b, `,"regions_omitted":`...)
	b = strconv.AppendInt(b, int64(o.RegionsOmitted), 10)
	return appendText(b, o.Text, o.TextTruncated)
}

// appendText writes the text and text_truncated members.
func appendText(b []byte, text string, truncated bool) []byte {
	b = appendString(append(b, `,"text":`...), text)
	b = append(b, `,"text_truncated":`...)
	return strconv.AppendBool(b, truncated)
}

func (s *ViewScan) appendJSON(b []byte, refs bool) []byte {
	b = append(b, `{"limit":`...)
	b = strconv.AppendInt(b, int64(s.Limit), 10)
	b = append(b, `,"visited":`...)
	b = strconv.AppendInt(b, int64(s.Visited), 10)
	b = append(b, `,"exhausted":`...)
	b = strconv.AppendBool(b, s.Exhausted)
	if s.FramesOmitted > 0 {
		b = append(b, `,"frames_omitted":`...)
		b = strconv.AppendInt(b, int64(s.FramesOmitted), 10)
	}
	if refs && s.Region != "" {
		b = appendString(append(b, `,"region":`...), s.Region)
	}
	return append(b, '}')
}

func appendControls(b []byte, cs []Control, refs bool) []byte {
	return appendArray(b, cs, func(b []byte, c *Control) []byte { return c.appendJSON(b, refs) })
}

// appendJSON writes one control with keys in the order of
// docs/reference.md#the-page-view, members after name only when they apply.
func (c *Control) appendJSON(b []byte, refs bool) []byte {
	b = append(b, '{')
	if refs {
		b = appendString(append(b, `"ref":`...), c.Ref)
		b = append(b, ',')
	}
	b = appendString(append(b, `"role":`...), c.Role)
	b = appendString(append(b, `,"name":`...), c.Name)
	if c.NameTruncated {
		b = append(b, `,"name_truncated":true`...)
	}
	if c.Disabled {
		b = append(b, `,"disabled":true`...)
	}
	switch c.Checked {
	case "true", "false":
		b = append(append(b, `,"checked":`...), c.Checked...)
	case "mixed":
		b = append(b, `,"checked":"mixed"`...)
	}
	switch c.Expanded {
	case "true", "false":
		b = append(append(b, `,"expanded":`...), c.Expanded...)
	}
	if c.Selected {
		b = append(b, `,"selected":true`...)
	}
	if c.Sort != "" {
		b = appendString(append(b, `,"sort":`...), c.Sort)
	}
	if c.Required {
		b = append(b, `,"required":true`...)
	}
	if c.Files {
		b = append(b, `,"files":true`...)
	}
	if c.Options != nil {
		b = append(b, `,"options":[`...)
		for i, opt := range c.Options {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, opt)
		}
		b = append(b, `],"options_omitted":`...)
		b = strconv.AppendInt(b, int64(c.OptionsOmitted), 10)
	}
	if c.In != nil {
		b = appendString(append(b, `,"in":{"kind":`...), c.In.Kind.String())
		b = append(b, `,"index":`...)
		b = strconv.AppendInt(b, int64(c.In.Index), 10)
		b = append(b, `,"position":`...)
		b = strconv.AppendInt(b, int64(c.In.Position), 10)
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendRegions(b []byte, rs []Region, refs bool) []byte {
	return appendArray(b, rs, func(b []byte, r *Region) []byte { return r.appendJSON(b, refs) })
}

// appendJSON writes one region with keys in the order of
// docs/reference.md#the-page-view.
func (r *Region) appendJSON(b []byte, refs bool) []byte {
	b = append(b, '{')
	if refs {
		b = appendString(append(b, `"ref":`...), r.Ref)
		b = append(b, ',')
	}
	b = appendString(append(b, `"role":`...), r.Role)
	b = appendString(append(b, `,"name":`...), r.Name)
	if r.Level > 0 {
		b = append(b, `,"level":`...)
		b = strconv.AppendInt(b, int64(r.Level), 10)
	}
	return append(b, '}')
}
