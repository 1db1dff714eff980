package argcheck_test

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/domsnap/domsnap/internal/argcheck"
	"github.com/domsnap/domsnap/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// valid holds, per tool, arguments the published schema accepts; the
// mutations below start from them.
var valid = map[string][]string{
	"browser_navigate": {`{"url":"http://a/","wait":{"until":"network_idle","for":{"kind":"table","index":15},"settle_ms":10000,"timeout_ms":300000}}`},
	"browser_observe": {
		`{"extract":{"expected_revision":"r1.0123456789abcdef.n1.o1","kind":"table","index":0,"row_limit":50,"fields":[{"name":"a","column":2,"type":"string","required":true},{"name":"b_1","column":0,"type":"number"}]},"model_bytes":1024}`,
		`{"wait":{"until":"load","settle_ms":0},"model_bytes":1048576}`,
	},
	"browser_artifact": {`{"artifact":"sha256:` + strings.Repeat("0", 64) + `"}`},
	"snapshot_observe": {`{"path":"a.html","extract":{"kind":"form","index":15,"fields":[{"name":"a","column":4,"type":"boolean"}]}}`},
	"browser_act": {
		`{"expected_revision":"r1.0123456789abcdef.n1.o1","action":"type","ref":"a1.1","text":"x","wait":{"until":"load"},"model_bytes":1024}`,
		`{"expected_revision":"r","action":"select","ref":"a1.2","option":"Red"}`,
		`{"expected_revision":"r","action":"press","key":"Enter"}`,
		`{"expected_revision":"r","action":"back"}`,
		`{"expected_revision":"r","action":"click","ref":"a1.3","dialog":"accept","dialog_text":"x"}`,
		`{"expected_revision":"r","action":"hover","ref":"a1.4"}`,
		`{"expected_revision":"r","action":"upload","ref":"a1.5","path":"in/a.csv"}`,
		`{"expected_revision":"r","action":"switch_page","page":1}`,
		`{"expected_revision":"r","action":"close_page"}`,
	},
	"browser_download": {`{"id":"d1","offset":0,"model_bytes":1024}`},
}

// replacements are the values put in place of every member and element.
var replacements = []string{
	`null`, `true`, `false`, `0`, `-1`, `1`, `1.5`, `1.0`, `1e3`, `-0`, `4`, `5`, `15`, `16`, `50`, `51`,
	`1023`, `1048577`, `300001`, `10001`, `""`, `"x"`, `"list"`, `"form"`, `"table"`, `"A"`, `"load"`,
	`"sha256:` + strings.Repeat("a", 64) + `"`, `[]`, `[{}]`, `{}`, `{"kind":"list"}`, `{"kind":"table","index":0}`,
	`"` + strings.Repeat("a", 65) + `"`,
}

// mutants is every document one edit away from doc: each value replaced,
// each member removed, an unknown member added to each object.
func mutants(t *testing.T, doc string) []string {
	var root any
	if err := json.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	var out []string
	emit := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	var walk func(slot *any)
	walk = func(slot *any) {
		orig := *slot
		for _, r := range replacements {
			var nv any
			if err := json.Unmarshal([]byte(r), &nv); err != nil {
				t.Fatal(err)
			}
			*slot = nv
			emit(root)
		}
		*slot = orig
		switch v := orig.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				x := v[k]
				delete(v, k)
				emit(root)
				v[k] = x
				walk2 := x
				walk(&walk2)
				v[k] = walk2
			}
			v["selector"] = "#x"
			emit(root)
			delete(v, "selector")
		case []any:
			for i := range v {
				walk(&v[i])
			}
		}
		*slot = orig
	}
	// Map members are not addressable, so walk reassigns them; emit reads
	// root, which the slot pointers update in place.
	walk(&root)
	return out
}

// leaves is every place the reference validator's error tree ends.
func leaves(ve *jsonschema.ValidationError, into map[string]bool) {
	if len(ve.Causes) == 0 {
		into["/"+strings.Join(ve.InstanceLocation, "/")] = true
		return
	}
	for _, c := range ve.Causes {
		leaves(c, into)
	}
}

