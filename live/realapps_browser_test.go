//go:build browser

package live

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/testkit/realapps"
	"github.com/domsnap/domsnap/limits"
)

// appTab is a session on a real application's page, acted on only through
// the references its page views publish, as an agent acts.
type appTab struct {
	t   *testing.T
	ctx context.Context
	s   *Session
	o   *domsnap.Observation
}

func openApp(t *testing.T, url string) *appTab {
	t.Helper()
	a := openActTab(t, actBrowser(t), url)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	app := &appTab{t: t, ctx: ctx, s: a.s}
	app.observe()
	return app
}

// observe takes a fresh observation with its page view.
func (a *appTab) observe() *domsnap.Observation {
	a.t.Helper()
	o, _, err := a.s.Observe(a.ctx, ReadOptions{})
	if err != nil {
		a.t.Fatal(err)
	}
	a.o = o
	return o
}

// control finds the first control of the latest page view with role and
// name.
func (a *appTab) control(role, name string) domsnap.Control {
	a.t.Helper()
	for _, c := range a.o.Controls {
		if c.Role == role && c.Name == name {
			return c
		}
	}
	a.t.Fatalf("no %s %q among the page view's controls:\n%s", role, name, controlList(a.o))
	return domsnap.Control{}
}

func controlList(o *domsnap.Observation) string {
	var b strings.Builder
	for _, c := range o.Controls {
		fmt.Fprintf(&b, "  %s %q in %+v\n", c.Role, c.Name, c.In)
	}
	return b.String()
}

// act acts on the control of the latest page view, which the action's own
// observation then replaces.
func (a *appTab) act(c domsnap.Control, act Action, want Outcome) {
	a.t.Helper()
	res, err := a.s.Act(a.ctx, a.o.Revision, c.Ref, act, ActOptions{Deadline: time.Now().Add(time.Minute)})
	if err != nil {
		a.t.Fatalf("%s on %s %q: %v", act.Kind, c.Role, c.Name, err)
	}
	if res.Outcome != want {
		a.t.Fatalf("%s on %s %q: outcome %s, want %s", act.Kind, c.Role, c.Name, res.Outcome, want)
	}
	if res.Observation == nil {
		a.t.Fatalf("%s on %s %q: no observation", act.Kind, c.Role, c.Name)
	}
	a.o = res.Observation
}

// rowBoxes is the checkboxes the page view places in the rows of table
// index, in order.
func rowBoxes(o *domsnap.Observation, index int) []domsnap.Control {
	var out []domsnap.Control
	for _, c := range o.Controls {
		if c.Role == "checkbox" && c.In != nil && c.In.Kind == domsnap.Table && c.In.Index == index {
			out = append(out, c)
		}
	}
	return out
}

// rows extracts the string column col of table index of a fresh
// observation, and observes again for the page view.
func (a *appTab) rows(index, col int) ([]string, domsnap.Coverage) {
	a.t.Helper()
	a.observe()
	res, _, err := a.s.Extract(a.ctx, ReadOptions{Query: &domsnap.Request{ExpectedRevision: a.o.Revision, Kind: domsnap.Table, Index: index,
		Fields: []domsnap.Field{{Name: "v", Column: col, Type: domsnap.String, Required: true}}, RowLimit: limits.MaxRowLimit}})
	if err != nil {
		a.t.Fatal(err)
	}
	var out []string
	for _, r := range res.Rows {
		if r.Header {
			continue
		}
		s, _ := r.Cells[0].StringValue()
		out = append(out, s)
	}
	a.observe()
	return out, res.Coverage
}

