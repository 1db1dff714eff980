package main

import (
	"fmt"

	"github.com/domsnap/domsnap/snapshot"
)

// sheetsDroppedWarning is printed when an HTML input's style sheets would
// cost more selector matching than the offline cascade allows: the result
// is still computed, from the default styles and the style attributes, and
// may show what a browser hides.
const sheetsDroppedWarning = "domsnap: warning: the page's style sheets need more selector matching than the offline cascade allows; they were not applied (style attributes were)"

// warnInput prints, on stderr, what the loaded input lacks. The result on
// stdout is unchanged by it.
func (c *cli) warnInput(in *snapshot.Input) {
	if in.StyleSheetsDropped {
		fmt.Fprintln(c.stderr, sheetsDroppedWarning)
	}
}
