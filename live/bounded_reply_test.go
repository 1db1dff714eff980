package live

import (
	"encoding/json"
	"testing"
)

// TestWalkerReply: the walker's reply is read only in its one shape, a
// string of {"capture": ..., "plan": [...], "candidates": [...]} with no
// exception; the capture is handed on as written and every other shape
// fails.
func TestWalkerReply(t *testing.T) {
	wrap := func(inner string) string {
		q, _ := json.Marshal(inner)
		return `{"result":{"type":"string","value":` + string(q) + `}}`
	}
	capture := `{"documents": [], "strings":["a\"b"], "horizon":{"cut":false,"labelsBeyond":false}}`
	raw, plan, cands, whole, _, ok := walkerReply([]byte(wrap(`{"capture":` + capture + `,"plan":[0, -1, 12, 9, 1, 3, 4, 0, 1],"candidates":[3, 0, 17, 9, 2, 0]}`)))
	if !ok || whole || string(raw) != capture || len(cands) != 2 || cands[0] != (candidate{3, 0, 17}) || cands[1] != (candidate{9, 2, 0}) ||
		len(plan) != 3 || plan[0] != (planEntry{0, -1, 12}) || plan[1] != (planEntry{9, 1, 3}) || plan[2] != (planEntry{4, 0, 1}) {
		t.Fatalf("a good reply: %s %v %v %v", raw, plan, cands, ok)
	}
	if raw, _, cands, _, _, ok := walkerReply([]byte(wrap(`{"candidates":[],"plan":[],"capture":{}}`))); !ok || string(raw) != `{}` || len(cands) != 0 {
		t.Fatalf("members in another order: %s %v %v", raw, cands, ok)
	}
	// A page the walker leaves to the whole snapshot (content-visibility).
	if raw, _, _, whole, _, ok := walkerReply([]byte(wrap(`{"whole":true}`))); !ok || !whole || raw != nil {
		t.Fatalf("a whole-page reply: %s %v %v", raw, whole, ok)
	}
	for _, bad := range []string{
		`{"result":{"type":"string","value":"{}"},"exceptionDetails":{"text":"x"}}`,
		`{"result":{"type":"object","value":{"capture":{}}}}`,
		`{"result":{"type":"string"}}`,
		`{"result":{"type":"string","value":7}}`,
		`{}`,
		`[]`,
		`{"result":{"type":"string","value":"{}"}} x`,
		wrap(`{"candidates":[]}`),
		wrap(`{"capture":{},"candidates":[-1, 0, 0]}`),
		wrap(`{"capture":{},"plan":[1, 0, 1],"candidates":[1, -1, 0]}`),
		wrap(`{"capture":{},"plan":[1, 0, 1],"candidates":[1, 1, 0]}`),
		wrap(`{"capture":{},"candidates":[1, 0, 0]}`),
		wrap(`{"capture":{},"plan":[1, -2, 1]}`),
		wrap(`{"capture":{},"plan":[1, 2, 1]}`),
		wrap(`{"capture":{},"plan":[-1, 0, 1]}`),
		wrap(`{"capture":{},"plan":[1, 0, -1]}`),
		wrap(`{"capture":{},"plan":[1, 0]}`),
		wrap(`{"capture":{},"candidates":[1, 0]}`),
		wrap(`{"capture":{},"candidates":[1]}`),
		wrap(`{"capture":{},"candidates":["1"]}`),
		wrap(`{"capture":{},"candidates":[1.5]}`),
		wrap(`{"capture":{},"candidates":{}}`),
		wrap(`{"capture":{}`),
		wrap(`{"capture":{}} {}`),
		wrap(`not json`),
		wrap(`{"whole":false}`),
		wrap(`{"whole":"true"}`),
		wrap(`{"whole":true`),
	} {
		if raw, _, _, _, _, ok := walkerReply([]byte(bad)); ok {
			t.Errorf("%s: read as %s", bad, raw)
		}
	}
}
