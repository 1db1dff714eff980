package domsnap_test

import (
	"fmt"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/snapshot"
)

// A request built in Go needs no package but domsnap: its kinds and types
// are the root's own constants. Check applies the contract's rules once;
// the checked request is what Extract and Observe then read without
// checking it again, and the cell accessors give each value its Go type.
func ExampleRequest_Check() {
	in, err := snapshot.Load([]byte(`<table>
	<tr><th>Product</th><th>Stock</th><th>Price</th></tr>
	<tr><td>Widget</td><td>12</td><td>4.5</td></tr>
</table>`), snapshot.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := domsnap.Request{
		Kind:  domsnap.Table,
		Index: 0,
		Fields: []domsnap.Field{
			{Name: "product", Column: 0, Type: domsnap.String, Required: true},
			{Name: "stock", Column: 1, Type: domsnap.Integer},
		},
	}
	checked, err := req.Check()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := domsnap.Extract(in.Tree, in.Revision, checked)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range res.Rows {
		product, _ := row.Cells[0].StringValue()
		if stock, ok := row.Cells[1].IntegerValue(); ok {
			fmt.Println(product, stock)
		} else {
			fmt.Println(product, row.Cells[1].Status)
		}
	}

	// A value outside the contract is refused with its path and code.
	req.Fields[1].Column = 99
	_, err = req.Check()
	fmt.Println(domsnap.CodeOf(err) == domsnap.InvalidRequest, err)
	// Output:
	// Product invalid
	// Widget 12
	// true domsnap: invalid_request: /fields/1/column: column must be 0 to 15, got 99
}
