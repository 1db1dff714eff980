package domsnap_test

import (
	"fmt"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/snapshot"
)

const examplePage = `<!doctype html><body>
<h1>Tea room</h1>
<ul aria-label="Sections"><li>Home</li><li>Shop</li></ul>
<table><caption>Prices</caption>
 <tr><th>Item</th><th>Price</th></tr>
 <tr><td>Tea</td><td>3.5</td></tr>
 <tr><td>Cake</td><td>4</td></tr>
</table>
<a href="/order">Order</a>`

func exampleRequest() domsnap.Request {
	return domsnap.Request{Kind: aria.Table, Index: 0, Fields: []domsnap.Field{
		{Name: "item", Column: 0, Type: typed.String, Required: true},
		{Name: "price", Column: 1, Type: typed.Number},
	}}
}

// Two extractions of an unchanged page at two live revisions carry fresh
// revisions and evidence references but the same digest, which is what a
// replay compares.
func ExampleExtract_digest() {
	tree, _, err := snapshot.ParseHTML([]byte(examplePage), snapshot.HTMLOptions{})
	if err != nil {
		panic(err)
	}
	first, _ := domsnap.LiveRevision("k7", 1, 4)
	second, _ := domsnap.LiveRevision("k7", 1, 5)
	a, err := domsnap.Extract(tree, first, exampleRequest())
	if err != nil {
		panic(err)
	}
	b, err := domsnap.Extract(tree, second, exampleRequest())
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Revision, a.Rows[1].Evidence, a.Rows[1].Cells[1].Value)
	fmt.Println(b.Revision, b.Rows[1].Evidence, b.Rows[1].Cells[1].Value)
	fmt.Println("same digest:", a.Digest == b.Digest)
	// Output:
	// r1.k7.n1.o4 e4.3 3.5
	// r1.k7.n1.o5 e5.3 3.5
	// same digest: true
}

// Observe lists the page's collections, so a caller knows which index to
// ask for, and its view: controls with the action references to act on
// them, regions with the region references to expand them, and its text. It
// runs the extraction when given a request.
func ExampleObserve() {
	tree, _, err := snapshot.ParseHTML([]byte(examplePage), snapshot.HTMLOptions{})
	if err != nil {
		panic(err)
	}
	o, err := domsnap.Observe(tree, "r1.file.00112233445566ff", nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(o.Canonical()))
	// Output:
	// {"schema_version":"1.4.0","trust":"external-untrusted","revision":"r1.file.00112233445566ff","inventory":[{"kind":"list","index":0,"source":"native","name":"Sections","rows":2,"rows_complete":true},{"kind":"table","index":0,"source":"native","name":"Prices","rows":3,"rows_complete":true}],"view_scan":{"limit":8192,"visited":41,"exhausted":false},"controls":[{"ref":"a0.1","role":"link","name":"Order"}],"controls_omitted":0,"regions":[{"ref":"g0.1","role":"heading","name":"Tea room","level":1}],"regions_omitted":0,"text":"Tea room Home Shop Prices Item Price Tea 3.5 Cake 4 Order","text_truncated":false}
}

// Project fits an observation into a byte budget: here the budget holds the
// extraction but only its first row, and none of the text, regions,
// inventory or controls, which go first; the omitted counts say so. The artifact names the full observation.
func ExampleProject() {
	tree, _, err := snapshot.ParseHTML([]byte(examplePage), snapshot.HTMLOptions{})
	if err != nil {
		panic(err)
	}
	req := exampleRequest()
	o, err := domsnap.Observe(tree, "r1.file.00112233445566ff", &req)
	if err != nil {
		panic(err)
	}
	p, err := domsnap.Project(o, 1200)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(p.Canonical()) <= 1200, p.Artifact == o.Artifact())
	fmt.Printf("%d entries and %d rows shown, omitted %+v\n", len(p.Inventory), len(p.Extraction.Rows), p.Omitted)
	fmt.Println("coverage still says", p.Extraction.Coverage.RowsReturned, "rows returned")
	// Output:
	// true true
	// 0 entries and 1 rows shown, omitted {Text:1 Regions:1 Inventory:2 Controls:1 Rows:2}
	// coverage still says 3 rows returned
}
