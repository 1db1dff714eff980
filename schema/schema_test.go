package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
	"github.com/domsnap/domsnap/schema"
	"github.com/domsnap/domsnap/snapshot"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"
)

// schemas compiles the four published schemas from the embedded files.
func schemas(t testing.TB) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	for _, name := range schema.Names() {
		data, err := schema.Files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := c.AddResource(schema.BaseURL+name, doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, name := range schema.Names() {
		s, err := c.Compile(schema.BaseURL + name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	return out
}

func instance(t testing.TB, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not JSON: %v: %.200s", err, data)
	}
	return v
}

// valid reports whether data is one JSON value the schema accepts; bytes
// that are not JSON are not valid.
func valid(s *jsonschema.Schema, data []byte) bool {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return false
	}
	return s.Validate(v) == nil
}

// TestSchemasAreStrict checks the files themselves: each declares draft
// 2020-12 and its $id, and every object schema that names properties
// forbids all others and requires only keys it names.
func TestSchemasAreStrict(t *testing.T) {
	schemas(t) // they compile
	for _, name := range schema.Names() {
		data, _ := schema.Files.ReadFile(name)
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || doc["$id"] != schema.BaseURL+name {
			t.Errorf("%s: $schema %v, $id %v", name, doc["$schema"], doc["$id"])
		}
		if !strings.Contains(fmt.Sprint(doc["title"]), domsnap.SchemaVersion) {
			t.Errorf("%s: title %q does not name schema version %s", name, doc["title"], domsnap.SchemaVersion)
		}
		objects := 0
		stack := []any{doc}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch v := v.(type) {
			case map[string]any:
				if v["type"] == "object" {
					objects++
					props, _ := v["properties"].(map[string]any)
					if props == nil || v["additionalProperties"] != false {
						t.Errorf("%s: an object schema without closed properties: %v", name, v["required"])
					}
					req, _ := v["required"].([]any)
					for _, k := range req {
						if _, ok := props[k.(string)]; !ok {
							t.Errorf("%s: requires %q without describing it", name, k)
						}
					}
				}
				for _, x := range v {
					stack = append(stack, x)
				}
			case []any:
				stack = append(stack, v...)
			}
		}
		if objects == 0 {
			t.Errorf("%s: no object schema found", name)
		}
	}
}

// fixtureFiles lists files of the fixture folder matching pattern.
func fixtureFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no files match testdata/%s", pattern)
	}
	return files
}

// TestFixtureGoldensValidate validates every golden result of the fixture
// pages. A golden entry that records an error instead is {"error": code}.
func TestFixtureGoldensValidate(t *testing.T) {
	s := schemas(t)
	results, errs := 0, 0
	for _, file := range fixtureFiles(t, "html/*.golden.json") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var entries []json.RawMessage
		if err := json.Unmarshal(data, &entries); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for i, e := range entries {
			var rec struct{ Error *string }
			if err := json.Unmarshal(e, &rec); err == nil && rec.Error != nil {
				var m map[string]any
				_ = json.Unmarshal(e, &m)
				if len(m) != 1 || *rec.Error == "" {
					t.Errorf("%s[%d]: an error entry holds more than its code: %s", file, i, e)
				}
				errs++
				continue
			}
			if err := s[schema.Result].Validate(instance(t, e)); err != nil {
				t.Errorf("%s[%d]: %v", file, i, err)
			}
			results++
		}
	}
	if results == 0 {
		t.Fatal("no golden result was validated")
	}
	t.Logf("%d golden results validated, %d error entries", results, errs)
}

