package domsnap_test

import (
	"fmt"
	"log"
	"os"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/snapshot"
)

// Example_readme is the Go program README.md shows, statement for
// statement: TestReadmeExample keeps the two the same.
func Example_readme() {
	page, err := os.ReadFile("examples/products.html")
	if err != nil {
		log.Fatal(err)
	}
	in, err := snapshot.Load(page, snapshot.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	req, err := domsnap.DecodeChecked([]byte(`{"kind": "table", "index": 0, "fields": [
		{"name": "product", "column": 0, "type": "string", "required": true},
		{"name": "price", "column": 2, "type": "number"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	res, err := domsnap.Extract(in.Tree, in.Revision, req)
	if err != nil {
		log.Fatal(err)
	}
	for _, row := range res.Rows {
		fmt.Println(row.Position, row.Valid, row.Cells[0].Value, row.Cells[1].Status, row.Cells[1].Value)
	}
	cv := res.Coverage
	fmt.Println("complete:", cv.RowsComplete && cv.RowsOmittedByLimit == 0 && cv.RowsOmittedByBytes == 0)
	// Output:
	// 0 false Product invalid <nil>
	// 1 true Trowel, stainless ok 12.5
	// 2 true Pruning shears ok 24.9
	// 3 true Hand fork (ash handle) ok 9.75
	// 4 false Watering can, 10 l invalid <nil>
	// 5 true Kneeling pad ok 7
	// complete: true
}
