package mcp

import (
	"testing"

	"github.com/domsnap/domsnap/internal/argcheck"
)

// TestToolSchemasCompiledOnce: New compiles each registered tool's input
// schema once, and a call, valid or not, compiles nothing; the message of
// a refusal names the place that broke the schema.
func TestToolSchemasCompiledOnce(t *testing.T) {
	before := argcheck.Compilations()
	offline := offlineServer(t, "")
	if got := argcheck.Compilations() - before; got != int64(len(offline.inputs)) || got != 5 {
		t.Fatalf("New compiled %d schemas for %d tools, want 5", got, len(offline.inputs))
	}
	before = argcheck.Compilations()
	srv := offlineServer(t, t.TempDir())
	if got := argcheck.Compilations() - before; got != 6 {
		t.Fatalf("New with a root compiled %d schemas, want 6 (snapshot_observe too)", got)
	}
	cs := connect(t, srv)
	before = argcheck.Compilations()
	for _, c := range []struct {
		args any
		msg  string
	}{
		{map[string]any{"url": "http://127.0.0.1/", "wait": map[string]any{"settle_ms": 10001}}, `the arguments do not match the tool's input schema at "/wait/settle_ms"`},
		{map[string]any{"wait": map[string]any{"settle_ms": 1}}, `the arguments do not match the tool's input schema`},
		{map[string]any{"url": "http://127.0.0.1/", "selector": "#secret-value"}, `the arguments do not match the tool's input schema`},
	} {
		if got := wantError(t, call(t, cs, "browser_navigate", c.args), "invalid_request"); got != c.msg {
			t.Errorf("%v: message %q, want %q", c.args, got, c.msg)
		}
	}
	if got := argcheck.Compilations() - before; got != 0 {
		t.Errorf("calls compiled %d schemas", got)
	}
}
