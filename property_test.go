package domsnap

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s string
		if rapid.Bool().Draw(t, "raw") {
			s = string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes"))
		} else {
			s = rapid.String().Draw(t, "s")
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(buf.String(), "\n")
		if got := string(appendString(nil, s)); got != want {
			t.Fatalf("appendString(%q) = %s, encoding/json %s", s, got, want)
		}
	})
	for _, s := range []string{"\u2028\u2029", "\x00\x1f\x7f", "<>&", "\b\f\n\r\t", "\xff\xfe", "\xed\xa0\x80"} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s)
		if got, want := string(appendString(nil, s)), strings.TrimSuffix(buf.String(), "\n"); got != want {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatalf("%v: %v", f, err)
		}
		if got := appendFloat(nil, f); string(got) != string(want) {
			t.Fatalf("appendFloat(%v) = %s, encoding/json %s", f, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, math.Float64frombits(rapid.Uint64().Draw(t, "bits")))
		check(t, rapid.Float64().Draw(t, "f"))
	})
	for _, f := range []float64{0, math.Copysign(0, -1), 1e-6, 1e-7, 9.99999e-7, 1e20, 1e21, 123456789e13,
		math.MaxFloat64, math.SmallestNonzeroFloat64, -4.5, 1e-100, 5e-324} {
		check(t, f)
	}
}

// genRequest draws a valid request.
func genRequest(t *rapid.T) Request {
	kinds := []aria.Kind{aria.Table, aria.List, aria.Form}
	types := []typed.Type{typed.String, typed.Integer, typed.Number, typed.Boolean}
	r := Request{
		Kind:     rapid.SampledFrom(kinds).Draw(t, "kind"),
		Index:    rapid.IntRange(0, limits.MaxCollectionIndex).Draw(t, "index"),
		RowLimit: rapid.IntRange(limits.MinRowLimit, limits.MaxRowLimit).Draw(t, "row_limit"),
	}
	if rapid.Bool().Draw(t, "has_revision") {
		r.ExpectedRevision = rapid.StringN(1, 80, -1).Draw(t, "revision")
	}
	maxCol := limits.MaxColumn
	switch r.Kind {
	case aria.List:
		maxCol = limits.MaxListColumn
	case aria.Form:
		maxCol = limits.MaxFormColumn
	}
	names := rapid.SliceOfNDistinct(rapid.StringMatching(`[a-z][a-z0-9_]{0,63}`),
		limits.MinFields, limits.MaxFields, rapid.ID[string]).Draw(t, "names")
	for _, name := range names {
		r.Fields = append(r.Fields, Field{
			Name:     name,
			Column:   rapid.IntRange(0, maxCol).Draw(t, "column"),
			Type:     rapid.SampledFrom(types).Draw(t, "type"),
			Required: rapid.Bool().Draw(t, "required"),
		})
	}
	return r
}

func TestRequestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRequest(t)
		if err := r.Validate(); err != nil {
			t.Fatalf("generated request invalid: %v", err)
		}
		data, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeRequest(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Fatalf("%s (-want +got)\n%s", data, diff)
		}
		// Re-encoding through encoding/json's indentation changes nothing.
		var ind bytes.Buffer
		if err := json.Indent(&ind, data, "", "\t"); err != nil {
			t.Fatal(err)
		}
		if again, err := DecodeRequest(ind.Bytes()); err != nil || !cmp.Equal(r, again) {
			t.Fatalf("indented form: %v", err)
		}
	})
}

// resolve follows a JSON pointer through a document decoded by
// encoding/json, reporting whether it names a value.
func resolve(doc any, ptr string) bool {
	if ptr == "" {
		return true
	}
	if !strings.HasPrefix(ptr, "/") {
		return false
	}
	for _, seg := range strings.Split(ptr[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch v := doc.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return false
			}
			doc = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return false
			}
			doc = v[i]
		default:
			return false
		}
	}
	return true
}

// TestInvalidRequestsPointIntoInput breaks one value of a valid request and
// checks that the error is invalid_request with a path that names a value of
// the broken document (the broken value itself, or an object missing a key).
func TestInvalidRequestsPointIntoInput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRequest(t)
		data, _ := r.MarshalJSON()
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		fields := doc["fields"].([]any)
		target, base := doc, ""
		if rapid.Bool().Draw(t, "in_field") {
			i := rapid.IntRange(0, len(fields)-1).Draw(t, "field")
			target, base = fields[i].(map[string]any), "/fields/"+strconv.Itoa(i)
		}
		var keys []string
		for k := range target {
			keys = append(keys, k)
		}
		// Sorted so the draw is deterministic; the order of keys in a map is not.
		sortStrings(keys)
		key := rapid.SampledFrom(keys).Draw(t, "key")
		// The one broken value is the first offending one, so the path is
		// exactly its own: the value's, the unknown key's, or for a missing
		// key the object's.
		wantPath := base + "/" + key
		switch rapid.IntRange(0, 5).Draw(t, "mutation") {
		case 0:
			target[key] = nil
		case 1:
			target[key] = []any{}
		case 2:
			delete(target, key)
			wantPath = base
			if key == "row_limit" || key == "required" || key == "expected_revision" {
				target["unknown_"+key] = true // optional keys: add an unknown one instead
				wantPath = base + "/unknown_" + key
			}
		case 3:
			target[key] = 1.5
		case 4:
			target[key] = "Not-Valid"
			if key == "expected_revision" {
				target[key] = "" // any other string is a well-formed request
			}
		case 5:
			target[key] = float64(1 << 40)
		}
		broken, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = DecodeRequest(broken)
		if err == nil {
			t.Fatalf("accepted %s", broken)
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalidRequest) {
			t.Fatalf("%s: %v is not invalid_request", broken, err)
		}
		var back any
		if err := json.Unmarshal(broken, &back); err != nil {
			t.Fatal(err)
		}
		if !resolve(back, e.Path) {
			t.Fatalf("%s: path %q names no value (%v)", broken, e.Path, err)
		}
		if e.Path != wantPath {
			t.Fatalf("%s: path %q, want %q (%v)", broken, e.Path, wantPath, err)
		}
	})
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestDecodeRequestArbitraryBytes: any input either decodes to a request that
// validates and round-trips, or fails with invalid_request; nothing panics.
func TestDecodeRequestArbitraryBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var data []byte
		if rapid.Bool().Draw(t, "from_valid") {
			valid, _ := genRequest(t).MarshalJSON()
			cut := rapid.IntRange(0, len(valid)).Draw(t, "cut")
			insert := rapid.SliceOfN(rapid.Byte(), 0, 3).Draw(t, "insert")
			data = append(append(append([]byte{}, valid[:cut]...), insert...), valid[cut:]...)
		} else {
			data = rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")
		}
		checkDecode(t, data)
	})
}

// checkDecode is the property shared with the fuzz target's seeds.
func checkDecode(t interface{ Fatalf(string, ...any) }, data []byte) {
	r, err := DecodeRequest(data)
	if err != nil {
		if !errors.Is(err, ErrInvalidRequest) {
			t.Fatalf("%q: %v is not invalid_request", data, err)
		}
		return
	}
	if !json.Valid(data) {
		t.Fatalf("accepted %q, which encoding/json calls invalid", data)
	}
	if err := r.Validate(); err != nil {
		t.Fatalf("%q decoded but does not validate: %v", data, err)
	}
	again, _ := r.MarshalJSON()
	r2, err := DecodeRequest(again)
	if err != nil || !cmp.Equal(r, r2) {
		t.Fatalf("%q does not round-trip: %v", data, err)
	}
}