// TestFixtureRequestsAgree runs every fixture request through the schema
// and DecodeRequest: the two verdicts must be the same, and a decoded
// request written back validates too.
func TestFixtureRequestsAgree(t *testing.T) {
	s := schemas(t)[schema.Request]
	n := 0
	for _, file := range fixtureFiles(t, "html/*.requests.json") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var reqs []json.RawMessage
		if err := json.Unmarshal(data, &reqs); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for i, r := range reqs {
			n++
			req, derr := domsnap.DecodeRequest(r)
			if sv := valid(s, r); sv != (derr == nil) {
				t.Errorf("%s[%d]: schema says %v, DecodeRequest says %v: %s", file, i, sv, derr, r)
			}
			if derr == nil {
				back, _ := req.MarshalJSON()
				if !valid(s, back) {
					t.Errorf("%s[%d]: the request written back does not validate: %s", file, i, back)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no fixture request was checked")
	}
}

const baseRequest = `{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`

// TestSmuggledRequests tries every way of slipping a selector, a script, a
// URL or another query into a request; the schema and DecodeRequest must
// both refuse each.
func TestSmuggledRequests(t *testing.T) {
	s := schemas(t)[schema.Request]
	if !valid(s, []byte(baseRequest)) {
		t.Fatal("the base request must validate")
	}
	if _, err := domsnap.DecodeRequest([]byte(baseRequest)); err != nil {
		t.Fatal(err)
	}
	field := `{"name":"a","column":0,"type":"string"`
	for _, r := range []string{
		`{"kind":"table","index":0,"selector":"table.prices","fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"script":"document.cookie","fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"url":"https://example.com/","fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"profile":"default","fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"storage":{"key":"token"},"fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"fields":[` + field + `,"selector":"td:nth-child(2)"}]}`,
		`{"kind":"table","index":0,"fields":[` + field + `,"attribute":"value"}]}`,
		`{"kind":"table","index":0,"fields":[` + field + `,"options":{"xpath":"//input"}}]}`,
		`{"kind":"table","index":0,"fields":[` + field + `}],"extra":{"nested":{"url":"x"}}}`,
		`{"kind":"table","index":{"css":"table"},"fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"fields":[` + field + `}],"expected_revision":{"url":"x"}}`,
		`{"kind":"selector","index":0,"fields":[` + field + `}]}`,
		`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"javascript"}]}`,
		`{"kind":"table","index":0,"fields":[{"name":"document.cookie","column":0,"type":"string"}]}`,
		`{"kind":"table","index":0,"fields":[` + field + `}],"row_limit":null}`,
		`[` + baseRequest + `]`,
		`"table"`,
	} {
		if valid(s, []byte(r)) {
			t.Errorf("the schema accepts %s", r)
		}
		if _, err := domsnap.DecodeRequest([]byte(r)); err == nil {
			t.Errorf("DecodeRequest accepts %s", r)
		}
	}
}

// TestRequestBoundsAgree checks every range of the request under, at and
// over its bound with both the schema and DecodeRequest.
func TestRequestBoundsAgree(t *testing.T) {
	s := schemas(t)[schema.Request]
	fields := func(n int) string {
		var f []string
		for i := 0; i < n; i++ {
			f = append(f, `{"name":"f`+strconv.Itoa(i)+`","column":0,"type":"string"}`)
		}
		return "[" + strings.Join(f, ",") + "]"
	}
	const omit = -1 << 20 // leaves row_limit out
	req := func(kind string, index int, fs string, rowLimit int) string {
		r := `{"kind":"` + kind + `","index":` + strconv.Itoa(index) + `,"fields":` + fs
		if rowLimit != omit {
			r += `,"row_limit":` + strconv.Itoa(rowLimit)
		}
		return r + "}"
	}
	col := func(kind string, c int) string {
		return req(kind, 0, `[{"name":"a","column":`+strconv.Itoa(c)+`,"type":"number","required":true}]`, omit)
	}
	name := func(n int) string {
		return req("list", 0, `[{"name":"`+strings.Repeat("n", n)+`","column":0,"type":"boolean"}]`, omit)
	}
	cases := map[string]bool{
		req("table", -1, fields(1), omit):                                                 false,
		req("table", 0, fields(1), omit):                                                  true,
		req("table", limits.MaxCollectionIndex, fields(1), omit):                          true,
		req("table", limits.MaxCollectionIndex+1, fields(1), omit):                        false,
		req("table", 0, fields(limits.MinFields-1), omit):                                 false,
		req("table", 0, fields(limits.MaxFields), omit):                                   true,
		req("table", 0, fields(limits.MaxFields+1), omit):                                 false,
		req("form", 0, fields(1), limits.MinRowLimit-1):                                   false,
		req("form", 0, fields(1), limits.MinRowLimit):                                     true,
		req("form", 0, fields(1), limits.MaxRowLimit):                                     true,
		req("form", 0, fields(1), limits.MaxRowLimit+1):                                   false,
		col("table", limits.MaxColumn):                                                    true,
		col("table", limits.MaxColumn+1):                                                  false,
		col("table", -1):                                                                  false,
		col("list", limits.MaxListColumn):                                                 true,
		col("list", limits.MaxListColumn+1):                                               false,
		col("form", limits.MaxFormColumn):                                                 true,
		col("form", limits.MaxFormColumn+1):                                               false,
		name(limits.MaxNameLength - 1):                                                    true,
		name(limits.MaxNameLength):                                                        true,
		name(limits.MaxNameLength + 1):                                                    false,
		name(0):                                                                           false,
		`{"kind":"table","index":0}`:                                                      false,
		`{"index":0,"fields":` + fields(1) + `}`:                                          false,
		`{"kind":"table","fields":` + fields(1) + `}`:                                     false,
		`{"kind":"table","index":0,"fields":[{"name":"a","column":0}]}`:                   false,
		`{"kind":"list","index":0,"fields":` + fields(1) + `,"expected_revision":""}`:     false,
		`{"kind":"list","index":0,"fields":` + fields(1) + `,"expected_revision":"r1.x"}`: true,
		`{"kind":"list","index":0,"fields":[{"name":"a","column":0,"type":"string","required":"yes"}]}`: false,
	}
	for r, want := range cases {
		_, err := domsnap.DecodeRequest([]byte(r))
		if got := valid(s, []byte(r)); got != want || (err == nil) != want {
			t.Errorf("%s: schema %v, DecodeRequest %v; want valid=%v", r, got, err, want)
		}
	}
}

// TestLexicalRulesBeyondTheSchema documents the request rules only
// DecodeRequest enforces: the schema sees numbers and objects, not how they
// were written.
func TestLexicalRulesBeyondTheSchema(t *testing.T) {
	s := schemas(t)[schema.Request]
	for _, r := range []string{
		`{"kind":"table","index":1.0,"fields":[{"name":"a","column":0,"type":"string"}]}`,
		`{"kind":"table","index":-0,"fields":[{"name":"a","column":0,"type":"string"}]}`,
		`{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"},{"name":"a","column":1,"type":"string"}]}`,
	} {
		if !valid(s, []byte(r)) {
			t.Errorf("the schema was expected to accept %s (JSON Schema cannot see the rule)", r)
		}
		if _, err := domsnap.DecodeRequest([]byte(r)); err == nil {
			t.Errorf("DecodeRequest accepts %s", r)
		}
	}
}

// TestProjectionGoldensValidate validates the observation and projection
// goldens of the projection tests.
func TestProjectionGoldensValidate(t *testing.T) {
	s := schemas(t)
	n := 0
	for _, file := range fixtureFiles(t, "projections/*.golden.json") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		which := schema.Projection
		if strings.HasSuffix(file, ".observation.golden.json") {
			which = schema.Observation
		}
		if err := s[which].Validate(instance(t, data)); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		n++
	}
	if n < 2 {
		t.Fatalf("only %d projection goldens", n)
	}
}

// TestViewGoldensValidate: the page view goldens are observations.
func TestViewGoldensValidate(t *testing.T) {
	s := schemas(t)
	files := fixtureFiles(t, "view/*.golden.json")
	if len(files) < 4 {
		t.Fatalf("only %d page view goldens", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := s[schema.Observation].Validate(instance(t, data)); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// mutate applies change to a decoded copy of data and re-encodes it.
func mutate(t *testing.T, data []byte, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func obj(v any) map[string]any { return v.(map[string]any) }
func arr(v any) []any          { return v.([]any) }

// TestSchemasRejectDeviations mutates valid documents in one place each and
// expects the schema to refuse every one.
func TestSchemasRejectDeviations(t *testing.T) {
	s := schemas(t)
	tree, _, err := snapshot.ParseHTML([]byte(`<table><tr><th>A</th><th>B</th></tr><tr><td>x</td><td>1.5</td></tr><tr><td colspan=2>s</td></tr></table><ul><li>i</li></ul>`), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req := domsnap.Request{Kind: aria.Table, Fields: []domsnap.Field{
		{Name: "a", Column: 0, Type: typed.String}, {Name: "b", Column: 1, Type: typed.Number}}}
	o, err := domsnap.Observe(tree, "r1.file.0123456789abcdef", &req)
	if err != nil {
		t.Fatal(err)
	}
	result := o.Extraction.Canonical()
	observation := o.Canonical()
	p, err := domsnap.Project(o, limits.ModelBytes)
	if err != nil {
		t.Fatal(err)
	}
	projection := p.Canonical()
	for name, doc := range map[string][]byte{schema.Result: result, schema.Observation: observation, schema.Projection: projection} {
		if err := s[name].Validate(instance(t, doc)); err != nil {
			t.Fatalf("%s: the unmutated document fails: %v", name, err)
		}
	}
	row := func(m map[string]any, i int) map[string]any { return obj(arr(m["rows"])[i]) }
	cell := func(m map[string]any, r, c int) map[string]any { return obj(arr(row(m, r)["cells"])[c]) }
	cases := []struct {
		schema, name string
		doc          []byte
		change       func(m map[string]any)
	}{
		{schema.Result, "unknown key", result, func(m map[string]any) { m["selector"] = "x" }},
		{schema.Result, "missing digest", result, func(m map[string]any) { delete(m, "digest") }},
		{schema.Result, "old schema version", result, func(m map[string]any) { m["schema_version"] = "1.3.0" }},
		{schema.Result, "trusted content", result, func(m map[string]any) { m["trust"] = "trusted" }},
		{schema.Result, "file revision with a session named file", result, func(m map[string]any) { m["revision"] = "r1.file.n1.o2" }},
		{schema.Result, "revision with a URL", result, func(m map[string]any) { m["revision"] = "https://example.com/" }},
		{schema.Result, "upper-case digest", result, func(m map[string]any) { m["digest"] = "sha256:" + strings.Repeat("A", 64) }},
		{schema.Result, "found with a reason", result, func(m map[string]any) { obj(m["collection"])["reason"] = "absent" }},
		{schema.Result, "found without evidence", result, func(m map[string]any) { delete(obj(m["collection"]), "evidence") }},
		{schema.Result, "not found without reason", result, func(m map[string]any) { obj(m["collection"])["found"] = false }},
		{schema.Result, "index out of range", result, func(m map[string]any) { obj(m["collection"])["index"] = 16 }},
		{schema.Result, "evidence of another shape", result, func(m map[string]any) { row(m, 0)["evidence"] = "a1" }},
		{schema.Result, "unknown row key", result, func(m map[string]any) { row(m, 0)["html"] = "<tr>" }},
		{schema.Result, "span row with cells", result, func(m map[string]any) { row(m, 2)["cells"] = row(m, 1)["cells"] }},
		{schema.Result, "valid span row", result, func(m map[string]any) { row(m, 2)["valid"] = true }},
		{schema.Result, "ok cell with null", result, func(m map[string]any) { cell(m, 1, 0)["value"] = nil }},
		{schema.Result, "ok cell with evidence text", result, func(m map[string]any) { cell(m, 1, 0)["text"] = "x" }},
		{schema.Result, "invalid cell without text", result, func(m map[string]any) { delete(cell(m, 0, 1), "text") }},
		{schema.Result, "invalid cell with a value", result, func(m map[string]any) { cell(m, 0, 1)["value"] = 1 }},
		{schema.Result, "unknown status", result, func(m map[string]any) { cell(m, 1, 0)["status"] = "guessed" }},
		{schema.Result, "cell text over the bound", result, func(m map[string]any) { cell(m, 0, 1)["text"] = strings.Repeat("t", limits.CellUnits+1) }},
		{schema.Result, "object value", result, func(m map[string]any) { cell(m, 1, 0)["value"] = map[string]any{} }},
		{schema.Result, "too many rows returned", result, func(m map[string]any) { obj(m["coverage"])["rows_returned"] = 51 }},
		{schema.Result, "another scan limit", result, func(m map[string]any) {
			obj(obj(m["coverage"])["collection_scan"])["limit"] = 9000
		}},
		{schema.Observation, "unknown key", observation, func(m map[string]any) { m["url"] = "x" }},
		{schema.Observation, "empty name", observation, func(m map[string]any) { obj(arr(m["inventory"])[0])["name"] = "" }},
		{schema.Observation, "unknown entry key", observation, func(m map[string]any) { obj(arr(m["inventory"])[0])["selector"] = "ul" }},
		{schema.Observation, "extraction that is not a result", observation, func(m map[string]any) { obj(m["extraction"])["extra"] = 1 }},
		{schema.Projection, "no artifact", projection, func(m map[string]any) { delete(m, "artifact") }},
		{schema.Projection, "both extraction and its omission", projection, func(m map[string]any) { m["extraction_omitted"] = true }},
		{schema.Projection, "omission false", projection, func(m map[string]any) { delete(m, "extraction"); m["extraction_omitted"] = false }},
		{schema.Projection, "negative omitted count", projection, func(m map[string]any) { obj(m["omitted"])["rows"] = -1 }},
		{schema.Projection, "unknown omitted key", projection, func(m map[string]any) { obj(m["omitted"])["cells"] = 0 }},
	}
	for _, c := range cases {
		if valid(s[c.schema], mutate(t, c.doc, c.change)) {
			t.Errorf("%s: %s accepted", c.schema, c.name)
		}
	}
}

// TestSchemasRejectViewDeviations mutates a page view's members one at a
// time; each mutation breaks the observation or the projection schema.
func TestSchemasRejectViewDeviations(t *testing.T) {
	s := schemas(t)
	tree, _, err := snapshot.ParseHTML([]byte(`<nav aria-label=N><a href=/>Home</a></nav><h2>T</h2>`+
		`<table><tr><td><select aria-label=S><option>a</select></td><td><input type=checkbox checked aria-label=C></td></tr></table><p>text</p>`), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o, err := domsnap.Observe(tree, "r1.file.0123456789abcdef", nil)
	if err != nil {
		t.Fatal(err)
	}
	observation := o.Canonical()
	p, err := domsnap.Project(o, limits.ModelBytes)
	if err != nil {
		t.Fatal(err)
	}
	projection := p.Canonical()
	for name, doc := range map[string][]byte{schema.Observation: observation, schema.Projection: projection} {
		if err := s[name].Validate(instance(t, doc)); err != nil {
			t.Fatalf("%s: the unmutated document fails: %v", name, err)
		}
	}
	control := func(m map[string]any, i int) map[string]any { return obj(arr(m["controls"])[i]) }
	region := func(m map[string]any, i int) map[string]any { return obj(arr(m["regions"])[i]) }
	for _, c := range []struct {
		schema, name string
		doc          []byte
		change       func(m map[string]any)
	}{
		{schema.Observation, "no view scan", observation, func(m map[string]any) { delete(m, "view_scan") }},
		{schema.Observation, "no text", observation, func(m map[string]any) { delete(m, "text") }},
		{schema.Observation, "another view scan limit", observation, func(m map[string]any) { obj(m["view_scan"])["limit"] = 100 }},
		{schema.Observation, "an evidence reference as a region", observation, func(m map[string]any) { obj(m["view_scan"])["region"] = "e0.1" }},
		{schema.Observation, "an evidence reference as an action", observation, func(m map[string]any) { control(m, 0)["ref"] = "e0.1" }},
		{schema.Observation, "a region reference as an action", observation, func(m map[string]any) { control(m, 0)["ref"] = "g0.1" }},
		{schema.Observation, "an action reference as a region", observation, func(m map[string]any) { region(m, 0)["ref"] = "a0.1" }},
		{schema.Observation, "unknown control role", observation, func(m map[string]any) { control(m, 0)["role"] = "div" }},
		{schema.Observation, "a value on a control", observation, func(m map[string]any) { control(m, 1)["value"] = "typed" }},
		{schema.Observation, "which option is selected", observation, func(m map[string]any) { control(m, 1)["selected_option"] = "a" }},
		{schema.Observation, "options without their count", observation, func(m map[string]any) { delete(control(m, 1), "options_omitted") }},
		{schema.Observation, "checked as a word", observation, func(m map[string]any) { control(m, 2)["checked"] = "yes" }},
		{schema.Observation, "disabled false", observation, func(m map[string]any) { control(m, 0)["disabled"] = false }},
		{schema.Observation, "in without position", observation, func(m map[string]any) { delete(obj(control(m, 1)["in"]), "position") }},
		{schema.Observation, "a heading without level", observation, func(m map[string]any) { delete(region(m, 1), "level") }},
		{schema.Observation, "a landmark with a level", observation, func(m map[string]any) { region(m, 0)["level"] = 1 }},
		{schema.Observation, "unknown region role", observation, func(m map[string]any) { region(m, 0)["role"] = "article" }},
		{schema.Observation, "text over the bound", observation, func(m map[string]any) { m["text"] = strings.Repeat("t", limits.ProseUnits+1) }},
		{schema.Projection, "no view scan", projection, func(m map[string]any) { delete(m, "view_scan") }},
		{schema.Projection, "text without text_truncated", projection, func(m map[string]any) { delete(m, "text_truncated") }},
		{schema.Projection, "omitted without controls", projection, func(m map[string]any) { delete(obj(m["omitted"]), "controls") }},
		{schema.Projection, "text omitted twice", projection, func(m map[string]any) { obj(m["omitted"])["text"] = 2 }},
	} {
		if valid(s[c.schema], mutate(t, c.doc, c.change)) {
			t.Errorf("%s: %s accepted", c.schema, c.name)
		}
	}
}

// genPage draws a small page of tables, lists and forms with hostile text.
func genPage(t *rapid.T) string {
	text := func(label string) string {
		alphabet := []rune{'a', '7', ' ', '"', '\\', '<', '&', '\x01', '\u2028', '\u00a0', '\U0001F600', '-', '.', 'e'}
		return html.EscapeString(string(rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 300).Draw(t, label)))
	}
	var b strings.Builder
	b.WriteString("<body>")
	for i := rapid.IntRange(0, 4).Draw(t, "tables"); i > 0; i-- {
		b.WriteString(`<table aria-label="` + text("name") + `">`)
		for r := rapid.IntRange(0, 6).Draw(t, "rows"); r > 0; r-- {
			b.WriteString("<tr>")
			for c := rapid.IntRange(0, 4).Draw(t, "cells"); c > 0; c-- {
				span := ""
				if rapid.IntRange(0, 9).Draw(t, "span") == 0 {
					span = ` colspan=2`
				}
				b.WriteString("<td" + span + ">" + text("cell") + "</td>")
			}
			b.WriteString("</tr>")
		}
		b.WriteString("</table>")
	}
	for i := rapid.IntRange(0, 3).Draw(t, "lists"); i > 0; i-- {
		b.WriteString("<ol><li>" + text("item") + "</li><li>" + text("item") + "</li></ol>")
	}
	for i := rapid.IntRange(0, 2).Draw(t, "forms"); i > 0; i-- {
		b.WriteString(`<form><label>` + text("label") + ` <input type=checkbox checked required></label><select aria-label="s"></select></form>`)
	}
	return b.String()
}

// TestGeneratedOutputsValidate: whatever the code writes for a drawn page
// and request, the result, observation and projection validate.
func TestGeneratedOutputsValidate(t *testing.T) {
	s := schemas(t)
	rapid.Check(t, func(rt *rapid.T) {
		tree, _, err := snapshot.ParseHTML([]byte(genPage(rt)), snapshot.HTMLOptions{})
		if err != nil {
			rt.Fatal(err)
		}
		kind := rapid.SampledFrom([]aria.Kind{aria.Table, aria.List, aria.Form}).Draw(rt, "kind")
		maxCol := map[aria.Kind]int{aria.Table: 5, aria.List: 0, aria.Form: limits.MaxFormColumn}[kind]
		types := []typed.Type{typed.String, typed.Integer, typed.Number, typed.Boolean}
		req := domsnap.Request{Kind: kind, Index: rapid.IntRange(0, 2).Draw(rt, "index"),
			RowLimit: rapid.IntRange(1, limits.MaxRowLimit).Draw(rt, "rowLimit")}
		for i := rapid.IntRange(1, limits.MaxFields).Draw(rt, "fields"); i > 0; i-- {
			req.Fields = append(req.Fields, domsnap.Field{Name: "f" + strconv.Itoa(i),
				Column: rapid.IntRange(0, maxCol).Draw(rt, "column"), Type: rapid.SampledFrom(types).Draw(rt, "type"),
				Required: rapid.Bool().Draw(rt, "required")})
		}
		rb, _ := req.MarshalJSON()
		if err := s[schema.Request].Validate(instance(t, rb)); err != nil {
			rt.Fatalf("request %s: %v", rb, err)
		}
		rev, _ := domsnap.LiveRevision("ab12", rapid.Uint64().Draw(rt, "nav"), rapid.Uint64().Draw(rt, "seq"))
		o, err := domsnap.Observe(tree, rev, &req)
		if err != nil {
			rt.Fatal(err)
		}
		if err := s[schema.Observation].Validate(instance(t, o.Canonical())); err != nil {
			rt.Fatalf("observation: %v\n%s", err, o.Canonical())
		}
		p, err := domsnap.Project(o, rapid.IntRange(limits.MinModelBytes, 2*limits.ModelBytes).Draw(rt, "budget"))
		if err != nil {
			rt.Fatal(err)
		}
		if err := s[schema.Projection].Validate(instance(t, p.Canonical())); err != nil {
			rt.Fatalf("projection: %v\n%s", err, p.Canonical())
		}
	})
}

// TestSchemasRejectFidelityDeviations: an observation with a sortable
// header and a table declaring more rows and columns than it holds
// validates, with its extraction; a sort state or a declared count the
// reference does not name is refused.
func TestSchemasRejectFidelityDeviations(t *testing.T) {
	s := schemas(t)
	tree, _, err := snapshot.ParseHTML([]byte(`<div role=grid aria-rowcount=1001 aria-colcount=-1><div role=row>`+
		`<div role=columnheader aria-sort=ascending>Price</div></div><div role=row><div role=gridcell>1</div></div></div>`), snapshot.HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req := domsnap.Request{Kind: aria.Table, Fields: []domsnap.Field{{Name: "price", Column: 0, Type: typed.String}}}
	o, err := domsnap.Observe(tree, "r1.file.0123456789abcdef", &req)
	if err != nil {
		t.Fatal(err)
	}
	observation := o.Canonical()
	for _, want := range []string{`"sort":"ascending"`, `"rows_declared":1001,"columns_declared":-1}`, `"rows_declared":1001,"columns_declared":-1,"truncated_cells"`} {
		if !strings.Contains(string(observation), want) {
			t.Fatalf("the observation lacks %s: %s", want, observation)
		}
	}
	if err := s[schema.Observation].Validate(instance(t, observation)); err != nil {
		t.Fatalf("the unmutated observation fails: %v\n%s", err, observation)
	}
	entry := func(m map[string]any) map[string]any { return obj(arr(m["inventory"])[0]) }
	coverage := func(m map[string]any) map[string]any { return obj(obj(m["extraction"])["coverage"]) }
	for _, c := range []struct {
		name   string
		change func(m map[string]any)
	}{
		{"a sort state of its own", func(m map[string]any) { obj(arr(m["controls"])[0])["sort"] = "up" }},
		{"a header role unknown", func(m map[string]any) { obj(arr(m["controls"])[0])["role"] = "header" }},
		{"a declared count of 0", func(m map[string]any) { entry(m)["rows_declared"] = 0 }},
		{"a declared count below -1", func(m map[string]any) { entry(m)["columns_declared"] = -2 }},
		{"a declared count as text", func(m map[string]any) { coverage(m)["rows_declared"] = "1001" }},
		{"a declared count past a safe integer", func(m map[string]any) { coverage(m)["columns_declared"] = 9007199254740992.0 }},
	} {
		if valid(s[schema.Observation], mutate(t, observation, c.change)) {
			t.Errorf("%s accepted", c.name)
		}
	}
}

// pointer resolves a JSON pointer (RFC 6901, without escapes) in doc.
func pointer(t *testing.T, doc any, ptr string) any {
	t.Helper()
	v := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(x) {
				t.Fatalf("%s: bad index %q", ptr, tok)
			}
			v = x[i]
		default:
			t.Fatalf("%s: cannot descend into %T", ptr, v)
		}
	}
	return v
}

// TestSchemaNumbersMatchLimits ties every number the schemas spell to its
// name in package limits, so a changed limit cannot leave a schema behind.
func TestSchemaNumbersMatchLimits(t *testing.T) {
	docs := map[string]any{}
	for _, name := range schema.Names() {
		data, _ := schema.Files.ReadFile(name)
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		docs[name] = doc
	}
	for _, c := range []struct {
		file, ptr string
		want      any
	}{
		{schema.Request, "/properties/index/maximum", limits.MaxCollectionIndex},
		{schema.Request, "/properties/fields/minItems", limits.MinFields},
		{schema.Request, "/properties/fields/maxItems", limits.MaxFields},
		{schema.Request, "/properties/row_limit/minimum", limits.MinRowLimit},
		{schema.Request, "/properties/row_limit/maximum", limits.MaxRowLimit},
		{schema.Request, "/properties/row_limit/default", limits.DefaultRowLimit},
		{schema.Request, "/$defs/field/properties/column/maximum", limits.MaxColumn},
		{schema.Request, "/allOf/0/then/properties/fields/items/properties/column/maximum", limits.MaxListColumn},
		{schema.Request, "/allOf/1/then/properties/fields/items/properties/column/maximum", limits.MaxFormColumn},
		{schema.Request, "/$defs/field/properties/name/pattern", "^[a-z][a-z0-9_]{0," + strconv.Itoa(limits.MaxNameLength-1) + "}$"},
		{schema.Result, "/properties/schema_version/const", domsnap.SchemaVersion},
		{schema.Result, "/properties/trust/const", domsnap.Trust},
		{schema.Result, "/properties/rows/maxItems", limits.MaxRowLimit},
		{schema.Result, "/$defs/index/maximum", limits.MaxCollectionIndex},
		{schema.Result, "/$defs/row/properties/position/maximum", limits.MaxRowLimit - 1},
		{schema.Result, "/$defs/row/properties/cells/maxItems", limits.MaxFields},
		{schema.Result, "/$defs/text/maxLength", limits.CellUnits},
		{schema.Result, "/$defs/cell/properties/value/anyOf/1/maxLength", limits.CellUnits},
		{schema.Result, "/$defs/coverage/properties/collection_scan/properties/limit/const", limits.CollectionScanNodes},
		{schema.Result, "/$defs/coverage/properties/collection_scan/properties/visited/maximum", limits.CollectionScanNodes},
		{schema.Result, "/$defs/coverage/properties/row_scan/properties/limit/const", limits.RowScanNodes},
		{schema.Result, "/$defs/coverage/properties/row_scan/properties/visited/maximum", limits.RowScanNodes},
		{schema.Result, "/$defs/coverage/properties/row_limit/maximum", limits.MaxRowLimit},
		{schema.Result, "/$defs/coverage/properties/rows_returned/maximum", limits.MaxRowLimit},
		{schema.Result, "/$defs/coverage/properties/rows_omitted_by_limit/maximum", limits.RowScanNodes},
		{schema.Result, "/$defs/coverage/properties/rows_omitted_by_bytes/maximum", limits.MaxRowLimit},
		{schema.Result, "/$defs/coverage/properties/truncated_cells/maximum", limits.MaxRowLimit * limits.MaxFields},
		{schema.Observation, "/properties/schema_version/const", domsnap.SchemaVersion},
		{schema.Observation, "/$defs/inventory/maxItems", 3 * limits.MaxInventoryPerKind},
		{schema.Observation, "/$defs/entry/properties/name/maxLength", limits.CellUnits},
		{schema.Observation, "/$defs/entry/properties/rows/maximum", limits.RowScanNodes},
		{schema.Result, "/$defs/declared/maximum", limits.MaxSafeInteger},
		{schema.Projection, "/properties/schema_version/const", domsnap.SchemaVersion},
		{schema.Projection, "/properties/omitted/properties/inventory/maximum", 3 * limits.MaxInventoryPerKind},
		{schema.Projection, "/properties/omitted/properties/rows/maximum", limits.MaxRowLimit},
		{schema.Observation, "/$defs/view_scan/properties/limit/const", limits.ViewScanNodes},
		{schema.Observation, "/$defs/view_scan/properties/visited/maximum", limits.ViewScanNodes},
		{schema.Observation, "/$defs/count/maximum", limits.ViewScanNodes},
		{schema.Observation, "/$defs/controls/maxItems", limits.MaxControls},
		{schema.Observation, "/$defs/regions/maxItems", limits.MaxRegions},
		{schema.Observation, "/$defs/control/properties/options/maxItems", limits.MaxOptions},
		{schema.Observation, "/$defs/control/properties/options_omitted/maximum", limits.RowScanNodes},
		{schema.Observation, "/$defs/control/properties/in/properties/position/maximum", limits.RowScanNodes},
		{schema.Observation, "/$defs/name/maxLength", limits.CellUnits},
		{schema.Observation, "/$defs/text/maxLength", limits.ProseUnits},
		{schema.Observation, "/$defs/region/properties/level/maximum", limits.MaxSafeInteger},
		{schema.Observation, "/$defs/action_ref/pattern", "^a(0|[1-9][0-9]{0,19})\\.[1-9][0-9]{0," + strconv.Itoa(len(strconv.Itoa(limits.MaxRecordNumber))-1) + "}$"},
		{schema.Observation, "/$defs/region_ref/pattern", "^g(0|[1-9][0-9]{0,19})\\.[1-9][0-9]{0," + strconv.Itoa(len(strconv.Itoa(limits.MaxRecordNumber))-1) + "}$"},
		{schema.Projection, "/properties/omitted/properties/regions/maximum", limits.MaxRegions},
		{schema.Projection, "/properties/omitted/properties/controls/maximum", limits.MaxControls},
	} {
		got := pointer(t, docs[c.file], c.ptr)
		if n, ok := c.want.(int); ok {
			if f, isNum := got.(float64); !isNum || f != float64(n) {
				t.Errorf("%s %s is %v, want %d", c.file, c.ptr, got, n)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s %s is %v, want %v", c.file, c.ptr, got, c.want)
		}
	}
}

// TestViewModesValidate: a projection giving its page view as changes, or
// giving none, validates; one that gives both controls and changes, or
// changes without what they are told against, or a number no reference
// has, is refused.
func TestViewModesValidate(t *testing.T) {
	s := schemas(t)
	observe := func(page, rev string) *domsnap.Observation {
		tree, _, err := snapshot.ParseHTML([]byte(page), snapshot.HTMLOptions{})
		if err != nil {
			t.Fatal(err)
		}
		o, err := domsnap.Observe(tree, rev, nil)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	links := strings.Repeat(`<a href=/>A link that stays</a>`, 20)
	prev := observe(`<h2>T</h2>`+links+`<button>Go</button><button>Stop</button>`, "r1.ab12.n1.o1")
	cur := observe(`<h2>T</h2>`+links+`<button>Gone</button><p>more text</p>`, "r1.ab12.n1.o2")
	c, err := cur.ChangesSince(prev)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := domsnap.ProjectView(cur, limits.ModelBytes, domsnap.ViewChanges, c)
	if err != nil || changes.View != domsnap.ViewChanges {
		t.Fatalf("%v %s", err, changes.Canonical())
	}
	none, err := domsnap.ProjectView(cur, limits.ModelBytes, domsnap.ViewNone, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range [][]byte{changes.Canonical(), none.Canonical()} {
		if err := s[schema.Projection].Validate(instance(t, doc)); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
	}
	full, _ := domsnap.Project(cur, limits.ModelBytes)
	for _, c := range []struct {
		name   string
		doc    []byte
		change func(m map[string]any)
	}{
		{"controls beside changes", changes.Canonical(), func(m map[string]any) { m["controls"] = []any{} }},
		{"changes without since", changes.Canonical(), func(m map[string]any) { delete(obj(m["changes"]), "since") }},
		{"a removed number 0", changes.Canonical(), func(m map[string]any) { obj(m["changes"])["controls_removed"] = []any{0} }},
		{"a removed number past 2^31", changes.Canonical(), func(m map[string]any) { obj(m["changes"])["controls_removed"] = []any{1 << 31} }},
		{"changes without text_truncated", changes.Canonical(), func(m map[string]any) { delete(m, "text_truncated") }},
		{"no view with a count", none.Canonical(), func(m map[string]any) { m["controls_omitted"] = 0 }},
		{"no view with text_truncated", none.Canonical(), func(m map[string]any) { m["text_truncated"] = false }},
		{"controls without regions", full.Canonical(), func(m map[string]any) { delete(m, "regions") }},
	} {
		if valid(s[schema.Projection], mutate(t, c.doc, c.change)) {
			t.Errorf("%s accepted", c.name)
		}
	}
}
