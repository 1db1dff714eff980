package aria

import "testing"

func BenchmarkExplicitRole(b *testing.B) {
	tr := parseTree(b, `<div id=t role="foo doc-chapter Grid"></div>`)
	n := byID(b, tr, "t")
	b.ReportAllocs()
	for b.Loop() {
		if ExplicitRole(n) != "grid" {
			b.Fatal("wrong role")
		}
	}
}

func BenchmarkRoleTableCell(b *testing.B) {
	tr := parseTree(b, `<table role=grid><tbody><tr><td id=t>x</td></tr></tbody></table>`)
	n := byID(b, tr, "t")
	b.ReportAllocs()
	for b.Loop() {
		if Role(n) != "gridcell" {
			b.Fatal("wrong role")
		}
	}
}
