//go:build browser

package live

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mafredri/cdp/protocol/input"

	domsnap "github.com/domsnap/domsnap"
	"github.com/domsnap/domsnap/internal/aria"
	"github.com/domsnap/domsnap/internal/typed"
	"github.com/domsnap/domsnap/limits"
)

// typedCanary is typed into the page by the test, the way a person would
// fill a field: it lives only in the control's value, never in an attribute.
const typedCanary = "CANARY-TYPED-9d41"

// TestLiveSecretCanaries runs every live output path (results with every
// form column, the observation, its model projection, and the error of a
// refused request) over pages whose controls carry pre-filled canaries and
// one typed by a person, and requires that no canary appears anywhere.
func TestLiveSecretCanaries(t *testing.T) {
	b := launch(t)
	ctx := context.Background()
	var fields []domsnap.Field
	for c := 0; c <= limits.MaxFormColumn; c++ {
		fields = append(fields, domsnap.Field{Name: "c" + string(rune('0'+c)), Column: c, Type: typed.String})
	}
	for _, name := range []string{"live-filled-form", "cells-editable", "form-labels-labelledby"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "html", name+".html"))
			if err != nil {
				t.Fatal(err)
			}
			srv := serve(t, data)
			s, p := openSession(t, b, srv.URL())
			var sent []byte
			s.onCapture = func(raw []byte) { sent = append(sent[:0], raw...) }
			// Type into the first text field, as a person would.
			if _, err := p.Evaluate(ctx, `(() => { const e = document.querySelector("input:not([type]), input[type=text], textarea"); if (e) { e.focus(); e.select && e.select(); } return !!e })()`); err != nil {
				t.Fatal(err)
			}
			if err := p.Client().Input.InsertText(ctx, input.NewInsertTextArgs(typedCanary)); err != nil {
				t.Fatal(err)
			}
			typedNow, _ := p.Evaluate(ctx, `(() => { const e = document.activeElement; return e && e.value })()`)
			if !strings.Contains(string(typedNow), typedCanary) {
				t.Fatalf("typing did not reach a control: %s", typedNow)
			}
			snap, err := s.Capture(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// The canary really is in what the browser sent: its absence
			// below is the analysis's doing, not the capture's.
			if !strings.Contains(string(sent), typedCanary) {
				t.Fatal("the typed value is not in the capture; the test would prove nothing")
			}
			rev := snap.Revision
			var outputs []string
			for _, kind := range []aria.Kind{aria.Form, aria.Table, aria.List} {
				for index := 0; index < 3; index++ {
					req := domsnap.Request{ExpectedRevision: rev, Kind: kind, Index: index, Fields: fields[:1], RowLimit: limits.MaxRowLimit}
					if kind == aria.Form {
						req.Fields = fields
					}
					res, err := s.Extract(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					rev = res.Revision
					outputs = append(outputs, string(res.Canonical()))
				}
			}
			req := domsnap.Request{ExpectedRevision: rev, Kind: aria.Form, Index: 0, Fields: fields, RowLimit: limits.MaxRowLimit}
			obs, err := s.Observe(ctx, &req)
			if err != nil {
				t.Fatal(err)
			}
			outputs = append(outputs, string(obs.Canonical()))
			proj, err := domsnap.Project(obs, limits.MinModelBytes)
			if err != nil {
				t.Fatal(err)
			}
			outputs = append(outputs, string(proj.Canonical()))
			// A refused request's error.
			_, err = s.Extract(ctx, req)
			if err == nil {
				t.Fatal("a stale revision was accepted")
			}
			outputs = append(outputs, err.Error())
			for i, out := range outputs {
				out = withoutOptions(out)
				if strings.Contains(out, "CANARY") {
					at := strings.Index(out, "CANARY")
					t.Errorf("output %d holds a canary: ...%s...", i, out[max(0, at-60):min(len(out), at+40)])
				}
			}
		})
	}
}

// withoutOptions is an observation or projection with every control's
// options list removed; any other output is returned as it is. A select's
// options are what the page offers and the page view lists them all, never
// saying which one is chosen (docs/reference.md#the-page-view); the
// fixtures plant canaries in option texts to prove that nothing else reads
// them.
func withoutOptions(out string) string {
	var v map[string]any
	if json.Unmarshal([]byte(out), &v) != nil {
		return out
	}
	controls, _ := v["controls"].([]any)
	for _, c := range controls {
		delete(c.(map[string]any), "options")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return out
	}
	return string(b)
}
