package mcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/domsnap/domsnap/limits"
)

// maxToolListBytes bounds what a client loads to register the server: each
// tool's name, description and input schema as tools/list sends them, for
// every tool the server offers (12 KiB, docs/agents.md#sizes).
const maxToolListBytes = 12288

// TestToolListLean: the tools' names, descriptions and input schemas fit in
// maxToolListBytes together.
func TestToolListLean(t *testing.T) {
	cs := connect(t, offlineServer(t, t.TempDir()))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 6 {
		t.Fatalf("%d tools, want 6", len(res.Tools))
	}
	total := 0
	for _, tool := range res.Tools {
		in, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		n := len(tool.Name) + len(tool.Description) + len(in)
		t.Logf("%s: %d bytes (input schema %d)", tool.Name, n, len(in))
		total += n
	}
	t.Logf("total %d bytes", total)
	if total > maxToolListBytes {
		t.Fatalf("the tool definitions take %d bytes, more than %d", total, maxToolListBytes)
	}
}

// TestReadOnlyServesNoAct: a read-only server lists no browser_act and
// refuses a call to it as an unknown tool.
func TestReadOnlyServesNoAct(t *testing.T) {
	srv, err := New(Config{StateDir: filepath.Join(t.TempDir(), "state"), ReadOnly: true, Chrome: "/nonexistent/chromium"})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, srv)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == "browser_act" {
			t.Fatal("a read-only server lists browser_act")
		}
	}
	if len(res.Tools) != 4 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	_, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browser_act", Arguments: map[string]any{"expected_revision": "r1.0123456789abcdef.n1.o1", "action": "back"}})
	if err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("calling browser_act on a read-only server: %v", err)
	}
	// The same server without ReadOnly offers it.
	srv2, err := New(Config{StateDir: filepath.Join(t.TempDir(), "state"), Chrome: "/nonexistent/chromium"})
	if err != nil {
		t.Fatal(err)
	}
	res, err = connect(t, srv2).ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 5 || !slices.ContainsFunc(res.Tools, func(x *sdk.Tool) bool { return x.Name == "browser_act" }) {
		t.Fatalf("without ReadOnly: %v, %d tools", err, len(res.Tools))
	}
}

// TestActArgumentsRefused: arguments the action does not take, or that
// break a bound, are invalid_request before any page is looked at (no
// browser exists here), and the message never holds the typed text.
func TestActArgumentsRefused(t *testing.T) {
	cs := connect(t, offlineServer(t, ""))
	rev := "r1.0123456789abcdef.n1.o1"
	canary := "canary-7f3e9b"
	for _, args := range []map[string]any{
		{"action": "click", "ref": "a1.1"},                                                                                     // no revision
		{"expected_revision": rev, "action": "click"},                                                                          // click needs ref
		{"expected_revision": rev, "action": "type", "ref": "a1.1"},                                                            // type needs text
		{"expected_revision": rev, "action": "back", "ref": "a1.1"},                                                            // back takes none
		{"expected_revision": rev, "action": "click", "ref": "a1.1", "text": canary},                                           // only type takes text
		{"expected_revision": rev, "action": "select", "ref": "a1.1"},                                                          // select needs option
		{"expected_revision": rev, "action": "click", "ref": "a1.1", "option": "x"},                                            // only select
		{"expected_revision": rev, "action": "press"},                                                                          // press needs key
		{"expected_revision": rev, "action": "press", "key": "F5"},                                                             // not in the list
		{"expected_revision": rev, "action": "scroll", "key": "Enter"},                                                         // only press
		{"expected_revision": rev, "action": "drag", "ref": "a1.1"},                                                            // no such action
		{"expected_revision": rev, "action": "type", "ref": "a1.1", "text": canary + strings.Repeat("x", limits.MaxTypeUnits)}, // too long
		// 4096 code points but 4097 UTF-16 units: only the server can count them.
		{"expected_revision": rev, "action": "type", "ref": "a1.1", "text": "😀" + strings.Repeat("x", limits.MaxTypeUnits-1)},
		{"expected_revision": rev, "action": "click", "ref": "a1.1", "selector": "#x"},
	} {
		msg := wantError(t, call(t, cs, "browser_act", args), "invalid_request")
		if strings.Contains(msg, canary) || strings.Contains(msg, "😀") {
			t.Errorf("%v: the message holds the text: %s", args["action"], msg)
		}
	}
	// Well-formed arguments reach the revision check: no page is open.
	for _, args := range []map[string]any{
		{"expected_revision": rev, "action": "type", "ref": "a1.1", "text": strings.Repeat("x", limits.MaxTypeUnits)},
		{"expected_revision": rev, "action": "type", "ref": "a1.1", "text": ""},
		{"expected_revision": rev, "action": "press", "key": "Enter"},
		{"expected_revision": rev, "action": "scroll"},
		{"expected_revision": rev, "action": "back"},
	} {
		wantError(t, call(t, cs, "browser_act", args), "foreign_revision")
	}
}
