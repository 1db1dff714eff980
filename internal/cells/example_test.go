package cells_test

import (
	"fmt"

	"github.com/domsnap/domsnap/internal/cells"
	"github.com/domsnap/domsnap/snapshot"
)

func ExampleSummarize() {
	page := `<table><tr><td id=c>  Blue
	  <b>widget</b><div>in stock</div><input value="typed"></td></tr></table>`
	tree, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
	if err != nil {
		panic(err)
	}
	cell, _ := tree.ElementByID("c")
	fmt.Printf("%q missing=%v\n", cells.Summarize(cell).Text, cells.Summarize(cell).Missing())
	// Output: "Blue widget in stock" missing=false
}

func ExampleFormCell() {
	page := `<form><label>Accept <input id=c type=checkbox checked required></label></form>`
	tree, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
	if err != nil {
		panic(err)
	}
	control, _ := tree.ElementByID("c")
	for col := cells.ColumnLabel; col <= cells.ColumnRequired; col++ {
		fmt.Printf("%d %q\n", col, cells.FormCell(control, col).Text)
	}
	// Output:
	// 0 "Accept"
	// 1 "checkbox"
	// 2 "false"
	// 3 "true"
	// 4 "true"
}
