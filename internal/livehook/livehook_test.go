package livehook

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/mafredri/cdp"
)

// panics reports whether f panics.
func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}

// TestInstall: the functions reach the installed hooks with the caller's
// arguments; nothing reaches them before Install, and Install takes one
// complete set once.
func TestInstall(t *testing.T) {
	t.Cleanup(func() { hooks = Hooks{} })
	if !panics(func() { Client("page") }) {
		t.Fatal("Client answered before Install")
	}
	var client cdp.Client
	var got []any
	h := Hooks{
		Capture: func(ctx context.Context, page any, styles []string) (json.RawMessage, error) {
			got = append(got, page, slices.Clone(styles))
			return json.RawMessage(`{"documents":[]}`), nil
		},
		Client: func(page any) *cdp.Client { got = append(got, page); return &client },
		Evaluate: func(ctx context.Context, page any, expr string) (json.RawMessage, error) {
			got = append(got, page, expr)
			return json.RawMessage(`1`), nil
		},
	}
	if !panics(func() { Install(Hooks{Capture: h.Capture, Client: h.Client}) }) {
		t.Fatal("Install took a set without Evaluate")
	}
	Install(h)
	if raw, err := Capture(context.Background(), "p1", []string{"display"}); err != nil || string(raw) != `{"documents":[]}` {
		t.Errorf("Capture = %s, %v", raw, err)
	}
	if c := Client("p2"); c != &client {
		t.Errorf("Client = %p, want %p", c, &client)
	}
	if raw, err := Evaluate(context.Background(), "p3", "1+0"); err != nil || string(raw) != "1" {
		t.Errorf("Evaluate = %s, %v", raw, err)
	}
	want := []any{"p1", []string{"display"}, "p2", "p3", "1+0"}
	if len(got) != len(want) || got[0] != want[0] || !slices.Equal(got[1].([]string), want[1].([]string)) || got[2] != want[2] || got[3] != want[3] || got[4] != want[4] {
		t.Errorf("hooks saw %v, want %v", got, want)
	}
	if !panics(func() { Install(h) }) {
		t.Error("Install took a second set")
	}
}
