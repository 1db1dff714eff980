package live

import "testing"

// TestMarksShadow: a capture marks shadow content when any of its
// documents lists a marked node; a frame document's empty list, before or
// after the document that has marks, does not hide them.
func TestMarksShadow(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[],"value":[]}}}]}`, false},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[4,5],"value":[1,1]}}}]}`, true},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[4],"value":[1]}}},{"nodes":{"shadowRootType":{"index":[],"value":[]}}}]}`, true},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[],"value":[]}}},{"nodes":{"shadowRootType":{"index":[7],"value":[1]}}}]}`, true},
		{`{"documents":[{"nodes":{}}]}`, false},
		{`{"documents":[{"nodes":{"shadowRootType":{"index":[`, false},
	} {
		if got := marksShadow([]byte(c.raw)); got != c.want {
			t.Errorf("%s: %v, want %v", c.raw, got, c.want)
		}
	}
}
