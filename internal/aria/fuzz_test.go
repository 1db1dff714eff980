package aria

import (
	"testing"
)

// FuzzRoles parses arbitrary HTML and asks every role question of every
// node. Nothing may panic, and the answers must hang together: a collection
// has a kind with a name, an ARIA collection has an explicit collection
// role, and an explicit role is always the element's role.
func FuzzRoles(f *testing.F) {
	for _, s := range []string{
		`<table role=grid><tr><th>a<td>b</table>`,
		`<ul role="foo LIST"><li>x</ul><div role=table><div role=row><span role=cell>1`,
		`<main><article><header>h</header><aside title=x>a</aside></article></main>`,
		`<img alt><img alt="" aria-labelledby=l><p id=l>`,
		`<select size="2;"><option>o</select><input type=Range list=x>`,
		`<form role=search><table role=presentation><tr><td>x</table></form>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tr, err := buildTree(src)
		if err != nil {
			return // the parser refused it (too deep): there is no tree to ask about
		}
		for n := range tr.All() {
			explicit := ExplicitRole(n)
			role := Role(n)
			if explicit != "" && role != explicit {
				t.Fatalf("explicit role %q but role %q", explicit, role)
			}
			if explicit != "" && canonicalRole(explicit) != explicit {
				t.Fatalf("explicit role %q is not canonical", explicit)
			}
			if r := ImplicitRole(n); r != "" && canonicalRole(r) != r {
				t.Fatalf("implicit role %q of <%s> is not a WAI-ARIA 1.2 role", r, n.Name())
			}
			_ = RoleLess(n)
			kind, source, ok := Collection(n)
			if ok != (kind != KindNone) || (ok && kind.String() == "") {
				t.Fatalf("Collection = %v %v %v", kind, source, ok)
			}
			if ok && source == ARIA && kindOfRole(explicit) != kind {
				t.Fatalf("ARIA collection %v with explicit role %q", kind, explicit)
			}
			if ok && source == Native && nativeKind(n.Name()) != kind {
				t.Fatalf("native collection %v on <%s>", kind, n.Name())
			}
		}
	})
}
