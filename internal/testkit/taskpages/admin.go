package taskpages

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// admin is the state of one site's back office: which items were deleted,
// so that a task's effect shows on the next page.
type admin struct {
	mu      sync.Mutex
	deleted map[int]bool
}

// adminChrome is what every back-office page has around its content, as
// real admin interfaces do: a header with the site's sections, a user
// menu, breadcrumbs and a footer.
func adminChrome(title, crumbs, body string) string {
	var b strings.Builder
	b.WriteString(`<header><p>Site administration</p><nav aria-label="Sections">`)
	for _, s := range []string{"Dashboard", "Items", "Orders", "Customers", "Suppliers", "Reports", "Settings"} {
		fmt.Fprintf(&b, `<a href="/admin/%s">%s</a> `, strings.ToLower(s), s)
	}
	b.WriteString(`</nav><nav aria-label="Account"><a href="/admin/profile">Profile</a> <a href="/admin/password">Change password</a> <a href="/admin/logout">Log out</a></nav></header>`)
	fmt.Fprintf(&b, `<nav aria-label="Breadcrumbs"><a href="/admin/dashboard">Home</a> › %s</nav>`, crumbs)
	fmt.Fprintf(&b, `<h1>%s</h1>%s`, html.EscapeString(title), body)
	b.WriteString(`<footer><p>Back office 4.2</p><a href="/admin/help">Help</a> <a href="/admin/privacy">Privacy</a></footer>`)
	return b.String()
}

func adminPage(w http.ResponseWriter, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body>%s</body></html>`,
		html.EscapeString(title), body)
}

// live is the items not deleted, in order.
func (a *admin) live() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	var ids []int
	for i := 1; i <= Items; i++ {
		if !a.deleted[i] {
			ids = append(ids, i)
		}
	}
	return ids
}

// list is /admin/items?page=N&msg=M: a changelist, with a checkbox per row,
// an action select and its Go button in the form around the table, a
// search box, filters beside it, and pages.
func (a *admin) list(w http.ResponseWriter, r *http.Request) {
	ids := a.live()
	last := max(1, (len(ids)+PerPage-1)/PerPage)
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || n < 1 {
		n = 1
	}
	n = min(n, last)
	shown := ids[min((n-1)*PerPage, len(ids)):min(n*PerPage, len(ids))]
	var b strings.Builder
	switch r.URL.Query().Get("msg") {
	case "deleted":
		b.WriteString(`<p role="status">The items were deleted.</p>`)
	case "added":
		b.WriteString(`<p role="status">The item was added.</p>`)
	}
	b.WriteString(`<p><a href="/admin/items/add">Add item</a></p>`)
	b.WriteString(`<form role="search" action="/admin/items"><label>Search <input type="search" name="q"></label> <button>Search</button></form>`)
	b.WriteString(`<aside aria-label="Filter"><h2>Filter</h2><h3>By color</h3><ul>`)
	for _, c := range []string{"All", "Red", "Green", "Blue"} {
		fmt.Fprintf(&b, `<li><a href="/admin/items?color=%s">%s</a></li>`, c, c)
	}
	b.WriteString(`</ul><h3>By stock</h3><ul><li><a href="/admin/items?stock=all">All</a></li><li><a href="/admin/items?stock=yes">Yes</a></li><li><a href="/admin/items?stock=no">No</a></li></ul></aside>`)
	b.WriteString(`<form action="/admin/items/delete" aria-label="Items"><label>Action <select name="action"><option value="">---------</option><option value="delete">Delete selected items</option><option value="export">Export selected items</option></select></label> <button type="submit">Go</button>`)
	b.WriteString(`<table><thead><tr><th><input type="checkbox" aria-label="Select all items"></th><th>Name</th><th>Color</th><th>Price</th><th>In stock</th></tr></thead><tbody>`)
	for _, i := range shown {
		fmt.Fprintf(&b, `<tr><td><input type="checkbox" name="id" value="%d" aria-label="Select %s"></td><td><a href="/admin/items/%d">%s</a></td><td>%s</td><td>%s</td><td>%s</td></tr>`,
			i, Name(i), i, Name(i), Color(i), price(i), stock(i))
	}
	fmt.Fprintf(&b, `</tbody></table></form><p>%d items</p><nav aria-label="Pages">`, len(ids))
	if n > 1 {
		fmt.Fprintf(&b, `<a href="/admin/items?page=%d">Previous</a> `, n-1)
	}
	fmt.Fprintf(&b, `<span>Page %d of %d</span>`, n, last)
	if n < last {
		fmt.Fprintf(&b, ` <a href="/admin/items?page=%d">Next</a>`, n+1)
	}
	b.WriteString(`</nav>`)
	adminPage(w, "Select item to change", adminChrome("Select item to change", "Items", b.String()))
}

// confirm is /admin/items/delete: GET asks "are you sure" about the items
// ticked; POST deletes them and goes back to the list.
func (a *admin) confirm(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	var ids []int
	for _, v := range r.Form["id"] {
		if i, err := strconv.Atoi(v); err == nil && i >= 1 && i <= Items {
			ids = append(ids, i)
		}
	}
	sort.Ints(ids)
	if r.Method == http.MethodPost {
		a.mu.Lock()
		for _, i := range ids {
			a.deleted[i] = true
		}
		a.mu.Unlock()
		http.Redirect(w, r, "/admin/items?msg=deleted", http.StatusSeeOther)
		return
	}
	if r.Form.Get("action") != "delete" || len(ids) == 0 {
		http.Redirect(w, r, "/admin/items", http.StatusSeeOther)
		return
	}
	var b strings.Builder
	b.WriteString(`<p>Are you sure you want to delete the selected items? All of the following items will be deleted:</p><ul>`)
	q := url.Values{}
	for _, i := range ids {
		fmt.Fprintf(&b, `<li>Item: <a href="/admin/items/%d">%s</a></li>`, i, Name(i))
		q.Add("id", strconv.Itoa(i))
	}
	fmt.Fprintf(&b, `</ul><form method="post" action="/admin/items/delete?%s"><button type="submit">Yes, I'm sure</button> <a href="/admin/items">No, take me back</a></form>`, html.EscapeString(q.Encode()))
	adminPage(w, "Are you sure?", adminChrome("Are you sure?", `<a href="/admin/items">Items</a> › Delete multiple items`, b.String()))
}

