package axcompare

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		what string
		c    Control
		want string
	}{
		{"agreeing", Control{Found: true, Role: "link", Name: "Home", AXRole: "link", AXName: " Home\n"}, ""},
		{"not in Chromium's tree", Control{Role: "link", Name: "Home"}, ""},
		{"list input", Control{Found: true, Tag: "input", HasList: true, Role: "textbox", AXRole: "combobox", Name: "City", AXName: "City"}, "list-input"},
		{"button role=heading", Control{Found: true, Tag: "button", ExplicitRole: "heading", Role: "button", AXRole: "heading", Name: "Go", AXName: "Go"}, "explicit-role-not-control"},
		{"button role=link listed as a button is no known difference", Control{Found: true, Tag: "button", ExplicitRole: "link", Role: "button", AXRole: "link", Name: "Go", AXName: "Go"}, ""},
		{"div role=link is no form element", Control{Found: true, Tag: "div", ExplicitRole: "link", Role: "button", AXRole: "link"}, ""},
		{"unknown role difference", Control{Found: true, Tag: "a", Role: "link", AXRole: "button"}, ""},
		{"bounded", Control{Found: true, Role: "link", AXRole: "link", Name: "aaa", NameTruncated: true, AXName: "aaaa"}, "bounded"},
		{"role and name", Control{Found: true, Tag: "input", HasList: true, Role: "textbox", AXRole: "combobox", Name: "a", NameTruncated: true, AXName: "ab"}, "list-input+bounded"},
		{"role explained, name not", Control{Found: true, Tag: "input", HasList: true, Role: "textbox", AXRole: "combobox", Name: "a", AXName: "b", AXNameFrom: "attribute:title"}, ""},
		{"submit default", Control{Found: true, Tag: "input", Type: "submit", Role: "button", AXRole: "button", AXName: "Submit", AXNameFrom: "contents"}, "no-invented-default"},
		{"checkbox content", Control{Found: true, Role: "checkbox", AXRole: "checkbox", AXName: "Agree", AXNameFrom: "contents"}, "content-only-for-buttons"},
		{"button adds alt", Control{Found: true, Role: "button", AXRole: "button", Name: "Print", AXName: "icon Print", AXNameFrom: "contents"}, "content-beyond-text"},
		{"button text differs", Control{Found: true, Role: "button", AXRole: "button", Name: "Print", AXName: "Send", AXNameFrom: "contents"}, ""},
		{"svg title in a link", Control{Found: true, Role: "link", AXRole: "link", Name: "", AXName: "Twitter", AXNameFrom: "contents"}, "content-beyond-text"},
		{"title when content is empty", Control{Found: true, Role: "button", AXRole: "button", Name: "Search now", Title: "Search now", AXName: "Search", AXNameFrom: "contents"}, "content-beyond-text"},
		{"submenu left out", Control{Found: true, Role: "menuitem", AXRole: "menuitem", Name: "Help Contact Imprint", AXName: "Help", AXNameFrom: "contents"}, "content-left-out"},
		{"figure link named by title", Control{Found: true, Role: "link", AXRole: "link", HasFigure: true, Name: "Title News 12.11.2018 Title", AXName: "Title", AXNameFrom: "attribute:title"}, "figure-content"},
		{"figure link unnamed", Control{Found: true, Role: "link", AXRole: "link", HasFigure: true, Name: "Story 1 hour ago"}, "figure-content"},
		{"link without a figure unnamed", Control{Found: true, Role: "link", AXRole: "link", Name: "Story 1 hour ago"}, ""},
		{"icon label", Control{Found: true, Role: "button", AXRole: "button", HasLabelled: true, Name: "?", AXName: "Search", AXNameFrom: "contents"}, "descendant-label"},
		{"title unrelated to content", Control{Found: true, Role: "link", AXRole: "link", Name: "More", AXName: "Other", AXNameFrom: "attribute:title"}, ""},
		{"upper case", Control{Found: true, Role: "link", AXRole: "link", Name: "Über uns", AXName: "ÜBER UNS", AXNameFrom: "contents"}, "text-transform"},
		{"spacing", Control{Found: true, Role: "link", AXRole: "link", Name: "langLanguage", AXName: "lang Language", AXNameFrom: "contents"}, "spacing"},
		{"placeholder", Control{Found: true, Role: "checkbox", AXRole: "checkbox", Name: "p", Placeholder: "p"}, "title-placeholder-fallback"},
		{"name from nowhere", Control{Found: true, Role: "checkbox", AXRole: "checkbox", Name: "p"}, ""},
		{"label sources", Control{Found: true, Role: "textbox", AXRole: "textbox", Name: "A", AXName: "A A", AXNameFrom: "relatedElement:aria-labelledby"}, "label-sources"},
		{"link text differs", Control{Found: true, Role: "link", AXRole: "link", Name: "A", AXName: "B", AXNameFrom: "contents"}, ""},
	} {
		if got := Classify(tc.c); got != tc.want {
			t.Errorf("%s: Classify = %q, want %q", tc.what, got, tc.want)
		}
	}
}

func TestTally(t *testing.T) {
	var tl Tally
	tl.Add([]Control{
		{Found: true, Role: "link", AXRole: "link", Name: "a", AXName: "a"},
		{Found: true, Role: "link", AXRole: "link", Name: "a", NameTruncated: true, AXName: "ab"},
		{Found: true, Role: "link", AXRole: "button", Name: "a", AXName: "a"},
	})
	if tl.Controls != 3 || tl.RoleAgree != 2 || tl.NameAgree != 2 || tl.BothAgree != 1 {
		t.Errorf("tally %+v", tl)
	}
	if tl.Classes["bounded"] != 1 || tl.Classes[""] != 1 {
		t.Errorf("classes %v", tl.Classes)
	}
	if got, want := tl.String(), "controls 3, role agrees 2, name agrees 2, both agree 1 (33.3%)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}
