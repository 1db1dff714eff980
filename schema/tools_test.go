package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var updateTools = flag.Bool("update-tools", false, "rewrite schema/tools/ from the schema files")

// TestToolSchemasCurrent: the published tool schemas under tools/ are
// exactly what Bundle makes of the schema files now. Run with
// -update-tools to rewrite them after changing a schema.
func TestToolSchemasCurrent(t *testing.T) {
	for _, tool := range schema.ToolSchemas() {
		for _, f := range []struct {
			name  string
			build func() ([]byte, error)
		}{{tool.Input, tool.BundleInput}, {tool.Output, tool.BundleOutput}} {
			want, err := f.build()
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			if *updateTools {
				if err := os.WriteFile(filepath.FromSlash(f.name), want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := schema.ToolFiles.ReadFile(f.name)
			if err != nil {
				t.Fatalf("%s: %v (run go test ./schema -update-tools)", f.name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s is out of date: run go test ./schema -update-tools", f.name)
			}
		}
	}
}

// compileAlone compiles one published schema with no other resource
// available: a reference to another file fails to load.
func compileAlone(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, err := schema.ToolFiles.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	url := "urn:domsnap:" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile on its own: %v", name, err)
	}
	return s
}

type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, os.ErrNotExist
}

// TestToolSchemasSelfContained: each published schema compiles alone, has
// an object at its root, and every $ref in it is local.
func TestToolSchemasSelfContained(t *testing.T) {
	for _, tool := range schema.ToolSchemas() {
		for _, name := range []string{tool.Input, tool.Output} {
			compileAlone(t, name)
			data, _ := schema.ToolFiles.ReadFile(name)
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc["type"] != "object" {
				t.Errorf("%s: root type %v, want object", name, doc["type"])
			}
			stack := []any{doc}
			for len(stack) > 0 {
				v := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				switch v := v.(type) {
				case map[string]any:
					if r, ok := v["$ref"].(string); ok && !strings.HasPrefix(r, "#/$defs/") {
						t.Errorf("%s: a reference that is not local: %s", name, r)
					}
					for _, x := range v {
						stack = append(stack, x)
					}
				case []any:
					stack = append(stack, v...)
				}
			}
		}
	}
}

// TestToolInputSchemas checks the published input schemas on arguments a
// client may send, each beside the verdict the server gives them.
func TestToolInputSchemas(t *testing.T) {
	req := `{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`
	reqRev := `{"expected_revision":"r1.0123456789abcdef.n1.o1","kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}`
	for _, c := range []struct {
		tool, args string
		ok         bool
	}{
		{"browser_navigate", `{"url":"https://example.com/"}`, true},
		{"browser_navigate", `{"url":"file:///etc/passwd"}`, true}, // refused by the server, not the schema
		{"browser_navigate", `{"url":""}`, false},
		{"browser_navigate", `{}`, false},
		{"browser_navigate", `{"url":"http://a/","wait":{"until":"network_idle","for":{"kind":"table","index":15},"settle_ms":10000,"timeout_ms":300000}}`, true},
		{"browser_navigate", `{"url":"http://a/","wait":{"settle_ms":10001}}`, false},
		{"browser_navigate", `{"url":"http://a/","wait":{"settle_ms":-1}}`, false},
		{"browser_navigate", `{"url":"http://a/","wait":{"timeout_ms":0}}`, false},
		{"browser_navigate", `{"url":"http://a/","wait":{"timeout_ms":300001}}`, false},
		{"browser_navigate", `{"url":"http://a/","wait":{"for":{"kind":"table","index":16}}}`, false},
		{"browser_navigate", `{"url":"http://a/","wait":{"until":"idle"}}`, false},
		{"browser_navigate", `{"url":"http://a/","selector":"#x"}`, false},
		{"browser_observe", `{}`, true},
		{"browser_observe", `{"extract":` + reqRev + `}`, true},
		{"browser_observe", `{"extract":` + req + `}`, false}, // expected_revision required
		{"browser_observe", `{"extract":` + reqRev + `,"wait":{}}`, false},
		{"browser_observe", `{"wait":{"until":"load"},"model_bytes":1024}`, true},
		{"browser_observe", `{"model_bytes":1023}`, false},
		{"browser_observe", `{"script":"alert(1)"}`, false},
		{"browser_artifact", `{"artifact":"sha256:` + strings.Repeat("0", 64) + `"}`, true},
		{"browser_artifact", `{"artifact":"sha256:` + strings.Repeat("0", 63) + `"}`, false},
		{"browser_artifact", `{"artifact":"../x"}`, false},
		{"snapshot_observe", `{"path":"a.html"}`, true},
		{"snapshot_observe", `{"path":"a.html","extract":` + req + `}`, true},
		{"snapshot_observe", `{"path":""}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"click"}`, false},
		{"browser_act", `{"action":"click","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"type","ref":"a1.1","text":""}`, true},
		{"browser_act", `{"expected_revision":"r","action":"type","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"type","ref":"a1.1","text":"` + strings.Repeat("x", 4097) + `"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","text":"x"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"select","ref":"a1.1","option":"Red"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"select","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"press","key":"Enter"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"press","key":"F5"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"press"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"scroll"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"scroll","key":"End"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"back"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"back","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"hover","ref":"a1.1"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"hover"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"upload","ref":"a1.1","path":"a.csv"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"upload","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"upload","path":"a.csv"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","path":"a.csv"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"drag","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","dialog":"accept","dialog_text":""}`, true},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","dialog_text":"x"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","dialog":"dismiss","dialog_text":"x"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","dialog":"ok"}`, false},
	} {
		var tool schema.Tool
		for _, x := range schema.ToolSchemas() {
			if x.Name == c.tool {
				tool = x
			}
		}
		s := compileAlone(t, tool.Input)
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(c.args))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); (err == nil) != c.ok {
			t.Errorf("%s %s: valid=%v, want %v (%v)", c.tool, c.args, err == nil, c.ok, err)
		}
	}
}

// TestNavigateOutputLoadComplete: browser_navigate's answer may carry
// load_complete, and only as false (the key is absent when the load event
// came), after http_status.
func TestNavigateOutputLoadComplete(t *testing.T) {
	var tool schema.Tool
	for _, x := range schema.ToolSchemas() {
		if x.Name == "browser_navigate" {
			tool = x
		}
	}
	s := compileAlone(t, tool.Output)
	base := `{"schema_version":"` + domsnap.SchemaVersion + `","trust":"` + domsnap.Trust + `","revision":"r1.0123456789abcdef.n1.o1","artifact":"sha256:` + strings.Repeat("0", 64) + `","inventory":[],"view_scan":{"limit":8192,"visited":3,"exhausted":false},"controls":[],"controls_omitted":0,"regions":[],"regions_omitted":0,"omitted":{"text":0,"regions":0,"inventory":0,"controls":0,"rows":0},"http_status":200`
	for _, c := range []struct {
		tail string
		ok   bool
	}{
		{`}`, true},
		{`,"load_complete":false}`, true},
		{`,"load_complete":true}`, false},
		{`,"load_complete":null}`, false},
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(base + c.tail))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); (err == nil) != c.ok {
			t.Errorf("%s: valid=%v, want %v (%v)", c.tail, err == nil, c.ok, err)
		}
	}
}