// TestDjangoAdmin: the admin interface of a real Django shop, through its
// three everyday tasks: reading every product over the changelist's pages,
// adding one through the add form, and deleting two with the action and
// its confirmation page. On the way, the page view names the search box by
// its label's image ("Search", as Chromium does) and places each row's
// checkbox in the table row it sits in, not in the form around the table.
func TestDjangoAdmin(t *testing.T) {
	base := realapps.Django(t)
	a := openApp(t, base+"/admin/shop/product/")

	// The search box's label holds only an image; it sits in the search
	// form, and each row's checkbox in the results table's row, though that
	// table lies inside the action form.
	if search := a.control("textbox", "Search"); search.In == nil || search.In.Kind != domsnap.Form {
		t.Errorf("the search box is placed in %+v", search.In)
	}
	results := a.control("link", "Product 01").In
	if results == nil || results.Kind != domsnap.Table {
		t.Fatalf("the first product's link is placed in %+v", results)
	}
	boxes := rowBoxes(a.o, results.Index)
	if len(boxes) != realapps.ProductsPerPage+1 {
		t.Fatalf("%d checkboxes placed in the results table, want %d (the header's and one a row):\n%s",
			len(boxes), realapps.ProductsPerPage+1, controlList(a.o))
	}
	for i, c := range boxes {
		// Row 0 is the header row, whose checkbox selects every row.
		if c.In.Position != i {
			t.Errorf("checkbox %d placed in %+v", i, c.In)
		}
	}

	// Every product over the three pages, each page's rows complete.
	var names []string
	for page := 1; ; page++ {
		got, cov := a.rows(results.Index, 1)
		if !cov.RowsComplete || len(got) != realapps.ProductsPerPage {
			t.Fatalf("page %d: %d rows, complete %v", page, len(got), cov.RowsComplete)
		}
		names = append(names, got...)
		if page == realapps.Products/realapps.ProductsPerPage {
			break
		}
		a.act(a.control("link", fmt.Sprint(page+1)), Action{Kind: ActClick}, OutcomeNavigated)
	}
	for i, n := range names {
		if want := fmt.Sprintf("Product %02d", i+1); n != want {
			t.Fatalf("product %d is %q, want %q (all: %q)", i, n, want, names)
		}
	}

	// Add one through the add form.
	a.act(a.control("link", "Add product"), Action{Kind: ActClick}, OutcomeNavigated)
	a.act(a.control("textbox", "Name:"), Action{Kind: ActType, Text: "Garden hose"}, OutcomeDone)
	a.act(a.control("spinbutton", "Price:"), Action{Kind: ActType, Text: "12.25"}, OutcomeDone)
	a.act(a.control("button", "Save"), Action{Kind: ActClick}, OutcomeNavigated)
	if !strings.Contains(a.o.Text, "46 products") {
		t.Fatalf("after adding: %q", a.o.Text)
	}

	// Delete the first two products of the page with the action and its
	// confirmation page.
	for _, row := range []int{1, 2} {
		a.act(rowBoxes(a.o, results.Index)[row], Action{Kind: ActCheck}, OutcomeDone)
	}
	a.act(a.control("combobox", "Action:"), Action{Kind: ActSelect, Option: "Delete selected products"}, OutcomeDone)
	a.act(a.control("button", "Go"), Action{Kind: ActClick}, OutcomeNavigated)
	if !strings.Contains(a.o.Text, "Are you sure") {
		t.Fatalf("no confirmation page: %q", a.o.Text)
	}
	a.act(a.control("button", "Yes, I’m sure"), Action{Kind: ActClick}, OutcomeNavigated)
	if !strings.Contains(a.o.Text, "44 products") {
		t.Fatalf("after deleting: %q", a.o.Text)
	}
	// Django kept the third page through the add and the delete: its first
	// two rows were deleted.
	got, _ := a.rows(results.Index, 1)
	if len(got) != 14 || got[0] != "Product 33" || got[13] != "Garden hose" {
		t.Fatalf("the third page after deleting: %q", got)
	}
}

// inventoryTable is the inventory's first table, failing the test when
// it lists none.
func (a *appTab) inventoryTable() domsnap.InventoryEntry {
	a.t.Helper()
	for _, e := range a.o.Inventory {
		if e.Kind == domsnap.Table {
			return e
		}
	}
	a.t.Fatalf("no table in the inventory: %+v", a.o.Inventory)
	return domsnap.InventoryEntry{}
}

// TestDataGrid: AG Grid draws a window of its 1,000 rows and says how many
// there are with aria-rowcount; the page view reports the table as not
// complete with that count, lists its sortable Price header as a control,
// and after a click on that header reads the rows in the order a person
// sees them (aria-rowindex), cheapest first, though the grid only moved
// them on screen.
func TestDataGrid(t *testing.T) {
	a := openApp(t, realapps.LibraryPages(t)+"/grid.html")
	e := a.inventoryTable()
	if e.RowsComplete || e.RowsDeclared != realapps.GridRows+1 || e.Rows < 2 || e.Rows > 200 {
		t.Fatalf("the grid in the inventory: %+v", e)
	}
	price := a.control("columnheader", "Price")
	if price.Sort != "none" {
		t.Fatalf("the Price header says sort %q:\n%s", price.Sort, controlList(a.o))
	}
	a.act(price, Action{Kind: ActClick}, OutcomeDone)
	if price = a.control("columnheader", "Price"); price.Sort != "ascending" {
		t.Fatalf("after the click the Price header says sort %q", price.Sort)
	}
	got, _ := a.rows(e.Index, 0)
	if len(got) < 2 || got[0] != "Item 1000" {
		t.Fatalf("sorted by price, the first rows read are %q", got[:min(len(got), 5)])
	}
}

// TestTableLibrary: DataTables pages its 57 rows ten at a time and keeps
// only the page shown in the document; every person is read over the
// pages through its paging control, and its header's sort button orders
// the rows, lowest salary first, as the header then says.
func TestTableLibrary(t *testing.T) {
	a := openApp(t, realapps.LibraryPages(t)+"/table.html")
	e := a.inventoryTable()
	seen := map[string]bool{}
	for page := 0; len(seen) < realapps.TableRows && page < 10; page++ {
		got, cov := a.rows(e.Index, 0)
		if !cov.RowsComplete || len(got) == 0 {
			t.Fatalf("page %d: %d rows, complete %v", page, len(got), cov.RowsComplete)
		}
		for _, n := range got {
			seen[n] = true
		}
		if len(seen) < realapps.TableRows {
			// DataTables draws its paging buttons as <button role="link">.
			a.act(a.control("link", "Next"), Action{Kind: ActClick}, OutcomeDone)
		}
	}
	if len(seen) != realapps.TableRows {
		t.Fatalf("%d people read over the pages, want %d", len(seen), realapps.TableRows)
	}
	a.act(a.control("button", "Salary: Activate to sort"), Action{Kind: ActClick}, OutcomeDone)
	if h := a.control("columnheader", "Salary"); h.Sort != "ascending" {
		t.Fatalf("the Salary header says sort %q", h.Sort)
	}
	got, _ := a.rows(e.Index, 0)
	if len(got) == 0 || got[0] != "Person 57" {
		t.Fatalf("sorted by salary, the first rows are %q", got)
	}
}