// TestAgreesWithReference holds the checker to a general JSON Schema
// validator on the published input schemas: the same verdict on every
// document, and a location among the reference's failures (the very one
// when the reference fails in one place only).
func TestAgreesWithReference(t *testing.T) {
	checked, refused := 0, 0
	for _, tool := range schema.ToolSchemas() {
		data, err := schema.ToolFiles.ReadFile(tool.Input)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := argcheck.Compile(data)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource("urn:test:"+tool.Name, doc); err != nil {
			t.Fatal(err)
		}
		ref, err := c.Compile("urn:test:" + tool.Name)
		if err != nil {
			t.Fatal(err)
		}
		samples := valid[tool.Name]
		if len(samples) == 0 {
			t.Fatalf("no sample arguments for %s", tool.Name)
		}
		for _, s := range samples {
			docs := append([]string{s}, mutants(t, s)...)
			for i, args := range docs {
				v, err := argcheck.Decode([]byte(args))
				if err != nil {
					t.Fatal(err)
				}
				ok, at := ours.Validate(v)
				rv, _ := jsonschema.UnmarshalJSON(strings.NewReader(args))
				rerr := ref.Validate(rv)
				if i == 0 && !ok {
					t.Fatalf("%s: the sample %s is refused at %q", tool.Name, args, at)
				}
				checked++
				if ok != (rerr == nil) {
					t.Errorf("%s %s: ours valid=%v, the reference %v", tool.Name, args, ok, rerr)
					continue
				}
				if ok {
					continue
				}
				refused++
				var ve *jsonschema.ValidationError
				if !errors.As(rerr, &ve) {
					t.Fatalf("%s: %v", tool.Name, rerr)
				}
				where := map[string]bool{}
				leaves(ve, where)
				if at == "" {
					at = "/"
				}
				if !where[at] {
					t.Errorf("%s %s: ours fails at %q, the reference at %v", tool.Name, args, at, where)
				}
			}
		}
	}
	// The mutations must have exercised both verdicts in earnest.
	if checked < 500 || refused < 200 || checked-refused < 50 {
		t.Fatalf("only %d documents, %d refused", checked, refused)
	}
	t.Logf("%d documents, %d refused", checked, refused)
}

// TestFirstFailure pins the order that picks one place among several
// failures: required before the members, members in key order, unknown
// members after the known ones, $ref and allOf where they stand.
func TestFirstFailure(t *testing.T) {
	compile := func(tool string) *argcheck.Schema {
		data, err := schema.ToolFiles.ReadFile("tools/" + tool + ".input.json")
		if err != nil {
			t.Fatal(err)
		}
		s, err := argcheck.Compile(data)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	nav, obs := compile("browser_navigate"), compile("browser_observe")
	for _, c := range []struct {
		s          *argcheck.Schema
		args, want string
	}{
		{nav, `{"wait":{"settle_ms":-1}}`, ""},
		{nav, `{"url":"","wait":{"settle_ms":-1}}`, "/url"},
		{nav, `{"url":"x","wait":{"settle_ms":-1,"timeout_ms":0}}`, "/wait/settle_ms"},
		{nav, `{"url":"x","wait":{"zzz":1,"timeout_ms":0}}`, "/wait/timeout_ms"},
		{nav, `{"url":"x","wait":{"zzz":1}}`, "/wait"},
		{nav, `{"url":"x","wait":{"for":{"kind":"grid"}}}`, "/wait/for/kind"},
		{nav, `"x"`, ""},
		{obs, `{"extract":{"kind":"list","index":0,"fields":[{"name":"a","column":1,"type":"string"}]}}`, "/extract/fields/0/column"},
		{obs, `{"extract":{"kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}}`, "/extract"},
		{obs, `{"extract":{"expected_revision":"r","kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string"},{"name":"b","column":1,"type":"string"}]}}`, "/extract/fields/1/column"},
		{obs, `{"extract":{"expected_revision":"r","kind":"form","index":0,"fields":[{"name":"a","column":1.0,"type":"string"}]},"wait":{}}`, ""},
		{obs, `{"model_bytes":1e3}`, "/model_bytes"},
		{obs, `{"model_bytes":1.024e3}`, "ok"},
	} {
		v, err := argcheck.Decode([]byte(c.args))
		if err != nil {
			t.Fatal(err)
		}
		ok, at := c.s.Validate(v)
		if ok {
			at = "ok"
		}
		if at != c.want {
			t.Errorf("%s: at %q, want %q", c.args, at, c.want)
		}
	}
}

// TestCompileRefuses: a schema the checker cannot enforce in full fails at
// Compile, and every Compile is counted.
func TestCompileRefuses(t *testing.T) {
	before := argcheck.Compilations()
	for _, doc := range []string{
		`{"type":"object","format":"uri"}`,
		`{"anyOf":[{"type":"string"}]}`,
		`{"$ref":"#/$defs/missing"}`,
		`{"$ref":"other.json#/$defs/a","$defs":{"a":{}}}`,
		`{"type":"thing"}`,
		`{"pattern":"("}`,
		`{"minItems":-1}`,
		`[]`,
		`{} {}`,
	} {
		if _, err := argcheck.Compile([]byte(doc)); err == nil {
			t.Errorf("%s compiled", doc)
		}
	}
	if got := argcheck.Compilations() - before; got != 9 {
		t.Errorf("%d compilations counted, want 9", got)
	}
	if _, err := argcheck.Decode([]byte(`{"a":1} x`)); err == nil {
		t.Error("trailing bytes accepted")
	}
}
