package typed_test

import (
	"fmt"

	"github.com/domsnap/domsnap/internal/typed"
)

func ExampleConvert() {
	for _, in := range []struct {
		text string
		t    typed.Type
	}{
		{"4.5", typed.Number},
		{"-0", typed.Integer},
		{"1,234", typed.Integer},
		{"", typed.Boolean},
		{"true", typed.Boolean},
	} {
		c := typed.Convert(in.text, false, in.t)
		fmt.Printf("%s %q: %s %v %q\n", in.t, in.text, c.Status, c.Value, c.Text)
	}
	// Output:
	// number "4.5": ok 4.5 ""
	// integer "-0": ok 0 ""
	// integer "1,234": invalid <nil> "1,234"
	// boolean "": missing <nil> ""
	// boolean "true": ok true ""
}
