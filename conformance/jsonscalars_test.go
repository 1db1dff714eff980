//go:build conformance

package conformance

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/domsnap/domsnap/internal/typed"
)

type scalarVerdict struct {
	Accept *bool           `json:"accept"`
	Value  json.RawMessage `json:"value"`
}

type scalarCase struct {
	Source   string         `json:"source"`
	Input    *string        `json:"input"`
	InputHex string         `json:"input_hex"`
	Note     string         `json:"note"`
	Integer  *scalarVerdict `json:"integer"`
	Number   *scalarVerdict `json:"number"`
	Boolean  *scalarVerdict `json:"boolean"`
}

// TestJSONScalars runs typed.Convert on every literal of
// json-scalars/cases.jsonl for each declared type. The verdict must agree
// (accepted means status ok) and so must the value, compared as JSON: the
// suite's value decoded into the Go type the converter produces for that
// type and encoded again, against the converter's value encoded. The
// literal is taken from input_hex, so the cases that are not UTF-8 run too.
func TestJSONScalars(t *testing.T) {
	path := filepath.Join(suiteDir(t), "json-scalars", "cases.jsonl")
	cases := readJSONL[scalarCase](t, path)
	var total, agree int
	for i, c := range cases {
		raw, err := hex.DecodeString(c.InputHex)
		if err != nil {
			t.Fatalf("case %d (%s): input_hex: %v", i+1, c.Source, err)
		}
		if c.Input != nil && *c.Input != string(raw) {
			t.Fatalf("case %d (%s): input and input_hex differ", i+1, c.Source)
		}
		for _, v := range []struct {
			ty      typed.Type
			verdict *scalarVerdict
		}{{typed.Integer, c.Integer}, {typed.Number, c.Number}, {typed.Boolean, c.Boolean}} {
			if v.verdict == nil || v.verdict.Accept == nil {
				t.Fatalf("case %d (%s): no %s verdict", i+1, c.Source, v.ty)
			}
			total++
			if msg := scalarDisagreement(string(raw), v.ty, v.verdict); msg != "" {
				t.Errorf("case %d (%s) %q as %s: %s", i+1, c.Source, raw, v.ty, msg)
				continue
			}
			agree++
		}
	}
	if total == 0 {
		t.Fatal("no scalar case was run")
	}
	t.Logf("json-scalars: %d of %d verdicts agree (%d literals, 3 types each)", agree, total, len(cases))
}

// scalarDisagreement returns "" when the converter agrees with the suite's
// verdict for one literal and type, else what differs.
func scalarDisagreement(text string, ty typed.Type, v *scalarVerdict) string {
	c := typed.Convert(text, false, ty)
	if got := c.Status == typed.OK; got != *v.Accept {
		return fmt.Sprintf("suite accept=%v, converter status %s", *v.Accept, c.Status)
	}
	if !*v.Accept {
		if len(v.Value) != 0 {
			return "suite rejects the literal yet gives a value"
		}
		return ""
	}
	var want any
	var err error
	switch ty {
	case typed.Integer:
		var n int64
		err, want = json.Unmarshal(v.Value, &n), n
		if _, ok := c.Value.(int64); !ok {
			return fmt.Sprintf("value %#v is not an int64", c.Value)
		}
	case typed.Number:
		var f float64
		err, want = json.Unmarshal(v.Value, &f), f
		if _, ok := c.Value.(float64); !ok {
			return fmt.Sprintf("value %#v is not a float64", c.Value)
		}
	case typed.Boolean:
		var b bool
		err, want = json.Unmarshal(v.Value, &b), b
		if _, ok := c.Value.(bool); !ok {
			return fmt.Sprintf("value %#v is not a bool", c.Value)
		}
	}
	if err != nil {
		return fmt.Sprintf("suite value %s does not decode: %v", v.Value, err)
	}
	wantJSON, err1 := json.Marshal(want)
	gotJSON, err2 := json.Marshal(c.Value)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("encoding: %v %v", err1, err2)
	}
	if !bytes.Equal(wantJSON, gotJSON) {
		return fmt.Sprintf("value %s, suite %s (written %s)", gotJSON, wantJSON, v.Value)
	}
	return ""
}
