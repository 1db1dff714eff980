package parity

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/limits"
)

func TestDiffJSON(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want []Difference
	}{
		{"equal", `{"a":1}`, `{"a":1}`, nil},
		{"same value, other spelling", `{"a":1,"b":[true]}`, `{ "b":[true], "a":1 }`, []Difference{}},
		{"leaf", `{"a":{"b":1,"c":"x"}}`, `{"a":{"b":2,"c":"x"}}`, []Difference{{"/a/b", "1", "2"}}},
		{"missing key and escaping", `{"a/b":1}`, `{"c~":1}`, []Difference{{"/a~1b", "1", "(absent)"}, {"/c~0", "(absent)", "1"}}},
		{"array length", `[1,2]`, `[1,2,3]`, []Difference{{"/2", "(absent)", "3"}}},
		{"type change", `{"a":[1]}`, `{"a":{"0":1}}`, []Difference{{"/a", "[1]", `{"0":1}`}}},
		{"number spelling is a difference", `[1.0]`, `[1]`, []Difference{{"/0", "1.0", "1"}}},
		{"not JSON", `error: cancelled`, `{}`, []Difference{{"", "error: cancelled", "{}"}}},
		{"null and false", `[null]`, `[false]`, []Difference{{"/0", "null", "false"}}},
	}
	for _, c := range cases {
		got := DiffJSON([]byte(c.a), []byte(c.b))
		if len(got) == 0 && len(c.want) == 0 {
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestDiffJSONBounded(t *testing.T) {
	a, b := []byte("["), []byte("[")
	for i := 0; i < maxDifferences+10; i++ {
		if i > 0 {
			a, b = append(a, ','), append(b, ',')
		}
		a, b = append(a, '0'), append(b, '1')
	}
	a, b = append(a, ']'), append(b, ']')
	if got := len(DiffJSON(a, b)); got != maxDifferences {
		t.Fatalf("%d differences listed, want the bound %d", got, maxDifferences)
	}
}

func TestDefaultParityRequestsAreValid(t *testing.T) {
	reqs := DefaultRequests()
	if len(reqs) != 9 {
		t.Fatalf("%d default requests", len(reqs))
	}
	for i, r := range reqs {
		if err := r.Validate(); err != nil {
			t.Errorf("default request %d: %v", i, err)
		}
		if r.RowLimit != limits.MaxRowLimit {
			t.Errorf("default request %d asks for %d rows", i, r.RowLimit)
		}
	}
}
