package domsnap_test

import (
	"errors"
	"fmt"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/snapshot"
)

func ExampleDecodeRequest() {
	req, err := domsnap.DecodeRequest([]byte(`{
		"kind": "table", "index": 0,
		"fields": [
			{"name": "product", "column": 0, "type": "string", "required": true},
			{"name": "price", "column": 2, "type": "number"}
		]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(req.Kind, req.Index, len(req.Fields), req.RowLimit)

	// Anything outside the contract is refused with the path of the first
	// offending value.
	_, err = domsnap.DecodeRequest([]byte(`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string","selector":"#price"}]}`))
	var e *domsnap.Error
	if errors.As(err, &e) && errors.Is(err, domsnap.ErrInvalidRequest) {
		fmt.Println(e.Code, e.Path)
	}
	// Output:
	// table 0 2 20
	// invalid_request /fields/0/selector
}

func ExampleExtract() {
	page := []byte(`<table>
	<tr><th>Product</th><th>Stock</th><th>Price</th></tr>
	<tr><td>Widget</td><td>12</td><td>4.5</td></tr>
	<tr><td>Gadget</td><td>0</td><td>sold out</td></tr>
</table>`)
	tree, _, err := snapshot.ParseHTML(page, snapshot.HTMLOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	req, err := domsnap.DecodeRequest([]byte(`{"kind":"table","index":0,"fields":[
		{"name":"product","column":0,"type":"string","required":true},
		{"name":"price","column":2,"type":"number"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := domsnap.Extract(tree, "r1.file.0c1d2e3f4a5b6c7d", req)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range res.Rows {
		fmt.Print(row.Position, " header=", row.Header, " valid=", row.Valid, ":")
		for _, c := range row.Cells {
			fmt.Printf(" %s=%s/%v", c.Name, c.Status, c.Value)
		}
		fmt.Println()
	}
	fmt.Println("rows complete:", res.Coverage.RowsComplete)
	// Output:
	// 0 header=true valid=false: product=ok/Product price=invalid/<nil>
	// 1 header=false valid=true: product=ok/Widget price=ok/4.5
	// 2 header=false valid=false: product=ok/Gadget price=invalid/<nil>
	// rows complete: true
}
