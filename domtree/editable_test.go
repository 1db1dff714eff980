package domtree

import "testing"

func TestEditingHost(t *testing.T) {
	for v, want := range map[string]bool{
		"": true, "true": true, "TRUE": true, "True": true, "plaintext-only": true, "PLAINTEXT-ONLY": true,
		"false": false, "FALSE": false, "bogus": false, " true": false, "true ": false, "truex": false,
		"plaintext": false, "inherit": false, "\u212a": false,
	} {
		if got := EditingHost(v); got != want {
			t.Errorf("EditingHost(%q) = %v, want %v", v, got, want)
		}
	}
}
