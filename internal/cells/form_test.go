package cells

import (
	"testing"

	"github.com/domsnap/domsnap/domtree"
	"github.com/google/go-cmp/cmp"
)

// column builds a body holding kids and returns column col of the element
// with id "c".
func column(t *testing.T, col int, kids ...any) Summary {
	t.Helper()
	tr := build(t, E("body", kids...))
	return FormCell(byID(t, tr, "c"), col)
}

func TestRoleColumn(t *testing.T) {
	input := func(typ string) spec { return E("input", A{"id", "c"}, A{"type", typ}) }
	for _, c := range []struct {
		name string
		ctl  spec
		want string
	}{
		{"absent type", E("input", A{"id", "c"}), "textbox"},
		{"empty type", input(""), "textbox"},
		{"unknown type", input("fancy"), "textbox"},
		{"padded type is unknown", input(" checkbox"), "textbox"},
		{"text", input("text"), "textbox"},
		{"email", input("EMAIL"), "textbox"},
		{"tel", input("tel"), "textbox"},
		{"url", input("url"), "textbox"},
		{"password", input("password"), "textbox"},
		{"search", input("search"), "searchbox"},
		{"number", input("number"), "spinbutton"},
		{"range", input("range"), "slider"},
		{"checkbox", input("Checkbox"), "checkbox"},
		{"radio", input("radio"), "radio"},
		{"button", input("button"), "button"},
		{"submit", input("submit"), "button"},
		{"reset", input("reset"), "button"},
		{"image", input("image"), "button"},
		{"color", input("color"), ""},
		{"date", input("date"), ""},
		{"datetime-local", input("datetime-local"), ""},
		{"month", input("month"), ""},
		{"time", input("time"), ""},
		{"week", input("week"), ""},
		{"file", input("file"), ""},
		{"textarea", E("textarea", A{"id", "c"}), "textbox"},
		{"button element", E("button", A{"id", "c"}), "button"},
		{"select", E("select", A{"id", "c"}), "combobox"},
		{"select multiple", E("select", A{"id", "c"}, A{"multiple", ""}), "listbox"},
		{"select size 2", E("select", A{"id", "c"}, A{"size", "2"}), "listbox"},
		{"select size 1", E("select", A{"id", "c"}, A{"size", "1"}), "combobox"},
		{"select size 0", E("select", A{"id", "c"}, A{"size", "0"}), "combobox"},
		{"select size padded", E("select", A{"id", "c"}, A{"size", " +002;"}), "listbox"},
		{"select size 10", E("select", A{"id", "c"}, A{"size", "10"}), "listbox"},
		{"select size 01", E("select", A{"id", "c"}, A{"size", "01"}), "combobox"},
		{"select size junk", E("select", A{"id", "c"}, A{"size", "x"}), "combobox"},
		{"select size negative", E("select", A{"id", "c"}, A{"size", "-5"}), "combobox"},
		{"select size huge", E("select", A{"id", "c"}, A{"size", "99999999999999999999999"}), "listbox"},
		{"explicit form role", E("div", A{"id", "c"}, A{"role", "checkbox"}), "checkbox"},
		{"explicit role after unknown token", E("div", A{"id", "c"}, A{"role", "fancy SWITCH"}), "switch"},
		{"explicit role on a native control", E("input", A{"id", "c"}, A{"type", "date"}, A{"role", "spinbutton"}), "spinbutton"},
		{"non-form explicit role falls back", E("input", A{"id", "c"}, A{"role", "presentation checkbox"}), "textbox"},
		{"all form roles: searchbox", E("span", A{"id", "c"}, A{"role", "searchbox"}), "searchbox"},
		{"combobox", E("span", A{"id", "c"}, A{"role", "combobox"}), "combobox"},
		{"listbox", E("span", A{"id", "c"}, A{"role", "listbox"}), "listbox"},
		{"slider", E("span", A{"id", "c"}, A{"role", "slider"}), "slider"},
		{"spinbutton", E("span", A{"id", "c"}, A{"role", "spinbutton"}), "spinbutton"},
		{"textbox", E("span", A{"id", "c"}, A{"role", "textbox"}), "textbox"},
		{"radio role", E("span", A{"id", "c"}, A{"role", "radio"}), "radio"},
		{"button role", E("span", A{"id", "c"}, A{"role", "button"}), "button"},
		{"plain element has none", E("div", A{"id", "c"}), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(ok(c.want), column(t, ColumnRole, c.ctl)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestDisabledColumn(t *testing.T) {
	in := E("input", A{"id", "c"})
	for _, c := range []struct {
		name string
		kids []any
		want string
	}{
		{"plain", []any{in}, "false"},
		{"disabled attribute", []any{E("input", A{"id", "c"}, A{"disabled", ""})}, "true"},
		{"disabled on every supporting element", []any{E("select", A{"id", "c"}, A{"disabled", "false"})}, "true"},
		{"disabled on a button", []any{E("button", A{"id", "c"}, A{"disabled", ""})}, "true"},
		{"disabled on a textarea", []any{E("textarea", A{"id", "c"}, A{"disabled", ""})}, "true"},
		{"disabled ignored on a div", []any{E("div", A{"id", "c"}, A{"role", "checkbox"}, A{"disabled", ""})}, "false"},
		{"aria-disabled", []any{E("div", A{"id", "c"}, A{"role", "checkbox"}, A{"aria-disabled", "TRUE"})}, "true"},
		{"aria-disabled false", []any{E("input", A{"id", "c"}, A{"aria-disabled", "false"})}, "false"},
		{"aria-disabled other", []any{E("input", A{"id", "c"}, A{"aria-disabled", "yes"})}, "false"},
		{"ancestor aria-disabled", []any{E("div", A{"aria-disabled", "true"}, E("p", in))}, "true"},
		{"ancestor disabled on a div ignored", []any{E("div", A{"disabled", ""}, in)}, "false"},
		{"disabled fieldset", []any{E("fieldset", A{"disabled", ""}, E("div", in))}, "true"},
		{"enabled fieldset", []any{E("fieldset", E("div", in))}, "false"},
		{"inside the first legend", []any{E("fieldset", A{"disabled", ""}, E("legend", E("span", in)))}, "false"},
		{"inside the second legend", []any{E("fieldset", A{"disabled", ""}, E("legend", "x"), E("legend", in))}, "true"},
		{"first legend after other children", []any{E("fieldset", A{"disabled", ""}, E("div", "x"), E("legend", in))}, "false"},
		{"legend of an inner fieldset, outer disabled", []any{E("fieldset", A{"disabled", ""}, E("fieldset", E("legend", in)))}, "true"},
		{"legend not a child of the fieldset", []any{E("fieldset", A{"disabled", ""}, E("div", E("legend", in)))}, "true"},
		{"custom control in a disabled fieldset", []any{E("fieldset", A{"disabled", ""}, E("div", A{"id", "c"}, A{"role", "button"}))}, "true"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(ok(c.want), column(t, ColumnDisabled, c.kids...)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestCheckedColumn(t *testing.T) {
	for _, c := range []struct {
		name string
		ctl  spec
		want Summary
	}{
		{"checkbox checked", E("input", A{"id", "c"}, A{"type", "checkbox"}, Checked), ok("true")},
		{"checkbox unchecked", E("input", A{"id", "c"}, A{"type", "CHECKBOX"}), ok("false")},
		{"radio checked", E("input", A{"id", "c"}, A{"type", "radio"}, Checked), ok("true")},
		{"native ignores aria-checked", E("input", A{"id", "c"}, A{"type", "checkbox"}, A{"aria-checked", "true"}), ok("false")},
		{"native with role switch stays native", E("input", A{"id", "c"}, A{"type", "checkbox"}, A{"role", "switch"}, A{"aria-checked", "true"}), ok("false")},
		{"role checkbox true", E("div", A{"id", "c"}, A{"role", "checkbox"}, A{"aria-checked", "True"}), ok("true")},
		{"role checkbox mixed", E("div", A{"id", "c"}, A{"role", "checkbox"}, A{"aria-checked", "MIXED"}), ok("mixed")},
		{"role checkbox false", E("div", A{"id", "c"}, A{"role", "checkbox"}, A{"aria-checked", "false"}), ok("false")},
		{"role checkbox absent", E("div", A{"id", "c"}, A{"role", "checkbox"}), ok("false")},
		{"role checkbox other", E("div", A{"id", "c"}, A{"role", "checkbox"}, A{"aria-checked", " true"}), ok("false")},
		{"role radio", E("div", A{"id", "c"}, A{"role", "radio"}, A{"aria-checked", "true"}), ok("true")},
		{"role switch", E("button", A{"id", "c"}, A{"role", "switch"}, A{"aria-checked", "true"}), ok("true")},
		{"text input with role checkbox", E("input", A{"id", "c"}, A{"role", "checkbox"}, A{"aria-checked", "true"}), ok("true")},
		{"text input", E("input", A{"id", "c"}, A{"aria-checked", "true"}, Checked), Summary{}},
		{"button", E("button", A{"id", "c"}), Summary{}},
		{"select", E("select", A{"id", "c"}), Summary{}},
		{"role textbox", E("div", A{"id", "c"}, A{"role", "textbox"}, A{"aria-checked", "true"}), Summary{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, column(t, ColumnChecked, c.ctl)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRequiredColumn(t *testing.T) {
	for _, c := range []struct {
		name string
		ctl  spec
		want string
	}{
		{"none", E("input", A{"id", "c"}), "false"},
		{"required", E("input", A{"id", "c"}, A{"required", ""}), "true"},
		{"required any value", E("select", A{"id", "c"}, A{"required", "false"}), "true"},
		{"aria-required", E("div", A{"id", "c"}, A{"role", "textbox"}, A{"aria-required", "TRUE"}), "true"},
		{"aria-required false", E("input", A{"id", "c"}, A{"aria-required", "false"}), "false"},
		{"aria-required on an ancestor does not count", E("div", A{"aria-required", "true"}, E("input", A{"id", "c"})), "false"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(ok(c.want), column(t, ColumnRequired, c.ctl)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestFormCellOutOfRange(t *testing.T) {
	tr := build(t, E("input", A{"id", "c"}, A{"title", "T"}, A{"required", ""}))
	c := byID(t, tr, "c")
	for _, col := range []int{-1, ColumnRequired + 1, 15} {
		if got := FormCell(c, col); got != (Summary{}) {
			t.Errorf("column %d: %+v", col, got)
		}
	}
	for col := ColumnLabel; col <= ColumnRequired; col++ {
		if got := FormCell(domtree.Node{}, col); got != (Summary{}) {
			t.Errorf("zero node column %d: %+v", col, got)
		}
		if got := FormCell(tr.Root(), col); got != (Summary{}) {
			t.Errorf("document column %d: %+v", col, got)
		}
	}
}
