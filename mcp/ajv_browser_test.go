//go:build browser

package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ajvVersion is the Ajv release the second validator installs.
const ajvVersion = "ajv@8.20.0"

// TestToolSchemasWithAjv checks the schemas a running server publishes in
// tools/list with Ajv under Node: each compiles on its own, the server's
// real answers of every tool validate against their output schemas,
// arguments get the verdicts the server gives them, and an error body
// would fail the output schema (which is why error results carry no
// structured content). Node and npm are required: the test fails without
// them.
func TestToolSchemasWithAjv(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is required for the second schema validator: ", err)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("npm is required for the second schema validator: ", err)
	}
	mods := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--prefix", mods, "--no-audit", "--no-fund", "--silent", ajvVersion)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v: %s", ajvVersion, err, out)
	}

	web := site(t)
	root := t.TempDir()
	page, _ := os.ReadFile(filepath.Join("..", "testdata", "html", "table-basic.html"))
	os.WriteFile(filepath.Join(root, "page.html"), page, 0o600)
	s := start(t, filepath.Join(t.TempDir(), "state"), "--root", root)
	list, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 6 {
		t.Fatalf("%d tools", len(list.Tools))
	}

	type tcase struct {
		Tool     string          `json:"tool"`
		Schema   string          `json:"schema"`
		Instance json.RawMessage `json:"instance"`
		Valid    bool            `json:"valid"`
	}
	var cases []tcase
	answer := func(tool string, args map[string]any) []byte {
		b := ok(t, s.call(t, tool, args))
		cases = append(cases, tcase{tool, "outputSchema", b, true})
		return b
	}
	nav := parse(t, answer("browser_navigate", map[string]any{"url": web.URL + "/table"}))
	ex := parse(t, answer("browser_observe", map[string]any{"extract": extractReq(nav.Revision, 3), "model_bytes": 1200}))
	answer("browser_observe", map[string]any{})
	answer("browser_artifact", map[string]any{"artifact": ex.Artifact})
	answer("snapshot_observe", map[string]any{"path": "page.html"})
	cur := parse(t, answer("browser_observe", map[string]any{}))
	answer("browser_act", map[string]any{"expected_revision": cur.Revision, "action": "scroll"})
	// The page view as changes, and none at all.
	ch := parse(t, answer("browser_observe", map[string]any{"view": "changes"}))
	none := parse(t, answer("browser_act", map[string]any{"expected_revision": ch.Revision, "action": "scroll", "view": "none"}))
	answer("browser_act", map[string]any{"expected_revision": none.Revision, "action": "scroll", "view": "changes"})
	answer("snapshot_observe", map[string]any{"path": "page.html", "extract": map[string]any{"kind": "table", "index": 0, "fields": []any{map[string]any{"name": "a", "column": 0, "type": "string"}}}})
	// Error bodies are not answers.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"browser_navigate", map[string]any{"url": "file:///etc/passwd"}},
		{"browser_observe", map[string]any{"extract": extractReq(nav.Revision, 3)}},
		{"browser_artifact", map[string]any{"artifact": "sha256:" + strings.Repeat("0", 64)}},
		{"snapshot_observe", map[string]any{"path": "../x"}},
		{"browser_act", map[string]any{"expected_revision": nav.Revision, "action": "back"}},
	} {
		res := s.call(t, c.tool, c.args)
		failed(t, res)
		cases = append(cases, tcase{c.tool, "outputSchema", resultText(t, res), false})
	}
	for _, c := range []struct {
		tool, args string
		valid      bool
	}{
		{"browser_navigate", `{"url":"http://127.0.0.1/"}`, true},
		{"browser_navigate", `{"url":"http://127.0.0.1/","wait":{"until":"network_idle","for":{"kind":"list"},"settle_ms":0,"timeout_ms":1}}`, true},
		{"browser_navigate", `{"url":"http://127.0.0.1/","wait":{"timeout_ms":300001}}`, false},
		{"browser_navigate", `{"href":"http://127.0.0.1/"}`, false},
		{"browser_observe", `{}`, true},
		{"browser_observe", `{"view":"changes"}`, true},
		{"browser_observe", `{"view":"diff"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"scroll","view":"none"}`, true},
		{"browser_observe", `{"extract":{"kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]}}`, false},
		{"browser_observe", `{"extract":{"expected_revision":"r1.0123456789abcdef.n1.o1","kind":"table","index":0,"fields":[{"name":"a","column":0,"type":"string"}]},"wait":{}}`, false},
		{"browser_artifact", `{"artifact":"sha256:` + strings.Repeat("f", 64) + `"}`, true},
		{"browser_artifact", `{"artifact":"sha256:../../x"}`, false},
		{"snapshot_observe", `{"path":"a.html","model_bytes":1024}`, true},
		{"snapshot_observe", `{"path":"a.html","model_bytes":1023}`, false},
		{"browser_act", `{"expected_revision":"r","action":"type","ref":"a1.1","text":""}`, true},
		{"browser_act", `{"expected_revision":"r","action":"type","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"press","key":"Enter"}`, true},
		{"browser_act", `{"expected_revision":"r","action":"press","key":"F1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"back","ref":"a1.1"}`, false},
		{"browser_act", `{"expected_revision":"r","action":"click","ref":"a1.1","option":"x"}`, false},
	} {
		cases = append(cases, tcase{c.tool, "inputSchema", json.RawMessage(c.args), c.valid})
	}

	in, err := json.Marshal(map[string]any{"tools": list.Tools, "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "input.json")
	os.WriteFile(file, in, 0o600)
	script, err := filepath.Abs(filepath.Join("testdata", "validate-tools.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	run := exec.CommandContext(ctx, node, script, file)
	run.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(mods, "node_modules"))
	out, err := run.CombinedOutput()
	var rep struct {
		Tools, Checked int
		Failures       []string
	}
	if jerr := json.Unmarshal(out, &rep); jerr != nil {
		t.Fatalf("the validator said %v: %s", err, out)
	}
	if err != nil || len(rep.Failures) > 0 || rep.Tools != len(list.Tools) || rep.Checked != len(cases) {
		t.Fatalf("Ajv: %v; %d tools, %d of %d cases checked; failures:\n%s", err, rep.Tools, rep.Checked, len(cases), strings.Join(rep.Failures, "\n"))
	}
}
