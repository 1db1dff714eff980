package axcompare

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mafredri/cdp/protocol/accessibility"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/domtree"
	"github.com/domsnap/domsnap/snapshot"
)

// Control is one control of the page view next to Chromium's node for the
// same element.
type Control struct {
	// Role, Name and NameTruncated are the page view's.
	Role, Name    string
	NameTruncated bool
	// Found is true when Chromium's tree holds a node for the element.
	Found bool
	// Ignored is true when Chromium keeps the node out of what assistive
	// technology is shown.
	Ignored bool
	// AXRole and AXName are Chromium's computed role and name.
	AXRole, AXName string
	// AXNameFrom is where Chromium's name came from: the source's type,
	// and its attribute or native source when it names one
	// ("attribute:title", "placeholder", "contents", "relatedElement:label").
	AXNameFrom string
	// Tag, Type and ExplicitRole describe the element, so a difference can
	// be told apart by the rule behind it: its name, its type attribute
	// (lower case), the first token of its role attribute. HasList is true
	// for an input with a list attribute; Title and Placeholder are those
	// attributes, normalised.
	Tag, Type, ExplicitRole string
	HasList                 bool
	Title, Placeholder      string
	// HasFigure is true when a <figure> or <header> lies inside the element;
	// HasLabelled when an element inside it has aria-label or
	// aria-labelledby.
	HasFigure, HasLabelled bool
}

// RoleAgrees reports whether both sides gave the same role.
func (c Control) RoleAgrees() bool { return c.Found && c.Role == c.AXRole }

// NameAgrees reports whether both sides gave the same name, spacing aside.
func (c Control) NameAgrees() bool { return c.Found && Normalize(c.Name) == Normalize(c.AXName) }

// Normalize collapses every run of white space to one space and trims.
func Normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// Compare observes raw, the DOMSnapshot.captureSnapshot reply (with
// snapshot.DefaultComputedStyles) of the page whose file is data, decoded as
// a live session decodes a capture, and pairs every control the observation
// lists with Chromium's node for the same element among ax, the nodes of
// Accessibility.getFullAXTree of the same tab.
func Compare(data []byte, raw json.RawMessage, ax []accessibility.AXNode) ([]Control, error) {
	tree, err := snapshot.DecodeCapture(raw, snapshot.CaptureOptions{ComputedStyles: snapshot.DefaultComputedStyles()})
	if err != nil {
		return nil, err
	}
	obs, err := domsnap.Observe(tree, snapshot.FileRevision(data), nil)
	if err != nil {
		return nil, err
	}
	byBackend := make(map[int64]accessibility.AXNode, len(ax))
	for _, n := range ax {
		if n.BackendDOMNodeID == nil {
			continue
		}
		id := int64(*n.BackendDOMNodeID)
		if _, dup := byBackend[id]; !dup {
			byBackend[id] = n
		}
	}
	elements := make(map[int64]domtree.Node)
	for i := 0; i < tree.Len(); i++ {
		if n := tree.At(i); n.IsElement() && n.BackendNodeID() != 0 {
			elements[n.BackendNodeID()] = n
		}
	}
	out := make([]Control, 0, len(obs.Controls))
	for _, c := range obs.Controls {
		t, err := obs.ActionTarget(c.Ref)
		if err != nil {
			return nil, err
		}
		rec := Control{Role: c.Role, Name: c.Name, NameTruncated: c.NameTruncated}
		if el, ok := elements[t.BackendNodeID]; ok {
			rec.Tag, rec.Type = el.Name(), strings.ToLower(el.AttrValue("type"))
			if f := strings.Fields(strings.ToLower(el.AttrValue("role"))); len(f) > 0 {
				rec.ExplicitRole = f[0]
			}
			rec.HasList = el.HasAttr("list")
			rec.Title, rec.Placeholder = Normalize(el.AttrValue("title")), Normalize(el.AttrValue("placeholder"))
			for d := range el.Subtree() {
				if d == el || !d.IsElement() {
					continue
				}
				rec.HasFigure = rec.HasFigure || d.Is("figure") || d.Is("header")
				rec.HasLabelled = rec.HasLabelled || d.HasAttr("aria-label") || d.HasAttr("aria-labelledby")
			}
		}
		if n, ok := byBackend[t.BackendNodeID]; ok && t.BackendNodeID != 0 {
			rec.Found, rec.Ignored = true, n.Ignored
			rec.AXRole, rec.AXName = stringOf(n.Role), stringOf(n.Name)
			rec.AXNameFrom = nameSource(n.Name)
		}
		out = append(out, rec)
	}
	return out, nil
}

// stringOf is an AX value that is a string, "" for any other.
func stringOf(v *accessibility.AXValue) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) != nil {
		return ""
	}
	return s
}

// nameSource names the source Chromium took a name from: the first source
// that has a value and is not superseded, "" when none has.
func nameSource(v *accessibility.AXValue) string {
	if v == nil {
		return ""
	}
	for _, s := range v.Sources {
		if s.Superseded != nil && *s.Superseded {
			continue
		}
		if s.Value == nil || stringOf(s.Value) == "" {
			continue
		}
		from := string(s.Type)
		switch {
		case s.Attribute != nil:
			from += ":" + *s.Attribute
		case s.NativeSource != "":
			from += ":" + string(s.NativeSource)
		}
		return from
	}
	return ""
}

// Tally counts controls, agreements and the classes of disagreement.
type Tally struct {
	Controls, RoleAgree, NameAgree, BothAgree int
	// Classes counts the disagreeing controls by Classify's class; ""
	// counts those no rule explains.
	Classes map[string]int
}

// Add counts cs.
func (t *Tally) Add(cs []Control) {
	if t.Classes == nil {
		t.Classes = map[string]int{}
	}
	for _, c := range cs {
		t.Controls++
		r, n := c.RoleAgrees(), c.NameAgrees()
		if r {
			t.RoleAgree++
		}
		if n {
			t.NameAgree++
		}
		if r && n {
			t.BothAgree++
			continue
		}
		t.Classes[Classify(c)]++
	}
}

// String is the counts as one line.
func (t Tally) String() string {
	return fmt.Sprintf("controls %d, role agrees %d, name agrees %d, both agree %d (%s)",
		t.Controls, t.RoleAgree, t.NameAgree, t.BothAgree, percent(t.BothAgree, t.Controls))
}

func percent(n, of int) string {
	if of == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}
