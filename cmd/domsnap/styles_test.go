package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestComputedStylesFlag: a bare capture whose styles were asked for in the
// other order is refused with malformed_snapshot naming the expected
// styles, and --computed-styles visibility,display reads it exactly as the
// original, for extract and inventory.
func TestComputedStylesFlag(t *testing.T) {
	data, err := os.ReadFile("../../testdata/captures/aria-table.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	layout := m["documents"].([]any)[0].(map[string]any)["layout"].(map[string]any)
	for _, st := range layout["styles"].([]any) {
		if s := st.([]any); len(s) == 2 {
			s[0], s[1] = s[1], s[0]
		}
	}
	swappedData, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	orig := writeTemp(t, "orig.json", string(data))
	swapped := writeTemp(t, "swapped.json", string(swappedData))

	req := []string{"--kind", "table", "--field", "order:0:string", "--field", "qty:1:integer"}
	want := runCmd(t, "", append(append([]string{"extract"}, req...), orig)...)
	if want.code != exitOK {
		t.Fatalf("original: exit %d %s", want.code, want.stderr)
	}
	bad := runCmd(t, "", append(append([]string{"extract"}, req...), swapped)...)
	if bad.code != exitFailure || !strings.HasPrefix(bad.stderr, "malformed_snapshot: /documents/0/layout/styles/") ||
		!strings.Contains(bad.stderr, `computedStyles ["display","visibility"]`) || bad.stdout != "" {
		t.Fatalf("swapped: exit %d %q %q", bad.code, bad.stdout, bad.stderr)
	}
	got := runCmd(t, "", append(append([]string{"extract", "--computed-styles", "visibility,display"}, req...), swapped)...)
	// The revision is the file's, so it differs; everything else is equal.
	if got.code != exitOK || stripRevision(got.stdout) != stripRevision(want.stdout) {
		t.Errorf("named order: exit %d\n%s\nwant\n%s", got.code, got.stdout, want.stdout)
	}
	inv := runCmd(t, "", "inventory", "--computed-styles", " Visibility , display", swapped)
	invWant := runCmd(t, "", "inventory", orig)
	if inv.code != exitOK || stripRevision(inv.stdout) != stripRevision(invWant.stdout) {
		t.Errorf("inventory: exit %d %q %q", inv.code, inv.stdout, inv.stderr)
	}

	for _, v := range []string{"display", "visibility", "display,display,visibility", "display,,visibility", ""} {
		r := runCmd(t, "", "extract", "--computed-styles", v, "--kind", "table", "--field", "a:0:string", swapped)
		if r.code != exitUsage || !strings.HasPrefix(r.stderr, "usage: invalid value") {
			t.Errorf("--computed-styles %q: exit %d %q", v, r.code, r.stderr)
		}
	}
}

func stripRevision(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "r1.file."); i >= 0 {
			l = l[:i] + l[i+len("r1.file.")+16:]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
