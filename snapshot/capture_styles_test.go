package snapshot

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/domsnap/domsnap/errcode"
)

// restyled returns the capture in ../testdata/captures/NAME.json with every
// layout object's styles rewritten by f, which gets the styles and the
// capture's string table (it may append to it) and returns the new styles.
// The document's own layout object, which has no styles, is left alone.
func restyled(t *testing.T, name string, f func(styles []any, strs *[]any) []any) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/captures/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	strs := m["strings"].([]any)
	layout := at(m, "/documents/0/layout").(map[string]any)
	all := layout["styles"].([]any)
	for i, st := range all {
		if s := st.([]any); len(s) > 0 {
			all[i] = f(s, &strs)
		}
	}
	m["strings"] = strs
	return marshal(t, m)
}

// addString appends s to the string table and returns its index.
func addString(strs *[]any, s string) float64 {
	*strs = append(*strs, s)
	return float64(len(*strs) - 1)
}

func wantStyleRefusal(t *testing.T, data []byte, opts CaptureOptions, wantMsg string) *errcode.Error {
	t.Helper()
	_, err := DecodeCapture(data, opts)
	e, ok := err.(*errcode.Error)
	if !ok || e.Code != errcode.MalformedSnapshot || !strings.HasPrefix(e.Path, "/documents/0/layout/styles/") || !strings.Contains(e.Msg, wantMsg) {
		t.Fatalf("got %v, want malformed_snapshot at a layout object's styles saying %q", err, wantMsg)
	}
	if !strings.Contains(e.Msg, `computedStyles ["display","visibility"]`) || !strings.Contains(e.Msg, "--computed-styles") {
		t.Errorf("the message does not say which styles were expected: %q", e.Msg)
	}
	// Load, which the command line uses, refuses it the same way.
	if _, err := Load(data, LoadOptions{ComputedStyles: opts.ComputedStyles}); errcode.CodeOf(err) != errcode.MalformedSnapshot {
		t.Errorf("Load: %v", err)
	}
	return e
}

// TestCaptureStylesSwapped: a capture taken with visibility before display
// is refused in the default order, and read exactly like the original when
// its order is named.
func TestCaptureStylesSwapped(t *testing.T) {
	for _, name := range []string{"aria-table", "cells-hidden-content", "table-basic"} {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile("../testdata/captures/" + name + ".json")
			if err != nil {
				t.Fatal(err)
			}
			swapped := restyled(t, name, func(s []any, _ *[]any) []any { return []any{s[1], s[0]} })
			wantStyleRefusal(t, swapped, CaptureOptions{}, "not a CSS display value")
			want := dumpTree(mustDecode(t, orig))
			in, err := Load(swapped, LoadOptions{ComputedStyles: []string{"visibility", "display"}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, dumpTree(in.Tree)); diff != "" {
				t.Errorf("named order: tree differs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCaptureStylesEmpty: a capture taken without computed styles has empty
// style lists and is refused; so is one with a single style.
func TestCaptureStylesEmpty(t *testing.T) {
	empty := restyled(t, "aria-table", func([]any, *[]any) []any { return []any{} })
	wantStyleRefusal(t, empty, CaptureOptions{}, "has 0 computed styles")
	one := restyled(t, "aria-table", func(s []any, _ *[]any) []any { return s[:1] })
	wantStyleRefusal(t, one, CaptureOptions{}, "has 1 computed styles")
}

// TestCaptureStylesOthers: a capture with a third style first is refused in
// the default order and read when the order is named; a visibility column
// holding display values is refused too.
func TestCaptureStylesOthers(t *testing.T) {
	orig, err := os.ReadFile("../testdata/captures/aria-table.json")
	if err != nil {
		t.Fatal(err)
	}
	var colour float64 = -1
	three := restyled(t, "aria-table", func(s []any, strs *[]any) []any {
		if colour < 0 {
			colour = addString(strs, "rgb(0, 0, 0)")
		}
		return []any{colour, s[0], s[1]}
	})
	wantStyleRefusal(t, three, CaptureOptions{}, "not a CSS display value")
	tree, err := DecodeCapture(three, CaptureOptions{ComputedStyles: []string{"color", "display", "visibility"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(dumpTree(mustDecode(t, orig)), dumpTree(tree)); diff != "" {
		t.Errorf("named order: tree differs (-want +got):\n%s", diff)
	}

	twice := restyled(t, "aria-table", func(s []any, _ *[]any) []any { return []any{s[0], s[0]} })
	wantStyleRefusal(t, twice, CaptureOptions{}, "not a CSS visibility value")
}

// TestCaptureStylesOneBadValue: the check covers every layout object, the
// last one too, and the message never quotes the value, which with wrong
// columns may be any string of the capture, a typed value among them.
func TestCaptureStylesOneBadValue(t *testing.T) {
	const canary = "CANARY-typed-3f9e"
	data, err := os.ReadFile("../testdata/captures/aria-table.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	strs := m["strings"].([]any)
	idx := addString(&strs, canary)
	m["strings"] = strs
	all := at(m, "/documents/0/layout/styles").([]any)
	last := all[len(all)-1].([]any)
	last[0] = idx
	e := wantStyleRefusal(t, marshal(t, m), CaptureOptions{}, "not a CSS display value")
	if want := "/documents/0/layout/styles/" + strconv.Itoa(len(all)-1) + "/0"; e.Path != want {
		t.Errorf("path %s, want %s", e.Path, want)
	}
	if strings.Contains(e.Error(), canary) {
		t.Errorf("the message quotes the value: %v", e)
	}
	// A string index of -1 names no value at all.
	last[0] = -1.0
	wantStyleRefusal(t, marshal(t, m), CaptureOptions{}, "not a CSS display value")
}

// BenchmarkCheckStyles measures the style check alone against building the
// whole tree from the same decoded capture (which includes the check), and
// reports the check's share of the build as the metric check_share.
