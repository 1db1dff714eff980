package taskpages

import (
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// Items is how many items the site lists, PerPage how many a page shows.
const (
	Items   = 45
	PerPage = 15
)

// Name, Color and InStock describe item i (1 to Items).
func Name(i int) string  { return "Widget " + strconv.Itoa(i) }
func Color(i int) string { return [...]string{"Red", "Green", "Blue"}[i%3] }
func InStock(i int) bool { return i%2 == 0 }
func price(i int) string { return fmt.Sprintf("%d.%02d", 3+i, (i*37)%100) }
func stock(i int) string {
	if InStock(i) {
		return "yes"
	}
	return "no"
}

// Handler serves the site:
//   - /items?page=N: items 15(N-1)+1 to 15N in a table with a Details link
//     per row, and Previous and Next links;
//   - /item/N: one item's page;
//   - /search?q=Q: a search form and the items whose name contains Q;
//   - /filter?color=C&stock=1: a filter form (a select, a checkbox, an
//     Apply button) and the items that match;
//   - /admin/items?page=N: a back office's changelist of the items not
//     deleted, with a checkbox per row, an action select and Go, pages,
//     a search box and filters, inside a header, breadcrumbs and a footer;
//   - /admin/items/delete: the "are you sure" page of the items ticked
//     with the delete action, whose "Yes, I'm sure" deletes them;
//   - /admin/items/add: an add form of six fields and three buttons;
//   - /catalog: the items paged by buttons that draw each page's rows into
//     the same document, as a single-page application does.
//
// Each Handler has its own back office: what one deletes, another still
// lists.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/items", items)
	mux.HandleFunc("/item/", item)
	mux.HandleFunc("/search", search)
	mux.HandleFunc("/filter", filter)
	a := &admin{deleted: map[int]bool{}}
	mux.HandleFunc("/admin/items", a.list)
	mux.HandleFunc("/admin/items/delete", a.confirm)
	mux.HandleFunc("/admin/items/add", a.add)
	mux.HandleFunc("/catalog", catalog)
	return mux
}

func page(w http.ResponseWriter, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body><main><h1>%s</h1>%s</main></body></html>`,
		html.EscapeString(title), html.EscapeString(title), body)
}

// table renders the items ids as a table, with a Details link per row.
func table(ids []int) string {
	var b strings.Builder
	b.WriteString(`<table><thead><tr><th>Name</th><th>Color</th><th>Price</th><th>In stock</th><th></th></tr></thead><tbody>`)
	for _, i := range ids {
		fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><a href="/item/%d">Details</a></td></tr>`,
			Name(i), Color(i), price(i), stock(i), i)
	}
	b.WriteString(`</tbody></table>`)
	if len(ids) == 0 {
		b.WriteString(`<p>No items match.</p>`)
	}
	return b.String()
}

func items(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("page"))
	last := (Items + PerPage - 1) / PerPage
	if err != nil || n < 1 {
		n = 1
	}
	n = min(n, last)
	var ids []int
	for i := (n-1)*PerPage + 1; i <= min(n*PerPage, Items); i++ {
		ids = append(ids, i)
	}
	nav := `<nav aria-label="Pages">`
	if n > 1 {
		nav += fmt.Sprintf(`<a href="/items?page=%d">Previous</a> `, n-1)
	}
	nav += fmt.Sprintf(`<span>Page %d of %d</span>`, n, last)
	if n < last {
		nav += fmt.Sprintf(` <a href="/items?page=%d">Next</a>`, n+1)
	}
	nav += `</nav>`
	page(w, "Items", table(ids)+nav)
}

func item(w http.ResponseWriter, r *http.Request) {
	i, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/item/"))
	if err != nil || i < 1 || i > Items {
		http.NotFound(w, r)
		return
	}
	page(w, Name(i), fmt.Sprintf(`<dl><dt>Color</dt><dd>%s</dd><dt>Price</dt><dd>%s</dd><dt>In stock</dt><dd>%s</dd></dl><p><a href="/items">All items</a></p>`,
		Color(i), price(i), stock(i)))
}

func search(w http.ResponseWriter, r *http.Request) {
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	form := `<form role="search" action="/search"><label>Search items <input type="search" name="q"></label></form>`
	if q == "" {
		page(w, "Search", form)
		return
	}
	var ids []int
	for i := 1; i <= Items; i++ {
		if strings.Contains(strings.ToLower(Name(i)), q) {
			ids = append(ids, i)
		}
	}
	// The query is not repeated on the page: what was typed stays out of
	// what a reader of the page sees.
	page(w, "Search", form+fmt.Sprintf(`<p>%d results</p>`, len(ids))+table(ids))
}

func filter(w http.ResponseWriter, r *http.Request) {
	color := r.URL.Query().Get("color")
	only := r.URL.Query().Get("stock") == "1"
	var b strings.Builder
	b.WriteString(`<form action="/filter"><label>Color <select name="color"><option value="">Any</option>`)
	for _, c := range []string{"Red", "Green", "Blue"} {
		sel := ""
		if c == color {
			sel = " selected"
		}
		fmt.Fprintf(&b, `<option%s>%s</option>`, sel, c)
	}
	chk := ""
	if only {
		chk = " checked"
	}
	fmt.Fprintf(&b, `</select></label> <label><input type="checkbox" name="stock" value="1"%s> In stock only</label> <button type="submit">Apply</button></form>`, chk)
	var ids []int
	for i := 1; i <= Items; i++ {
		if (color == "" || Color(i) == color) && (!only || InStock(i)) {
			ids = append(ids, i)
		}
	}
	page(w, "Filter", b.String()+table(ids))
}
