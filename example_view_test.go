package domsnap_test

import (
	"fmt"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/snapshot"
)

const viewExamplePage = `<!doctype html><body>
<nav aria-label="Site"><a href="/">Home</a><a href="/help">Help</a></nav>
<main><h1>Account</h1>
<section aria-label="Profile"><h2>Profile</h2>
 <label>Name <input value="typed by a person"></label>
 <label>Password <input type="password"></label>
 <button>Save</button>
</section></main>`

// An observation lists the page's controls, each with an action reference,
// and its regions, each with a region reference. ActionTarget tells a
// program acting on a control what it needs (here: that the password field
// is for a person only), and ObserveExpanded reads one region alone.
func ExampleObserveExpanded() {
	tree, _, err := snapshot.ParseHTML([]byte(viewExamplePage), snapshot.HTMLOptions{})
	if err != nil {
		panic(err)
	}
	rev := "r1.file.00112233445566ff"
	o, err := domsnap.Observe(tree, rev, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range o.Controls {
		t, _ := o.ActionTarget(c.Ref)
		fmt.Println(c.Ref, c.Role, c.Name, "human only:", t.HumanOnly)
	}
	for _, r := range o.Regions {
		fmt.Printf("%s %s %q\n", r.Ref, r.Role, r.Name)
	}
	part, err := domsnap.ObserveExpanded(tree, rev, nil, domsnap.Expansion{From: o, Region: "g0.4"})
	if err != nil {
		panic(err)
	}
	fmt.Println(part.ViewScan.Region, len(part.Controls), "controls:", part.Text)
	_, err = domsnap.ObserveExpanded(tree, rev, nil, domsnap.Expansion{From: o, Region: "a0.1"})
	fmt.Println(domsnap.CodeOf(err))
	// Output:
	// a0.1 link Home human only: false
	// a0.2 link Help human only: false
	// a0.3 textbox Name human only: false
	// a0.4 textbox Password human only: true
	// a0.5 button Save human only: false
	// g0.1 navigation "Site"
	// g0.2 main ""
	// g0.3 heading "Account"
	// g0.4 region "Profile"
	// g0.5 heading "Profile"
	// g0.4 3 controls: Profile Name Password Save
	// invalid_reference
}