// add is /admin/items/add: GET shows the add form; POST takes an item with
// a name and goes back to the list, which says it was added. Nothing typed
// is kept or shown again.
func (a *admin) add(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil || strings.TrimSpace(r.Form.Get("name")) == "" {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		http.Redirect(w, r, "/admin/items?msg=added", http.StatusSeeOther)
		return
	}
	var b strings.Builder
	b.WriteString(`<form method="post" action="/admin/items/add" aria-label="Add item"><fieldset><legend>Item</legend>`)
	b.WriteString(`<p><label>Name <input name="name" required></label></p>`)
	b.WriteString(`<p><label>Color <select name="color"><option value="">---------</option><option>Red</option><option>Green</option><option>Blue</option></select></label></p>`)
	b.WriteString(`<p><label>Price <input name="price" inputmode="decimal"></label></p>`)
	b.WriteString(`<p><label>Supplier <select name="supplier"><option value="">---------</option><option>Acme</option><option>Globex</option><option>Initech</option><option>Umbrella</option></select></label></p>`)
	b.WriteString(`<p><label><input type="checkbox" name="stock" value="1"> In stock</label></p>`)
	b.WriteString(`<p><label>Description <textarea name="description"></textarea></label></p></fieldset>`)
	b.WriteString(`<p><button type="submit">Save</button> <button type="submit" name="another" value="1">Save and add another</button> <button type="submit" name="continue" value="1">Save and continue editing</button></p></form>`)
	adminPage(w, "Add item", adminChrome("Add item", `<a href="/admin/items">Items</a> › Add item`, b.String()))
}

// catalog is /catalog: the items paged in the page itself, as a
// single-page application pages them: Next and Previous are buttons that
// draw the next rows into the same document, with no navigation.
func catalog(w http.ResponseWriter, _ *http.Request) {
	var rows strings.Builder
	rows.WriteString("[")
	for i := 1; i <= Items; i++ {
		if i > 1 {
			rows.WriteString(",")
		}
		fmt.Fprintf(&rows, `[%q,%q,%q,%q]`, Name(i), Color(i), price(i), stock(i))
	}
	rows.WriteString("]")
	body := adminChrome("Catalog", "Catalog", `<table><thead><tr><th>Name</th><th>Color</th><th>Price</th><th>In stock</th></tr></thead><tbody id="rows"></tbody></table>`+
		`<nav aria-label="Pages"><button id="prev">Previous</button> <span id="where"></span> <button id="next">Next</button></nav>`+
		`<script>
const items = `+rows.String()+`, per = `+strconv.Itoa(PerPage)+`;
let page = 0;
function draw() {
	const body = document.getElementById('rows');
	body.replaceChildren();
	for (const it of items.slice(page * per, page * per + per)) {
		const tr = document.createElement('tr');
		for (const v of it) { const td = document.createElement('td'); td.textContent = v; tr.append(td); }
		body.append(tr);
	}
	const last = Math.ceil(items.length / per) - 1;
	document.getElementById('where').textContent = 'Page ' + (page + 1) + ' of ' + (last + 1);
	document.getElementById('prev').hidden = page === 0;
	document.getElementById('next').hidden = page === last;
}
document.getElementById('next').onclick = () => { page++; draw(); };
document.getElementById('prev').onclick = () => { page--; draw(); };
draw();
</script>`)
	adminPage(w, "Catalog", body)
}
