package axcompare

import "strings"

// Rule is one known class of difference between the page view and
// Chromium's accessibility tree, with the reference's rule that explains it.
type Rule struct {
	Class  string
	Reason string
	match  func(Control) bool
}

// RoleRules explain a role that differs; NameRules a name that differs.
// Each is tried in order and the first that matches names the class.
var (
	RoleRules = []Rule{
		{"list-input", "an input with a list attribute is a textbox: the form role column maps input types alone, and HTML-AAM's combobox for a suggestion list is not among them",
			func(c Control) bool {
				return c.Tag == "input" && c.HasList && c.Role == "textbox" && c.AXRole == "combobox"
			}},
		{"explicit-role-not-control", "a form control keeps an explicit role only when it is a control role of the page view (a button with role=link is a link); any other (a button with role=heading) leaves the role of the form role column",
			func(c Control) bool {
				return isFormElement(c.Tag) && c.ExplicitRole != "" && c.ExplicitRole == c.AXRole && !controlRoles[c.ExplicitRole]
			}},
	}
	NameRules = []Rule{
		{"bounded", "names are bounded summaries (CellUnits units, CellNodes nodes, MaxLabels label elements, MaxIDChars of aria-labelledby) and say so with name_truncated; Chromium's name is unbounded",
			func(c Control) bool { return c.NameTruncated }},
		{"no-invented-default", "a submit, reset or image input without a value or alt is named by its label sources alone, never by the browser's default text (\"Submit\")",
			func(c Control) bool {
				return c.Name == "" && c.Tag == "input" && (c.Type == "submit" || c.Type == "reset" || c.Type == "image")
			}},
		{"content-only-for-buttons", "a form control takes its content as its label only when its role is button; Chromium names a role=checkbox, radio or switch element from its content",
			func(c Control) bool { return formRowRoles[c.Role] && c.Role != "button" && c.AXNameFrom == "contents" }},
		{"title-placeholder-fallback", "title, then placeholder, name any form control whose earlier label sources are empty; Chromium names no checkbox by its placeholder, and no button input with an empty value by its title",
			func(c Control) bool {
				return c.AXName == "" && c.Name != "" && (Normalize(c.Name) == c.Title || Normalize(c.Name) == c.Placeholder)
			}},
		{"label-sources", "a label element or referenced element contributes nothing when it is invisible or excluded, an editable control or inside one (never a value), or already counted, and only the nearest ancestor label counts; Chromium's name reads hidden references, values, repeats and nested labels",
			func(c Control) bool { return strings.HasPrefix(c.AXNameFrom, "relatedElement:") }},
		{"text-transform", "a name is the text as the page holds it; Chromium's name is the text as CSS text-transform renders it (upper case, capitalised)",
			func(c Control) bool { return strings.EqualFold(Normalize(c.Name), Normalize(c.AXName)) }},
		{"spacing", "the cell-text rules put a space around every element that is not inline-level and none between inline ones (an image's alt joins the text beside it); Chromium spaces by its own rules, so only the spaces differ",
			func(c Control) bool { return squeeze(c.Name) == squeeze(c.AXName) }},
		{"content-beyond-text", "a name from content is the visible text by the cell-text rules (and, outside form controls, an image's alt), then the control's title when that is empty; Chromium's name from content also reads an image's alt inside a button, an SVG's title or label, a descendant's title or aria-label and a control inside",
			func(c Control) bool {
				return c.AXNameFrom == "contents" && (subsequence(words(c.Name), words(c.AXName)) || (c.Name != "" && Normalize(c.Name) == c.Title))
			}},
		{"content-left-out", "a name from content is all the control's visible text; Chromium's name from content leaves some of it out (a submenu inside a menu item)",
			func(c Control) bool { return c.AXNameFrom == "contents" && subsequence(words(c.AXName), words(c.Name)) }},
		{"figure-content", "a name from content is the control's visible text, whatever elements hold it; Chromium does not name a control from content that holds a <figure> or a <header> (as seen on real pages), and names such a link by its title, else not at all",
			func(c Control) bool {
				return c.HasFigure && (c.AXName == "" || (c.AXNameFrom == "attribute:title" && subsequence(words(c.AXName), words(c.Name))))
			}},
		{"descendant-label", "a name from content is text (and an image's alt); Chromium's name from content takes an inner element's aria-label or aria-labelledby in place of its text (an icon of role img with a label)",
			func(c Control) bool { return c.AXNameFrom == "contents" && c.HasLabelled }},
	}
)

// Classify names the rules that explain why c's role and name differ from
// Chromium's ("list-input", "bounded", "list-input+bounded"), "" when some
// difference has no rule or when both agree.
func Classify(c Control) string {
	if !c.Found || (c.RoleAgrees() && c.NameAgrees()) {
		return ""
	}
	var classes []string
	if !c.RoleAgrees() {
		r := first(RoleRules, c)
		if r == "" {
			return ""
		}
		classes = append(classes, r)
	}
	if !c.NameAgrees() {
		r := first(NameRules, c)
		if r == "" {
			return ""
		}
		classes = append(classes, r)
	}
	return strings.Join(classes, "+")
}

func first(rules []Rule, c Control) string {
	for _, r := range rules {
		if r.match(c) {
			return r.Class
		}
	}
	return ""
}

// isFormElement reports whether an element of that name is a native form
// control, whose role the form role column gives.
func isFormElement(tag string) bool {
	switch tag {
	case "input", "button", "select", "textarea":
		return true
	}
	return false
}

// formRowRoles are the explicit roles that make an element a form control
// (docs/reference.md#rows), whose name is its label.
var formRowRoles = map[string]bool{
	"button": true, "checkbox": true, "radio": true, "switch": true, "textbox": true,
	"searchbox": true, "combobox": true, "listbox": true, "slider": true, "spinbutton": true,
}

// controlRoles are the roles of the page view's controls
// (docs/reference.md#the-page-view).
var controlRoles = map[string]bool{
	"button": true, "checkbox": true, "combobox": true, "link": true, "listbox": true, "menuitem": true,
	"menuitemcheckbox": true, "menuitemradio": true, "radio": true, "searchbox": true, "slider": true,
	"spinbutton": true, "switch": true, "tab": true, "textbox": true,
}

// words are s's words, case folded.
func words(s string) []string { return strings.Fields(strings.ToLower(s)) }

// squeeze is s without white space, case folded.
func squeeze(s string) string { return strings.Join(words(s), "") }

// subsequence reports whether every word of a appears in b in the same
// order: b only adds words to a.
func subsequence(a, b []string) bool {
	j := 0
	for _, w := range b {
		if j < len(a) && a[j] == w {
			j++
		}
	}
	return j == len(a)
}
