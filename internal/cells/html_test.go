package cells_test

import (
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/google/go-cmp/cmp"
)

// These cases run on trees parsed from HTML with the offline cascade, so the
// rules meet real user-agent displays and author styles.
func TestHTMLCases(t *testing.T) {
	for _, c := range []struct {
		name   string
		html   string
		column int // -1 for Summarize, else a form column
		want   cells.Summary
	}{
		{"block, inline-block, br", `<table><tr><td id=x>a<div>b</div>c<span style="display:inline-block">d</span>e<br>f</td></tr></table>`,
			-1, cells.Summary{Text: "a b cde f"}},
		{"hidden attribute and styles", `<p id=x>a<span hidden>H</span><span style="display:none">N</span><span style="visibility:hidden">V<b style="visibility:visible">W</b></span>z</p>`,
			-1, cells.Summary{Text: "aWz"}},
		{"author CSS un-hides [hidden]", `<style>.show{display:block}</style><p id=x>a<span hidden class=show>S</span>b</p>`,
			-1, cells.Summary{Text: "a S b"}},
		{"nested list in a cell", `<table><tr><td id=x>Tags:<ul><li>one</li></ul>end</td></tr></table>`,
			-1, cells.Summary{Text: "Tags: end"}},
		{"closed details", `<div id=x><details><summary>More</summary>Secret detail</details></div>`,
			-1, cells.Summary{Text: "More"}},
		{"controls in a cell", `<table><tr><td id=x>Qty <input value=CANARY> <textarea>CANARY</textarea> <select><option>CANARY</select></td></tr></table>`,
			-1, cells.Summary{Text: "Qty"}},
		{"label wrapping a select", `<form><label>Size <select id=x><option selected>CANARY</option></select></label></form>`,
			0, cells.Summary{Text: "Size"}},
		{"label for and labelledby", `<form><span id=h>Email</span><label for=x>Mail</label><input id=x type=email aria-labelledby="h"></form>`,
			0, cells.Summary{Text: "Email"}},
		{"submit value", `<form><input id=x type=submit value="Send now"></form>`, 0, cells.Summary{Text: "Send now"}},
		{"role", `<form><select id=x size="3"></select></form>`, 1, cells.Summary{Text: "listbox"}},
		{"disabled fieldset legend", `<form><fieldset disabled><legend><input id=x type=checkbox checked></legend></fieldset></form>`,
			2, cells.Summary{Text: "false"}},
		{"checked attribute offline", `<form><input id=x type=checkbox checked></form>`, 3, cells.Summary{Text: "true"}},
		{"required", `<form><textarea id=x required></textarea></form>`, 4, cells.Summary{Text: "true"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, _, err := snapshot.ParseHTML([]byte(c.html), snapshot.HTMLOptions{})
			if err != nil {
				t.Fatal(err)
			}
			n, ok := tr.ElementByID("x")
			if !ok {
				t.Fatal("no #x")
			}
			var got cells.Summary
			if c.column < 0 {
				got = cells.Summarize(n)
			} else {
				got = cells.FormCell(n, c.column)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if strings.Contains(got.Text, "CANARY") {
				t.Errorf("canary in %q", got.Text)
			}
		})
	}
}
